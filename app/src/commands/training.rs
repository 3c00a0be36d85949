//! Training: the Train home, its rounds and drills, repertoires and endgames to train.

use super::Queue;
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::storage::Storage;
use crate::state::Notice;
use crate::state::file_chooser::FilePurpose;
use crate::state::pick::{self, Click};
use crate::state::puzzles::Puzzles;
use crate::state::study::Study;
use crate::state::tablebase::TbState;
use crate::state::training::*;
use crate::words::problem::Problem;
use chuhe_core::tb::{self, Material};
use chuhe_core::training::drill::{Answer, Drill};
use chuhe_core::training::store::{Now, TrainingError};
use chuhe_core::training::{EndgamePosition, Kind, Repertoire, puzzle_items};
use chuhe_core::{Move, Position};
use std::time::Instant;

/// The endgame tables in memory (the interface thread never reads or makes one).
fn loaded_tables(pos: &Position) -> Option<chuhe_core::tb::Analysis> {
    tb::global().analyse_loaded(pos)
}

/// A training-file problem in the user's words.
fn training_problem(e: &TrainingError) -> Problem {
    match e {
        TrainingError::Io { path, error } => Problem::new("training-error-file")
            .text("path", path.display())
            .with("reason", crate::words::problems::io_error(error)),
        TrainingError::Parse { line, column, .. } => Problem::new("training-error-parse")
            .text("line", line)
            .text("column", column),
    }
}

