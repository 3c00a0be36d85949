//! Playing games: the engine's strength levels, the official time controls and the chess
//! clock that runs them, and how a game that is not ended by the rules ends (resignation,
//! time, agreement).
//!
//! Nothing here waits on a wall clock: the clock is told how long each move took, so
//! the app drives it with real time and the tests with exact durations.

use crate::search::{Engine, Limits, Options, Score, SearchResult, SearchRoot};
use crate::{Color, EndReason, Move, Outcome};
use std::time::Duration;

/// How strongly the engine plays. Every level below [`Level::FULL`] is weakened in two
/// ways that make its mistakes look like a person's rather than random:
///
/// - **a short horizon**: the search stops at a small depth, so the weak levels miss what
///   lies a few moves ahead (a combination, the opponent's threat) but never a plain
///   capture in front of them (the quiescence search still sees exchanges);
/// - **a soft choice**: the engine looks at its best few moves and picks one at random,
///   a move's chance falling off exponentially with how much worse it scores than the
///   best (a softmax with the level's temperature). A beginner often plays the second or
///   third best move, rarely a clearly bad one and practically never a move it sees
///   losing a rook; the strong levels almost always play their best move.
///
/// | level | depth | lines | temperature |
/// |---|---|---|---|
/// | 1 入门 | 1 | 6 | 150 cp |
/// | 2 初级 | 2 | 5 | 90 cp |
/// | 3 中级 | 4 | 4 | 45 cp |
/// | 4 高级 | 6 | 3 | 20 cp |
/// | 5 大师 | 9 | 2 | 8 cp |
/// | 6 全力 | the clock's (or 3 s a move) | 1 | none |
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const BEGINNER: Level = Level(1);
    /// Full strength.
    pub const FULL: Level = Level(6);
    /// All levels, weakest first.
    pub const ALL: [Level; 6] = [Level(1), Level(2), Level(3), Level(4), Level(5), Level(6)];

    /// Level `n` (1 to 6), or `None` outside that range.
    pub fn new(n: u8) -> Option<Level> {
        (1..=6).contains(&n).then_some(Level(n))
    }

    /// Its number, 1 (weakest) to 6 (full strength).
    pub fn number(self) -> u8 {
        self.0
    }

    /// The deepest the search goes (`None`: as deep as the time allows).
    pub fn depth(self) -> Option<u32> {
        match self.0 {
            1 => Some(1),
            2 => Some(2),
            3 => Some(4),
            4 => Some(6),
            5 => Some(9),
            _ => None,
        }
    }

    /// How many of the best moves the soft choice picks among.
    pub fn lines(self) -> usize {
        match self.0 {
            1 => 6,
            2 => 5,
            3 => 4,
            4 => 3,
            5 => 2,
            _ => 1,
        }
    }

    /// The softmax temperature in centipawns (0: always the best move).
    pub fn temperature(self) -> i32 {
        match self.0 {
            1 => 150,
            2 => 90,
            3 => 45,
            4 => 20,
            5 => 8,
            _ => 0,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level(3)
    }
}

/// A small random number generator for the engine's choices (xorshift64*): the choice
/// needs no cryptographic quality, and a seed makes tests repeatable.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// A generator seeded from the time.
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x2545_F491_4F6C_DD1D);
        Rng::new(nanos)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `[0, n)` (`n` > 0; the tiny bias of a modulo does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A score as centipawns for comparing moves: mates far beyond any material, and a mate
/// a move sooner ten pawns better, so a level that sees a mate plays the quickest one
/// it sees.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 1_000_000 - 1000 * n.min(500),
        Score::Mate(n) => -1_000_000 + 1000 * (-n).min(500),
    }
}

