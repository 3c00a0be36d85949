//! Training that remembers (训练): one queue of every kind of item — a puzzle, a proved
//! position of the 36 checkmate patterns, an endgame-table position to win, a line of the
//! user's opening repertoire — each brought back by FSRS just before it would be forgotten.
//!
//! An [`Item`] is what is asked: a start position and a [`Task`] that says which moves are
//! right. A [`drill::Drill`] runs one attempt and turns it into an [`drill::Attempt`], whose
//! grade ([`schedule::Grade`]) the scheduler ([`schedule`]) turns into the item's next due
//! date. What was asked and when lives in [`store::TrainingData`], saved after each grade.
//!
//! Items are named by a stable text key, so the memory of an item survives a new version of
//! the puzzle sets: `puzzle:<set>/<id>`, `pattern:<id>`, `endgame:<FEN>` and
//! `opening:<repertoire>:<moves in ICCS>`.

pub mod drill;
pub mod schedule;
pub mod store;

use crate::puzzle::{PuzzleSet, SolutionNode};
use crate::record::{NodeId, Record};
use crate::{Color, Move, Position};
use serde::{Deserialize, Serialize};

/// What kind of thing an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A line of the user's opening repertoire (开局).
    Opening,
    /// A proved position of one of the 36 checkmate patterns (杀法).
    Pattern,
    /// A built-in or user puzzle (残局题).
    Puzzle,
    /// An endgame-table position to win against perfect defence (实用残局).
    Endgame,
}

impl Kind {
    /// Every kind, in the order a round mixes them.
    pub const ALL: [Kind; 4] = [Kind::Opening, Kind::Pattern, Kind::Puzzle, Kind::Endgame];
}

/// What the user must do in an item, and how their moves are judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Task {
    /// Follow a solution tree (a puzzle, a pattern): the user plays the side to move at
    /// the start; each of their moves must be one of the tree's, and the tree's first reply
    /// is played back, until the tree ends.
    Tree(Vec<SolutionNode>),
    /// Play the user's moves of an opening line; the other side's are played for them.
    Line {
        /// The line from the start position.
        moves: Vec<Move>,
        /// The side the user plays.
        user: Color,
        /// For each ply, the other moves the repertoire plays in the same position (a move
        /// of another line is not a mistake, only not this line's).
        elsewhere: Vec<Vec<Move>>,
    },
    /// Win as the side to move against the endgame table's best defence.
    Table,
}

/// One thing to train.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its stable key (see the module's documentation).
    pub id: String,
    /// Its kind.
    pub kind: Kind,
    /// Its title.
    pub title: String,
    /// The position it starts from.
    pub start: Position,
    /// What is asked.
    pub task: Task,
}

impl Item {
    /// The side the user plays.
    pub fn user(&self) -> Color {
        match &self.task {
            Task::Line { user, .. } => *user,
            Task::Tree(_) | Task::Table => self.start.side_to_move(),
        }
    }
}

/// The items of a puzzle set (its puzzles with a solution), as `kind` (the checkmate
/// patterns' set gives [`Kind::Pattern`] items); `set_key` names the set in the items' keys.
pub fn puzzle_items(set_key: &str, set: &PuzzleSet, kind: Kind) -> Vec<Item> {
    set.puzzles
        .iter()
        .filter(|p| !p.solution.is_empty())
        .map(|p| Item {
            id: match kind {
                Kind::Pattern => format!("pattern:{}", p.id),
                _ => format!("puzzle:{set_key}/{}", p.id),
            },
            kind,
            title: p.title.clone(),
            start: p.position.clone(),
            task: Task::Tree(p.solution.clone()),
        })
        .collect()
}

/// An endgame-table position kept for training: win it as the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndgamePosition {
    /// The position.
    pub fen: String,
    /// What the user called it (or the material).
    pub title: String,
}

impl EndgamePosition {
    /// Its item, or `None` when the FEN is not a legal position.
    pub fn item(&self) -> Option<Item> {
        Some(Item {
            id: format!("endgame:{}", self.fen),
            kind: Kind::Endgame,
            title: self.title.clone(),
            start: self.fen.parse().ok()?,
            task: Task::Table,
        })
    }
}

/// An opening repertoire: the lines the user plays as one side, from a study file or a
/// branch of the built-in opening tree, kept as they were when marked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repertoire {
    /// A key unique among the repertoires.
    pub id: String,
    /// Its name (the file's, or the opening's).
    pub name: String,
    /// The side the user plays.
    pub user: Color,
    /// The start position.
    pub fen: String,
    /// Its lines, each the moves in ICCS separated by spaces.
    pub lines: Vec<String>,
}

