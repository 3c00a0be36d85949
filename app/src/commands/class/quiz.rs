//! The class's quiz: asking the board's position or a round's, the answers arriving, the
//! answer worked out in the background (or set by the teacher), Reveal, and the record.

use super::Manager;
use crate::actions::*;
use crate::services::class::quiz::{
    ChartBar, QuizShown, Revealed, ScoreLine, judge, revealed_picture,
};
use crate::services::storage;
use crate::services::work::WorkKey;
use crate::state::Notice;
use crate::state::class::quiz::*;
use crate::state::file_chooser::FilePurpose;
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::notation::format_move;
use chuhe_core::puzzle::Goal;
use chuhe_core::quiz::{Answer, Kind, Question};
use chuhe_core::training::Task;
use chuhe_core::{Move, Position};
use std::path::PathBuf;

/// How many lines of the score table the class sees.
const SCORES_SHOWN: usize = 10;

impl Manager<'_> {
    pub(super) fn quiz(&mut self, action: ClassAction) {
        match action {
            ClassAction::Ask(ask) => {
                self.class.quiz.round = None;
                let position = self.position.clone();
                let kind = match ask {
                    Ask::BestMove => Kind::BestMove,
                    Ask::Mate => Kind::MateIn(0),
                };
                self.ask(kind, position, String::new(), Vec::new());
            }
            ClassAction::Judged {
                index,
                mate,
                correct,
            } => self.judged(index, mate, correct),
            ClassAction::Answered(id, answer) => self.answered(id, answer),
            ClassAction::ToggleCorrect(mv) => {
                let quiz = &mut self.class.quiz;
                let Some(open) = &mut quiz.open else {
                    return;
                };
                open.set_by_teacher = true;
                open.judging = false;
                let index = open.index;
                self.work.cancel(WorkKey::ClassQuiz);
                if let Some(question) = quiz.record.questions.get_mut(index) {
                    question.toggle_correct(mv);
                }
                self.publish();
            }
            ClassAction::Reveal => {
                if let Some(open) = &mut self.class.quiz.open {
                    open.revealed = true;
                    self.publish();
                }
            }
            ClassAction::Next => {
                let next = self
                    .class
                    .quiz
                    .round
                    .as_ref()
                    .filter(|r| r.at + 1 < r.items.len())
                    .map(|r| r.at + 1);
                match next {
                    Some(at) => self.ask_round_item(at),
                    None => self.end_question(),
                }
            }
            ClassAction::EndQuestion => {
                self.class.quiz.round = None;
                self.end_question();
            }
            ClassAction::SendRound(source) => {
                let round = match source {
                    RoundSource::PuzzleSet(set) => self.puzzle_round(set),
                    RoundSource::Training => self.training_round(),
                };
                match round {
                    Some(round) if !round.items.is_empty() => {
                        self.class.window = true;
                        self.class.quiz.round = Some(round);
                        self.ask_round_item(0);
                    }
                    _ => self.queue.fail(Notice::Message("class-quiz-empty-round")),
                }
            }
            ClassAction::SaveRecordDialog => {
                let name = format!("{}.csv", self.i18n.tr("class-quiz-record-file"));
                self.queue.ask_for_file(
                    FilePurpose::Own(crate::state::class::RECORD_FILE),
                    Some(name),
                    |path| ClassAction::SaveRecord(path).into(),
                );
            }
            ClassAction::SaveRecord(path) => self.save(path),
            _ => {}
        }
    }

    /// Puts question `kind` on `position` to the class; `correct` known already, or worked
    /// out in the background.
    fn ask(&mut self, kind: Kind, position: Position, title: String, correct: Vec<Move>) {
        if self.class.running.is_none() {
            return;
        }
        if position.legal_moves().is_empty() {
            self.queue.fail(Notice::Message("class-quiz-no-moves"));
            return;
        }
        let mut question = Question::new(kind, position.clone(), &title);
        question.correct = correct;
        let quiz = &mut self.class.quiz;
        quiz.record.questions.push(question);
        let index = quiz.record.questions.len() - 1;
        let known = !quiz.record.questions[index].correct.is_empty();
        quiz.open = Some(OpenQuestion {
            index,
            judging: !known,
            revealed: false,
            set_by_teacher: false,
        });
        let shown = self.shown(index);
        let legal = position.legal_moves().iter().copied().collect();
        if let (Some(desk), Some(shown)) = (self.server.desk(), shown) {
            desk.ask(shown, legal);
        }
        if known {
            self.work.cancel(WorkKey::ClassQuiz);
        } else {
            self.work.start(
                WorkKey::ClassQuiz,
                "chuhe class answer",
                judge(kind, position, index),
            );
        }
    }

    fn ask_round_item(&mut self, at: usize) {
        let Some(round) = &mut self.class.quiz.round else {
            return;
        };
        let Some(item) = round.items.get(at).cloned() else {
            return;
        };
        round.at = at;
        self.ask(item.kind, item.position, item.title, item.correct);
    }

    fn judged(&mut self, index: usize, mate: Option<u32>, correct: Vec<Move>) {
        let quiz = &mut self.class.quiz;
        // A lost search (index unknown) gave up on the open question.
        let Some(open) = quiz
            .open
            .as_mut()
            .filter(|o| o.index == index || index == usize::MAX)
        else {
            return;
        };
        open.judging = false;
        let Some(question) = quiz.record.questions.get_mut(index) else {
            return;
        };
        if let (Kind::MateIn(_), Some(k)) = (question.kind, mate) {
            question.kind = Kind::MateIn(k);
        }
        if !open.set_by_teacher {
            question.correct = correct;
        }
        if question.correct.is_empty() {
            self.queue
                .say(Notice::Message("class-quiz-no-answer-found"));
        }
        self.publish();
    }

    fn answered(&mut self, id: u64, answer: Answer) {
        let quiz = &mut self.class.quiz;
        let Some(open) = quiz.open.as_ref().filter(|o| o.id() == id && !o.revealed) else {
            return;
        };
        if let Some(question) = quiz.record.questions.get_mut(open.index) {
            // The server let it through; the question checks again all the same.
            let _ = question.take(answer);
        }
    }

    fn end_question(&mut self) {
        self.class.quiz.open = None;
        self.work.cancel(WorkKey::ClassQuiz);
        if let Some(desk) = self.server.desk() {
            desk.close();
        }
    }

    /// Sends the open question as it now is to the class.
    fn publish(&mut self) {
        let Some(index) = self.class.quiz.open.as_ref().map(|o| o.index) else {
            return;
        };
        if let (Some(desk), Some(shown)) = (self.server.desk(), self.shown(index)) {
            desk.update(shown);
        }
    }

    /// Question `index` as the page shows it.
    fn shown(&self, index: usize) -> Option<QuizShown> {
        let quiz = &self.class.quiz;
        let open = quiz.open.as_ref()?;
        let question = quiz.record.questions.get(index)?;
        let notation = self.notation;
        let position = &question.position;
        let text = |m: Move| format_move(position, m, notation);
        let mut shown = QuizShown::new(
            open.id(),
            question.kind,
            &question.title,
            position,
            &self.look,
            &text,
        );
        if open.revealed {
            shown.revealed = Some(Revealed {
                answer: question.correct.iter().map(|&m| text(m)).collect(),
                moves: question.correct.iter().map(Move::to_string).collect(),
                svg: revealed_picture(position, &self.look, &question.drawn_answers()),
                chart: question
                    .tally()
                    .into_iter()
                    .map(|c| ChartBar {
                        text: text(c.mv),
                        count: c.count,
                        correct: c.correct,
                    })
                    .collect(),
                scores: quiz
                    .record
                    .standings()
                    .into_iter()
                    .take(SCORES_SHOWN)
                    .map(|s| ScoreLine {
                        name: s.name,
                        points: s.points,
                    })
                    .collect(),
            });
        }
        Some(shown)
    }

    /// A puzzle set's puzzles as a round: a mate in its count with the set's solution as
    /// the answer, any other goal as "the best move".
    fn puzzle_round(&self, set: usize) -> Option<Round> {
        let loaded = self.puzzles.sets.get(set)?;
        let items = loaded
            .set
            .puzzles
            .iter()
            .map(|p| RoundItem {
                title: p.title.clone(),
                position: p.position.clone(),
                kind: match p.goal {
                    Goal::Mate { moves, .. } => Kind::MateIn(moves),
                    Goal::Win | Goal::Draw => Kind::BestMove,
                },
                correct: p.solution.iter().map(|n| n.mv).collect(),
            })
            .collect();
        Some(Round {
            name: loaded.set.name.clone(),
            items,
            at: 0,
        })
    }

    /// The training items due (or all, when none is due) as a round: each asks the first
    /// move the user would play, with the item's own moves as the answer.
    fn training_round(&self) -> Option<Round> {
        let training = self.training;
        let chosen: Vec<usize> = if training.queue.is_empty() {
            (0..training.catalogue.len()).collect()
        } else {
            training.queue.clone()
        };
        let items = chosen
            .into_iter()
            .filter_map(|i| training.catalogue.get(i))
            .filter_map(|item| {
                let (position, correct) = match &item.task {
                    Task::Tree(nodes) => (
                        item.start.clone(),
                        nodes.iter().map(|n| n.mv).collect::<Vec<_>>(),
                    ),
                    Task::Line {
                        moves,
                        user,
                        elsewhere,
                    } => {
                        // The user's first move: at the start, or after the other side's.
                        let ply = usize::from(item.start.side_to_move() != *user);
                        let mut position = item.start.clone();
                        for &m in moves.iter().take(ply) {
                            position = position.play(m).ok()?;
                        }
                        let mut correct = vec![*moves.get(ply)?];
                        correct.extend(elsewhere.get(ply).into_iter().flatten().copied());
                        (position, correct)
                    }
                    Task::Table => (item.start.clone(), Vec::new()),
                };
                Some(RoundItem {
                    title: item.title.clone(),
                    position,
                    kind: Kind::BestMove,
                    correct,
                })
            })
            .collect();
        Some(Round {
            name: self.i18n.tr("training-title"),
            items,
            at: 0,
        })
    }

    /// Writes the record as CSV (atomically, through the storage service).
    fn save(&mut self, path: PathBuf) {
        let notation = self.notation;
        let i18n = self.i18n;
        let task = |kind: Kind| match kind {
            Kind::BestMove => i18n.tr("class-quiz-kind-best"),
            // The solver found no mate: the question stays "mate in how many".
            Kind::MateIn(0) => i18n.tr("class-quiz-kind-mate-unknown"),
            Kind::MateIn(n) => i18n.tr_args("class-quiz-kind-mate", &[("moves", n.into())]),
        };
        let text = |p: &Position, m: Move| format_move(p, m, notation);
        let csv = self.class.quiz.record.to_csv(&task, &text);
        match storage::write_text(&path, &csv) {
            Ok(()) => self.queue.done(Notice::WithArg(
                "class-quiz-saved",
                "path",
                path.display().to_string(),
            )),
            Err(e) => self.queue.fail(Notice::Problem(
                Problem::new("notice-save-failed").with("error", problems::io_error(&e)),
            )),
        }
    }
}
