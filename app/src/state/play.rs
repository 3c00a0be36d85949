//! Playing a game: against the engine at a chosen level, or two people at one board
//! (hot-seat), with an optional clock under an official time control. The game is the
//! record's main line; the engine thinks on a background [`Job`] so the board stays live,
//! and taking a move back or leaving the game cancels it at once.

use crate::settings::{ClockName, PlayChoices};
use chuhe_core::Color;
use chuhe_core::play::{self, Clock, Level, PlayedResult, TimeControl};
use chuhe_core::record::{NodeId, Record};
use chuhe_core::search::{Score, SearchRoot};
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
    /// Against the engine: allow its analysis, its best-move arrow and hints during the
    /// game (the record says so).
    pub assist: bool,
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
            assist: false,
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

    /// The dialog as it was last left (`choices` from the settings).
    pub fn from_choices(choices: &PlayChoices) -> PlaySetup {
        use play::TimeControlKind as Kind;
        let minutes = choices.sudden_minutes.clamp(1, 600);
        let kind = match choices.clock {
            ClockName::None => None,
            ClockName::Classical => Some(Kind::Classical),
            ClockName::Standard => Some(Kind::Standard),
            ClockName::Rapid => Some(Kind::Rapid),
            ClockName::Repeating => Some(Kind::Repeating),
            ClockName::SuddenDeath => Some(Kind::SuddenDeath(minutes)),
            ClockName::Trial2007 => Some(Kind::Trial2007),
        };
        PlaySetup {
            against_engine: choices.against_engine,
            level: Level::new(choices.level).unwrap_or_default(),
            human: if choices.play_black {
                Color::Black
            } else {
                Color::Red
            },
            from_board: choices.from_board,
            clock: kind.map_or(ClockChoice::None, ClockChoice::Control),
            sudden_minutes: minutes,
            assist: choices.assist,
        }
    }

    /// The choices to remember for the next time the dialog opens.
    pub fn choices(&self) -> PlayChoices {
        use play::TimeControlKind as Kind;
        PlayChoices {
            against_engine: self.against_engine,
            level: self.level.number(),
            play_black: self.human == Color::Black,
            from_board: self.from_board,
            clock: match self.clock {
                ClockChoice::None => ClockName::None,
                ClockChoice::Control(Kind::Classical) => ClockName::Classical,
                ClockChoice::Control(Kind::Standard) => ClockName::Standard,
                ClockChoice::Control(Kind::Rapid) => ClockName::Rapid,
                ClockChoice::Control(Kind::Repeating) => ClockName::Repeating,
                ClockChoice::Control(Kind::SuddenDeath(_)) => ClockName::SuddenDeath,
                ClockChoice::Control(Kind::Trial2007) => ClockName::Trial2007,
            },
            sudden_minutes: self.sudden_minutes,
            assist: self.assist,
        }
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
    pub engine_scores: Vec<Score>,
    /// The record generation the game is played in: another record ends it.
    pub generation: u64,
    /// The record's edit count when the rules were last asked whether the game is over:
    /// the replay that answers runs once per change, not on every frame.
    pub judged_at: Option<u64>,
    /// Whether the engine is thinking about its move.
    pub thinking: bool,
    /// Whether the person may use the engine's analysis and hints in this game.
    pub assist: bool,
    /// Black at the bottom for this game (the person playing Black sees it from their
    /// side); the study board keeps its own orientation in the settings.
    pub flipped: bool,
    /// While the game's tab is not on the board: how long the side to move had thought
    /// when the tab was left. The clock stands still there until the tab is back.
    pub paused: Option<Duration>,
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
            thinking: false,
            assist: false,
            flipped: false,
            paused: None,
        }
    }

    /// The side to move's thinking on its current move so far (not counting the time its
    /// tab was away).
    pub fn thinking_time(&self) -> Duration {
        self.paused.unwrap_or_else(|| self.turn_started.elapsed())
    }

    /// Stops the game where it is, its tab leaving the board: the clock stands still and
    /// the engine, which thinks only for the game on the board, stops thinking.
    pub fn pause(&mut self) {
        if self.paused.is_none() {
            self.paused = Some(self.turn_started.elapsed());
        }
        self.thinking = false;
    }

    /// Goes on with the game, its tab back on the board: the clock runs on from where it
    /// stood.
    pub fn resume(&mut self) {
        if let Some(thought) = self.paused.take() {
            let now = Instant::now();
            self.turn_started = now.checked_sub(thought).unwrap_or(now);
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
        self.thinking
    }

    /// The time `side` has left now, its current thinking taken off when it is to move.
    pub fn time_left(&self, side: Color, to_move: Color) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let left = clock.remaining(side);
        if side == to_move && self.result.is_none() {
            Some(left.saturating_sub(self.thinking_time()))
        } else {
            Some(left)
        }
    }
}

