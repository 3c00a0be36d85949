//! Worksheets: the dialog's choices, the positions they select, and the PDF written off
//! the UI thread (positions without an answer are solved first, which takes a moment).

use super::Ctx;
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::work::WorkKey;
use crate::state::Notice;
use crate::state::State;
use crate::state::file_chooser::FilePurpose;
use crate::state::worksheet::{WorksheetOptions, WorksheetSource};
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::puzzle::pattern_set;
use chuhe_core::worksheet::{
    Entry, Layout, PrintStyle, SolveLimits, Words, Worksheet, add_hints, pdf, solve_missing,
};
use chuhe_core::{Color, PieceKind};
use std::path::PathBuf;

impl Ctx<'_> {
    /// Carries out a worksheet action.
    pub(super) fn worksheet(&mut self, action: WorksheetAction) {
        match action {
            WorksheetAction::Dialog(options) => self.state.worksheet_dialog = options,
            WorksheetAction::SaveDialog(options) => {
                self.state.worksheet_dialog = None;
                let mut choices = options.choices();
                // The default title is kept as none, so it follows the language.
                if choices.title == self.services.i18n.tr("worksheet-default-title") {
                    choices.title.clear();
                }
                if self.state.settings.worksheet != choices {
                    self.change_settings(|s| s.worksheet = choices);
                }
                self.ask_for_file(
                    FilePurpose::Worksheet(options),
                    Some("worksheet.pdf".to_owned()),
                );
            }
            WorksheetAction::Write(path, options) => self.write_worksheet(path, options),
            WorksheetAction::CollectionGames(Ok(entries)) => {
                if matches!(
                    self.state.notice,
                    Some(Notice::Message("collection-worksheet-loading"))
                ) {
                    self.state.notice = None;
                }
                self.state.worksheet_games = entries;
                self.state.worksheet_dialog = Some(WorksheetOptions::new(
                    WorksheetSource::Collection,
                    self.services.i18n.tr("worksheet-default-title"),
                    &self.state.settings.worksheet,
                ));
            }
            WorksheetAction::CollectionGames(Err(problem)) => {
                self.state.notice = Some(Notice::Problem(problem));
            }
            WorksheetAction::Finished(result) => {
                self.state.notice = Some(match result {
                    Ok(path) => {
                        Notice::WithArg("worksheet-done", "path", path.display().to_string())
                    }
                    Err(e) => Notice::Problem(Problem::new("worksheet-failed").with("error", e)),
                });
            }
        }
    }

    /// Writes the worksheet of `options` to `path` on a background thread.
    fn write_worksheet(&mut self, path: PathBuf, options: WorksheetOptions) {
        let entries = entries(self.state, &self.services.i18n, options.source);
        let words = words(&self.services.i18n);
        let traditional = self.state.settings.language == crate::i18n::Language::ZhTw;
        let no_positions = problems::in_file(&path, Problem::new("worksheet-empty"));
        self.services
            .work
            .start(WorkKey::Worksheet, "chuhe worksheet", move |_| {
                let mut entries = match entries {
                    Some(entries) => entries,
                    // The patterns are read here, off the UI thread.
                    None => pattern_set()
                        .map(|set| set.puzzles.iter().map(Entry::from_puzzle).collect())
                        .unwrap_or_default(),
                };
                if entries.is_empty() {
                    return Action::Worksheet(WorksheetAction::Finished(Err(no_positions)));
                }
                if options.answers || options.hints {
                    solve_missing(&mut entries, SolveLimits::default());
                }
                if options.hints {
                    add_hints(&mut entries, &words);
                }
                let written = pdf::save(
                    &path,
                    &sheet(&options, entries),
                    &layout(&options, traditional),
                    &words,
                )
                .map(|()| path.clone())
                .map_err(|e| {
                    let problem = match &e {
                        pdf::PdfError::Io(io) => problems::io_error(io),
                        other => Problem::new("worksheet-pdf").text("error", other),
                    };
                    problems::in_file(&path, problem)
                });
                Action::Worksheet(WorksheetAction::Finished(written))
            });
        self.state.notice = Some(Notice::Message("worksheet-working"));
    }
}

/// The worksheet's header and positions.
fn sheet(options: &WorksheetOptions, entries: Vec<Entry>) -> Worksheet {
    Worksheet {
        title: options.title.clone(),
        class: options.class.clone(),
        date: options.date.clone(),
        entries,
    }
}

