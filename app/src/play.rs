//! Playing a game: against the engine at a chosen level, or two people at one board
//! (hot-seat), with an optional clock under an official time control. The game is the
//! record's main line; the engine thinks on a background [`Job`] so the board stays live,
//! and taking a move back or leaving the game cancels it at once.

use crate::actions::Action;
use crate::app::ChuheApp;
use crate::jobs::Job;
use crate::state::Notice;
use chuhe_core::play::{self, Clock, GameEnd, Level, PlayedResult, Rng, TimeControl};
use chuhe_core::record::{GameResult, NodeId, Record};
use chuhe_core::search::{Engine, Options, Score, SearchRoot};
use chuhe_core::{Color, Game, Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Someone at the board.
    Human,
    /// The built-in engine at a level.
    Engine(Level),
}

/// The choice of clock in the new-game dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockChoice {
    /// No clock.
    None,
    /// An official time control.
    Control(play::TimeControlKind),
}

/// What the new-game dialog asks.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaySetup {
    /// Against the engine (`true`) or two people at the board.
    pub against_engine: bool,
    /// The engine's level.
    pub level: Level,
    /// The colour of the person playing the engine.
    pub human: Color,
    /// Start from the position on the board rather than the start position.
    pub from_board: bool,
    /// The clock.
    pub clock: ClockChoice,
    /// The length of a sudden-death game, in minutes.
    pub sudden_minutes: u32,
}

impl Default for PlaySetup {
    fn default() -> PlaySetup {
        PlaySetup {
            against_engine: true,
            level: Level::default(),
            human: Color::Red,
            from_board: false,
            clock: ClockChoice::None,
            sudden_minutes: 15,
        }
    }
}

impl PlaySetup {
    /// The players, by [`Color::index`].
    pub fn players(&self) -> [Player; 2] {
        if !self.against_engine {
            return [Player::Human; 2];
        }
        let mut players = [Player::Engine(self.level); 2];
        players[self.human.index()] = Player::Human;
        players
    }

    /// The time control chosen, if any.
    pub fn time_control(&self) -> Option<TimeControl> {
        match self.clock {
            ClockChoice::None => None,
            ClockChoice::Control(play::TimeControlKind::SuddenDeath(_)) => Some(TimeControl::new(
                play::TimeControlKind::SuddenDeath(self.sudden_minutes.clamp(1, 600)),
            )),
            ClockChoice::Control(kind) => Some(TimeControl::new(kind)),
        }
    }
}

/// What the user does with a game in play.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayAction {
    /// Opens the new-game dialog (against the engine, or hot-seat).
    OpenSetup {
        /// Against the engine.
        against_engine: bool,
    },
    /// Changes what the dialog shows.
    EditSetup(PlaySetup),
    /// Closes the dialog.
    CloseSetup,
    /// Starts the game the dialog describes.
    Start(PlaySetup),
    /// Takes back the last move (and the engine's reply to it).
    TakeBack,
    /// The side to move (a person) offers a draw.
    OfferDraw,
    /// The offer is accepted (hot-seat: by the other person).
    AcceptDraw,
    /// The offer is declined.
    DeclineDraw,
    /// The person to move resigns (against the engine: the person, whoever is to move).
    Resign,
    /// Leaves the game (the record stays, with the moves played).
    Leave,
}

/// An engine's thinking: the engine comes back with its answer, so its hash table and
/// history carry on into the next move.
type Thinking = Job<(Engine, Option<(Move, Score)>)>;

