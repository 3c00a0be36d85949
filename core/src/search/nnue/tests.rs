use super::features::View;
use super::*;
use crate::search::{Engine, Limits, Options, SearchRoot};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;

/// The kernels this processor runs: always the scalar one, and AVX2 where it is there.
fn kernels() -> Vec<Kernel> {
    if Kernel::avx2_available() {
        vec![Kernel::Scalar, Kernel::Avx2]
    } else {
        eprintln!("no AVX2 here: only the scalar kernel is tested");
        vec![Kernel::Scalar]
    }
}

/// Positions along seeded random legal games, walking forward and sometimes back.
pub(super) struct RandomWalk {
    rng: Rng,
    pub(super) pos: Position,
    line: Vec<(crate::Move, crate::Undo)>,
}

/// One step of a [`RandomWalk`].
pub(super) enum Step {
    Played(Delta),
    TookBack,
}

impl RandomWalk {
    pub(super) fn new(seed: u64) -> RandomWalk {
        RandomWalk {
            rng: Rng::new(seed),
            pos: Position::startpos(),
            line: Vec::new(),
        }
    }

    pub(super) fn step(&mut self) -> Step {
        let moves = self.pos.legal_moves();
        let take_back = self.rng.below(6) == 0 || moves.is_empty();
        if take_back && let Some((m, undo)) = self.line.pop() {
            self.pos.unplay(m, undo);
            return Step::TookBack;
        }
        // Prefer captures now and then, so the material thins out.
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| self.pos.cells[m.to.index() as usize] != 0)
            .collect();
        let m = if !captures.is_empty() && self.rng.below(3) == 0 {
            captures[self.rng.below(captures.len() as u64) as usize]
        } else {
            moves[self.rng.below(moves.len() as u64) as usize]
        };
        let delta = Delta {
            piece: self.pos.cells[m.from.index() as usize],
            from: m.from.index(),
            to: m.to.index(),
            captured: self.pos.cells[m.to.index() as usize],
        };
        let undo = self.pos.play_unchecked(m);
        self.line.push((m, undo));
        Step::Played(delta)
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_along_random_games() {
    for kernel in kernels() {
        let net = Network::random(1).with_kernel(kernel);
        let mut positions = 0;
        let (mut captures, mut bucket_changes, mut mirror_flips) = (0, 0, 0);
        for game in 0..12 {
            let mut walk = RandomWalk::new(100 + game);
            let mut stack = AccumulatorStack::new(8);
            stack.reset(&net, &walk.pos);
            let mut rng = Rng::new(game);
            for _ in 0..400 {
                let views = PERSPECTIVES.map(|c| View::of(&walk.pos, c));
                match walk.step() {
                    Step::Played(d) => {
                        stack.push(d);
                        captures += (d.captured != 0) as usize;
                    }
                    Step::TookBack => stack.pop(),
                }
                let now = PERSPECTIVES.map(|c| View::of(&walk.pos, c));
                for (before, after) in views.iter().zip(&now) {
                    bucket_changes += (before.bucket() != after.bucket()) as usize;
                    mirror_flips += (before.bucket() == after.bucket()
                        && before.mirrored() != after.mirrored())
                        as usize;
                }
                positions += 1;
                assert!(stack.matches_refresh(&net, &walk.pos), "game {game}");
                // Evaluating stores the accumulators; skipping some nodes leaves longer
                // runs of moves for the next evaluation to replay.
                if rng.below(3) == 0 {
                    assert_eq!(
                        stack.evaluate(&net, &walk.pos),
                        net.evaluate(&walk.pos),
                        "game {game}"
                    );
                }
            }
        }
        assert!(positions >= 4000, "{positions}");
        assert!(captures >= 100, "{captures}");
        assert!(bucket_changes >= 100, "{bucket_changes}");
        assert!(mirror_flips >= 100, "{mirror_flips}");
    }
}

#[test]
fn the_kernels_agree_bit_for_bit() {
    if !Kernel::avx2_available() {
        eprintln!("no AVX2 here: nothing to compare");
        return;
    }
    let mut rng = Rng::new(5);
    let mut row = |lo: i64, hi: i64| -> Row {
        std::array::from_fn(|_| (lo + rng.below((hi - lo + 1) as u64) as i64) as i16)
    };
    for _ in 0..200 {
        // Accumulators anywhere in i16 (beyond the clamp both ways), output weights at
        // their limits, rows that make the additions wrap.
        let (a, b) = (Accumulator(row(-32768, 32767)), Accumulator(row(-300, 600)));
        let weights = [row(-128, 128), row(-128, 128)];
        assert_eq!(
            Kernel::Scalar.output(&a, &b, &weights),
            Kernel::Avx2.output(&a, &b, &weights)
        );
        let (r1, r2, r3) = (row(-32768, 32767), row(-32768, 32767), row(-32768, 32767));
        let (mut x, mut y) = (a, a);
        Kernel::Scalar.update(&mut x, &[&r1, &r2], &[&r3]);
        Kernel::Avx2.update(&mut y, &[&r1, &r2], &[&r3]);
        assert_eq!(x, y);
    }
    // The extreme: every value clamped to QA against the largest weights.
    let full = Accumulator([QA as i16; HIDDEN]);
    let weights = [[OUTPUT_WEIGHT_LIMIT; HIDDEN]; 2];
    let expected = 2 * HIDDEN as i64 * QA * QA * OUTPUT_WEIGHT_LIMIT as i64;
    assert_eq!(Kernel::Avx2.output(&full, &full, &weights), expected);
    assert_eq!(Kernel::Scalar.output(&full, &full, &weights), expected);
}

/// `pos` with the colours swapped and the board turned, the other side to move.
pub(super) fn colour_flipped(pos: &Position) -> Position {
    let mut setup = pos.to_setup();
    setup.board = setup.board.colors_swapped();
    setup.side_to_move = !setup.side_to_move;
    Position::from_setup(&setup).unwrap()
}

pub(super) fn mirrored(pos: &Position) -> Position {
    let mut setup = pos.to_setup();
    setup.board = setup.board.mirrored();
    Position::from_setup(&setup).unwrap()
}

#[test]
fn the_evaluation_is_symmetric_under_colour_flip_and_mirror() {
    let net = Network::random(3);
    let mut walk = RandomWalk::new(9);
    let (mut centre, mut asymmetric) = (0, 0);
    for _ in 0..1500 {
        walk.step();
        let pos = &walk.pos;
        let v = net.evaluate(pos);
        assert_eq!(net.evaluate(&colour_flipped(pos)), v, "{pos}");
        let m = mirrored(pos);
        assert_eq!(net.evaluate(&m), v, "{pos}");
        assert_eq!(evaluate(&net, &m), evaluate(&net, pos), "{pos}");
        centre += (pos.general(pos.side_to_move()).file().index() == 4) as usize;
        asymmetric += (m != *pos) as usize;
    }
    // The general on the centre file, where the board decides the mirror, is common.
    assert!(centre >= 200 && asymmetric >= 1000, "{centre} {asymmetric}");
}

#[test]
fn a_weights_file_round_trips() {
    let net = Network::random(11);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_SIZE);
    assert_eq!(&bytes[..8], &MAGIC);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    let dir = std::env::temp_dir().join(format!("chuhe-nnue-{}", std::process::id()));
    let path = dir.join("random.nnue");
    net.save(&path).unwrap();
    let mut written = Vec::new();
    net.write(&mut written).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), written);
    assert_eq!(Network::load(&path).unwrap(), net);
    let missing = dir.join("missing.nnue");
    assert!(matches!(Network::load(&missing), Err(NnueError::Io { path, .. }) if path == missing));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Rewrites the checksum of `bytes` after a deliberate change.