impl Repertoire {
    /// A repertoire of every line of `record` (each way from the start to the end of a
    /// variation), cut after the user's last move; lines with no move of the user's are
    /// left out, and lines that become the same are kept once.
    pub fn from_record(id: &str, name: &str, user: Color, record: &Record) -> Repertoire {
        fn walk(record: &Record, at: NodeId, line: &mut Vec<Move>, out: &mut Vec<Vec<Move>>) {
            let mut any = false;
            for child in record.children(at) {
                if let Some(mv) = record.move_at(child) {
                    any = true;
                    line.push(mv);
                    walk(record, child, line, out);
                    line.pop();
                }
            }
            if !any {
                out.push(line.clone());
            }
        }
        let mut lines = Vec::new();
        walk(record, record.root(), &mut Vec::new(), &mut lines);
        Repertoire::from_lines(id, name, user, record.start(), lines)
    }

    /// A repertoire of the given lines from `start` (see [`Repertoire::from_record`]).
    pub fn from_lines(
        id: &str,
        name: &str,
        user: Color,
        start: &Position,
        lines: Vec<Vec<Move>>,
    ) -> Repertoire {
        let first_user_ply = usize::from(start.side_to_move() != user);
        let mut kept: Vec<String> = Vec::new();
        for mut line in lines {
            // The user's moves are every other ply from their first.
            while line.len() > first_user_ply && (line.len() - 1 - first_user_ply) % 2 == 1 {
                line.pop();
            }
            if line.len() <= first_user_ply {
                continue;
            }
            let text = line
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            if !kept.contains(&text) {
                kept.push(text);
            }
        }
        Repertoire {
            id: id.to_owned(),
            name: name.to_owned(),
            user,
            fen: start.to_string(),
            lines: kept,
        }
    }

    /// Its items, one per line, in order: the lines whose moves are not legal from the
    /// start position (a damaged file) are left out.
    pub fn items(&self) -> Vec<Item> {
        let Ok(start) = self.fen.parse::<Position>() else {
            return Vec::new();
        };
        let named: Vec<(&String, Vec<Move>)> = self
            .lines
            .iter()
            .filter_map(|text| Some((text, legal_line(&start, text)?)))
            .collect();
        let lines: Vec<&Vec<Move>> = named.iter().map(|(_, moves)| moves).collect();
        named
            .iter()
            .enumerate()
            .map(|(k, (text, moves))| {
                let elsewhere = (0..moves.len())
                    .map(|ply| {
                        let mut others: Vec<Move> = lines
                            .iter()
                            .filter(|o| o.len() > ply && o[..ply] == moves[..ply])
                            .map(|o| o[ply])
                            .filter(|&m| m != moves[ply])
                            .collect();
                        others.dedup();
                        others
                    })
                    .collect();
                Item {
                    id: format!("opening:{}:{text}", self.id),
                    kind: Kind::Opening,
                    title: format!("{} {}", self.name, k + 1),
                    start: start.clone(),
                    task: Task::Line {
                        moves: moves.clone(),
                        user: self.user,
                        elsewhere,
                    },
                }
            })
            .collect()
    }
}

/// The moves of `text` (ICCS separated by spaces), if each is legal in turn from `start`.
fn legal_line(start: &Position, text: &str) -> Option<Vec<Move>> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        let mv: Move = word.parse().ok()?;
        pos = pos.play(mv).ok()?;
        moves.push(mv);
    }
    (!moves.is_empty()).then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_repertoire_keeps_each_line_up_to_the_users_last_move() {
        let start = Position::startpos();
        let lines = vec![
            vec![mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")],
            vec![mv("h2e2"), mv("b9c7"), mv("b0c2")],
        ];
        let rep = Repertoire::from_lines("r", "中炮", Color::Red, &start, lines.clone());
        assert_eq!(rep.lines, vec!["h2e2 h9g7 h0g2", "h2e2 b9c7 b0c2"]);
        let items = rep.items();
        assert_eq!(items.len(), 2);
        let Task::Line { elsewhere, .. } = &items[0].task else {
            panic!("not a line")
        };
        // After 炮二平五, Black's other reply is the other line's.
        assert_eq!(elsewhere[1], vec![mv("b9c7")]);
        assert!(elsewhere[0].is_empty());
        // As Black, a line is cut after Black's last move; one without any is dropped.
        let black = Repertoire::from_lines("b", "b", Color::Black, &start, lines);
        assert_eq!(black.lines, vec!["h2e2 h9g7 h0g2 i9h9", "h2e2 b9c7"]);
        let none = Repertoire::from_lines("n", "n", Color::Black, &start, vec![vec![mv("h2e2")]]);
        assert!(none.lines.is_empty());
    }

    #[test]
    fn an_illegal_line_is_left_out_of_the_items() {
        let rep = Repertoire {
            id: "x".into(),
            name: "x".into(),
            user: Color::Red,
            fen: Position::startpos().to_string(),
            lines: vec!["h2e2 h9g7 h0g2".into(), "h2e9".into()],
        };
        assert_eq!(rep.items().len(), 1);
    }
}