/// Picks among `(move, score)` candidates, best first, by the level's soft choice.
pub fn soft_choice(candidates: &[(Move, Score)], level: Level, rng: &mut Rng) -> Option<Move> {
    let (&(best, best_score), rest) = candidates.split_first()?;
    let temperature = level.temperature();
    if temperature == 0 || rest.is_empty() {
        return Some(best);
    }
    let top = centipawns(best_score);
    let weights: Vec<f64> = candidates
        .iter()
        .take(level.lines())
        .map(|&(_, s)| {
            let behind = f64::from((top - centipawns(s)).max(0));
            (-behind / f64::from(temperature)).exp()
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut pick = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if pick < *w {
            return Some(candidates[i].0);
        }
        pick -= w;
    }
    Some(best)
}

/// The options an engine playing at `level` needs (its lines; never the engine's own
/// skill weakening, which this module replaces).
pub fn engine_options(level: Level, base: &Options) -> Options {
    Options {
        multipv: level.lines(),
        skill_level: 20,
        ..base.clone()
    }
}

/// The search limits for `side` to move at `level`, under `clock` when there is one.
pub fn limits(level: Level, side: Color, clock: Option<&Clock>) -> Limits {
    let mut limits = Limits {
        depth: level.depth(),
        ..Limits::default()
    };
    match clock {
        Some(clock) => {
            limits.time = [
                Some(clock.remaining(Color::Red)),
                Some(clock.remaining(Color::Black)),
            ];
            limits.increment = [clock.control.increment; 2];
            limits.moves_to_go = clock.moves_to_go(side);
        }
        // Without a clock a full-strength engine thinks a few seconds, as a person would.
        None if level.depth().is_none() => {
            limits.movetime = Some(Duration::from_secs(3));
        }
        None => {}
    }
    limits
}

/// What a finished search offers the soft choice: each line's first move and score.
pub fn candidates(result: &SearchResult) -> Vec<(Move, Score)> {
    let mut out: Vec<(Move, Score)> = result
        .report
        .lines
        .iter()
        .filter_map(|l| l.moves.first().map(|&m| (m, l.score)))
        .collect();
    if out.is_empty()
        && let Some(m) = result.best_move
    {
        out.push((m, Score::Cp(0)));
    }
    out
}

/// Searches `root` at `level` and chooses a move (blocking; `None` when there is no legal
/// move). The engine's options should come from [`engine_options`].
pub fn choose_move(
    engine: &mut Engine,
    root: &SearchRoot,
    level: Level,
    clock: Option<&Clock>,
    rng: &mut Rng,
) -> Option<(Move, Score)> {
    let side = root.position().side_to_move();
    let result = engine.search(root, limits(level, side, clock));
    choose_from(&result, level, rng)
}

/// The level's choice from a finished search, with the chosen move's score.
pub fn choose_from(result: &SearchResult, level: Level, rng: &mut Rng) -> Option<(Move, Score)> {
    let candidates = candidates(result);
    let m = soft_choice(&candidates, level, rng)?;
    candidates.iter().find(|(c, _)| *c == m).copied()
}

/// Whether an engine whose last evaluation (for itself) was `score` accepts a draw
/// offered after `plies` plies: when it is not better, or only a little better in a long
/// game. A won position is never given away.
pub fn accepts_draw(score: Option<Score>, plies: usize) -> bool {
    match score {
        None => false,
        Some(s) => {
            let cp = centipawns(s);
            cp <= 0 || (plies >= 80 && cp <= 30)
        }
    }
}

/// How many of its own recent evaluations an engine looks at before offering a draw.
pub const DRAW_OFFER_MOVES: usize = 8;

/// Whether an engine offers a draw, given its evaluations (for itself) of its last moves,
/// latest last, after `plies` plies: only in a long game, and only when the position has
/// stayed level (within 0.15 of a pawn either way) for its last [`DRAW_OFFER_MOVES`] moves.
pub fn offers_draw(recent: &[Score], plies: usize) -> bool {
    plies >= 60
        && recent.len() >= DRAW_OFFER_MOVES
        && recent[recent.len() - DRAW_OFFER_MOVES..]
            .iter()
            .all(|&s| centipawns(s).abs() <= 15)
}

/// One stretch of a time control: so much time for so many moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// The time added when the period starts.
    pub time: Duration,
    /// Moves to make within it (`None`: the rest of the game).
    pub moves: Option<u32>,
}

/// The official time controls (domain.md §10) and sudden death of a chosen length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControlKind {
    /// 90 minutes for 40 moves, then 15 minutes for every 10 moves.
    Classical,
    /// 60 minutes for 30 moves, then 10 minutes for every 10 moves.
    Standard,
    /// Rapid: 10 minutes for 40 moves, then 5 minutes for every 50 moves.
    Rapid,
    /// 5 minutes for every 30 moves, repeating.
    Repeating,
    /// The whole game in so many minutes.
    SuddenDeath(u32),
    /// The 2007 trial: Red 80 minutes, Black 40 minutes, both 30 seconds added per move.
    Trial2007,
}

/// A time control: each side's first period, the period that repeats after it, and the
/// time added after every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Which one it is.
    pub kind: TimeControlKind,
    /// Each side's first period, by [`Color::index`].
    pub first: [Period; 2],
    /// The period that follows each completed one (`None`: the first lasts the game).
    pub then: Option<Period>,
    /// Added after each move (Fischer increment).
    pub increment: Duration,
}

