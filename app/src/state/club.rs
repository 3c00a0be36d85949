//! The club manager's state and actions: the club files in the data directory, the club
//! open, the group and round shown, the forms' drafts, and carrying out what the user
//! asks — every change to a club is saved (atomically) before the next frame, so a crash
//! in the middle of entering results loses nothing already entered.

use crate::i18n::I18n;
use chuhe_core::club::{Club, ClubError, ClubStore, GameResult, GradeGroup};
use std::path::{Path, PathBuf};

/// A club file as listed: its path and the club's name, or why it cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub struct ClubFile {
    /// The file.
    pub path: PathBuf,
    /// The club's name, or the problem reading it.
    pub name: Result<String, Problem>,
}

/// An error, kept as a message id and arguments so it is put into words in the language
/// shown when drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The message.
    pub id: &'static str,
    /// Its arguments.
    pub args: Vec<(&'static str, String)>,
}

impl Problem {
    /// The problem in the user's language.
    pub fn text(&self, i18n: &I18n) -> String {
        let args: Vec<crate::i18n::Arg<'_>> = self
            .args
            .iter()
            .map(|(name, value)| (*name, value.clone().into()))
            .collect();
        i18n.tr_args(self.id, &args)
    }
}

impl From<&ClubError> for Problem {
    fn from(e: &ClubError) -> Problem {
        let (id, args) = match e {
            ClubError::Io(e) => ("club-error-io", vec![("error", e.to_string())]),
            ClubError::Parse {
                line,
                column,
                message,
            } => (
                "club-error-parse",
                vec![
                    ("line", line.to_string()),
                    ("column", column.to_string()),
                    ("error", message.clone()),
                ],
            ),
            ClubError::Inconsistent(what) => {
                ("club-error-inconsistent", vec![("error", what.clone())])
            }
            ClubError::TooFewPlayers => ("club-error-too-few", vec![]),
            ClubError::BadRoundCount => ("club-error-rounds", vec![]),
            ClubError::GroupTaken => ("club-error-group-taken", vec![]),
            ClubError::NoSuchGame => ("club-error-no-game", vec![]),
            ClubError::RoundIncomplete => ("club-error-round-incomplete", vec![]),
            ClubError::AllRoundsPaired => ("club-error-all-paired", vec![]),
            ClubError::NoPairing => ("club-error-no-pairing", vec![]),
            ClubError::NotSwiss => ("club-error-not-swiss", vec![]),
            ClubError::PlayerInTournament => ("club-error-player-plays", vec![]),
            ClubError::NoSuchPlayer => ("club-error-no-player", vec![]),
            ClubError::HasResults => ("club-error-has-results", vec![]),
        };
        Problem { id, args }
    }
}

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
        }
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

/// Reads the club files of `dir`, with each club's name or what is wrong with it.
pub fn list_clubs(dir: &Path) -> Vec<ClubFile> {
    ClubStore::new(dir.to_owned())
        .list()
        .into_iter()
        .map(|path| {
            let name = ClubStore::load(&path)
                .map(|c| c.name)
                .map_err(|e| Problem::from(&e));
            ClubFile { path, name }
        })
        .collect()
}
