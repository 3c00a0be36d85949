//! Worksheets: the dialog's choices, the positions they select, and the PDF written off
//! the UI thread (positions without an answer are solved first, which takes a moment).

use super::{Queue, SettingsMut};
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::work::{Work, WorkKey};
use crate::state::Notice;
use crate::state::file_chooser::FilePurpose;
use crate::state::puzzles::Puzzles;
use crate::state::study::Study;
use crate::state::worksheet::{WorksheetOptions, WorksheetSource};
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::puzzle::pattern_set;
use chuhe_core::worksheet::{
    Entry, Layout, PrintStyle, SolveLimits, Words, Worksheet, add_hints, pdf, solve_missing,
};
use chuhe_core::{Color, PieceKind};
use std::path::PathBuf;

/// The worksheet dialog's part of the state.
pub(super) struct Dialog<'a> {
    /// The dialog, while it is open.
    pub options: &'a mut Option<WorksheetOptions>,
    /// The positions the collection browser last sent.
    pub games: &'a mut Vec<Entry>,
}

/// Where a worksheet's positions come from besides the collections: the game on the board
/// and the puzzle sets.
pub(super) struct Sources<'a> {
    pub study: &'a Study,
    pub puzzles: &'a Puzzles,
}

/// Carries out a worksheet action; the PDF is written by `work`.
pub(super) fn run(
    dialog: Dialog,
    sources: Sources,
    mut settings: SettingsMut,
    i18n: &I18n,
    work: &mut Work,
    queue: &mut Queue,
    action: WorksheetAction,
) {
    match action {
        WorksheetAction::Dialog(options) => *dialog.options = options,
        WorksheetAction::SaveDialog(options) => {
            *dialog.options = None;
            let mut choices = options.choices();
            // The default title is kept as none, so it follows the language.
            if choices.title == i18n.tr("worksheet-default-title") {
                choices.title.clear();
            }
            if settings.get().worksheet != choices {
                settings.change(|s| s.worksheet = choices);
            }
            let purpose = FilePurpose::Worksheet(options.clone());
            queue.ask_for_file(purpose, Some("worksheet.pdf".to_owned()), move |path| {
                WorksheetAction::Write(path, options.clone()).into()
            });
        }
        WorksheetAction::Write(path, options) => {
            let entries = entries(&sources, dialog.games, i18n, options.source);
            write_worksheet(entries, path, options, settings.get(), i18n, work);
            queue.say(Notice::Message("worksheet-working"));
        }
        WorksheetAction::CollectionGames(Ok(entries)) => {
            queue.push(
                FeedbackAction::Clear(Notice::Message("collection-worksheet-loading")).into(),
            );
            *dialog.games = entries;
            *dialog.options = Some(WorksheetOptions::new(
                WorksheetSource::Collection,
                i18n.tr("worksheet-default-title"),
                &settings.get().worksheet,
            ));
        }
        WorksheetAction::CollectionGames(Err(problem)) => queue.say(Notice::Problem(problem)),
        WorksheetAction::Finished(result) => queue.say(match result {
            Ok(path) => Notice::WithArg("worksheet-done", "path", path.display().to_string()),
            Err(e) => Notice::Problem(Problem::new("worksheet-failed").with("error", e)),
        }),
    }
}

/// Writes the worksheet of `options` with `entries` (`None`: the patterns) to `path` on a
/// background thread.
fn write_worksheet(
    entries: Option<Vec<Entry>>,
    path: PathBuf,
    options: WorksheetOptions,
    settings: &crate::settings::Settings,
    i18n: &I18n,
    work: &mut Work,
) {
    let words = words(i18n);
    let traditional = settings.language == crate::i18n::Language::ZhTw;
    let no_positions = problems::in_file(&path, Problem::new("worksheet-empty"));
    work.start(WorkKey::Worksheet, "chuhe worksheet", move |_| {
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

/// The positions `source` selects (`games`: the collection browser's); `None` for the
/// patterns, which are read on the worker.
fn entries(
    sources: &Sources,
    games: &[Entry],
    i18n: &I18n,
    source: WorksheetSource,
) -> Option<Vec<Entry>> {
    Some(match source {
        WorksheetSource::Board => vec![Entry::new(
            String::new(),
            sources.study.derived.position.clone(),
        )],
        WorksheetSource::Puzzles(set) => sources
            .puzzles
            .sets
            .get(set)
            .map(|s| s.set.puzzles.iter().map(Entry::from_puzzle).collect())
            .unwrap_or_default(),
        WorksheetSource::Patterns => return None,
        WorksheetSource::Game => game_entries(sources.study, i18n),
        WorksheetSource::Collection => games.to_vec(),
    })
}

/// The positions after the main line's commented or marked moves (the moments a teacher
/// annotated); the board's position when there are none.
fn game_entries(study: &Study, i18n: &I18n) -> Vec<Entry> {
    let record = &study.record;
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
        vec![Entry::new(String::new(), study.derived.position.clone())]
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
