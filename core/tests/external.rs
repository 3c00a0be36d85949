//! External engines: a real UCI engine (our own `chuhe-engine`, driven as any other
//! program would be) and programs that misbehave — never start, never answer, die in the
//! middle of an analysis, or write noise. None of them may hang or crash the caller.

use chuhe_core::Position;
use chuhe_core::external::{
    EngineConfig, ExternalAnalysis, ExternalError, ExternalEvent, OptionKind, WarningReason,
};
use chuhe_core::search::Score;
use std::time::{Duration, Instant};

fn chuhe_engine() -> EngineConfig {
    EngineConfig::new(env!("CARGO_BIN_EXE_chuhe-engine"))
}

/// A program written in shell that plays at being an engine.
fn script(body: &str) -> EngineConfig {
    let mut config = EngineConfig::new("sh");
    config.args = vec!["-c".into(), body.into()];
    config.timeout = Duration::from_millis(500);
    config
}

/// Polls until `want` accepts an event or `limit` passes; returns what arrived.
fn poll_until(
    engine: &mut ExternalAnalysis,
    limit: Duration,
    mut want: impl FnMut(&ExternalEvent) -> bool,
) -> Vec<ExternalEvent> {
    let start = Instant::now();
    let mut seen = Vec::new();
    while start.elapsed() < limit {
        for event in engine.poll() {
            let stop = want(&event);
            seen.push(event);
            if stop {
                return seen;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    seen
}

#[test]
fn a_uci_engine_is_identified_and_analyses_the_game_with_its_moves() {
    let mut config = chuhe_engine();
    config.options = vec![("Hash".into(), "8".into())];
    let mut engine = ExternalAnalysis::start(config).expect("chuhe-engine speaks UCI");
    assert!(
        engine.info().name.starts_with("Chuhe"),
        "{:?}",
        engine.info()
    );
    let multipv = engine.info().option("multipv").expect("declares MultiPV");
    assert!(matches!(multipv.kind, OptionKind::Spin { max, .. } if max >= 5));
    engine.set_multipv(2).unwrap();

    // After 炮二平五 炮8平5 the engine must answer for Red, from the game's moves.
    let start = Position::startpos();
    let moves = ["h2e2".parse().unwrap(), "h7e7".parse().unwrap()];
    let current = start.play(moves[0]).unwrap().play(moves[1]).unwrap();
    engine.analyse(&start, &moves).unwrap();
    let events = poll_until(
        &mut engine,
        Duration::from_secs(20),
        |e| matches!(e, ExternalEvent::Update(u) if u.report.depth >= 4 && u.report.lines.len() == 2),
    );
    let Some(ExternalEvent::Update(update)) = events.last() else {
        panic!("no update with two lines at depth 4: {events:?}");
    };
    assert!(
        events.iter().all(|e| matches!(e, ExternalEvent::Update(_))),
        "{events:?}"
    );
    assert_eq!(update.report.side_to_move, current.side_to_move());
    for line in &update.report.lines {
        // Every PV move is legal from the analysed position.
        let mut p = current.clone();
        for &m in &line.moves {
            p = p.play(m).expect("a legal PV");
        }
    }
    let last = engine.stop().unwrap().expect("the analysis ran");
    assert!(last.finished);
    assert!(!engine.is_running());
    assert!(last.report.nodes > 0);

    // It can be asked again, for another position.
    engine.analyse(&current, &[]).unwrap();
    let again = poll_until(
        &mut engine,
        Duration::from_secs(20),
        |e| matches!(e, ExternalEvent::Update(u) if !u.report.lines.is_empty()),
    );
    assert!(
        matches!(again.last(), Some(ExternalEvent::Update(u)) if u.analysis_id == last.analysis_id + 1)
    );
}

#[test]
fn a_mate_is_reported_as_a_mate_from_both_points_of_view() {
    let mut engine = ExternalAnalysis::start(chuhe_engine()).unwrap();
    // Black mates at once: a rook to Red's back rank while the other holds rank 1, and
    // the flying-general rule takes e0.
    let position: Position = "4k4/9/9/9/9/9/9/r8/1r7/3K5 b - - 0 1".parse().unwrap();
    engine.analyse(&position, &[]).unwrap();
    let events = poll_until(
        &mut engine,
        Duration::from_secs(20),
        |e| matches!(e, ExternalEvent::Update(u) if u.report.lines.first().is_some_and(|l| matches!(l.score, Score::Mate(_)))),
    );
    let Some(ExternalEvent::Update(update)) = events.last() else {
        panic!("no mate found: {events:?}");
    };
    let Score::Mate(n) = update.report.lines[0].score else {
        panic!("{update:?}")
    };
    assert!(n > 0, "Black mates");
    assert_eq!(
        update.report.lines[0].score_for_red(update.report.side_to_move),
        Score::Mate(-n)
    );
}

#[test]
fn a_missing_program_is_reported() {
    let error = ExternalAnalysis::start(EngineConfig::new("/nonexistent/engine")).err();
    assert!(
        matches!(error, Some(ExternalError::Spawn { .. })),
        "{error:?}"
    );
}

#[test]
fn an_engine_that_never_answers_is_given_up() {
    let started = Instant::now();
    let error = ExternalAnalysis::start(script("sleep 30")).err();
    assert!(
        matches!(error, Some(ExternalError::NoHandshake { .. })),
        "{error:?}"
    );
    // Bounded by the timeout, not by the program.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn a_program_that_is_not_an_engine_is_reported() {
    let error = ExternalAnalysis::start(script("echo hello; exit 0")).err();
    assert!(
        matches!(error, Some(ExternalError::Exited { code: Some(0) })),
        "{error:?}"
    );
}

/// Answers the handshake, then dies with code 3 when asked to search.
const CRASHER: &str = r#"
while read cmd; do
  case "$cmd" in
    uci) echo "id name Crasher"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "info depth 1 score cp 5 pv h2e2"; exit 3 ;;
  esac
done"#;

#[test]
fn an_engine_that_crashes_while_analysing_is_reported() {
    let mut engine = ExternalAnalysis::start(script(CRASHER)).unwrap();
    assert_eq!(engine.info().name, "Crasher");
    engine.analyse(&Position::startpos(), &[]).unwrap();
    let events = poll_until(&mut engine, Duration::from_secs(10), |e| {
        matches!(e, ExternalEvent::Failed(_))
    });
    assert!(
        matches!(
            events.last(),
            Some(ExternalEvent::Failed(ExternalError::Exited {
                code: Some(3)
            }))
        ),
        "{events:?}"
    );
    assert!(!engine.is_running());
    // Asking again fails cleanly instead of writing to a dead pipe.
    assert!(engine.analyse(&Position::startpos(), &[]).is_err());
}

/// Answers the handshake, then writes noise and a PV with a move that is not legal.
const BABBLER: &str = r#"
while read cmd; do
  case "$cmd" in
    uci) echo "id name Babbler"; echo uciok ;;
    isready) echo readyok ;;
    go*) printf '\377\376 zzz\n'; echo "info depth 2 score cp 30 pv h2e2 a0a5"; echo "info depth 3 score cp 12 pv h2e2 h7e7" ;;
    stop) echo "bestmove h2e2" ;;
    quit) exit 0 ;;
  esac
