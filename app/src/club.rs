//! The club manager's state and actions: the club files in the data directory, the club
//! open, the group and round shown, the forms' drafts, and carrying out what the user
//! asks — every change to a club is saved (atomically) before the next frame, so a crash
//! in the middle of entering results loses nothing already entered.

use crate::app::ChuheApp;
use crate::i18n::I18n;
use crate::state::Notice;
use chuhe_core::club::{Club, ClubError, ClubStore, Format, GameResult, GradeGroup, PlayerId};
use chuhe_core::record::tag;
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

/// Something done in the club manager (on the club open and the group shown).
#[derive(Clone, Debug, PartialEq)]
pub enum ClubAction {
    /// Show or hide the window.
    Toggle,
    /// The forms changed.
    EditDraft(Draft),
    /// Create a club named as the draft says.
    NewClub,
    /// Open a club file.
    Open(PathBuf),
    /// Add the draft's player.
    AddPlayer,
    /// Remove a player who plays in no tournament.
    RemovePlayer(PlayerId),
    /// Show a group's tournament.
    ShowGroup(GradeGroup),
    /// Show a round.
    ShowRound(usize),
    /// Start the group's tournament as the draft says (round robin or Swiss).
    CreateTournament,
    /// Enter or clear a result.
    SetResult {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
        /// The result.
        result: Option<GameResult>,
    },
    /// Set the fouls of a game.
    SetFouls {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
        /// Fouls on Red.
        red: u32,
        /// Fouls on Black.
        black: u32,
    },
    /// Pair the next Swiss round.
    PairNextRound,
    /// Cancel the group's tournament (before any result).
    CancelTournament,
    /// Attach the game on the board to a pairing.
    AttachGame {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
    },
    /// Put a pairing's attached game on the board.
    OpenGame {
        /// Round, 0-based.
        round: usize,
        /// Board, 0-based.
        board: usize,
    },
    /// Choose where to export the group's pairings and standings as CSV.
    ExportCsvDialog,
    /// Choose where to export them as a PNG page.
    ExportPngDialog,
    /// Export as CSV to a file.
    ExportCsv(PathBuf),
    /// Export as PNG to a file.
    ExportPng(PathBuf),
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

impl ChuheApp {
    fn clubs_dir(&self) -> Option<PathBuf> {
        self.storage.data_path("clubs")
    }

    fn refresh_club_files(&mut self) {
        self.state.club.files = self.clubs_dir().map(|d| list_clubs(&d)).unwrap_or_default();
    }

    /// Saves the club open; a failure is shown in the window and the status bar.
    fn save_club(&mut self) {
        let Some(open) = &self.state.club.current else {
            return;
        };
        if let Err(e) = ClubStore::save(&open.path, &open.club) {
            let problem = Problem::from(&e);
            self.state.notice = Some(Notice::WithArg(
                "notice-save-failed",
                "error",
                e.to_string(),
            ));
            self.state.club.problem = Some(problem);
        }
    }

    /// Changes the club open with `change`, then saves it; an error is shown instead.
    fn change_club(&mut self, change: impl FnOnce(&mut Club, GradeGroup) -> Result<(), ClubError>) {
        let group = self.state.club.group;
        let Some(open) = &mut self.state.club.current else {
            return;
        };
        match change(&mut open.club, group) {
            Ok(()) => {
                self.state.club.problem = None;
                self.save_club();
            }
            Err(e) => self.state.club.problem = Some(Problem::from(&e)),
        }
    }

