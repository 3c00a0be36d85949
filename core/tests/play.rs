//! The engine's playing levels: every level plays legal moves, the stronger levels take a
//! mate in one, and the weak levels vary their moves without throwing material away.

use chuhe_core::Position;
use chuhe_core::play::{self, Level, Rng};
use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};

/// Black to move; every Black move allows 车b9 mate.
const MATE_NEXT: &str = "4k4/R8/9/9/9/9/8p/9/9/1R1K5 b - - 0 1";

fn engine(level: Level) -> Engine {
    Engine::new(play::engine_options(level, &Options::default()))
}

#[test]
fn every_level_plays_a_legal_move_and_the_engine_mates_when_it_can() {
    let start: Position = MATE_NEXT.parse().unwrap();
    let mut rng = Rng::new(11);
    for level in Level::ALL {
        let mut e = engine(level);
        let root = SearchRoot::new(start.clone());
        let (m, _) = play::choose_move(&mut e, &root, level, None, &mut rng).unwrap();
        assert!(start.check_move(m).is_ok(), "level {}: {m}", level.number());
        let after = start.play(m).unwrap();
        let root = SearchRoot::new(after.clone());
        let (reply, score) = play::choose_move(&mut e, &root, level, None, &mut rng).unwrap();
        let mated = after.play(reply).unwrap();
        if level.number() >= 3 {
            assert!(
                mated.legal_moves().is_empty() && mated.is_check(),
                "level {} played {reply} ({score:?}) instead of mating",
                level.number()
            );
        }
    }
}

#[test]
fn a_beginner_varies_its_moves_but_does_not_give_material_away() {
    let start = Position::startpos();
    let mut rng = Rng::new(5);
    let mut e = engine(Level::BEGINNER);
    let mut judge = Engine::new(Options::default());
    let root = SearchRoot::new(start.clone());
    let best = judge.search(&root, Limits::depth(6));
    let best_cp = match best.report.lines[0].score {
        Score::Cp(cp) => cp,
        other => panic!("{other:?}"),
    };
    let mut seen = std::collections::HashSet::new();
    for _ in 0..12 {
        let (m, _) = play::choose_move(&mut e, &root, Level::BEGINNER, None, &mut rng).unwrap();
        seen.insert(m);
    }
    assert!(seen.len() >= 3, "a beginner plays one move only: {seen:?}");
    for m in seen {
        // Judged by a deeper search after the move: never a piece thrown away.
        let after = SearchRoot::new(start.play(m).unwrap());
        let reply = judge.search(&after, Limits::depth(5));
        let cp = match reply.report.lines[0].score {
            Score::Cp(cp) => -cp,
            other => panic!("{other:?}"),
        };
        assert!(best_cp - cp < 250, "{m} loses {} cp", best_cp - cp);
    }
}