done"#;

#[test]
fn noise_from_an_engine_is_reported_and_the_rest_is_used() {
    let mut engine = ExternalAnalysis::start(script(BABBLER)).unwrap();
    engine.analyse(&Position::startpos(), &[]).unwrap();
    let mut warnings = Vec::new();
    let events = poll_until(&mut engine, Duration::from_secs(10), |e| {
        if let ExternalEvent::Warning(w) = e {
            warnings.push(w.reason.clone());
        }
        matches!(e, ExternalEvent::Update(u) if u.report.depth == 3)
    });
    assert!(warnings.contains(&WarningReason::Unknown), "{events:?}");
    assert!(
        warnings.contains(&WarningReason::BadMove("a0a5".into())),
        "{events:?}"
    );
    let Some(ExternalEvent::Update(update)) = events.last() else {
        panic!("{events:?}")
    };
    assert_eq!(update.report.lines.len(), 1);
    assert_eq!(update.report.lines[0].score, Score::Cp(12));
    assert!(engine.stop().unwrap().unwrap().finished);
}

/// Answers the handshake but ignores `stop`.
const DEAF: &str = r#"
while read cmd; do
  case "$cmd" in
    uci) echo "id name Deaf"; echo uciok ;;
    isready) echo readyok ;;
  esac
done"#;

#[test]
fn an_engine_that_ignores_stop_is_killed_after_the_timeout() {
    let mut engine = ExternalAnalysis::start(script(DEAF)).unwrap();
    engine.analyse(&Position::startpos(), &[]).unwrap();
    let error = engine.stop().err();
    assert!(
        matches!(error, Some(ExternalError::NotResponding { .. })),
        "{error:?}"
    );
    assert!(engine.analyse(&Position::startpos(), &[]).is_err());
}