const MINUTE: u64 = 60;

impl TimeControl {
    /// The control of `kind`.
    pub fn new(kind: TimeControlKind) -> TimeControl {
        let minutes = |m: u64| Duration::from_secs(m * MINUTE);
        let period = |m: u64, moves: Option<u32>| Period {
            time: minutes(m),
            moves,
        };
        let same = |p: Period| [p, p];
        let (first, then, increment) = match kind {
            TimeControlKind::Classical => (
                same(period(90, Some(40))),
                Some(period(15, Some(10))),
                Duration::ZERO,
            ),
            TimeControlKind::Standard => (
                same(period(60, Some(30))),
                Some(period(10, Some(10))),
                Duration::ZERO,
            ),
            TimeControlKind::Rapid => (
                same(period(10, Some(40))),
                Some(period(5, Some(50))),
                Duration::ZERO,
            ),
            TimeControlKind::Repeating => (
                same(period(5, Some(30))),
                Some(period(5, Some(30))),
                Duration::ZERO,
            ),
            TimeControlKind::SuddenDeath(m) => {
                (same(period(u64::from(m), None)), None, Duration::ZERO)
            }
            TimeControlKind::Trial2007 => (
                [period(80, None), period(40, None)],
                None,
                Duration::from_secs(30),
            ),
        };
        TimeControl {
            kind,
            first,
            then,
            increment,
        }
    }

    /// The official controls in the order a chooser lists them, sudden death last.
    pub fn presets() -> Vec<TimeControl> {
        [
            TimeControlKind::Classical,
            TimeControlKind::Standard,
            TimeControlKind::Rapid,
            TimeControlKind::Repeating,
            TimeControlKind::Trial2007,
            TimeControlKind::SuddenDeath(15),
        ]
        .into_iter()
        .map(TimeControl::new)
        .collect()
    }

    /// The control written as in a PGN `TimeControl` tag: `5400/40:900/10`-style for
    /// periods (seconds per moves), `+30` for an increment, Red's time first when the
    /// sides differ.
    pub fn pgn_tag(&self) -> String {
        let period = |p: &Period| match p.moves {
            Some(n) => format!("{n}/{}", p.time.as_secs()),
            None => p.time.as_secs().to_string(),
        };
        let inc = if self.increment.is_zero() {
            String::new()
        } else {
            format!("+{}", self.increment.as_secs())
        };
        let side = |c: usize| {
            let mut s = period(&self.first[c]) + &inc;
            if let Some(then) = &self.then {
                s.push(':');
                s.push_str(&period(then));
                s.push_str(&inc);
            }
            s
        };
        if self.first[0] == self.first[1] {
            side(0)
        } else {
            format!("{},{}", side(0), side(1))
        }
    }
}

/// A chess clock running a [`TimeControl`] for both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// The control it runs.
    pub control: TimeControl,
    remaining: [Duration; 2],
    /// Moves made by each side.
    moves: [u32; 2],
    /// Moves each side must still make in its current period (`None`: no more controls).
    to_go: [Option<u32>; 2],
    flagged: Option<Color>,
}

