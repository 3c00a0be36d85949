//! A class quiz: a question on a position (find the best move, or mate in N), the
//! students' answers to it, which answers are right, the class's scores over the
//! questions, and the record of it all as CSV.
//!
//! A question's right moves are a set: the solver's first moves for a mate (every move
//! that mates in the fewest moves), for "best move" every move the engine finds as good as
//! its choice, or whatever the teacher sets instead. An answer is judged against the set as it is when asked, so
//! changing the set re-judges every answer already given.

use crate::search::{Engine, Event, Limits, Options, Score, SearchRoot};
use crate::solver::{self, SolveOptions};
use crate::{Move, Position};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The solver's table for a class question: 2^20 entries (16 MiB), plenty for the short
/// mates a class is asked.
const SOLVER_TABLE_BITS: u32 = 20;

/// The longest name a student may answer under, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// What a question asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// 找最佳着法: the best move.
    BestMove,
    /// 几步杀: the first move of a mate in this many moves.
    MateIn(u32),
}

impl Kind {
    /// The kind as the record writes it: `best` or `mate N`.
    pub fn code(self) -> String {
        match self {
            Kind::BestMove => "best".to_owned(),
            Kind::MateIn(n) => format!("mate {n}"),
        }
    }
}

/// One student's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The name the student typed (cleaned by [`clean_name`]).
    pub name: String,
    /// The move.
    pub mv: Move,
    /// How long after the question was asked, in milliseconds.
    pub millis: u64,
}

/// A question put to the class, and what came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// What is asked.
    pub kind: Kind,
    /// The position asked about.
    pub position: Position,
    /// Where the position comes from (a puzzle's name; empty for the board).
    pub title: String,
    /// The right moves; empty while not known (then no answer is right).
    pub correct: Vec<Move>,
    /// The answers, in the order they came.
    pub answers: Vec<Answer>,
}

/// A move the class gave, with how many gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// The move.
    pub mv: Move,
    /// How many students answered it.
    pub count: usize,
    /// Whether it is one of the right moves.
    pub correct: bool,
}

/// The most right moves drawn on a revealed question's board: a strong arrow for the
/// answer and light ones for others, which more would crowd.
pub const MOVES_DRAWN: usize = 4;

/// A right move as the revealed board draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawnAnswer {
    /// The move.
    pub mv: Move,
    /// Whether it is the answer (a strong arrow), not another right move (a light one).
    pub main: bool,
}

impl Question {
    /// A question on `position` with no answers yet and no right move known.
    pub fn new(kind: Kind, position: Position, title: &str) -> Question {
        Question {
            kind,
            position,
            title: title.to_owned(),
            correct: Vec::new(),
            answers: Vec::new(),
        }
    }

    /// Whether `mv` is a right answer.
    pub fn is_correct(&self, mv: Move) -> bool {
        self.correct.contains(&mv)
    }

    /// Whether a student of this name (compared as [`name_key`] does) has answered.
    pub fn has_answered(&self, name: &str) -> bool {
        let key = name_key(name);
        self.answers.iter().any(|a| name_key(&a.name) == key)
    }

    /// Takes `answer` if it is a legal move and its student has not answered yet.
    pub fn take(&mut self, answer: Answer) -> Result<(), Refusal> {
        if !self.position.legal_moves().contains(&answer.mv) {
            return Err(Refusal::Illegal);
        }
        if self.has_answered(&answer.name) {
            return Err(Refusal::AlreadyAnswered);
        }
        self.answers.push(answer);
        Ok(())
    }

    /// Adds `mv` to the right moves, or takes it away if it is one.
    pub fn toggle_correct(&mut self, mv: Move) {
        match self.correct.iter().position(|&m| m == mv) {
            Some(i) => {
                self.correct.remove(i);
            }
            None => self.correct.push(mv),
        }
    }

