//! The 36 named checkmate patterns: every example of the library is replayed and proved
//! with the exact mate prover, and its final position checked against the pattern's shape
//! rule.

use chuhe_core::library::patterns::{self, Example, Pattern, has_rule, recognise};
use chuhe_core::solver::{SolveOptions, Solver, Verdict};
use chuhe_core::{Move, Position};
use std::time::Instant;

fn library() -> &'static [Pattern] {
    patterns::library().expect("the built-in pattern library reads")
}

#[test]
fn all_36_patterns_with_names_definitions_and_two_examples() {
    let lib = library();
    let ids: Vec<u8> = lib.iter().map(|p| p.id).collect();
    assert_eq!(ids, (1..=36).collect::<Vec<u8>>());
    for p in lib {
        for text in [
            &p.names.zh_cn,
            &p.names.zh_tw,
            &p.names.en,
            &p.definition.zh,
            &p.definition.zh_tw,
            &p.definition.en,
        ] {
            assert!(
                !text.trim().is_empty(),
                "pattern {} has an empty text",
                p.id
            );
        }
        if let Some(n) = &p.notes {
            for text in [&n.zh, &n.zh_tw, &n.en] {
                assert!(
                    !text.trim().is_empty(),
                    "pattern {} has an empty note",
                    p.id
                );
            }
        }
        assert!(
            p.examples.len() >= 2,
            "pattern {} {} has {} example(s)",
            p.id,
            p.names.zh_cn,
            p.examples.len()
        );
    }
}

/// The attacker's moves of the line keep a forced mate in the moves left, and the
/// defender's replies hold out longest (the mate after them is no shorter than stated).
fn check_line(
    solver: &mut Solver,
    id: u8,
    n: usize,
    ex: &Example,
    start: &Position,
    line: &[Move],
) {
    let k = ex.mate_in as usize;
    assert_eq!(
        line.len(),
        2 * k - 1,
        "pattern {id} example {n}: a mate in {k} has {} plies",
        2 * k - 1
    );
    let mut pos = start.clone();
    for (ply, &m) in line.iter().enumerate() {
        pos = pos.play(m).unwrap();
        if ply % 2 == 1 {
            // The attacker to move, with k − (ply + 1) / 2 moves left.
            let left = (k - ply.div_ceil(2)) as u32;
            solver.solve(&pos, &SolveOptions::mate_in(1)); // resets the solver's options
            assert!(
                solver.mates_within(&pos, left),
                "pattern {id} example {n}: after ply {} the mate in {left} is gone",
                ply + 1
            );
            assert!(
                !solver.mates_within(&pos, left - 1),
                "pattern {id} example {n}: the defence at ply {} is not the longest",
                ply + 1
            );
        }
    }
    assert!(
        !pos.has_legal_move(),
        "pattern {id} example {n}: the line does not end the game"
    );
    if id == 36 {
        assert!(
            !pos.is_check(),
            "pattern 36 example {n} must end in 困毙, not mate"
        );
    } else {
        assert!(
            pos.is_check(),
            "pattern {id} example {n} ends in 困毙, not mate"
        );
    }
    if has_rule(id) {
        let shapes = recognise(&pos, line.last().copied());
        assert!(
            shapes.contains(&id),
            "pattern {id} example {n}: final position {pos} shows {shapes:?}, not {id}"
        );
    }
}

#[test]
fn every_example_is_proved_exactly() {
    let mut solver = Solver::new(22);
    let mut report = Vec::new();
    for p in library() {
        for (i, ex) in p.examples.iter().enumerate() {
            let n = i + 1;
            let (start, line) = patterns::replay(ex)
                .unwrap_or_else(|e| panic!("pattern {} example {n}: {e}", p.id));
            let begun = Instant::now();
            let solution = solver.solve(&start, &SolveOptions::mate_in(ex.mate_in));
            assert_eq!(
                solution.verdict,
                Verdict::Mate(ex.mate_in),
                "pattern {} example {n}: {} is not a mate in exactly {}",
                p.id,
                ex.fen,
                ex.mate_in
            );
            check_line(&mut solver, p.id, n, ex, &start, &line);
            report.push(format!(
                "{:>2} {} #{n}: mate in {}, proved in {:.1} ms",
                p.id,
                p.names.zh_cn,
                ex.mate_in,
                begun.elapsed().as_secs_f64() * 1000.0
            ));
        }
    }
    println!("{}", report.join("\n"));
}

#[test]
fn shape_rules_name_only_what_is_there() {
    // A lone rook's mate on the back rank: not a horse, cannon, pawn or double check shape.
    let start: Position = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
    let m: Move = "a1d1".parse().unwrap();
    let mated = start.play(m).unwrap();
    let shapes = recognise(&mated, Some(m));
    for id in [2, 3, 9, 13, 15, 26, 29, 30, 35, 36] {
        assert!(
            !shapes.contains(&id),
            "a rook mate taken for pattern {id}: {shapes:?}"
        );
    }
    // A position that goes on is no pattern at all.
    assert!(recognise(&Position::startpos(), None).is_empty());
}

#[test]
fn the_export_covers_every_example() {
    let export = patterns::export().unwrap();
    assert_eq!(export.len(), 36);
    for p in &export {
        for ex in &p.examples {
            assert_eq!(ex.line.len(), ex.line_chinese.len());
            let expected = if p.id == 36 { "stalemate" } else { "checkmate" };
            assert_eq!(ex.ends_in, expected, "pattern {}", p.id);
        }
    }
}

#[test]
fn a_broken_library_text_says_where() {
    let err = patterns::parse("[ (id: 1, names: ( ]").unwrap_err();
    assert_eq!(err.line, 1);
    let bad_move = r#"[(id: 1, names: (zh_cn: "a", zh_tw: "a", en: "a"),
        definition: (zh: "a", zh_tw: "a", en: "a"),
        examples: [(fen: "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", line: ["a1b2"], mate_in: 1, source: "")])]"#;
    let err = patterns::parse(bad_move).unwrap_err();
    assert!(err.message.contains("illegal"), "{err}");
}
