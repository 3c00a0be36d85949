//! The search and the solver use an endgame table once it is available: a shallow search
//! reports the table's exact mate, the solver proves and refutes at once.
//! (Its own test binary: it points the program's tables at a temporary directory.)

use chuhe_core::Color;
use chuhe_core::search::{Engine, Limits, Options, Score, SearchRoot};
use chuhe_core::solver::Solver;
use chuhe_core::tb::{self, Material, TbValue};

#[test]
fn search_and_solver_use_available_tables() {
    let dir = std::env::temp_dir().join(format!("chuhe-tb-search-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(tb::init_global(Some(dir.clone())));
    let m: Material = "KR v KA".parse().unwrap();
    let table = tb::global().get_or_generate(&m, &mut |_| true).unwrap();
    let pos = table.longest_win(Color::Red).unwrap();
    let Some(TbValue::Win(plies)) = table.probe(&pos) else {
        panic!("the longest win is a win");
    };
    assert!(
        plies >= 9,
        "a mate too deep for a two-ply search: {plies} plies"
    );
    let moves = (plies as u32).div_ceil(2);

    let mut engine = Engine::new(Options::default());
    let result = engine.search(&SearchRoot::new(pos.clone()), Limits::depth(2));
    assert_eq!(
        result.report.lines[0].score,
        Score::Mate(moves as i32),
        "{pos}"
    );
    let analysis = tb::global().analyse(&pos).unwrap();
    assert!(
        analysis
            .best_moves()
            .any(|m| Some(m.mv) == result.best_move),
        "{pos}: {:?} is not one of the table's best moves",
        result.best_move
    );

    let mut solver = Solver::new(16);
    assert!(solver.mates_within(&pos, moves), "{pos}");
    assert!(!solver.mates_within(&pos, moves - 1), "{pos}");
    let _ = std::fs::remove_dir_all(&dir);
}