impl Clock {
    /// A clock at the start of a game under `control`.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = [control.first[0].time, control.first[1].time];
        let to_go = [control.first[0].moves, control.first[1].moves];
        Clock {
            control,
            remaining,
            moves: [0, 0],
            to_go,
            flagged: None,
        }
    }

    /// The time `side` has left (as of its last move; the app takes off the time of the
    /// move being thought about).
    pub fn remaining(&self, side: Color) -> Duration {
        self.remaining[side.index()]
    }

    /// The moves `side` has made.
    pub fn moves(&self, side: Color) -> u32 {
        self.moves[side.index()]
    }

    /// Moves `side` must make before its next control (`None`: no more controls).
    pub fn moves_to_go(&self, side: Color) -> Option<u32> {
        self.to_go[side.index()]
    }

    /// The side whose time ran out, if any.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// Whether `side`'s time is over after thinking `thinking` on its current move.
    pub fn is_out(&self, side: Color, thinking: Duration) -> bool {
        thinking >= self.remaining(side)
    }

    /// `side` made a move that took `took`: its time goes down; if it ran out the side
    /// has lost on time (and stays flagged); otherwise a completed period adds the next
    /// one's time, and the increment is added. Returns whether the side is still in time.
    pub fn moved(&mut self, side: Color, took: Duration) -> bool {
        let i = side.index();
        if self.flagged.is_some() {
            return self.flagged != Some(side);
        }
        if took >= self.remaining[i] {
            self.remaining[i] = Duration::ZERO;
            self.flagged = Some(side);
            return false;
        }
        self.remaining[i] -= took;
        self.moves[i] += 1;
        if let Some(n) = self.to_go[i] {
            if n <= 1 {
                // The control is reached: the next period's time is added to what is left.
                match self.control.then {
                    Some(next) => {
                        self.remaining[i] += next.time;
                        self.to_go[i] = next.moves;
                    }
                    None => self.to_go[i] = None,
                }
            } else {
                self.to_go[i] = Some(n - 1);
            }
        }
        self.remaining[i] += self.control.increment;
        true
    }

    /// The clock as it reads when `side` has thought `thinking` on its current move (no
    /// move counted): what an engine plans its time on.
    pub fn reading(&self, side: Color, thinking: Duration) -> Clock {
        let mut clock = self.clone();
        let i = side.index();
        clock.remaining[i] = clock.remaining[i].saturating_sub(thinking);
        clock
    }

    /// `side` ran out of time while thinking.
    pub fn flag(&mut self, side: Color) {
        if self.flagged.is_none() {
            self.remaining[side.index()] = Duration::ZERO;
            self.flagged = Some(side);
        }
    }
}

/// Why a game that was played out ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The rules ended it (mate, 困毙, the move limit, a repetition ruling).
    Rules(EndReason),
    /// The loser resigned.
    Resigned,
    /// The loser's time ran out.
    Time,
    /// Both players agreed to a draw.
    Agreed,
}

/// The result of a played game: who won (`None`: a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub end: GameEnd,
}

impl PlayedResult {
    /// The rules' verdict.
    pub fn from_outcome(outcome: &Outcome) -> PlayedResult {
        PlayedResult {
            winner: outcome.winner,
            end: GameEnd::Rules(outcome.reason),
        }
    }

    /// `loser` resigned.
    pub fn resigned(loser: Color) -> PlayedResult {
        PlayedResult {
            winner: Some(!loser),
            end: GameEnd::Resigned,
        }
    }

    /// `loser` ran out of time.
    pub fn time(loser: Color) -> PlayedResult {
        PlayedResult {
            winner: Some(!loser),
            end: GameEnd::Time,
        }
    }

    /// A draw by agreement.
    pub fn agreed() -> PlayedResult {
        PlayedResult {
            winner: None,
            end: GameEnd::Agreed,
        }
    }

    /// The PGN `Termination` tag's value (PGN's own words where it has them).
    pub fn termination(&self) -> &'static str {
        match self.end {
            GameEnd::Rules(EndReason::Checkmate) => "checkmate",
            GameEnd::Rules(EndReason::Stalemate) => "no legal move",
            GameEnd::Rules(EndReason::MoveLimit) => "move limit",
            GameEnd::Rules(EndReason::PerpetualCheck) => "perpetual check",
            GameEnd::Rules(EndReason::ForbiddenRepetition { .. }) => "forbidden repetition",
            GameEnd::Rules(EndReason::RepetitionDraw) => "repetition",
            GameEnd::Resigned => "resignation",
            GameEnd::Time => "time forfeit",
            GameEnd::Agreed => "draw agreed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn levels_run_from_one_to_six_and_only_the_last_is_unweakened() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(7), None);
        for level in Level::ALL {
            assert_eq!(level.temperature() == 0, level == Level::FULL);
        }
        // Each level sees at least as deep as the one below it.
        for pair in Level::ALL.windows(2) {
            let d = |l: Level| l.depth().unwrap_or(u32::MAX);
            assert!(d(pair[0]) < d(pair[1]));
        }
    }

    #[test]
    fn the_classical_control_adds_fifteen_minutes_after_the_fortieth_move() {
        let mut clock = Clock::new(TimeControl::new(TimeControlKind::Classical));
        for _ in 0..39 {
            assert!(clock.moved(Color::Red, secs(60)));
        }
        assert_eq!(clock.remaining(Color::Red), secs(90 * 60 - 39 * 60));
        assert_eq!(clock.moves_to_go(Color::Red), Some(1));
        assert!(clock.moved(Color::Red, secs(60)));
        // 90 − 40 minutes used, then 15 added.
        assert_eq!(clock.remaining(Color::Red), secs((50 + 15) * 60));
        assert_eq!(clock.moves_to_go(Color::Red), Some(10));
        // Black's clock did not move.
        assert_eq!(clock.remaining(Color::Black), secs(90 * 60));
        for _ in 0..10 {
            clock.moved(Color::Red, secs(1));
        }
        assert_eq!(clock.remaining(Color::Red), secs(65 * 60 - 10 + 15 * 60));
    }

