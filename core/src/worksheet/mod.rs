//! Worksheets (习题纸): a selection of positions printed as diagrams for a class, each with
//! its number, title, side to move and goal ("红先胜", "红先，三步杀") and an optional hint,
//! under a header for the class, the date and the pupil's name; the answers follow on pages
//! of their own, each solution in the chosen notation with its key moves as small diagrams.
//!
//! [`Worksheet`] is what is printed, in the user's words ([`Words`]); [`pdf::write`] makes
//! the PDF; [`input`] reads the files `chuhe-engine worksheet` takes and [`solve`] finds a
//! goal and an answer for a position that has none.

pub mod input;
pub mod pdf;

use crate::notation::{Notation, format_move};
use crate::puzzle::{Goal, Puzzle};
use crate::solver::{SolveOptions, Solver, Verdict};
use crate::{Color, Move, Piece, PieceKind, Position};
use std::time::Duration;

/// One position of a worksheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its title ("第一局", a pattern's name …), possibly empty.
    pub title: String,
    /// The position; the side to move is the one to solve it.
    pub position: Position,
    /// What the solver must achieve, when known.
    pub goal: Option<Goal>,
    /// A hint printed under the diagram.
    pub hint: Option<String>,
    /// The solution's main line from `position`, when known.
    pub answer: Option<Vec<Move>>,
}

impl Entry {
    /// A position with nothing known about it yet.
    pub fn new(title: impl Into<String>, position: Position) -> Entry {
        Entry {
            title: title.into(),
            position,
            goal: None,
            hint: None,
            answer: None,
        }
    }

    /// A puzzle's position, goal and main line.
    pub fn from_puzzle(puzzle: &Puzzle) -> Entry {
        let line = puzzle.main_line();
        Entry {
            title: puzzle.title.clone(),
            position: puzzle.position.clone(),
            goal: Some(puzzle.goal),
            hint: None,
            answer: (!line.is_empty()).then_some(line),
        }
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }
}

/// The paper size.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Both sizes, A4 first.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// Width and height in PDF points (1/72 in).
    pub const fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// How many diagrams a worksheet page holds.
pub const PER_PAGE: [usize; 6] = [1, 2, 4, 6, 9, 12];

/// Whether `n` diagrams a page is one of the layouts ([`PER_PAGE`]).
pub fn is_per_page(n: usize) -> bool {
    PER_PAGE.contains(&n)
}

/// The colours of the printed diagrams.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PrintStyle {
    /// Black and white for any printer or copier: a white board, black lines, Red's pieces
    /// white with black characters, Black's black with white ones.
    #[default]
    BlackAndWhite,
    /// Red and black ink on a white board, for a colour printer or the screen.
    Colour,
}

/// The words a worksheet prints, in the user's language: the app passes its translations,
/// the command line the Chinese ones ([`Words::chinese`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// "班级".
    pub class: String,
    /// "日期".
    pub date: String,
    /// "姓名".
    pub name: String,
    /// "答案", the heading of the answer pages.
    pub answers: String,
    /// Said of a position without an answer ("未解").
    pub no_answer: String,
    /// A hint line, `{hint}` for the hint ("提示：{hint}").
    pub hint: String,
    /// The hint made from an answer, `{piece}` for the piece that moves first ("先走{piece}").
    pub first_move: String,
    /// The pieces' names in a hint, by side (Red first) and kind ([`PieceKind::ALL`]'s order).
    pub pieces: [[String; 7]; 2],
    /// Red to move (红先).
    pub red_first: String,
    /// Black to move (黑先).
    pub black_first: String,
    /// The goal "to win", `{side}` for the side ("{side}胜").
    pub win: String,
    /// The goal "to draw" ("{side}和").
    pub draw: String,
    /// A mate in `{n}` moves ("{side}，{n}步杀").
    pub mate: String,
    /// A mate by checks in `{n}` moves ("{side}，{n}步连杀").
    pub mate_checks: String,
    /// Whether `{n}` is written in Chinese numerals (三) rather than digits.
    pub chinese_numbers: bool,
}

impl Words {
    /// The simplified Chinese words.
    pub fn chinese() -> Words {
        Words {
            class: "班级".into(),
            date: "日期".into(),
            name: "姓名".into(),
            answers: "答案".into(),
            no_answer: "未解出".into(),
            hint: "提示：{hint}".into(),
            first_move: "先走{piece}".into(),
            pieces: [Color::Red, Color::Black]
                .map(|color| PieceKind::ALL.map(|kind| Piece::new(color, kind).hanzi().into())),
            red_first: "红先".into(),
            black_first: "黑先".into(),
            win: "{side}胜".into(),
            draw: "{side}和".into(),
            mate: "{side}，{n}步杀".into(),
            mate_checks: "{side}，{n}步连杀".into(),
            chinese_numbers: true,
        }
    }