/// Training's command: its state, and what it reads and uses.
pub(super) struct Manager<'a> {
    pub training: &'a mut TrainingState,
    /// The puzzle sets, whose puzzles and patterns are items to train (loaded once).
    pub puzzles: &'a mut Puzzles,
    /// The game on the board, marked as a repertoire or an endgame to train.
    pub study: &'a Study,
    /// The endgame tables' verdict on the board (an endgame to train must be won).
    pub tables: &'a TbState,
    pub i18n: &'a I18n,
    pub storage: &'a Storage,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    /// Reads the training file once; a damaged one is moved aside (as `training.ron.bad`)
    /// so the next save does not destroy what could be repaired, and the user is told.
    fn load_training(&mut self) {
        if self.training.loaded {
            return;
        }
        self.training.loaded = true;
        match self.storage.load_training() {
            None => return,
            Some(Ok(data)) => self.training.data = data,
            Some(Err(e)) => self.training.problem = Some(training_problem(&e)),
        }
        self.build_catalogue();
    }

    /// Every item there is to train: the user's repertoires and endgames, the patterns'
    /// positions, the built-in and the user's puzzles.
    fn build_catalogue(&mut self) {
        super::puzzles::load(self.puzzles, self.storage);
        let mut catalogue = self.training.data.own_items();
        for loaded in &self.puzzles.sets {
            let kind = if loaded.dir.is_none() && loaded.set.name == "patterns" {
                Kind::Pattern
            } else {
                Kind::Puzzle
            };
            catalogue.extend(puzzle_items(&loaded.progress_name(), &loaded.set, kind));
        }
        self.training.catalogue = catalogue;
    }

    /// Writes the training state now (after every grade: a round cut short keeps it).
    fn save_training(&mut self) {
        match self.storage.save_training(&self.training.data) {
            Ok(()) => self.training.problem = None,
            Err(e) => self.training.problem = Some(training_problem(&e)),
        }
    }

    /// Starts drilling `index` of the catalogue.
    fn start_item(&mut self, index: usize) {
        let Some(item) = self.training.catalogue.get(index).cloned() else {
            return;
        };
        if item.kind == Kind::Endgame {
            self.fetch_table(&item.start);
        }
        self.training.session = Some(DrillSession {
            drill: Drill::new(item),
            started: Instant::now(),
            selected: None,
            message: None,
            hint: None,
            pending: None,
            graded: None,
        });
    }

    /// Asks for the endgame table of `pos` unless it is in memory.
    fn fetch_table(&mut self, pos: &Position) {
        if loaded_tables(pos).is_some() {
            return;
        }
        if let Some(material) = Material::of(pos) {
            self.queue
                .push(Action::Tablebase(TbAction::Generate(material)));
        }
    }

    /// The round's next item, or the home when the round is over.
    fn next_item(&mut self) {
        let training = &mut self.training;
        training.session = None;
        if training.queue.is_empty() {
            training.round_progress = (0, 0);
            return;
        }
        let next = training.queue.remove(0);
        self.start_item(next);
    }

    fn start_queue(&mut self, queue: Vec<usize>) {
        let training = &mut self.training;
        training.round_progress = (0, queue.len());
        training.queue = queue;
        training.open = true;
        if self.training.queue.is_empty() {
            self.queue.say(Notice::Message("training-nothing-due"));
            return;
        }
        // The drill takes the board: the editor, solve mode and the browsers give way.
        self.queue.push(EditorAction::LeaveNow.into());
        if self.puzzles.session.is_some() {
            self.queue.push(PuzzleAction::Leave.into());
        }
        self.queue.push(PatternAction::Hide.into());
        self.next_item();
    }

    /// The user's move in the drill.
    fn drill_move(&mut self, mv: Move) {
        let Some(session) = &mut self.training.session else {
            return;
        };
        session.selected = None;
        session.hint = None;
        let answer = session.drill.try_move(mv, &loaded_tables);
        session.message = match &answer {
            Answer::Right(reply) => Some(DrillMessage::Right(*reply)),
            Answer::Done => Some(DrillMessage::Done),
            Answer::Wrong => Some(DrillMessage::Wrong(mv)),
            Answer::OtherLine => Some(DrillMessage::OtherLine(mv)),
            Answer::TooLong => Some(DrillMessage::Failed),
            Answer::NeedTable(_) => Some(DrillMessage::WaitingForTable),
            Answer::Illegal => session.message,
        };
        session.pending = matches!(answer, Answer::NeedTable(_)).then_some(mv);
        if let Answer::NeedTable(pos) = answer {
            self.fetch_table(&pos);
        }
        self.grade_if_finished();
    }

    /// Grades the item once it is over, and saves at once.
    fn grade_if_finished(&mut self) {
        let training = &mut self.training;
        let Some(session) = &mut training.session else {
            return;
        };
        if !session.drill.finished || session.graded.is_some() {
            return;
        }
        session.drill.attempt.seconds =
            u32::try_from(session.started.elapsed().as_secs()).unwrap_or(u32::MAX);
        let grade = session.drill.attempt.grade();
        session.graded = Some((grade, grade));
        if session.drill.attempt.failed {
            session.message = Some(DrillMessage::Failed);
        }
        training.data.record(
            &session.drill.item,
            grade,
            grade,
            &session.drill.attempt,
            Now::local().at,
        );
        training.round_progress.0 += 1;
        self.save_training();
    }

    /// The name a repertoire from the study board goes by: the file's name, else the
    /// game's event, else "my repertoire".
    fn study_name(&self) -> String {
        if let Some(stem) = self.study.file.as_ref().and_then(|p| p.file_stem()) {
            return stem.to_string_lossy().into_owned();
        }
        match self.study.record.headers().get("Event") {
            Some(event) if !event.is_empty() => event.to_owned(),
            _ => self.i18n.tr("training-repertoire-default-name"),
        }
    }

    fn add_repertoire(&mut self, repertoire: Repertoire) {
        let lines = repertoire.lines.len();
        if lines == 0 {
            self.queue.say(Notice::Message("training-repertoire-empty"));
            return;
        }
        self.training.data.set_repertoire(repertoire);
        self.save_training();
        self.build_catalogue();
        self.queue.say(Notice::WithArg(
            "training-repertoire-marked",
            "count",
            lines.to_string(),
        ));
    }

    /// Carries out a training action.
    pub(super) fn run(&mut self, action: TrainAction) {
        self.load_training();
        match action {
            TrainAction::ToggleHome => {
                let training = &mut self.training;
                training.open = !training.open;
                if !training.open {
                    training.session = None;
                    training.queue.clear();
                } else {
                    self.build_catalogue();
                    self.queue.push(PatternAction::Hide.into());
                }
            }
            TrainAction::SetNewPerDay(n) => {
                self.training.data.new_per_day = n.min(200);
                self.save_training();
            }
            TrainAction::StartRound => {
                self.build_catalogue();
                let training = &self.training;
                let queue = training.data.round(&training.catalogue, Now::local());
                self.start_queue(queue);
            }
            TrainAction::DrillRepertoire(id) => {
                self.build_catalogue();
                let prefix = format!("opening:{id}:");
                let queue: Vec<usize> = (self.training.catalogue.iter().enumerate())
                    .filter(|(_, item)| item.id.starts_with(&prefix))
                    .map(|(i, _)| i)
                    .collect();
                self.start_queue(queue);
            }
            TrainAction::Click(square) => {
                let Some(session) = &mut self.training.session else {
                    return;
                };
                let position = &session.drill.position;
                if session.drill.finished
                    || session.pending.is_some()
                    || position.side_to_move() != session.drill.user()
                {
                    return;
                }
                match pick::click(position, session.selected, square) {
                    Click::PutDown => session.selected = None,
                    Click::PickUp(square) => session.selected = Some(square),
                    Click::Move(m) => self.drill_move(m),
                    Click::Miss => {}
                }
            }
            TrainAction::Move(mv) => self.drill_move(mv),
            TrainAction::TableReady => {
                let pending = self
                    .training
                    .session
                    .as_mut()
                    .and_then(|s| s.pending.take());
                if let Some(mv) = pending {
                    self.drill_move(mv);
                }
            }
            TrainAction::Hint => {
                if let Some(session) = &mut self.training.session {
                    session.hint = session.drill.hint(&loaded_tables);
                }
            }
            TrainAction::GiveUp => {
                if let Some(session) = &mut self.training.session {
                    session.drill.give_up();
                }
                self.grade_if_finished();
            }
            TrainAction::Regrade(grade) => {
                let training = &mut self.training;
                let Some(session) = &mut training.session else {
                    return;
                };
                let Some((earned, _)) = session.graded else {
                    return;
                };
                if training.data.regrade_last(&session.drill.item.id, grade) {
                    session.graded = Some((earned, grade));
                    self.save_training();
                }
            }
            TrainAction::Next => self.next_item(),
            TrainAction::StopRound => {
                let training = &mut self.training;
                training.session = None;
                training.queue.clear();
                training.round_progress = (0, 0);
            }
            TrainAction::ShowHistory(key) => self.training.selected = key,
            TrainAction::MarkStudy(side) => {
                let name = self.study_name();
                let id = match &self.study.file {
                    Some(path) => format!("file:{}", path.display()),
                    None => format!("game:{name}"),
                };
                let repertoire = Repertoire::from_record(&id, &name, side, &self.study.record);
                self.add_repertoire(repertoire);
            }
            TrainAction::MarkOpening(node, side) => {
                let Ok(book) = chuhe_core::library::openings::builtin() else {
                    return;
                };
                let Some(branch) = book.node(node) else {
                    return;
                };
                // Every leaf under the branch is a line (the branch itself when it has none).
                let lines: Vec<Vec<Move>> = book
                    .nodes
                    .iter()
                    .filter(|n| n.children.is_empty() && book.path(n.id).contains(&node))
                    .map(|n| n.moves.clone())
                    .collect();
                let name = branch.names.get(self.i18n.language().tag()).to_owned();
                let repertoire = Repertoire::from_lines(
                    &format!("library:{node}"),
                    &name,
                    side,
                    &Position::startpos(),
                    lines,
                );
                self.add_repertoire(repertoire);
            }
            TrainAction::RemoveRepertoire(id) => {
                let data = &mut self.training.data;
                data.repertoires.retain(|r| r.id != id);
                let prefix = format!("opening:{id}:");
                data.items.retain(|key, _| !key.starts_with(&prefix));
                self.save_training();
                self.build_catalogue();
            }
            TrainAction::AddEndgame => {
                let pos = self.study.derived.position.clone();
                let wins = self
                    .tables
                    .analysis_of(&pos)
                    .is_some_and(|a| a.value.is_win());
                let Some(material) = Material::of(&pos).filter(|_| wins) else {
                    self.queue.say(Notice::Message("training-endgame-not-won"));
                    return;
                };
                self.training.data.add_endgame(EndgamePosition {
                    fen: pos.to_string(),
                    title: material.to_string(),
                });
                self.save_training();
                self.build_catalogue();
                self.queue.say(Notice::Message("training-endgame-added"));
            }
            TrainAction::ExportDialog => self.queue.ask_for_file(
                FilePurpose::ExportTraining,
                Some(crate::services::storage::TRAINING_FILE.to_owned()),
                |path| TrainAction::Export(path).into(),
            ),
            TrainAction::Export(path) => {
                if let Err(e) =
                    crate::services::storage::export_training(&path, &self.training.data)
                {
                    self.queue.say(Notice::Problem(training_problem(&e)));
                } else {
                    self.queue.say(Notice::WithArg(
                        "training-exported",
                        "path",
                        path.display().to_string(),
                    ));
                }
            }
            TrainAction::ImportDialog => {
                self.queue
                    .ask_for_file(FilePurpose::ImportTraining, None, |path| {
                        TrainAction::Import(path).into()
                    })
            }
            TrainAction::Import(path) => match crate::services::storage::import_training(&path) {
                Ok(other) => {
                    let changed = self.training.data.merge(other);
                    self.save_training();
                    self.build_catalogue();
                    self.queue.say(Notice::WithArg(
                        "training-imported",
                        "count",
                        changed.to_string(),
                    ));
                }
                Err(e) => self.queue.say(Notice::Problem(training_problem(&e))),
            },
        }
    }
}