/// A game in play.
pub struct Match {
    /// Who plays Red and Black.
    pub players: [Player; 2],
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// When the side to move started thinking.
    pub turn_started: Instant,
    /// A draw offer waiting for an answer, by the side that made it.
    pub draw_offer: Option<Color>,
    /// How the game ended, once it has.
    pub result: Option<PlayedResult>,
    /// The engine's last evaluation of the game, for itself (decides draw offers).
    pub engine_score: Option<Score>,
    /// The engine's evaluations of its moves so far, for itself, latest last (it offers a
    /// draw when they stay level).
    engine_scores: Vec<Score>,
    /// The record generation the game is played in: another record ends it.
    pub generation: u64,
    /// The record's edit count when the rules were last asked whether the game is over:
    /// the replay that answers runs once per change, not on every frame.
    judged_at: Option<u64>,
    thinking: Option<Thinking>,
    engine: Option<Engine>,
    rng: Rng,
}

impl std::fmt::Debug for Match {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Match")
            .field("players", &self.players)
            .field("clock", &self.clock)
            .field("result", &self.result)
            .finish_non_exhaustive()
    }
}

impl Match {
    /// A game between `players` under `control`, in record generation `generation`.
    pub fn new(players: [Player; 2], control: Option<TimeControl>, generation: u64) -> Match {
        Match {
            players,
            clock: control.map(Clock::new),
            turn_started: Instant::now(),
            draw_offer: None,
            result: None,
            engine_score: None,
            engine_scores: Vec::new(),
            generation,
            judged_at: None,
            thinking: None,
            engine: None,
            rng: Rng::from_time(),
        }
    }

    /// Who plays `side`.
    pub fn player(&self, side: Color) -> Player {
        self.players[side.index()]
    }

    /// Whether the engine plays a side (not hot-seat).
    pub fn against_engine(&self) -> bool {
        self.players.iter().any(|p| matches!(p, Player::Engine(_)))
    }

    /// Whether the engine is thinking now.
    pub fn is_thinking(&self) -> bool {
        self.thinking.as_ref().is_some_and(|j| !j.is_finished())
    }

    /// The time `side` has left now, its current thinking taken off when it is to move.
    pub fn time_left(&self, side: Color, to_move: Color) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let left = clock.remaining(side);
        if side == to_move && self.result.is_none() {
            Some(left.saturating_sub(self.turn_started.elapsed()))
        } else {
            Some(left)
        }
    }

    fn cancel_thinking(&mut self) {
        if let Some(mut job) = self.thinking.take() {
            job.cancel();
        }
    }
}

impl Drop for Match {
    fn drop(&mut self) {
        self.cancel_thinking();
    }
}

/// The game's last node: the end of the main line.
fn last_node(record: &Record) -> NodeId {
    record.main_line().last().copied().unwrap_or(record.root())
}

/// Who is to move at the end of the game: the start's side after an even number of moves.
pub(crate) fn side_to_move(record: &Record) -> Color {
    let start = record.start().side_to_move();
    if record.main_line().len().is_multiple_of(2) {
        start
    } else {
        !start
    }
}

/// How the rules ended the game, if they did: the main line replayed with its
/// repetitions judged.
fn rules_outcome(record: &Record) -> Option<chuhe_core::Outcome> {
    let mut game = Game::new(record.start().clone());
    for m in record.main_line_moves() {
        game.play(m).ok()?;
    }
    game.outcome()
}

/// Plays the game's moves on a search root (for repetitions).
fn search_root(record: &Record) -> Option<SearchRoot> {
    SearchRoot::from_moves(record.start().clone(), &record.main_line_moves()).ok()
}

