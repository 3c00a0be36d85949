//! The built-in puzzle sets (`assets/puzzles/*.ron`) hold what they claim: each puzzle's
//! mate is proved again by the solver, with exactly the length of its goal, and each
//! solution tree walks to a mate by the rules within that length.

use chuhe_core::puzzle::{Goal, PuzzleSet, check_tree, prove};
use chuhe_core::solver::{Solver, Verdict};
use std::path::Path;
use std::time::Instant;

fn built_in() -> Vec<PuzzleSet> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/puzzles");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            PuzzleSet::from_ron(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        })
        .chain([chuhe_core::puzzle::pattern_set().expect("the patterns read")])
        .collect()
}

#[test]
fn every_built_in_puzzle_is_proved_again_with_its_solution() {
    let sets = built_in();
    let total: usize = sets.iter().map(|s| s.puzzles.len()).sum();
    assert!(total >= 100, "{total} built-in puzzles");
    let mut solver = Solver::new(20);
    let mut failures = Vec::new();
    let start = Instant::now();
    for set in &sets {
        let mut ids = std::collections::HashSet::new();
        for puzzle in &set.puzzles {
            assert!(ids.insert(&puzzle.id), "{}: id used twice", puzzle.id);
            assert!(!puzzle.source.is_empty(), "{}: no source", puzzle.id);
            assert!(
                matches!(puzzle.goal, Goal::Mate { .. }),
                "{}: built-in puzzles are mates",
                puzzle.id
            );
            if let Err(e) = prove(&mut solver, &puzzle.position, puzzle.goal) {
                failures.push(format!("{}: {e}", puzzle.id));
                continue;
            }
            if let Err(e) = check_tree(puzzle) {
                failures.push(format!("{}: tree: {e}", puzzle.id));
                continue;
            }
            // The tree's first move is one the solver finds mating in the shortest count.
            let opts = puzzle.goal.solve_options().unwrap();
            let s = solver.solve(&puzzle.position, &opts);
            assert_eq!(s.verdict, Verdict::Mate(opts.max_moves));
            for node in &puzzle.solution {
                if !s.first_moves.contains(&node.mv) {
                    failures.push(format!("{}: {} is not a first move", puzzle.id, node.mv));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    eprintln!("{total} puzzles proved again in {:?}", start.elapsed());
}
