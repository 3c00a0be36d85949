//! The club manager's state and actions: the club files in the data directory, the club
//! open, the group and round shown, the forms' drafts, and carrying out what the user
//! asks — every change to a club is saved (atomically) before the next frame, so a crash
//! in the middle of entering results loses nothing already entered.

use crate::i18n::I18n;
use chuhe_core::club::{
    self, Award, Club, Format, GameResult, GradeGroup, Standing, TieBreak, Tournament, Words,
};
use std::path::PathBuf;

/// A class's record, opened to show its scores beside the players' names.
pub const CLASS_RECORD_FILE: crate::state::file_chooser::OwnFile =
    crate::state::file_chooser::OwnFile {
        kind: crate::state::file_chooser::ChooserKind::Open,
        extensions: &["csv"],
        title_id: "chooser-title-open-class-record",
        filter_id: None,
    };

/// A club file as listed: its path and the club's name, or why it cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubFile {
    /// The file.
    pub path: PathBuf,
    /// The club's name, or the problem reading it.
    pub name: Result<String, Problem>,
}

pub use crate::words::problem::Problem;

/// What the forms hold before the user confirms.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// A new club's name.
    pub club_name: String,
    /// A new player's name.
    pub player_name: String,
    /// A new player's group.
    pub player_group: GradeGroup,
    /// Whether the tournament to create is Swiss.
    pub swiss: bool,
    /// Its rounds, when Swiss.
    pub swiss_rounds: u32,
    /// Whether the draw numbers are drawn by lot rather than taken in the order added.
    pub draw_lots: bool,
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            club_name: String::new(),
            player_name: String::new(),
            player_group: GradeGroup::Low,
            swiss: false,
            swiss_rounds: 5,
            draw_lots: false,
        }
    }
}

/// The club open, with its file.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenClub {
    /// Where it is saved.
    pub path: PathBuf,
    /// The club.
    pub club: Club,
}

/// The club manager window's state.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubState {
    /// Whether the window is shown.
    pub open: bool,
    /// The clubs in the data directory.
    pub files: Vec<ClubFile>,
    /// The club being managed.
    pub current: Option<OpenClub>,
    /// The group whose tournament is shown.
    pub group: GradeGroup,
    /// The round shown (0-based).
    pub round: usize,
    /// The forms.
    pub draft: Draft,
    /// The last thing that went wrong.
    pub problem: Option<Problem>,
    /// The last file exported.
    pub exported: Option<PathBuf>,
    /// The scores of the class record opened, shown beside the players of the same name.
    pub class_scores: Vec<chuhe_core::quiz::SavedScore>,
}

impl Default for ClubState {
    fn default() -> ClubState {
        ClubState {
            open: false,
            files: Vec::new(),
            current: None,
            group: GradeGroup::Low,
            round: 0,
            draft: Draft::default(),
            problem: None,
            exported: None,
            class_scores: Vec::new(),
        }
    }
}

impl ClubState {
    /// The class score of the player named `name` (names compared as the quiz does).
    pub fn class_score(&self, name: &str) -> Option<&chuhe_core::quiz::SavedScore> {
        let key = chuhe_core::quiz::name_key(name);
        self.class_scores
            .iter()
            .find(|s| chuhe_core::quiz::name_key(&s.name) == key)
    }
}

/// The message id of a group's name.
pub const fn group_id(group: GradeGroup) -> &'static str {
    match group {
        GradeGroup::Low => "club-group-low",
        GradeGroup::Middle => "club-group-middle",
        GradeGroup::High => "club-group-high",
    }
}

/// The message id of a result's name.
pub const fn result_id(result: GameResult) -> &'static str {
    match result {
        GameResult::RedWins => "club-result-red-wins",
        GameResult::Draw => "club-result-draw",
        GameResult::BlackWins => "club-result-black-wins",
        GameResult::RedForfeits => "club-result-red-forfeits",
        GameResult::BlackForfeits => "club-result-black-forfeits",
        GameResult::BothForfeit => "club-result-both-forfeit",
    }
}

/// The club sheet's words in the user's language.
pub fn words(w: Words, i18n: &I18n) -> String {
    match w {
        Words::Group(group) => i18n.tr(group_id(group)),
        Words::Subtitle {
            format,
            players,
            played,
            rounds,
        } => {
            let format = match format {
                Format::RoundRobin => i18n.tr("club-format-round-robin"),
                Format::Swiss { .. } => i18n.tr("club-format-swiss"),
            };
            i18n.tr_args(
                "club-page-subtitle",
                &[
                    ("format", format.into()),
                    ("players", players.into()),
                    ("played", played.into()),
                    ("rounds", rounds.into()),
                ],
            )
        }
        Words::Rank => i18n.tr("club-rank"),
        Words::Name => i18n.tr("club-name"),
        Words::Points => i18n.tr("club-points"),
        Words::TieBreak(tb) => i18n.tr(tie_break_id(tb)),
        Words::AwardColumn => i18n.tr("club-award"),
        Words::Award(Award::Champion) => i18n.tr("club-award-1"),
        Words::Award(Award::RunnerUp) => i18n.tr("club-award-2"),
        Words::Award(Award::Third) => i18n.tr("club-award-3"),
        Words::TieBreakNote(format) => i18n.tr(tie_break_note_id(format)),
        Words::Board => i18n.tr("club-board"),
        Words::Red => i18n.tr("club-red"),
        Words::Result => i18n.tr("club-result"),
        Words::Black => i18n.tr("club-black"),
        Words::Round(round) => i18n.tr_args("club-round", &[("round", round.into())]),
        Words::Bye(name) => i18n.tr_args("club-bye", &[("name", name.into())]),
    }
}

/// The standings' columns for a tournament's tie-breaks.
pub fn standings_columns(t: &Tournament, i18n: &I18n) -> Vec<String> {
    club::standings_header(t.format, &|w| words(w, i18n))
}

/// The values of a standings line, in the order of [`standings_columns`].
pub fn standings_row(club: &Club, t: &Tournament, line: &Standing, i18n: &I18n) -> Vec<String> {
    club::standings_row(club, t.format, line, &|w| words(w, i18n))
}

/// 冠军, 亚军, 季军 for the top three (seed 000, rule 5), else nothing.
pub fn award(line: &Standing, i18n: &I18n) -> String {
    line.award()
        .map(|a| words(Words::Award(a), i18n))
        .unwrap_or_default()
}

/// The message id of the sentence saying how a format splits equal points.
pub const fn tie_break_note_id(format: Format) -> &'static str {
    match format {
        Format::RoundRobin => "club-tie-breaks-round-robin",
        Format::Swiss { .. } => "club-tie-breaks-swiss",
    }
}

/// The message id of a tie-break's column.
pub const fn tie_break_id(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::SonnebornBerger => "club-sb",
        TieBreak::Buchholz => "club-buchholz",
        TieBreak::Wins => "club-wins",
        TieBreak::HeadToHead => "club-h2h",
        TieBreak::Fouls => "club-fouls",
    }
}