impl ChuheApp {
    /// Carries out a play action.
    pub(crate) fn apply_play(&mut self, ctx: &egui::Context, action: PlayAction) {
        match action {
            PlayAction::OpenSetup { against_engine } => {
                self.state.play_setup = Some(PlaySetup {
                    against_engine,
                    ..self.state.play_setup.clone().unwrap_or_default()
                });
            }
            PlayAction::EditSetup(setup) => self.state.play_setup = Some(setup),
            PlayAction::CloseSetup => self.state.play_setup = None,
            PlayAction::Start(setup) => self.start_match(ctx, setup),
            PlayAction::TakeBack => self.take_back(),
            PlayAction::OfferDraw => self.offer_draw(),
            PlayAction::AcceptDraw => {
                if let Some(m) = &mut self.state.play
                    && m.draw_offer.is_some()
                    && m.result.is_none()
                {
                    self.finish_match(PlayedResult::agreed());
                }
            }
            PlayAction::DeclineDraw => {
                if let Some(m) = &mut self.state.play {
                    m.draw_offer = None;
                }
            }
            PlayAction::Resign => {
                let Some(m) = &self.state.play else { return };
                if m.result.is_some() {
                    return;
                }
                let to_move = side_to_move(&self.state.record);
                // Against the engine the person resigns, whoever is to move.
                let loser = match m.players {
                    [Player::Human, Player::Engine(_)] => Color::Red,
                    [Player::Engine(_), Player::Human] => Color::Black,
                    _ => to_move,
                };
                self.finish_match(PlayedResult::resigned(loser));
            }
            PlayAction::Leave => self.state.play = None,
        }
    }

    fn start_match(&mut self, ctx: &egui::Context, setup: PlaySetup) {
        let start: Position = if setup.from_board {
            self.state.position().clone()
        } else {
            Position::startpos()
        };
        if start.legal_moves().is_empty() {
            self.state.notice = Some(Notice::Message("play-no-moves"));
            return;
        }
        if self.state.analysing {
            // The engine should not whisper moves to the player.
            self.apply(ctx, Action::ToggleAnalysis);
        }
        let players = setup.players();
        let mut record = Record::new(start);
        let name = |p: Player| match p {
            Player::Human => self.i18n.tr("play-you"),
            Player::Engine(level) => self.i18n.tr_args(
                "play-engine-name",
                &[("level", i64::from(level.number()).into())],
            ),
        };
        record.set_header("Red", &name(players[0]));
        record.set_header("Black", &name(players[1]));
        record.set_header("Event", &self.i18n.tr("play-event"));
        record.set_header("Date", &today());
        let control = setup.time_control();
        if let Some(c) = &control {
            record.set_header("TimeControl", &c.pgn_tag());
        }
        record.set_header("Result", "*");
        self.state.replace_record(record, None);
        self.state.folder = None;
        self.state.play_setup = None;
        // The person playing Black sees the board from Black's side.
        let flip = setup.against_engine && setup.human == Color::Black;
        if self.state.settings.flipped != flip {
            self.apply(ctx, Action::Flip);
        }
        self.state.play = Some(Match::new(players, control, self.state.generation));
        self.state.notice = None;
    }

    /// Whether a person may move on the board now; tells why not when not.
    pub(crate) fn match_allows_move(&mut self) -> bool {
        let Some(m) = &self.state.play else {
            return true;
        };
        if m.result.is_some() {
            self.state.notice = Some(Notice::Message("notice-game-over"));
            return false;
        }
        if self.state.cursor != last_node(&self.state.record) {
            self.state.notice = Some(Notice::Message("play-go-to-end"));
            return false;
        }
        if m.player(side_to_move(&self.state.record)) != Player::Human {
            self.state.notice = Some(Notice::Message("play-not-your-turn"));
            return false;
        }
        true
    }