fn reseal(bytes: &mut [u8]) {
    let end = bytes.len() - 8;
    let sum = file::fnv1a64(&bytes[..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn a_damaged_weights_file_is_refused_with_the_reason() {
    let good = Network::random(12).to_bytes();
    let parts = [
        (0, "header"),
        (5, "header"),
        (8, "header"),
        (19, "header"),
        (20, "first-layer weights"),
        (1_000_000, "first-layer weights"),
        (20 + 2 * features::INPUTS * HIDDEN, "first-layer biases"),
        (FILE_SIZE - 9, "output bias"),
        (FILE_SIZE - 8, "checksum"),
        (FILE_SIZE - 1, "checksum"),
    ];
    for (len, part) in parts {
        assert_eq!(
            Network::from_bytes(&good[..len]),
            Err(NnueError::Truncated {
                part,
                offset: len,
                needed: FILE_SIZE
            }),
            "cut at {len}"
        );
    }
    // A flipped byte anywhere in the weights.
    for at in [20, 12_345, FILE_SIZE - 20, FILE_SIZE - 9] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(
            matches!(
                Network::from_bytes(&bad),
                Err(NnueError::ChecksumMismatch { offset, .. }) if offset == FILE_SIZE - 8
            ),
            "byte {at}"
        );
    }
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(matches!(
        Network::from_bytes(&bad),
        Err(NnueError::BadMagic { .. })
    ));
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad),
        Err(NnueError::UnknownVersion { found: 2 })
    );
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&128u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad),
        Err(NnueError::WrongShape {
            inputs: features::INPUTS as u32,
            hidden: 128
        })
    );
    let mut bad = good.clone();
    bad.push(0);
    assert_eq!(
        Network::from_bytes(&bad),
        Err(NnueError::TrailingBytes {
            offset: FILE_SIZE,
            extra: 1
        })
    );
    // An output weight beyond the limit, with a checksum that fits it.
    let mut bad = good.clone();
    let at = FILE_SIZE - 8 - 4 - 2 * 2 * HIDDEN + 2 * 7;
    bad[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
    reseal(&mut bad);
    assert_eq!(
        Network::from_bytes(&bad),
        Err(NnueError::OutputWeightOutOfRange {
            index: 7,
            offset: at,
            value: 200
        })
    );
    // Every message says where.
    let e = Network::from_bytes(&good[..100]).unwrap_err().to_string();
    assert!(
        e.contains("byte 100") && e.contains("first-layer weights"),
        "{e}"
    );
}