    /// The goal line of an entry: "红先胜", "红先，三步杀", or only "红先" without a goal.
    pub fn goal(&self, side: Color, goal: Option<Goal>) -> String {
        let side = match side {
            Color::Red => &self.red_first,
            Color::Black => &self.black_first,
        };
        let template = match goal {
            None => return side.clone(),
            Some(Goal::Win) => &self.win,
            Some(Goal::Draw) => &self.draw,
            Some(Goal::Mate {
                checks_only: false, ..
            }) => &self.mate,
            Some(Goal::Mate {
                checks_only: true, ..
            }) => &self.mate_checks,
        };
        let n = match goal {
            Some(Goal::Mate { moves, .. }) if self.chinese_numbers => chinese_number(moves),
            Some(Goal::Mate { moves, .. }) => moves.to_string(),
            _ => String::new(),
        };
        template.replace("{side}", side).replace("{n}", &n)
    }
}

impl Words {
    /// The hint for a position and its answer: which piece moves first ("先走车"), named as
    /// the side to move calls it; `None` when the answer is empty or does not start with
    /// one of the side's pieces.
    pub fn first_move_hint(&self, position: &Position, answer: &[Move]) -> Option<String> {
        let piece = position.piece_at(answer.first()?.from)?;
        if piece.color != position.side_to_move() {
            return None;
        }
        let name = &self.pieces[piece.color as usize][piece.kind as usize];
        Some(self.first_move.replace("{piece}", name))
    }

    /// The printed hint line of `hint` ("提示：先走车").
    pub fn hint_line(&self, hint: &str) -> String {
        self.hint.replace("{hint}", hint)
    }
}

/// Gives every entry that has an answer and no hint yet the hint of its first move
/// ([`Words::first_move_hint`]).
pub fn add_hints(entries: &mut [Entry], words: &Words) {
    for entry in entries.iter_mut().filter(|e| e.hint.is_none()) {
        if let Some(answer) = &entry.answer {
            entry.hint = words.first_move_hint(&entry.position, answer);
        }
    }
}

/// `n` in Chinese numerals, as move counts are written (三, 十二, 二十).
pub fn chinese_number(n: u32) -> String {
    const DIGITS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = |d: u32| DIGITS[d as usize];
    // The ones after 十, none for a round ten.
    let ones = |n: u32| match n % 10 {
        0 => String::new(),
        d => digit(d).to_string(),
    };
    match n {
        0..=9 => digit(n).to_string(),
        10..=19 => format!("十{}", ones(n)),
        20..=99 => format!("{}十{}", digit(n / 10), ones(n)),
        _ => n.to_string(),
    }
}

/// How a worksheet is laid out and what it prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// A4 or Letter.
    pub paper: Paper,
    /// Diagrams a page: one of [`PER_PAGE`].
    pub per_page: usize,
    /// Whether answer pages follow.
    pub answers: bool,
    /// The notation of the answers.
    pub notation: Notation,
    /// Black and white or colour.
    pub style: PrintStyle,
    /// Pieces and river in traditional characters.
    pub traditional: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            paper: Paper::A4,
            per_page: 6,
            answers: true,
            notation: Notation::Chinese,
            style: PrintStyle::BlackAndWhite,
            traditional: false,
        }
    }
}

/// A worksheet: its header and its positions, numbered from 1 in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worksheet {
    /// The title at the top of each page.
    pub title: String,
    /// The class, printed in the header (a blank line to fill in when empty).
    pub class: String,
    /// The date, printed in the header (a blank line when empty).
    pub date: String,
    /// The positions.
    pub entries: Vec<Entry>,
}

/// The moves of `line` from `position` in `notation`, numbered by the solver's moves:
/// "1. 炮二平五 将5平4 2. 车一进一".
pub fn answer_text(position: &Position, line: &[Move], notation: Notation) -> String {
    let mut pos = position.clone();
    let mut words = Vec::new();
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 0 {
            words.push(format!("{}.", i / 2 + 1));
        }
        words.push(format_move(&pos, m, notation));
        if pos.play(m).map(|next| pos = next).is_err() {
            break;
        }
    }
    words.join(" ")
}

/// How hard [`solve`] looks for a mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Mates with any moves are looked for up to this many moves.
    pub any_moves: u32,
    /// Then mates by consecutive checks (连将杀, the classic compositions) up to this many.
    pub checks: u32,
    /// The time each of the two searches may take.
    pub time: Duration,
}

impl Default for SolveLimits {
    fn default() -> SolveLimits {
        SolveLimits {
            any_moves: 3,
            checks: 15,
            time: Duration::from_secs(10),
        }
    }
}