    /// Carries out a club action.
    pub(crate) fn apply_club(&mut self, ctx: &egui::Context, action: ClubAction) {
        match action {
            ClubAction::Toggle => {
                let club = &mut self.state.club;
                club.open = !club.open;
                if club.open {
                    self.refresh_club_files();
                    // The club changed last is the one most likely wanted.
                    if self.state.club.current.is_none()
                        && let Some(last) = self
                            .state
                            .club
                            .files
                            .iter()
                            .filter(|f| f.name.is_ok())
                            .max_by_key(|f| {
                                std::fs::metadata(&f.path).and_then(|m| m.modified()).ok()
                            })
                            .map(|f| f.path.clone())
                    {
                        self.apply_club(ctx, ClubAction::Open(last));
                    }
                }
            }
            ClubAction::EditDraft(draft) => self.state.club.draft = draft,
            ClubAction::NewClub => {
                let name = self.state.club.draft.club_name.trim().to_owned();
                let Some(dir) = self.clubs_dir() else {
                    return;
                };
                if name.is_empty() {
                    return;
                }
                let path = ClubStore::new(dir).new_path();
                self.state.club.current = Some(OpenClub {
                    path,
                    club: Club::new(&name),
                });
                self.state.club.draft.club_name.clear();
                self.state.club.round = 0;
                self.state.club.problem = None;
                self.save_club();
                self.refresh_club_files();
            }
            ClubAction::Open(path) => match ClubStore::load(&path) {
                Ok(club) => {
                    self.state.club.current = Some(OpenClub { path, club });
                    self.state.club.round = 0;
                    self.state.club.problem = None;
                }
                Err(e) => self.state.club.problem = Some(Problem::from(&e)),
            },
            ClubAction::AddPlayer => {
                let draft = self.state.club.draft.clone();
                let name = draft.player_name.trim().to_owned();
                if name.is_empty() {
                    return;
                }
                self.change_club(|club, _| {
                    club.add_player(&name, draft.player_group);
                    Ok(())
                });
                self.state.club.draft.player_name.clear();
            }
            ClubAction::RemovePlayer(id) => self.change_club(|club, _| club.remove_player(id)),
            ClubAction::ShowGroup(group) => {
                self.state.club.group = group;
                self.state.club.round = self.current_round_of(group);
            }
            ClubAction::ShowRound(round) => self.state.club.round = round,
            ClubAction::CreateTournament => {
                let draft = self.state.club.draft.clone();
                let format = if draft.swiss {
                    Format::Swiss {
                        rounds: draft.swiss_rounds,
                    }
                } else {
                    Format::RoundRobin
                };
                // Lots drawn from the clock: a different draw each time.
                let lots = draft.draw_lots.then(|| {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(1, |d| d.as_nanos() as u64)
                });
                self.change_club(|club, group| {
                    club.create_tournament_drawn(group, format, lots)
                        .map(|_| ())
                });
                self.state.club.round = 0;
            }
            ClubAction::SetResult {
                round,
                board,
                result,
            } => self.change_club(|club, group| {
                club.tournament_mut(group)
                    .ok_or(ClubError::NoSuchGame)?
                    .set_result(round, board, result)
            }),
            ClubAction::SetFouls {
                round,
                board,
                red,
                black,
            } => self.change_club(|club, group| {
                club.tournament_mut(group)
                    .ok_or(ClubError::NoSuchGame)?
                    .set_fouls(round, board, red, black)
            }),
            ClubAction::PairNextRound => {
                self.change_club(|club, group| {
                    club.tournament_mut(group)
                        .ok_or(ClubError::NotSwiss)?
                        .pair_next_round()
                });
                let group = self.state.club.group;
                self.state.club.round = self.current_round_of(group);
            }
            ClubAction::CancelTournament => {
                self.change_club(|club, group| club.cancel_tournament(group));
                self.state.club.round = 0;
            }
            ClubAction::AttachGame { round, board } => {
                let pgn = self.pairing_pgn(round, board);
                self.change_club(|club, group| {
                    club.tournament_mut(group)
                        .ok_or(ClubError::NoSuchGame)?
                        .attach_game(round, board, Some(pgn))
                });
            }
            ClubAction::OpenGame { round, board } => {
                let group = self.state.club.group;
                let pgn = self.state.club.current.as_ref().and_then(|open| {
                    open.club
                        .tournament(group)?
                        .pairing(round, board)?
                        .game
                        .clone()
                });
                if self.state.editor.is_some() || self.state.puzzles.session.is_some() {
                    // The editor or a puzzle has the board: the game would go unseen.
                    self.state.club.problem = Some(Problem {
                        id: "club-board-busy",
                        args: Vec::new(),
                    });
                } else if let Some(pgn) = pgn {
                    // The same path as a pasted game: unsaved work on the board is asked
                    // about first.
                    self.apply(ctx, crate::actions::Action::Paste(pgn));
                }
            }
            ClubAction::ExportCsvDialog | ClubAction::ExportPngDialog => {
                let csv = action == ClubAction::ExportCsvDialog;
                let (filter, ext) = if csv { ("CSV", "csv") } else { ("PNG", "png") };
                let name = self
                    .state
                    .club
                    .current
                    .as_ref()
                    .map(|o| {
                        let group = self.i18n.tr(group_id(self.state.club.group));
                        format!("{} {group}.{ext}", o.club.name)
                    })
                    .unwrap_or_else(|| format!("club.{ext}"));
                let picked = rfd::FileDialog::new()
                    .add_filter(filter, &[ext])
                    .set_file_name(name)
                    .save_file();
                if let Some(path) = picked {
                    self.apply_club(
                        ctx,
                        if csv {
                            ClubAction::ExportCsv(path)
                        } else {
                            ClubAction::ExportPng(path)
                        },
                    );
                }
            }
            ClubAction::ExportCsv(_) | ClubAction::ExportPng(_) => {
                let (csv, path) = match action {
                    ClubAction::ExportCsv(path) => (true, path),
                    ClubAction::ExportPng(path) => (false, path),
                    _ => return,
                };
                let group = self.state.club.group;
                let Some(open) = &self.state.club.current else {
                    return;
                };
                let Some(t) = open.club.tournament(group) else {
                    return;
                };
                let page = crate::club_print::Page::new(&open.club, t, &self.i18n);
                let written = if csv {
                    chuhe_core::club::write_atomically(&path, page.to_csv().as_bytes())
                } else {
                    crate::club_print::write_png(&page, &path)
                };
                match written {
                    Ok(()) => {
                        self.state.club.problem = None;
                        self.state.notice = Some(Notice::WithArg(
                            "club-exported",
                            "path",
                            path.display().to_string(),
                        ));
                        self.state.club.exported = Some(path);
                    }
                    Err(e) => {
                        self.state.club.problem = Some(Problem::from(&ClubError::Io(e)));
                    }
                }
            }
        }
    }