    #[test]
    fn the_trial_control_gives_the_sides_different_times_and_an_increment() {
        let mut clock = Clock::new(TimeControl::new(TimeControlKind::Trial2007));
        assert_eq!(clock.remaining(Color::Red), secs(80 * 60));
        assert_eq!(clock.remaining(Color::Black), secs(40 * 60));
        clock.moved(Color::Black, secs(10));
        assert_eq!(clock.remaining(Color::Black), secs(40 * 60 + 20));
        assert_eq!(clock.moves_to_go(Color::Black), None);
        assert_eq!(
            clock.control.pgn_tag(),
            format!("{}+30,{}+30", 80 * 60, 40 * 60)
        );
    }

    #[test]
    fn running_out_of_time_flags_the_side_for_good() {
        let mut clock = Clock::new(TimeControl::new(TimeControlKind::SuddenDeath(1)));
        assert!(clock.moved(Color::Red, secs(59)));
        assert!(clock.is_out(Color::Red, secs(1)));
        assert!(!clock.moved(Color::Red, secs(1)));
        assert_eq!(clock.flagged(), Some(Color::Red));
        assert_eq!(clock.remaining(Color::Red), Duration::ZERO);
        // Later presses change nothing.
        assert!(clock.moved(Color::Black, secs(1)));
        assert_eq!(clock.remaining(Color::Black), secs(60));
    }

    #[test]
    fn the_repeating_control_adds_five_minutes_every_thirty_moves() {
        let mut clock = Clock::new(TimeControl::new(TimeControlKind::Repeating));
        for round in 1..=3u64 {
            for _ in 0..30 {
                clock.moved(Color::Black, secs(5));
            }
            assert_eq!(
                clock.remaining(Color::Black),
                secs(5 * 60 * (round + 1) - 150 * round)
            );
        }
        assert_eq!(clock.control.pgn_tag(), "30/300:30/300");
    }

    #[test]
    fn the_soft_choice_never_leaves_the_candidates_and_prefers_the_best() {
        let m = |s: &str| s.parse::<Move>().unwrap();
        let candidates = [
            (m("h2e2"), Score::Cp(30)),
            (m("b2e2"), Score::Cp(20)),
            (m("c3c4"), Score::Cp(-600)),
        ];
        let mut rng = Rng::new(7);
        let mut counts = [0; 3];
        for _ in 0..3000 {
            let choice = soft_choice(&candidates, Level::BEGINNER, &mut rng).unwrap();
            let i = candidates.iter().position(|c| c.0 == choice).unwrap();
            counts[i] += 1;
        }
        // Close moves are both played; a move six pawns worse almost never.
        assert!(counts[0] > counts[1] && counts[1] > 1000, "{counts:?}");
        assert!(counts[2] < 30, "{counts:?}");
        for _ in 0..100 {
            assert_eq!(
                soft_choice(&candidates, Level::FULL, &mut rng),
                Some(m("h2e2"))
            );
        }
    }

    #[test]
    fn the_engine_offers_a_draw_only_in_a_long_level_game() {
        let level = vec![Score::Cp(5); DRAW_OFFER_MOVES];
        assert!(offers_draw(&level, 80));
        assert!(!offers_draw(&level, 40), "too early");
        assert!(!offers_draw(&level[1..], 80), "not level long enough");
        let mut one_better = level.clone();
        one_better[3] = Score::Cp(60);
        assert!(!offers_draw(&one_better, 80));
        let mut earlier_better = vec![Score::Cp(300)];
        earlier_better.extend(level);
        assert!(
            offers_draw(&earlier_better, 80),
            "only the last moves count"
        );
    }

    #[test]
    fn a_won_position_is_not_given_away_by_a_draw() {
        assert!(!accepts_draw(Some(Score::Cp(200)), 100));
        assert!(!accepts_draw(Some(Score::Mate(3)), 100));
        assert!(accepts_draw(Some(Score::Cp(-50)), 10));
        assert!(!accepts_draw(Some(Score::Cp(20)), 10));
        assert!(accepts_draw(Some(Score::Cp(20)), 90));
        assert!(!accepts_draw(None, 90));
    }
}