#[test]
fn the_search_keeps_its_accumulators_equal_to_a_refresh_at_every_node() {
    let net = Arc::new(Network::random(21));
    let mut engine = Engine::new(Options {
        use_nnue: true,
        network: Some(net),
        tablebases: false,
        ..Options::default()
    });
    let checked = crate::search::search::accumulator_check::CHECKED.load(Relaxed);
    let mut nodes = 0;
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1C1aka3/9/b3b1n2/p1p1p3p/2P6/3N2n2/P2cP1c1P/N1r6/2C1K4/1RBA1AB2 b - - 11 21",
        "3k1ab2/4aP3/4b4/3C4p/p1p1p4/9/2P5P/9/4A2R1/2BAK1r2 w - - 0 28",
    ] {
        let pos: Position = fen.parse().unwrap();
        let result = engine.search(&SearchRoot::new(pos), Limits::depth(6));
        nodes += result.report.nodes;
    }
    let checked = crate::search::search::accumulator_check::CHECKED.load(Relaxed) - checked;
    assert!(
        nodes > 2000 && checked >= nodes,
        "{checked} checks, {nodes} nodes"
    );
    assert_eq!(
        crate::search::search::accumulator_check::FAILED.load(Relaxed),
        0
    );
}

#[test]
fn known_draws_keep_their_scale_with_the_network() {
    // A lone horse against full advisors and elephants: drawn whatever the network says.
    let pos: Position = "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1".parse().unwrap();
    for seed in 0..20 {
        let net = Network::random(seed);
        let raw = net.evaluate(&pos);
        let scaled = evaluate(&net, &pos);
        assert!(scaled.abs() <= raw.abs() / 32, "{raw} → {scaled}");
    }
    // Where the hand-written evaluation sees no draw the network's value stands.
    let net = Network::random(1);
    let start = Position::startpos();
    assert_eq!(evaluate(&net, &start), net.evaluate(&start));
}

#[test]
fn the_built_in_network_reads_judges_material_and_is_symmetric() {
    let net = embedded();
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), *net);
    assert_eq!(EMBEDDED.len(), FILE_SIZE);
    // A trained network, not noise: the start is close to even and a rook up is winning,
    // for whichever side has it.
    let start = Position::startpos();
    assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
    let rook_up: Position = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        .parse()
        .unwrap();
    assert!(net.evaluate(&rook_up) > 300, "{}", net.evaluate(&rook_up));
    assert!(net.evaluate(&colour_flipped(&rook_up)) > 300);
    let mut walk = RandomWalk::new(5);
    for _ in 0..500 {
        walk.step();
        let pos = &walk.pos;
        let v = net.evaluate(pos);
        assert_eq!(net.evaluate(&colour_flipped(pos)), v, "{pos}");
        assert_eq!(net.evaluate(&mirrored(pos)), v, "{pos}");
    }
}