    /// The moves answered, the most given first (ties: the one given first first), with
    /// the right moves no one gave at the end.
    pub fn tally(&self) -> Vec<Count> {
        let mut counts: Vec<Count> = Vec::new();
        for answer in &self.answers {
            match counts.iter_mut().find(|c| c.mv == answer.mv) {
                Some(c) => c.count += 1,
                None => counts.push(Count {
                    mv: answer.mv,
                    count: 1,
                    correct: self.is_correct(answer.mv),
                }),
            }
        }
        // A stable sort keeps the order of arrival among equal counts.
        counts.sort_by_key(|c| std::cmp::Reverse(c.count));
        for &mv in &self.correct {
            if !counts.iter().any(|c| c.mv == mv) {
                counts.push(Count {
                    mv,
                    count: 0,
                    correct: true,
                });
            }
        }
        counts
    }

    /// The right moves the revealed board draws, at most [`MOVES_DRAWN`]: first the
    /// answer (the first right move: the set answer, or the solver's or the engine's
    /// best), then other right moves, the ones the class gave most first. Wrong moves are
    /// left to the chart: drawn too, a class's many answers would hide the right one.
    pub fn drawn_answers(&self) -> Vec<DrawnAnswer> {
        let Some(&main) = self.correct.first() else {
            return Vec::new();
        };
        let others = self
            .tally()
            .into_iter()
            .filter(|c| c.correct && c.mv != main)
            .map(|c| DrawnAnswer {
                mv: c.mv,
                main: false,
            });
        std::iter::once(DrawnAnswer {
            mv: main,
            main: true,
        })
        .chain(others)
        .take(MOVES_DRAWN)
        .collect()
    }

    /// How many answered right.
    pub fn right(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| self.is_correct(a.mv))
            .count()
    }
}

/// Why an answer was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The move is not legal in the question's position.
    Illegal,
    /// The student already answered this question.
    AlreadyAnswered,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Illegal => write!(f, "the move is not legal here"),
            Refusal::AlreadyAnswered => write!(f, "this name has already answered"),
        }
    }
}

/// Why a name cannot be answered under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Nothing but spaces.
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    TooLong,
    /// It holds a control character (a line break, say) at this character.
    Control(usize),
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the name is empty"),
            NameError::TooLong => write!(f, "the name is over {MAX_NAME_CHARS} characters"),
            NameError::Control(at) => write!(f, "the name has a control character at {at}"),
        }
    }
}

/// A name as typed, trimmed, or why it cannot be used. Names are plain text: what is
/// refused is only what would break a line of the record or a label.
pub fn clean_name(raw: &str) -> Result<String, NameError> {
    let name = raw.trim();
    if let Some(at) = name.chars().position(char::is_control) {
        return Err(NameError::Control(at));
    }
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameError::TooLong);
    }
    Ok(name.to_owned())
}

/// What two names are compared by: the same name typed with other spaces or case is the
/// same student.
pub fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A student's standing over the questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The name, as first given.
    pub name: String,
    /// Right answers: one point each.
    pub points: u32,
    /// Questions answered.
    pub answered: u32,
    /// The time taken over the right answers, in milliseconds (the tie-break: faster first).
    pub millis: u64,
}

/// The class's questions, in the order asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassRecord {
    /// The questions.
    pub questions: Vec<Question>,
}

