use super::Queue;
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::storage::{self, Storage};
use crate::state::Notice;
use crate::state::club::*;
use crate::state::study::Study;
use crate::words::problems;
use chuhe_core::club::{Club, ClubError, Format, GameResult, GradeGroup};
use chuhe_core::notation::Notation;
use chuhe_core::record::tag;

/// The club manager's command: its state, and what it reads and uses.
pub(super) struct Manager<'a> {
    pub club: &'a mut ClubState,
    /// The game on the board, filed under a pairing.
    pub study: &'a Study,
    /// Whether the editor or a puzzle has the board (a game opened would go unseen).
    pub board_busy: bool,
    /// How moves are written in a filed game.
    pub notation: Notation,
    pub i18n: &'a I18n,
    pub storage: &'a Storage,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    fn refresh_club_files(&mut self) {
        self.club.files = self.storage.list_clubs(problems::club_error);
    }

    /// Saves the club open; a failure is shown in the window and the status bar.
    fn save_club(&mut self) {
        let Some(open) = &self.club.current else {
            return;
        };
        if let Err(e) = storage::save_club(&open.path, &open.club) {
            let problem = problems::club_error(&e);
            self.queue.say(Notice::Problem(
                Problem::new("notice-save-failed").with("error", problem.clone()),
            ));
            self.club.problem = Some(problem);
        }
    }

    /// Changes the club open with `change`, then saves it; an error is shown instead.
    fn change_club(&mut self, change: impl FnOnce(&mut Club, GradeGroup) -> Result<(), ClubError>) {
        let group = self.club.group;
        let Some(open) = &mut self.club.current else {
            return;
        };
        match change(&mut open.club, group) {
            Ok(()) => {
                self.club.problem = None;
                self.save_club();
            }
            Err(e) => self.club.problem = Some(problems::club_error(&e)),
        }
    }

    /// Carries out a club action.
    pub(super) fn run(&mut self, action: ClubAction) {
        match action {
            ClubAction::Toggle => {
                let club = &mut self.club;
                club.open = !club.open;
                if club.open {
                    self.refresh_club_files();
                    // The club changed last is the one most likely wanted.
                    if self.club.current.is_none()
                        && let Some(last) = self
                            .club
                            .files
                            .iter()
                            .filter(|f| f.name.is_ok())
                            .max_by_key(|f| storage::modified(&f.path))
                            .map(|f| f.path.clone())
                    {
                        self.queue.push(Action::Club(ClubAction::Open(last)));
                    }
                }
            }
            ClubAction::EditDraft(draft) => self.club.draft = draft,
            ClubAction::NewClub => {
                let name = self.club.draft.club_name.trim().to_owned();
                let Some(path) = self.storage.new_club_path() else {
                    return;
                };
                if name.is_empty() {
                    return;
                }
                self.club.current = Some(OpenClub {
                    path,
                    club: Club::new(&name),
                });
                self.club.draft.club_name.clear();
                self.club.round = 0;
                self.club.problem = None;
                self.save_club();
                self.refresh_club_files();
            }
            ClubAction::Open(path) => match storage::load_club(&path) {
                Ok(club) => {
                    self.club.current = Some(OpenClub { path, club });
                    self.club.round = 0;
                    self.club.problem = None;
                }
                Err(e) => self.club.problem = Some(problems::club_error(&e)),
            },
            ClubAction::AddPlayer => {
                let draft = self.club.draft.clone();
                let name = draft.player_name.trim().to_owned();
                if name.is_empty() {
                    return;
                }
                self.change_club(|club, _| {
                    club.add_player(&name, draft.player_group);
                    Ok(())
                });
                self.club.draft.player_name.clear();
            }
            ClubAction::RemovePlayer(id) => self.change_club(|club, _| club.remove_player(id)),
            ClubAction::ShowGroup(group) => {
                self.club.group = group;
                self.club.round = self.current_round_of(group);
            }
            ClubAction::ShowRound(round) => self.club.round = round,
            ClubAction::CreateTournament => {
                let draft = self.club.draft.clone();
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
                self.club.round = 0;
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
                let group = self.club.group;
                self.club.round = self.current_round_of(group);
            }
            ClubAction::CancelTournament => {
                self.change_club(|club, group| club.cancel_tournament(group));
                self.club.round = 0;
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
                let group = self.club.group;
                let pgn = self.club.current.as_ref().and_then(|open| {
                    open.club
                        .tournament(group)?
                        .pairing(round, board)?
                        .game
                        .clone()
                });
                if self.board_busy {
                    // The editor or a puzzle has the board: the game would go unseen.
                    self.club.problem = Some(Problem::new("club-board-busy"));
                } else if let Some(pgn) = pgn {
                    // The same path as a pasted game: it opens in a tab of its own.
                    self.queue
                        .push(crate::actions::Action::File(FileAction::Paste(pgn)));
                }
            }
            ClubAction::ExportCsvDialog | ClubAction::ExportPngDialog => {
                let csv = action == ClubAction::ExportCsvDialog;
                let ext = if csv { "csv" } else { "png" };
                let name = self
                    .club
                    .current
                    .as_ref()
                    .map(|o| {
                        let group = self.i18n.tr(group_id(self.club.group));
                        format!("{} {group}.{ext}", o.club.name)
                    })
                    .unwrap_or_else(|| format!("club.{ext}"));
                use crate::state::file_chooser::FilePurpose;
                if csv {
                    self.queue
                        .ask_for_file(FilePurpose::ClubCsv, Some(name), |path| {
                            ClubAction::ExportCsv(path).into()
                        });
                } else {
                    self.queue
                        .ask_for_file(FilePurpose::ClubPng, Some(name), |path| {
                            ClubAction::ExportPng(path).into()
                        });
                }
            }
            ClubAction::OpenClassRecordDialog => self.queue.ask_for_file(
                crate::state::file_chooser::FilePurpose::Own(crate::state::club::CLASS_RECORD_FILE),
                None,
                |path| ClubAction::OpenClassRecord(path).into(),
            ),
            ClubAction::OpenClassRecord(path) => self.open_class_record(&path),
            ClubAction::ExportCsv(_) | ClubAction::ExportPng(_) => {
                let (csv, path) = match action {
                    ClubAction::ExportCsv(path) => (true, path),
                    ClubAction::ExportPng(path) => (false, path),
                    _ => return,
                };
                let group = self.club.group;
                let Some(open) = &self.club.current else {
                    return;
                };
                let Some(t) = open.club.tournament(group) else {
                    return;
                };
                let page = crate::services::print::Page::new(&open.club, t, self.i18n);
                let written = if csv {
                    storage::write_text(&path, &page.to_csv())
                } else {
                    crate::services::print::write_png(&page, &path)
                };
                match written {
                    Ok(()) => {
                        self.club.problem = None;
                        self.queue.say(Notice::WithArg(
                            "club-exported",
                            "path",
                            path.display().to_string(),
                        ));
                        self.club.exported = Some(path);
                    }
                    Err(e) => {
                        self.club.problem = Some(problems::club_error(&ClubError::Io(e)));
                    }
                }
            }
        }
    }

    /// Reads a class record's scores for the players list; says how many names match.
    fn open_class_record(&mut self, path: &std::path::Path) {
        let read = storage::read_text(path)
            .map_err(|e| problems::io_error(&e))
            .and_then(|text| {
                chuhe_core::quiz::read_scores(&text).map_err(|e| {
                    Problem::new("club-class-record-bad")
                        .with("error", problems::class_record_error(&e))
                })
            });
        match read {
            Ok(scores) => {
                let count = scores.len();
                self.club.class_scores = scores;
                let matched = self.club.current.as_ref().map_or(0, |open| {
                    open.club
                        .players
                        .iter()
                        .filter(|p| self.club.class_score(&p.name).is_some())
                        .count()
                });
                self.queue.say(Notice::Problem(
                    Problem::new("club-class-record-opened")
                        .text("matched", matched)
                        .text("count", count),
                ));
                self.club.problem = None;
            }
            Err(problem) => self.club.problem = Some(problem),
        }
    }

    /// The latest round of a group's tournament (0 when it has none).
    fn current_round_of(&self, group: GradeGroup) -> usize {
        self.club
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
        let mut record = self.study.record.clone();
        let group = self.club.group;
        if let Some(open) = &self.club.current
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
        crate::services::files::to_pgn(&record, self.notation)
    }
}