    /// The latest round of a group's tournament (0 when it has none).
    fn current_round_of(&self, group: GradeGroup) -> usize {
        self.state
            .club
            .current
            .as_ref()
            .and_then(|o| o.club.tournament(group))
            .map_or(0, |t| {
                // The first round with a game still to play, else the last.
                t.rounds
                    .iter()
                    .position(|r| !r.is_complete())
                    .unwrap_or(t.rounds.len().saturating_sub(1))
            })
    }

    /// The game on the board as PGN for a pairing: the players, round and event filled
    /// in from the tournament, the result from the pairing's when it has one.
    fn pairing_pgn(&self, round: usize, board: usize) -> String {
        let mut record = self.state.record.clone();
        let group = self.state.club.group;
        if let Some(open) = &self.state.club.current
            && let Some(p) = open
                .club
                .tournament(group)
                .and_then(|t| t.pairing(round, board))
        {
            let club = &open.club;
            record.set_header(tag::RED, club.name_of(p.red));
            record.set_header(tag::BLACK, club.name_of(p.black));
            record.set_header(tag::ROUND, &(round + 1).to_string());
            if record.headers().get(tag::EVENT).is_none_or(str::is_empty) {
                let event = format!("{} {}", club.name, self.i18n.tr(group_id(group)));
                record.set_header(tag::EVENT, &event);
            }
            let result = match p.result {
                // PGN's results are the score sheet's.
                Some(GameResult::RedWins | GameResult::BlackForfeits) => {
                    Some(GameResult::RedWins.short())
                }
                Some(GameResult::BlackWins | GameResult::RedForfeits) => {
                    Some(GameResult::BlackWins.short())
                }
                Some(GameResult::Draw) => Some("1/2-1/2"),
                _ => None,
            };
            if let Some(result) = result {
                record.set_header(tag::RESULT, result);
            }
        }
        crate::files::to_pgn(&record, self.state.settings.notation.notation())
    }
}