    /// A move was added at the end of the game: the clock is pressed and a pending draw
    /// offer lapses (a move declines it). Whether the rules ended the game is asked in
    /// [`ChuheApp::poll_match`], once per change of the record.
    pub(crate) fn match_moved(&mut self, mover: Color) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        let took = m.turn_started.elapsed();
        m.turn_started = Instant::now();
        if m.draw_offer.is_some_and(|c| c != mover) {
            m.draw_offer = None;
        }
        let in_time = m.clock.as_mut().is_none_or(|c| c.moved(mover, took));
        let node = last_node(&self.state.record);
        if let Some(clock) = &m.clock {
            let left = clock.remaining(mover);
            let _ = self.state.record.set_clock(node, Some(left));
        }
        if !in_time {
            self.finish_match(PlayedResult::time(mover));
        }
    }

    /// Records the result in the game: the `Result` and `Termination` headers and a
    /// comment on the last move in the user's language.
    fn finish_match(&mut self, result: PlayedResult) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        m.cancel_thinking();
        // The side to move's clock stops where it is, its thinking charged.
        let to_move = side_to_move(&self.state.record);
        if let Some(clock) = &mut m.clock {
            *clock = clock.reading(to_move, m.turn_started.elapsed());
        }
        m.result = Some(result);
        m.draw_offer = None;
        let tag = match result.winner {
            Some(Color::Red) => GameResult::RedWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
        .as_pgn();
        let text = result_text(&self.i18n, &result);
        let record = &mut self.state.record;
        record.set_header("Result", tag);
        record.set_header("Termination", result.termination());
        let end = last_node(record);
        if end != record.root() {
            let comment = record.annotation(end).comment.trim().to_owned();
            let joined = if comment.is_empty() {
                text
            } else {
                format!("{comment} {text}")
            };
            let _ = record.set_comment(end, &joined);
        }
        self.state.mark_edited();
        self.state.refresh();
    }

    fn take_back(&mut self) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        m.cancel_thinking();
        m.draw_offer = None;
        let players = m.players;
        let record = &mut self.state.record;
        // Back to the last position where a person was to move, one of their moves taken
        // back: against the engine that is the engine's reply and the move before it.
        let mut removed = 0;
        loop {
            let end = last_node(record);
            if end == record.root() {
                break;
            }
            let mover = !side_to_move(record);
            if record.delete_from(end).is_err() {
                break;
            }
            removed += 1;
            if players[mover.index()] == Player::Human {
                break;
            }
        }
        if removed == 0 {
            self.state.notice = Some(Notice::Message("play-nothing-to-take-back"));
            return;
        }
        self.state.cursor = last_node(&self.state.record);
        if let Some(m) = &mut self.state.play {
            m.turn_started = Instant::now();
        }
        self.state.mark_edited();
        self.state.refresh();
    }

    fn offer_draw(&mut self) {
        let plies = self.state.record.main_line().len();
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        let to_move = side_to_move(&self.state.record);
        if m.against_engine() {
            // The engine answers at once, from its last evaluation.
            if play::accepts_draw(m.engine_score, plies) {
                self.finish_match(PlayedResult::agreed());
            } else {
                self.state.notice = Some(Notice::Message("play-draw-declined"));
            }
        } else {
            m.draw_offer = Some(to_move);
        }
    }

    /// Runs the game each frame: the clock's flag, the engine's move. Returns whether it
    /// needs another frame soon (a clock runs, or the engine thinks).
    pub(crate) fn poll_match(&mut self) -> bool {
        let generation = self.state.generation;
        let Some(m) = &mut self.state.play else {
            return false;
        };
        if m.generation != generation {
            // Another record was opened: the game is over as far as the board goes.
            self.state.play = None;
            return false;
        }
        if m.result.is_some() {
            return false;
        }
        let end = last_node(&self.state.record);
        let to_move = side_to_move(&self.state.record);
        let edits = self.state.edits;
        if m.judged_at != Some(edits) {
            m.judged_at = Some(edits);
            if let Some(outcome) = rules_outcome(&self.state.record) {
                self.finish_match(PlayedResult::from_outcome(&outcome));
                return false;
            }
        }
        if let Some(clock) = &mut m.clock
            && clock.is_out(to_move, m.turn_started.elapsed())
        {
            clock.flag(to_move);
            self.finish_match(PlayedResult::time(to_move));
            return false;
        }
        let Player::Engine(level) = m.player(to_move) else {
            return m.clock.is_some();
        };
        if let Some(job) = &mut m.thinking {
            if let Some((engine, choice)) = job.poll() {
                m.thinking = None;
                m.engine = Some(engine);
                if let Some((mv, score)) = choice {
                    m.engine_score = Some(score);
                    m.engine_scores.push(score);
                    let plies = self.state.record.main_line().len() + 1;
                    // A level game that goes nowhere: the engine offers a draw with its
                    // move, and the person answers (or declines by moving).
                    let offer = play::offers_draw(&m.engine_scores, plies);
                    let at_end = self.state.cursor == end;
                    if let Ok(node) = self.state.record.add_move(end, mv) {
                        if at_end {
                            self.state.cursor = node;
                        }
                        self.state.mark_edited();
                        self.state.refresh();
                        self.match_moved(to_move);
                        if let Some(m) = &mut self.state.play
                            && offer
                            && m.result.is_none()
                        {
                            m.draw_offer = Some(to_move);
                            // Declined, it is offered again only after as many level moves.
                            m.engine_scores.clear();
                        }
                    }
                }
            } else if job.is_finished() {
                // The thread died: think again with a fresh engine.
                m.thinking = None;
            }
            return true;
        }
        let Some(root) = search_root(&self.state.record) else {
            return false;
        };
        // The clock as the engine sees it: its thinking so far already taken off.
        let clock = m
            .clock
            .as_ref()
            .map(|c| c.reading(to_move, m.turn_started.elapsed()));
        let engine = m.engine.take();
        let mut rng = Rng::new(m.rng.next_u64());
        m.thinking = Some(Job::spawn("chuhe play", move |stop: Arc<AtomicBool>| {
            let options = play::engine_options(level, &Options::default());
            let mut engine = match engine {
                Some(mut e) => {
                    e.set_options(options);
                    e
                }
                None => Engine::new(options),
            };
            let limits = play::limits(level, to_move, clock.as_ref());
            engine.start(&root, limits, |_| {});
            // Wait for the search, giving up at once when the game no longer wants it.
            while engine.is_searching() {
                if stop.load(Ordering::Relaxed) {
                    engine.stop();
                    return (engine, None);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            let choice = engine
                .wait()
                .and_then(|result| play::choose_from(&result, level, &mut rng));
            (engine, choice)
        }));
        true
    }
}

/// The result in words: who won and why, or a draw and why.
pub fn result_text(i18n: &crate::i18n::I18n, result: &PlayedResult) -> String {
    let reason = match result.end {
        GameEnd::Rules(reason) => i18n.tr(crate::panels::moves::reason_id(reason)),
        GameEnd::Resigned => i18n.tr("play-end-resigned"),
        GameEnd::Time => i18n.tr("play-end-time"),
        GameEnd::Agreed => i18n.tr("play-end-agreed"),
    };
    let winner = match result.winner {
        Some(Color::Red) => i18n.tr("result-red-wins"),
        Some(Color::Black) => i18n.tr("result-black-wins"),
        None => i18n.tr("result-draw"),
    };
    i18n.tr_args(
        "game-over",
        &[("winner", winner.into()), ("reason", reason.into())],
    )
}

/// Today's date as PGN writes it (`YYYY.MM.DD`), from the system clock in UTC.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A clock reading: `h:mm:ss` from an hour up, `m:ss` below, tenths under ten seconds.
pub fn format_clock(left: Duration) -> String {
    let secs = left.as_secs();
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else if secs >= 10 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("0:{:02}.{}", secs, left.subsec_millis() / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_readings_are_short_and_show_tenths_at_the_end() {
        assert_eq!(format_clock(Duration::from_secs(90 * 60)), "1:30:00");
        assert_eq!(format_clock(Duration::from_secs(125)), "2:05");
        assert_eq!(format_clock(Duration::from_millis(9_450)), "0:09.4");
    }

    #[test]
    fn the_date_is_written_as_pgn_wants() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
        assert_eq!(&d[4..5], ".");
    }
}