impl crate::state::State {
    /// Whether a game against the engine is under way without assist: then the engine's
    /// analysis, its arrow and evaluation, the table's verdict and hints are all off.
    pub fn engine_help_barred(&self) -> bool {
        self.play
            .as_ref()
            .is_some_and(|m| m.result.is_none() && m.against_engine() && !m.assist)
    }

    /// Whether the main board shows Black at the bottom: the game's own orientation
    /// while one is on the board, the study's setting otherwise.
    pub fn board_flipped(&self) -> bool {
        self.play
            .as_ref()
            .map_or(self.settings.flipped, |m| m.flipped)
    }
}

/// The record's header that says the person used the engine's help in the game.
pub const ASSIST_HEADER: &str = "Assist";

/// The game's last node: the end of the main line.
pub fn last_node(record: &Record) -> NodeId {
    record.main_line().last().copied().unwrap_or(record.root())
}

/// Who is to move at the end of the game.
pub(crate) fn side_to_move(record: &Record) -> Color {
    record.side_to_move_at(last_node(record))
}

/// How the rules ended the game, if they did, judged on the whole main line (so
/// repetitions count).
pub fn rules_outcome(record: &Record) -> Option<chuhe_core::Outcome> {
    record.outcome_at(last_node(record))
}

/// Plays the game's moves on a search root (for repetitions).
pub fn search_root(record: &Record) -> Option<SearchRoot> {
    SearchRoot::from_moves(record.start().clone(), &record.main_line_moves()).ok()
}

/// Today's date as PGN writes it (`YYYY.MM.DD`), from the system clock in UTC.
pub fn today() -> String {
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

impl super::State {
    /// Whether a person may move on the board now; tells why not when not.
    pub fn match_allows_move(&mut self) -> bool {
        let Some(m) = &self.play else {
            return true;
        };
        if m.result.is_some() {
            self.notice = Some(super::Notice::Message("notice-game-over"));
            return false;
        }
        if self.study.cursor != last_node(&self.study.record) {
            self.notice = Some(super::Notice::Message("play-go-to-end"));
            return false;
        }
        if m.player(side_to_move(&self.study.record)) != Player::Human {
            self.notice = Some(super::Notice::Message("play-not-your-turn"));
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub fn clock_readings_are_short_and_show_tenths_at_the_end() {
        assert_eq!(format_clock(Duration::from_secs(90 * 60)), "1:30:00");
        assert_eq!(format_clock(Duration::from_secs(125)), "2:05");
        assert_eq!(format_clock(Duration::from_millis(9_450)), "0:09.4");
    }

    #[test]
    pub fn the_dialogs_choices_survive_the_settings_file() {
        let setup = PlaySetup {
            against_engine: true,
            level: Level::new(4).unwrap(),
            human: Color::Black,
            from_board: true,
            clock: ClockChoice::Control(play::TimeControlKind::SuddenDeath(25)),
            sudden_minutes: 25,
            assist: true,
        };
        let settings = crate::settings::Settings {
            play: setup.choices(),
            ..Default::default()
        };
        let text = ron::to_string(&settings).unwrap();
        let read: crate::settings::Settings = ron::from_str(&text).unwrap();
        assert_eq!(PlaySetup::from_choices(&read.play), setup);
        // Every clock comes back as itself.
        for control in TimeControl::presets() {
            let setup = PlaySetup {
                clock: ClockChoice::Control(control.kind),
                ..PlaySetup::default()
            };
            assert_eq!(PlaySetup::from_choices(&setup.choices()), setup);
        }
        // Nothing remembered yet: the dialog's defaults; a nonsense level: the default one.
        let fresh: crate::settings::Settings = ron::from_str("()").unwrap();
        assert_eq!(PlaySetup::from_choices(&fresh.play), PlaySetup::default());
        let odd: crate::settings::Settings = ron::from_str("(play: (level: 99))").unwrap();
        assert_eq!(PlaySetup::from_choices(&odd.play).level, Level::default());
    }

    #[test]
    pub fn the_date_is_written_as_pgn_wants() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
        assert_eq!(&d[4..5], ".");
    }
}
