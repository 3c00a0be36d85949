//! The analysis service as the app uses it: start, change position, lines, threads, stop,
//! and the stream of updates.

use chuhe_core::analysis::{Analysis, Update};
use chuhe_core::search::{Options, Score, SearchRoot};
use chuhe_core::{Color, Move, Position};
use std::thread::sleep;
use std::time::{Duration, Instant};

fn root(fen: &str) -> SearchRoot {
    SearchRoot::new(fen.parse().unwrap())
}

/// Polls until an update satisfies `done` (or five seconds pass), returning all updates.
fn collect_until(analysis: &Analysis, done: impl Fn(&Update) -> bool) -> Vec<Update> {
    let start = Instant::now();
    let mut all = Vec::new();
    while start.elapsed() < Duration::from_secs(5) {
        let batch = analysis.poll();
        let finished = batch.iter().any(&done);
        all.extend(batch);
        if finished {
            break;
        }
        sleep(Duration::from_millis(5));
    }
    all
}

#[test]
fn start_streams_every_field_at_a_ui_pace() {
    let mut analysis = Analysis::new(Options::default());
    // Black to move: the scores for Red are the negation of Black's.
    let pos = Position::startpos().play("h2e2".parse().unwrap()).unwrap();
    let start = Instant::now();
    analysis.start(SearchRoot::new(pos.clone()));
    // Starting returns at once; the search runs in the background.
    assert!(analysis.is_running());
    sleep(Duration::from_millis(1500));
    let updates = analysis.poll();
    let elapsed = start.elapsed();
    // About ten a second at most (the rate is fixed by the service, not the machine).
    let per_second = updates.len() as f64 / elapsed.as_secs_f64();
    assert!(
        per_second <= 11.0,
        "{} updates in {elapsed:?}",
        updates.len()
    );
    assert!(updates.len() >= 3, "{} updates", updates.len());
    let last = updates.last().unwrap();
    assert!(last.report.depth >= 4 && last.report.seldepth >= last.report.depth);
    assert!(last.report.nodes > 0 && last.report.nps > 0);
    assert!(last.report.hashfull <= 1000);
    assert_eq!(last.report.side_to_move, Color::Black);
    let line = &last.report.lines[0];
    assert_eq!(
        line.score_for_red(last.report.side_to_move),
        line.score.negate()
    );
    assert!(pos.is_legal(line.moves[0]));
    // The line is a legal sequence of moves.
    let mut p = pos.clone();
    for &m in &line.moves {
        p = p.play(m).unwrap();
    }
    // Updates come in order and never go back in nodes.
    assert!(
        updates
            .windows(2)
            .all(|w| w[0].report.nodes <= w[1].report.nodes)
    );
    let last = analysis.stop().unwrap();
    assert!(last.finished);
    assert!(!analysis.is_running());
}

#[test]
fn stop_returns_the_final_result_within_20_ms() {
    let mut analysis = Analysis::new(Options::default());
    // The fastest of a few tries, so a busy machine's scheduler does not decide the test.
    let mut fastest = Duration::MAX;
    for _ in 0..10 {
        analysis.start(SearchRoot::new(Position::startpos()));
        sleep(Duration::from_millis(150));
        let t = Instant::now();
        let last = analysis.stop().unwrap();
        fastest = fastest.min(t.elapsed());
        assert!(last.finished && last.report.depth >= 1);
        assert!(Position::startpos().is_legal(last.report.lines[0].moves[0]));
    }
    assert!(fastest <= Duration::from_millis(20), "{fastest:?}");
    assert!(analysis.stop().is_none());
}

#[test]
fn changing_the_position_restarts_on_the_new_one() {
    let mut analysis = Analysis::new(Options::default());
    analysis.start(SearchRoot::new(Position::startpos()));
    sleep(Duration::from_millis(100));
    let first_id = analysis.analysis_id();
    // A mate in one for Red.
    let mate = "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1";
    analysis.set_position(root(mate));
    assert!(analysis.analysis_id() > first_id);
    let updates = collect_until(&analysis, |u| {
        u.report
            .lines
            .first()
            .is_some_and(|l| l.score == Score::Mate(1))
    });
    // Only the new position's updates are delivered.
    assert!(
        updates
            .iter()
            .all(|u| u.analysis_id == analysis.analysis_id())
    );
    let last = updates.last().expect("updates for the new position");
    assert_eq!(last.report.lines[0].score, Score::Mate(1));
    assert_eq!(
        last.report.lines[0].moves[0],
        "e7e8".parse::<Move>().unwrap()
    );
    analysis.stop();
}

#[test]
fn history_counts_for_repetitions() {
    // Red is a rook up, but both generals stepped out and back twice and Red's is out
    // again: Black steps out too, the position's third occurrence, and the repetition is
    // a draw. Without the history Black is lost.
    let start: Position = "5k3/9/9/9/8r/9/9/9/9/RR1K5 w - - 0 1".parse().unwrap();
    let moves: Vec<Move> = [
        "d0d1", "f9f8", "d1d0", "f8f9", "d0d1", "f9f8", "d1d0", "f8f9", "d0d1",
    ]
    .iter()
    .map(|m| m.parse().unwrap())
    .collect();
    let mut analysis = Analysis::new(Options::default());
    analysis.start(SearchRoot::from_moves(start.clone(), &moves).unwrap());
    let with_history = collect_until(&analysis, |u| u.report.depth >= 6);
    let last = with_history.last().unwrap();
    let line = &last.report.lines[0];
    assert_eq!(line.score, Score::Cp(0));
    assert_eq!(line.score_for_red(last.report.side_to_move), Score::Cp(0));
    let after = SearchRoot::from_moves(start, &moves)
        .unwrap()
        .position()
        .clone();
    analysis.set_position(SearchRoot::new(after));
    let without = collect_until(&analysis, |u| u.report.depth >= 6);
    let last = without.last().unwrap();
    let score_red = last.report.lines[0].score_for_red(last.report.side_to_move);
    assert!(score_red > Score::Cp(300), "{score_red:?}");
    analysis.stop();
}

#[test]
fn lines_and_threads_can_be_changed_while_analysing() {
    let mut analysis = Analysis::new(Options::default());
    analysis.start(SearchRoot::new(Position::startpos()));
    analysis.set_multipv(3);
    assert_eq!(analysis.options().multipv, 3);
    let updates = collect_until(&analysis, |u| {
        u.report.lines.len() == 3 && u.report.depth >= 3
    });
    let last = updates.last().unwrap();
    assert_eq!(last.report.lines.len(), 3);
    let firsts: Vec<Move> = last.report.lines.iter().map(|l| l.moves[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(
        last.report
            .lines
            .windows(2)
            .all(|w| w[0].score >= w[1].score)
    );

    analysis.set_threads(2);
    assert_eq!(analysis.options().threads, 2);
    assert!(analysis.is_running());
    let updates = collect_until(&analysis, |u| u.report.depth >= 5);
    assert!(updates.last().unwrap().report.depth >= 5);
    let last = analysis.stop().unwrap();
    assert_eq!(last.report.lines.len(), 3);

    // Stopped: a change of setting does not start it again.
    analysis.set_multipv(1);
    assert!(!analysis.is_running());
    analysis.resume();
    assert!(analysis.is_running());
    analysis.stop();
}