/// The shortest mate the solver finds for `position` within `limits`, as a goal and its
/// main line; `None` when it finds none.
pub fn solve(
    solver: &mut Solver,
    position: &Position,
    limits: SolveLimits,
) -> Option<(Goal, Vec<Move>)> {
    let searches = [
        (
            SolveOptions {
                time_limit: Some(limits.time),
                ..SolveOptions::mate_in(limits.any_moves)
            },
            false,
        ),
        (
            SolveOptions {
                time_limit: Some(limits.time),
                ..SolveOptions::checks_only(limits.checks)
            },
            true,
        ),
    ];
    for (options, checks_only) in searches {
        if options.max_moves == 0 {
            continue;
        }
        let solution = solver.solve(position, &options);
        // A line the time limit cut is no answer.
        if let Verdict::Mate(moves) = solution.verdict
            && solution.line_complete
        {
            let goal = Goal::Mate { moves, checks_only };
            return Some((goal, solution.line));
        }
    }
    None
}

/// Fills in the goal and answer of every entry that lacks them from the solver; returns
/// the indices of the entries it could not solve (they stay without an answer).
pub fn solve_missing(entries: &mut [Entry], limits: SolveLimits) -> Vec<usize> {
    let mut solver = Solver::default();
    let mut unsolved = Vec::new();
    for (i, entry) in entries.iter_mut().enumerate() {
        if entry.answer.is_some() {
            continue;
        }
        let wanted = entry.goal.and_then(Goal::solve_options);
        let found = match (entry.goal, wanted) {
            // A mate goal from the file: solve exactly that.
            (Some(goal), Some(options)) => {
                let options = SolveOptions {
                    time_limit: Some(limits.time),
                    ..options
                };
                let s = solver.solve(&entry.position, &options);
                (matches!(s.verdict, Verdict::Mate(_)) && s.line_complete).then_some((goal, s.line))
            }
            // A win or draw to show: the solver cannot prove those.
            (Some(_), None) => None,
            (None, _) => solve(&mut solver, &entry.position, limits),
        };
        match found {
            Some((goal, line)) => {
                entry.goal = Some(goal);
                entry.answer = Some(line);
            }
            None => unsolved.push(i),
        }
    }
    unsolved
}

#[cfg(test)]
mod tests {
    use super::*;

    // 1. 车二平五 将5平6 2. 车五进七: the unique mate in two.
    const MATE_IN_TWO: &str = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1";

    #[test]
    fn goals_are_worded_with_the_side_and_the_count() {
        let words = Words::chinese();
        let mate = |moves, checks_only| Some(Goal::Mate { moves, checks_only });
        assert_eq!(words.goal(Color::Red, Some(Goal::Win)), "红先胜");
        assert_eq!(words.goal(Color::Black, Some(Goal::Draw)), "黑先和");
        assert_eq!(words.goal(Color::Red, mate(3, false)), "红先，三步杀");
        assert_eq!(words.goal(Color::Red, mate(12, true)), "红先，十二步连杀");
        assert_eq!(words.goal(Color::Red, None), "红先");
        assert_eq!(chinese_number(20), "二十");
        assert_eq!(chinese_number(35), "三十五");
    }

    #[test]
    fn a_hint_names_the_piece_that_moves_first_as_its_side_calls_it() {
        let words = Words::chinese();
        let red: Position = MATE_IN_TWO.parse().unwrap();
        let rook_first: Vec<Move> = vec!["h1e1".parse().unwrap()];
        assert_eq!(
            words.first_move_hint(&red, &rook_first).as_deref(),
            Some("先走车")
        );
        let black: Position = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 b - - 0 1".parse().unwrap();
        let general_first: Vec<Move> = vec!["e9f9".parse().unwrap()];
        assert_eq!(
            words.first_move_hint(&black, &general_first).as_deref(),
            Some("先走将")
        );
        // A move from an empty point or of the other side's piece gives no hint.
        assert_eq!(words.first_move_hint(&red, &general_first), None);
        assert_eq!(words.first_move_hint(&red, &[]), None);
        assert_eq!(words.hint_line("先走车"), "提示：先走车");

        let mut entries = vec![
            Entry {
                answer: Some(rook_first),
                ..Entry::new("solved", red.clone())
            },
            Entry::new("unsolved", red),
        ];
        add_hints(&mut entries, &words);
        assert_eq!(entries[0].hint.as_deref(), Some("先走车"));
        assert_eq!(entries[1].hint, None);
    }

    #[test]
    fn the_solver_fills_in_a_mate_and_leaves_the_start_position_unsolved() {
        let mut entries = vec![
            Entry::new("two", MATE_IN_TWO.parse().unwrap()),
            Entry::new("start", Position::startpos()),
        ];
        let limits = SolveLimits {
            any_moves: 2,
            checks: 3,
            time: Duration::from_secs(5),
        };
        assert_eq!(solve_missing(&mut entries, limits), vec![1]);
        assert_eq!(
            entries[0].goal,
            Some(Goal::Mate {
                moves: 2,
                checks_only: false
            })
        );
        let line = entries[0].answer.as_ref().unwrap();
        assert_eq!(
            answer_text(&entries[0].position, line, Notation::Chinese),
            "1. 车二平五 将５平６ 2. 车五进七"
        );
        assert_eq!(entries[1].answer, None);
    }
}