/// The PDF's layout from the dialog's choices.
fn layout(options: &WorksheetOptions, traditional: bool) -> Layout {
    Layout {
        paper: options.paper,
        per_page: options.per_page,
        answers: options.answers,
        notation: options.notation,
        style: if options.black_and_white {
            PrintStyle::BlackAndWhite
        } else {
            PrintStyle::Colour
        },
        traditional,
    }
}

/// The positions `source` selects; `None` for the patterns, which are read on the worker.
pub fn entries(state: &State, i18n: &I18n, source: WorksheetSource) -> Option<Vec<Entry>> {
    Some(match source {
        WorksheetSource::Board => vec![Entry::new(String::new(), state.position().clone())],
        WorksheetSource::Puzzles(set) => state
            .puzzles
            .sets
            .get(set)
            .map(|s| s.set.puzzles.iter().map(Entry::from_puzzle).collect())
            .unwrap_or_default(),
        WorksheetSource::Patterns => return None,
        WorksheetSource::Game => game_entries(state, i18n),
        WorksheetSource::Collection => state.worksheet_games.clone(),
    })
}

/// The positions after the main line's commented or marked moves (the moments a teacher
/// annotated); the board's position when there are none.
fn game_entries(state: &State, i18n: &I18n) -> Vec<Entry> {
    let record = &state.study.record;
    let marked: Vec<Entry> = record
        .main_line()
        .into_iter()
        .enumerate()
        .filter(|&(_, node)| {
            let a = record.annotation(node);
            !a.comment.trim().is_empty() || !a.arrows.is_empty() || !a.circles.is_empty()
        })
        .filter_map(|(ply, node)| {
            let position = record.position_at(node)?;
            let title = i18n.tr_args("worksheet-game-move", &[("n", (ply / 2 + 1).into())]);
            Some(Entry::new(title, position))
        })
        .collect();
    if marked.is_empty() {
        vec![Entry::new(String::new(), state.position().clone())]
    } else {
        marked
    }
}

/// The worksheet's words in the user's language.
pub fn words(i18n: &I18n) -> Words {
    // The goals as the core's templates: the side and count filled in per position.
    let template = |id: &str| {
        i18n.tr_args(
            id,
            &[
                ("side", "{side}".into()),
                ("n", "{n}".into()),
                ("hint", "{hint}".into()),
                ("piece", "{piece}".into()),
            ],
        )
    };
    let piece = |color: Color, kind: PieceKind| {
        let side = match color {
            Color::Red => "red",
            Color::Black => "black",
        };
        let kind = match kind {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        };
        i18n.tr_args(
            "worksheet-piece",
            &[("piece", format!("{side}-{kind}").into())],
        )
    };
    Words {
        class: i18n.tr("worksheet-class"),
        date: i18n.tr("worksheet-date"),
        name: i18n.tr("worksheet-name"),
        answers: i18n.tr("worksheet-answers-heading"),
        no_answer: i18n.tr("worksheet-no-answer"),
        hint: template("worksheet-hint"),
        first_move: template("worksheet-hint-first"),
        pieces: [Color::Red, Color::Black].map(|c| PieceKind::ALL.map(|k| piece(c, k))),
        red_first: i18n.tr("worksheet-red-first"),
        black_first: i18n.tr("worksheet-black-first"),
        win: template("worksheet-goal-win"),
        draw: template("worksheet-goal-draw"),
        mate: template("worksheet-goal-mate"),
        mate_checks: template("worksheet-goal-mate-checks"),
        chinese_numbers: i18n.language() != crate::i18n::Language::En,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Language;
    use chuhe_core::{Move, Position};

    #[test]
    fn hints_name_the_first_piece_in_each_language() {
        let position: Position = "4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1".parse().unwrap();
        let rook: Move = "h1e1".parse().unwrap();
        for (language, wanted) in [
            (Language::ZhCn, "提示：先走车"),
            (Language::ZhTw, "提示：先走車"),
            (Language::En, "Hint: the chariot moves first"),
        ] {
            let words = words(&I18n::new(language));
            let hint = words.first_move_hint(&position, &[rook]).unwrap();
            assert_eq!(words.hint_line(&hint), wanted, "{language:?}");
        }
    }
}