impl ClassRecord {
    /// The students' scores: most points first, then the faster, then by name.
    pub fn standings(&self) -> Vec<Standing> {
        let mut table: Vec<(String, Standing)> = Vec::new();
        for question in &self.questions {
            for answer in &question.answers {
                let key = name_key(&answer.name);
                let at = match table.iter().position(|(k, _)| *k == key) {
                    Some(at) => at,
                    None => {
                        table.push((
                            key,
                            Standing {
                                name: answer.name.clone(),
                                points: 0,
                                answered: 0,
                                millis: 0,
                            },
                        ));
                        table.len() - 1
                    }
                };
                let line = &mut table[at].1;
                line.answered += 1;
                if question.is_correct(answer.mv) {
                    line.points += 1;
                    line.millis += answer.millis;
                }
            }
        }
        let mut lines: Vec<Standing> = table.into_iter().map(|(_, s)| s).collect();
        lines.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(a.millis.cmp(&b.millis))
                .then_with(|| a.name.cmp(&b.name))
        });
        lines
    }

    /// The record as CSV (see [`HEADER`]): a `question` line for each question with its
    /// right moves, an `answer` line for each answer, then a `score` line for each student.
    /// `task` names a question's kind, `text` writes a move in the teacher's notation.
    pub fn to_csv(
        &self,
        task: &dyn Fn(Kind) -> String,
        text: &dyn Fn(&Position, Move) -> String,
    ) -> String {
        let mut out = String::new();
        let mut line = |cells: [&str; 10]| {
            let cells: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
            out.push_str(&cells.join(","));
            out.push_str("\r\n");
        };
        line(HEADER);
        for (i, q) in self.questions.iter().enumerate() {
            let number = (i + 1).to_string();
            let right: Vec<String> = q.correct.iter().map(|&m| text(&q.position, m)).collect();
            let iccs: Vec<String> = q.correct.iter().map(Move::to_string).collect();
            let asked = if q.title.is_empty() {
                task(q.kind)
            } else {
                format!("{} {}", task(q.kind), q.title)
            };
            line([
                "question",
                &number,
                &asked,
                &q.position.to_string(),
                "",
                &right.join(" "),
                &iccs.join(" "),
                "",
                "",
                "",
            ]);
            for a in &q.answers {
                line([
                    "answer",
                    &number,
                    "",
                    "",
                    &a.name,
                    &text(&q.position, a.mv),
                    &a.mv.to_string(),
                    &seconds(a.millis),
                    if q.is_correct(a.mv) { "1" } else { "0" },
                    "",
                ]);
            }
        }
        for s in self.standings() {
            line([
                "score",
                "",
                "",
                "",
                &s.name,
                "",
                "",
                &seconds(s.millis),
                &s.answered.to_string(),
                &s.points.to_string(),
            ]);
        }
        out
    }
}

/// The record's columns. On a `score` line `seconds` is the time over the right answers
/// and `correct` the number of questions answered.
pub const HEADER: [&str; 10] = [
    "type", "question", "task", "fen", "name", "move", "iccs", "seconds", "correct", "points",
];

fn seconds(millis: u64) -> String {
    format!("{}.{}", millis / 1000, millis % 1000 / 100)
}

/// A cell: quoted when it holds a comma, quote or line break, and kept from being read as
/// a formula by a spreadsheet (a name may start with `=`).
fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// Why a class record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong there.
    pub kind: RecordErrorKind,
}

/// What is wrong with a line of a class record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The first line is not the record's header.
    NotARecord,
    /// A quote opened and not closed.
    Unclosed,
    /// Fewer cells than the header's.
    TooFewCells(usize),
    /// A score's points are not a number.
    BadPoints(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            RecordErrorKind::NotARecord => write!(f, "not a class record (no header)"),
            RecordErrorKind::Unclosed => write!(f, "a quoted cell is not closed"),
            RecordErrorKind::TooFewCells(n) => {
                write!(f, "{n} cells where {} are needed", HEADER.len())
            }
            RecordErrorKind::BadPoints(p) => write!(f, "points {p:?} are not a number"),
        }
    }
}

impl std::error::Error for RecordError {}

/// A student's score as a saved record gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedScore {
    /// The name.
    pub name: String,
    /// Right answers.
    pub points: u32,
    /// Questions answered.
    pub answered: u32,
}

/// The scores of a record written by [`ClassRecord::to_csv`].
pub fn read_scores(csv: &str) -> Result<Vec<SavedScore>, RecordError> {
    let csv = csv.strip_prefix('\u{feff}').unwrap_or(csv);
    let mut scores = Vec::new();
    for (i, line) in csv.lines().enumerate() {
        let at = |kind| RecordError { line: i + 1, kind };
        let cells = split_csv(line).ok_or_else(|| at(RecordErrorKind::Unclosed))?;
        if i == 0 {
            if cells.first().map(String::as_str) != Some(HEADER[0]) || cells.len() < HEADER.len() {
                return Err(at(RecordErrorKind::NotARecord));
            }
            continue;
        }
        if line.trim().is_empty() || cells[0] != "score" {
            continue;
        }
        if cells.len() < HEADER.len() {
            return Err(at(RecordErrorKind::TooFewCells(cells.len())));
        }
        let points = cells[9]
            .parse()
            .map_err(|_| at(RecordErrorKind::BadPoints(cells[9].clone())))?;
        let name = cells[4].clone();
        let name = match name.strip_prefix('\'') {
            Some(rest) if rest.starts_with(['=', '+', '-', '@']) => rest.to_owned(),
            _ => name,
        };
        scores.push(SavedScore {
            name,
            points,
            answered: cells[8].parse().unwrap_or(0),
        });
    }
    if csv.trim().is_empty() {
        return Err(RecordError {
            line: 1,
            kind: RecordErrorKind::NotARecord,
        });
    }
    Ok(scores)
}

