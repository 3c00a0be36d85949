//! The worksheet dialog's choices: which positions, and how they are printed.

use crate::settings::{MoveNotation, WorksheetChoices};
use chuhe_core::Notation;
use chuhe_core::worksheet::{Paper, is_per_page};

/// Where a worksheet's positions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorksheetSource {
    /// The position on the board.
    Board,
    /// A loaded puzzle set, by index.
    Puzzles(usize),
    /// The 36 checkmate patterns' positions.
    Patterns,
    /// The game's positions after the commented or marked moves of its main line.
    Game,
    /// The positions of the games the collection browser listed (kept in the state's
    /// `worksheet_games`, read by the collections service).
    Collection,
}

/// What the user chose in the worksheet dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorksheetOptions {
    /// The positions.
    pub source: WorksheetSource,
    /// The title at the top of each page.
    pub title: String,
    /// The class in the header (a line to fill in when empty).
    pub class: String,
    /// The date in the header (a line to fill in when empty).
    pub date: String,
    /// A4 or Letter.
    pub paper: Paper,
    /// Diagrams a page (1, 2, 4, 6, 9 or 12).
    pub per_page: usize,
    /// Whether answer pages follow.
    pub answers: bool,
    /// Whether each position with an answer gets a hint (the piece that moves first).
    pub hints: bool,
    /// The answers' notation.
    pub notation: Notation,
    /// Black and white rather than colour.
    pub black_and_white: bool,
}

impl WorksheetOptions {
    /// The dialog's first choices for `source`: those `remembered` from the last worksheet
    /// saved, titled `default_title` when none was kept.
    pub fn new(
        source: WorksheetSource,
        default_title: String,
        remembered: &WorksheetChoices,
    ) -> WorksheetOptions {
        let title = match remembered.title.trim() {
            "" => default_title,
            kept => kept.to_owned(),
        };
        WorksheetOptions {
            source,
            title,
            class: remembered.class.clone(),
            date: String::new(),
            paper: remembered.paper,
            // A number edited into the settings file that is no layout takes the default.
            per_page: if is_per_page(remembered.per_page) {
                remembered.per_page
            } else {
                WorksheetChoices::default().per_page
            },
            answers: remembered.answers,
            hints: remembered.hints,
            notation: remembered.notation.notation(),
            black_and_white: remembered.black_and_white,
        }
    }

    /// The choices to remember for the next worksheet.
    pub fn choices(&self) -> WorksheetChoices {
        WorksheetChoices {
            title: self.title.clone(),
            class: self.class.clone(),
            paper: self.paper,
            per_page: self.per_page,
            answers: self.answers,
            hints: self.hints,
            notation: MoveNotation::ALL
                .into_iter()
                .find(|m| m.notation() == self.notation)
                .unwrap_or_default(),
            black_and_white: self.black_and_white,
        }
    }
}

/// The notations offered for the answers.
pub const NOTATIONS: [Notation; 4] = [
    Notation::Chinese,
    Notation::ChineseTraditional,
    Notation::Wxf,
    Notation::Iccs,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choices_kept_come_back_and_a_bad_layout_does_not() {
        let fresh = WorksheetOptions::new(
            WorksheetSource::Board,
            "象棋习题".into(),
            &WorksheetChoices::default(),
        );
        assert_eq!(fresh.title, "象棋习题");
        assert_eq!(fresh.per_page, 6);
        let chosen = WorksheetOptions {
            title: "残局练习".into(),
            class: "三年级二班".into(),
            date: "5月1日".into(),
            paper: Paper::Letter,
            per_page: 4,
            answers: false,
            hints: true,
            notation: Notation::Wxf,
            black_and_white: false,
            ..fresh.clone()
        };
        let again = WorksheetOptions::new(
            WorksheetSource::Patterns,
            "象棋习题".into(),
            &chosen.choices(),
        );
        assert_eq!(
            again,
            WorksheetOptions {
                source: WorksheetSource::Patterns,
                date: String::new(),
                ..chosen.clone()
            }
        );
        let edited = WorksheetChoices {
            per_page: 5,
            ..chosen.choices()
        };
        let odd = WorksheetOptions::new(WorksheetSource::Board, "x".into(), &edited);
        assert_eq!(odd.per_page, 6);
    }
}