/// The cells of one CSV line (`None`: a quote left open).
fn split_csv(line: &str) -> Option<Vec<String>> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',') => cells.push(std::mem::take(&mut cell)),
            (_, c) => cell.push(c),
        }
    }
    if quoted {
        return None;
    }
    cells.push(cell);
    Some(cells)
}

/// The right answers to "mate in N" in `position`: the shortest mate within `max_moves`
/// and every first move of it, or `None` when the solver finds none in `time` (or before
/// `stop` is set).
pub fn mate_answers(
    position: &Position,
    max_moves: u32,
    time: Duration,
    stop: &Arc<AtomicBool>,
) -> Option<(u32, Vec<Move>)> {
    let options = SolveOptions {
        time_limit: Some(time),
        ..SolveOptions::mate_in(max_moves)
    };
    let mut solver = solver::Solver::new(SOLVER_TABLE_BITS);
    solver.set_stop(stop.clone());
    let solution = solver.solve(position, &options);
    let k = solution.mate_in()?;
    Some((k, solution.first_moves))
}

/// How far below the best move's score another move may be and still count as just as
/// good, in centipawns: about the engine's own wobble from one move's search to the
/// next's, so that moves it cannot really tell apart are all right (the opening's 炮二平五
/// beside its two pawn moves, say), while a move that gives anything away is not.
pub const EQUAL_MARGIN_CP: i32 = 20;

/// The moves of `scored` that are as good as the best of them: for a mate, every move that
/// mates as soon (or, when every move is mated, holds out as long); otherwise every move
/// within `margin_cp` centipawns of the best score. In the order given.
pub fn as_good_as_best(scored: &[(Move, Score)], margin_cp: i32) -> Vec<Move> {
    let Some(best) = scored.iter().map(|&(_, s)| s).max() else {
        return Vec::new();
    };
    scored
        .iter()
        .filter(|&&(_, score)| match (best, score) {
            (Score::Mate(_), _) => score == best,
            (Score::Cp(best), Score::Cp(cp)) => cp >= best.saturating_sub(margin_cp),
            // Below every score in centipawns: being mated.
            (Score::Cp(_), Score::Mate(_)) => false,
        })
        .map(|&(mv, _)| mv)
        .collect()
}

/// The right answers to "the best move" in `position`: every move that mates soonest if
/// the solver finds a short mate; else every move the engine scores as good as its best
/// ([`as_good_as_best`] with [`EQUAL_MARGIN_CP`]), each root move searched to the same
/// depth (all of them as lines of one search) within about `nodes` nodes (a count, not a
/// time, so the same position gets the same answer). Empty when there is no legal move,
/// or when `stop` is set before the search ends (the answer is no longer wanted).
pub fn best_answers(position: &Position, nodes: u64, stop: &Arc<AtomicBool>) -> Vec<Move> {
    if let Some((_, moves)) = mate_answers(position, 3, Duration::from_millis(500), stop) {
        return moves;
    }
    let legal = position.legal_moves();
    if legal.len() <= 1 {
        // Nothing to compare: the only move is the best.
        return legal.iter().copied().collect();
    }
    let mut engine = Engine::new(Options {
        multipv: legal.len(),
        ..Options::default()
    });
    // The lines of the deepest iteration that finished: each move searched as deep as the
    // others (an iteration cut short by the node count has only some of them).
    let finished: Arc<Mutex<Vec<(Move, Score)>>> = Arc::default();
    let seen = finished.clone();
    engine.start(
        &SearchRoot::new(position.clone()),
        Limits::nodes(nodes),
        move |event| {
            if let Event::Iteration(report) = event {
                let lines = report
                    .lines
                    .iter()
                    .filter_map(|line| Some((*line.moves.first()?, line.score)))
                    .collect();
                *seen.lock().unwrap_or_else(|e| e.into_inner()) = lines;
            }
        },
    );
    while engine.is_searching() {
        if stop.load(Ordering::Relaxed) {
            engine.stop();
            return Vec::new();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let best = engine.wait().and_then(|result| result.best_move);
    let lines = std::mem::take(&mut *finished.lock().unwrap_or_else(|e| e.into_inner()));
    let mut right = as_good_as_best(&lines, EQUAL_MARGIN_CP);
    // The engine's own choice is right whatever the lines say (no iteration may have
    // finished within a very small count).
    if let Some(best) = best
        && !right.contains(&best)
    {
        right.insert(0, best);
    }
    right
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(fen: &str) -> Question {
        Question::new(Kind::BestMove, fen.parse().unwrap(), "")
    }

    fn answer(name: &str, mv: &str, millis: u64) -> Answer {
        Answer {
            name: name.to_owned(),
            mv: mv.parse().unwrap(),
            millis,
        }
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn a_student_answers_once_and_only_a_legal_move() {
        let mut q = question(START);
        assert_eq!(q.take(answer("Li", "h2e2", 10)), Ok(()));
        assert_eq!(
            q.take(answer(" li ", "b2e2", 20)),
            Err(Refusal::AlreadyAnswered)
        );
        assert_eq!(q.take(answer("Wang", "h2h9", 20)), Ok(()));
        assert_eq!(q.take(answer("Zhao", "e3e5", 20)), Err(Refusal::Illegal));
        assert_eq!(q.answers.len(), 2);
    }

    #[test]
    fn the_tally_counts_each_move_and_marks_the_right_ones() {
        let mut q = question(START);
        q.correct = vec!["h2e2".parse().unwrap(), "b2e2".parse().unwrap()];
        for (name, mv) in [
            ("a", "b0c2"),
            ("b", "h2e2"),
            ("c", "h2e2"),
            ("d", "b0c2"),
            ("e", "c3c4"),
            ("f", "h2e2"),
        ] {
            q.take(answer(name, mv, 1000)).unwrap();
        }
        let tally: Vec<(String, usize, bool)> = q
            .tally()
            .iter()
            .map(|c| (c.mv.to_string(), c.count, c.correct))
            .collect();
        assert_eq!(
            tally,
            [
                ("h2e2".to_owned(), 3, true),
                ("b0c2".to_owned(), 2, false),
                ("c3c4".to_owned(), 1, false),
                ("b2e2".to_owned(), 0, true),
            ]
        );
        assert_eq!(q.right(), 3);
        // The teacher's own answer re-judges what was given.
        q.toggle_correct("b0c2".parse().unwrap());
        assert_eq!(q.right(), 5);
    }

    #[test]
    fn the_revealed_board_draws_the_answer_and_a_few_right_moves_the_class_gave_most() {
        let mut q = question(START);
        // Five right moves, the set answer first; seven moves given, three of them wrong.
        q.correct = ["g3g4", "c3c4", "h0g2", "b0c2", "b2e2"]
            .map(|m| m.parse().unwrap())
            .to_vec();
        let given = [
            ("h2e2", 5),
            ("b2e2", 3),
            ("h0g2", 2),
            ("b0c2", 2),
            ("i0i1", 1),
            ("c3c4", 1),
            ("a3a4", 1),
        ];
        let mut n = 0;
        for (mv, count) in given {
            for _ in 0..count {
                n += 1;
                q.take(answer(&format!("s{n}"), mv, 1000)).unwrap();
            }
        }
        let drawn: Vec<(String, bool)> = q
            .drawn_answers()
            .iter()
            .map(|d| (d.mv.to_string(), d.main))
            .collect();
        // The answer (given by no one), then the right moves given most; c3c4, given once,
        // is past the cap, and no wrong move is drawn, however often it was given.
        assert_eq!(
            drawn,
            [
                ("g3g4".to_owned(), true),
                ("b2e2".to_owned(), false),
                ("h0g2".to_owned(), false),
                ("b0c2".to_owned(), false),
            ]
        );
        assert_eq!(drawn.len(), MOVES_DRAWN);
        // No right move known: nothing is drawn.
        q.correct.clear();
        assert!(q.drawn_answers().is_empty());
    }

    #[test]
    fn scores_add_up_over_the_questions_faster_first_on_equal_points() {
        let mut record = ClassRecord::default();
        let mut first = question(START);
        first.correct = vec!["h2e2".parse().unwrap()];
        first.take(answer("Li", "h2e2", 4000)).unwrap();
        first.take(answer("Wang", "h2e2", 2000)).unwrap();
        first.take(answer("Zhao", "b0c2", 1000)).unwrap();
        let mut second = question(START);
        second.correct = vec!["b0c2".parse().unwrap()];
        second.take(answer("LI", "b0c2", 1000)).unwrap();
        second.take(answer("Zhao", "b0c2", 9000)).unwrap();
        record.questions = vec![first, second];
        let table: Vec<(String, u32, u32, u64)> = record
            .standings()
            .into_iter()
            .map(|s| (s.name, s.points, s.answered, s.millis))
            .collect();
        assert_eq!(
            table,
            [
                ("Li".to_owned(), 2, 2, 5000),
                ("Wang".to_owned(), 1, 1, 2000),
                ("Zhao".to_owned(), 1, 2, 9000),
            ]
        );
    }

    #[test]
    fn names_are_trimmed_capped_and_kept_to_one_line() {
        assert_eq!(clean_name("  <b>小明</b> "), Ok("<b>小明</b>".to_owned()));
        assert_eq!(clean_name("   "), Err(NameError::Empty));
        assert_eq!(clean_name("a\nb"), Err(NameError::Control(1)));
        assert_eq!(
            clean_name(&"象".repeat(MAX_NAME_CHARS)).map(|n| n.chars().count()),
            Ok(MAX_NAME_CHARS)
        );
        assert_eq!(
            clean_name(&"象".repeat(MAX_NAME_CHARS + 1)),
            Err(NameError::TooLong)
        );
    }

    #[test]
    fn the_record_as_csv_reads_back_its_scores() {
        let mut record = ClassRecord::default();
        let mut q = Question::new(Kind::MateIn(1), START.parse().unwrap(), "第1局");
        q.correct = vec!["h2e2".parse().unwrap()];
        q.take(answer("Smith, \"Jo\"", "h2e2", 1500)).unwrap();
        q.take(answer("=1+1", "b0c2", 2500)).unwrap();
        record.questions.push(q);
        let csv = record.to_csv(&|k| k.code(), &|_, m| format!("<{m}>"));
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], HEADER.join(","));
        assert_eq!(
            lines[1],
            format!("question,1,mate 1 第1局,{START},,<h2e2>,h2e2,,,")
        );
        assert_eq!(
            lines[2],
            "answer,1,,,\"Smith, \"\"Jo\"\"\",<h2e2>,h2e2,1.5,1,"
        );
        // A spreadsheet does not take the name for a formula.
        assert_eq!(lines[3], "answer,1,,,'=1+1,<b0c2>,b0c2,2.5,0,");
        let scores = read_scores(&csv).unwrap();
        assert_eq!(
            scores,
            [
                SavedScore {
                    name: "Smith, \"Jo\"".to_owned(),
                    points: 1,
                    answered: 1
                },
                SavedScore {
                    name: "=1+1".to_owned(),
                    points: 0,
                    answered: 1
                },
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_a_record_says_where() {
        assert_eq!(
            read_scores("name,points\r\nLi,3\r\n").unwrap_err().kind,
            RecordErrorKind::NotARecord
        );
        let bad = format!("{}\r\nscore,,,,Li,,,0.0,1,many\r\n", HEADER.join(","));
        assert_eq!(
            read_scores(&bad).unwrap_err(),
            RecordError {
                line: 2,
                kind: RecordErrorKind::BadPoints("many".to_owned())
            }
        );
        let open = format!("{}\r\nscore,,,,\"Li,,,0.0,1,1\r\n", HEADER.join(","));
        assert_eq!(
            read_scores(&open).unwrap_err().kind,
            RecordErrorKind::Unclosed
        );
        let short = format!("{}\r\nscore,,,,Li\r\n", HEADER.join(","));
        assert_eq!(
            read_scores(&short).unwrap_err().kind,
            RecordErrorKind::TooFewCells(5)
        );
        assert_eq!(read_scores("").unwrap_err().line, 1);
    }

    #[test]
    fn the_solver_gives_every_first_move_of_the_shortest_mate() {
        // Two rooks: the mate in one along the back rank.
        let position: Position = "3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1".parse().unwrap();
        let go = Arc::new(AtomicBool::new(false));
        let (k, moves) = mate_answers(&position, 3, Duration::from_secs(30), &go).unwrap();
        let solved = solver::solve(&position, &SolveOptions::mate_in(3));
        assert_eq!(Some(k), solved.mate_in());
        assert_eq!(moves, solved.first_moves);
        assert!(!moves.is_empty());
        // Each first move leaves the defender lost in k − 1.
        for m in moves {
            let after = position.play(m).unwrap();
            assert!(k > 1 || after.legal_moves().is_empty(), "{m}");
        }
    }

    /// Four moves, and each with its score of `scores`.
    fn four_scored(scores: [Score; 4]) -> ([Move; 4], Vec<(Move, Score)>) {
        let moves = ["h2e2", "b2e2", "h0g2", "c3c4"].map(|m| m.parse::<Move>().unwrap());
        (moves, moves.into_iter().zip(scores).collect())
    }

    #[test]
    fn moves_within_the_margin_of_the_best_are_as_good() {
        use Score::Cp;
        let ([a, b, c, _], scored) = four_scored([Cp(40), Cp(50), Cp(35), Cp(34)]);
        assert_eq!(as_good_as_best(&scored, 15), [a, b, c]);
        assert_eq!(as_good_as_best(&scored, 0), [b]);
        assert!(as_good_as_best(&[], 15).is_empty());
        // Being mated is below every score in centipawns, however far down.
        let scored = [(a, Score::Cp(-900)), (b, Score::Mate(-9))];
        assert_eq!(as_good_as_best(&scored, 15), [a]);
    }

    #[test]
    fn only_a_mate_as_soon_is_as_good_as_a_mate() {
        use Score::{Cp, Mate};
        let ([a, b, c, d], scored) = four_scored([Mate(3), Mate(2), Cp(2000), Mate(2)]);
        assert_eq!(as_good_as_best(&scored, 15), [b, d]);
        // When every move is mated, the right ones hold out longest.
        let scored = [
            (a, Score::Mate(-1)),
            (b, Score::Mate(-4)),
            (c, Score::Mate(-4)),
        ];
        assert_eq!(as_good_as_best(&scored, 15), [b, c]);
    }

    #[test]
    fn the_best_move_counts_every_move_that_mates_as_soon() {
        // A mate in four, too long for the short look the solver takes first: the engine
        // finds it behind several first moves (each advisor step), and counts all of them
        // as the solver does, and not a mate in five.
        let position: Position = "4k4/4a4/9/9/9/9/9/p3R3p/4A4/4K4 w - - 0 1".parse().unwrap();
        let go = Arc::new(AtomicBool::new(false));
        assert_eq!(
            mate_answers(&position, 3, Duration::from_secs(30), &go),
            None
        );
        let mut right = best_answers(&position, 100_000, &go);
        let solved = solver::solve(&position, &SolveOptions::mate_in(4));
        assert_eq!(solved.mate_in(), Some(4));
        let mut first = solved.first_moves.clone();
        right.sort_by_key(Move::to_string);
        first.sort_by_key(Move::to_string);
        assert!(first.len() > 1, "{first:?}");
        assert_eq!(right, first);
    }

    #[test]
    fn the_best_move_takes_a_chariot_left_hanging() {
        // The black chariot attacks Red's and nothing guards it.
        let position: Position = "4k4/9/9/9/4r4/9/9/9/9/3KR4 w - - 0 1".parse().unwrap();
        let moves = best_answers(&position, 20_000, &Arc::new(AtomicBool::new(false)));
        assert_eq!(moves, ["e0e5".parse::<Move>().unwrap()]);
        // A search no longer wanted gives up.
        let start: Position = START.parse().unwrap();
        assert!(best_answers(&start, u64::MAX, &Arc::new(AtomicBool::new(true))).is_empty());
    }
}
