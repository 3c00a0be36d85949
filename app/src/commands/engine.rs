//! The analysis service and the whole-game review.

use super::{Queue, SettingsMut};
use crate::actions::*;
use crate::services::analysis::EngineWorker;
use crate::services::review::Review;
use crate::state::Notice;
use crate::state::analysis::{AnalysisState, ReviewProgress};
use crate::state::analysis::{EngineStatus, EngineView, PositionReview};
use crate::state::study::Study;
use chuhe_core::analysis::Update;
use chuhe_core::record::NodeId;
use chuhe_core::search::Options;
use std::time::Duration;

/// What the analysis works on: its own state, its part of the settings, the game on the
/// board (which a review annotates), the engine's worker and the review's.
pub(super) struct Analysing<'a> {
    pub analysis: &'a mut AnalysisState,
    pub settings: SettingsMut<'a>,
    /// The board the analysis last asked about: (the game's generation, the node).
    pub analysed: &'a mut Option<(u64, NodeId)>,
    pub study: &'a mut Study,
    /// Whether a game against the engine bars its help now.
    pub barred: bool,
    pub worker: &'a mut Option<EngineWorker>,
    pub review: &'a mut Option<Review>,
    pub queue: &'a mut Queue,
}

impl Analysing<'_> {
    /// Carries out an engine action.
    pub(super) fn run(&mut self, action: EngineAction) {
        match action {
            EngineAction::ToggleAnalysis => self.toggle_analysis(),
            EngineAction::ToggleEngineHidden => {
                self.analysis.engine_hidden = !self.analysis.engine_hidden
            }
            EngineAction::SetMultiPv(lines) => {
                let range = crate::settings::MULTIPV_RANGE;
                let lines = lines.clamp(*range.start(), *range.end());
                self.settings.change(|s| s.engine.multipv = lines);
                self.engine_options_changed();
            }
            EngineAction::SetEngineSettings(engine) => {
                let engine_changed = engine.active() != self.settings.get().engine.active();
                self.settings.change(|s| s.engine = engine);
                self.engine_options_changed();
                if engine_changed {
                    self.engine_choice_changed();
                }
            }
            EngineAction::AddEngineDialog => self.queue.ask_for_file(
                crate::state::file_chooser::FilePurpose::AddEngine,
                None,
                |path| EngineAction::AddEngine(path).into(),
            ),
            EngineAction::AddEngine(path) => {
                let engine = crate::settings::ExternalEngine::from_path(path);
                self.settings.change(|s| {
                    s.engine.external.push(engine);
                    s.engine.active_external = Some(s.engine.external.len() - 1);
                });
                self.engine_choice_changed();
            }
            EngineAction::RestartEngine => self.engine_choice_changed(),
            EngineAction::TablesAdded => {
                // The search finds the new table in the process's tables; asking for the
                // board again restarts it there, so that it is used from the first ply.
                if self.analysis.analysing {
                    *self.analysed = None;
                }
            }
            EngineAction::StartReview => self.start_review(),
            EngineAction::CancelReview => self.cancel_review(),
            EngineAction::ReviewProgress(done, total) => {
                if let Some(progress) = &mut self.analysis.review {
                    progress.done = done;
                    progress.total = total;
                }
            }
            EngineAction::Reviewed(results) => self.reviewed(results),
            EngineAction::Analysed(node, update) => self.analysed(node, *update),
            EngineAction::Status(status) => self.engine_status(status),
        }
    }
}

impl Analysing<'_> {
    /// The engine options the settings ask for.
    pub(super) fn engine_options(&self) -> Options {
        let engine = &self.settings.get().engine;
        Options {
            hash_mb: engine.hash_mb,
            threads: engine.threads,
            multipv: engine.multipv,
            ..Options::default()
        }
    }

    pub(super) fn engine_options_changed(&mut self) {
        if let Some(analysis) = &self.worker {
            analysis.set_options(self.engine_options());
        }
    }

    /// The external engine chosen in the settings, or its options, changed: the worker
    /// starts it (or the built-in engine) and analyses on with it.
    pub(super) fn engine_choice_changed(&mut self) {
        self.analysis.engine_status = None;
        self.analysis.engine = None;
        *self.analysed = None;
        if let Some(analysis) = &self.worker {
            let external = self.settings.get().engine.active().map(|e| e.config());
            analysis.use_engine(external);
        }
    }

    pub(super) fn toggle_analysis(&mut self) {
        if !self.analysis.analysing && self.barred {
            self.queue.say(Notice::Message("notice-fair-play"));
            return;
        }
        self.analysis.analysing = !self.analysis.analysing;
        *self.analysed = None;
        if self.analysis.analysing {
            let failed = matches!(
                self.analysis.engine_status,
                Some(crate::services::analysis::EngineStatus::Failed(_))
            );
            if failed {
                // Turning analysis on again is how the user retries an engine that failed.
                self.engine_choice_changed();
            }
            let options = self.engine_options();
            let external = self.settings.get().engine.active().map(|e| e.config());
            self.worker
                .get_or_insert_with(|| EngineWorker::spawn(options, external));
        } else if let Some(analysis) = &self.worker {
            analysis.stop();
        }
    }

    /// Keeps the analysis on the position shown.
    pub(super) fn follow_with_analysis(&mut self) {
        let target = (self.study.generation, self.study.cursor);
        if !self.analysis.analysing || *self.analysed == Some(target) || self.barred {
            return;
        }
        let Some(analysis) = &self.worker else {
            return;
        };
        let record = &self.study.record;
        let game = crate::services::analysis::Game {
            start: record.start().clone(),
            moves: record.moves_to(self.study.cursor),
        };
        analysis.analyse(target, game);
        *self.analysed = Some(target);
    }

    pub(super) fn start_review(&mut self) {
        if self.review.is_some() {
            return;
        }
        if self.barred {
            self.queue.say(Notice::Message("notice-fair-play"));
            return;
        }
        let record = &self.study.record;
        let moves = record.main_line_moves();
        let engine = &self.settings.get().engine;
        let review = Review::start(
            record.start().clone(),
            moves,
            Options {
                hash_mb: engine.hash_mb,
                threads: engine.threads,
                ..Options::default()
            },
            Duration::from_millis(engine.review_ms),
        );
        self.analysis.review = Some(ReviewProgress {
            done: 0,
            total: review.total(),
        });
        *self.review = Some(review);
    }

    /// Stops a whole-game review: its results belong to the record it started on.
    pub(super) fn cancel_review(&mut self) {
        cancel_review(self.review, &mut self.analysis.review);
    }

    /// Takes in what the review found; when it has covered every position, writes the
    /// evaluations, the judgements and the engine's better moves into the record.
    pub(super) fn reviewed(&mut self, results: Vec<PositionReview>) {
        if self.review.take().is_none() {
            // Cancelled meanwhile: the findings belong to no record now.
            return;
        }
        self.analysis.review = None;
        chuhe_core::review::annotate(&mut self.study.record, &results);
        self.queue.say(Notice::Message("notice-review-done"));
        self.study.mark_edited();
        self.study.refresh(self.settings.get());
    }

    /// The analysis service's latest word on `node`.
    fn analysed(&mut self, node: NodeId, update: Update) {
        let position = self
            .study
            .record
            .position_at(node)
            .unwrap_or_else(|| self.study.derived.position.clone());
        let mate_patterns = update
            .report
            .lines
            .iter()
            .map(|line| match line.score {
                chuhe_core::search::Score::Mate(n) if n > 0 => {
                    chuhe_core::library::patterns::mate_patterns(&position, &line.moves)
                }
                _ => Vec::new(),
            })
            .collect();
        self.analysis.engine = Some(EngineView {
            node,
            position,
            update,
            mate_patterns,
        });
    }

    /// Takes in what the engine said of itself; an external engine's name is kept.
    fn engine_status(&mut self, status: EngineStatus) {
        match status {
            EngineStatus::Warning(w) => self.analysis.engine_warning = Some(w),
            status => {
                if let EngineStatus::External(info) = &status {
                    let engine = &self.settings.get().engine;
                    if let Some(i) = engine.active_external
                        && engine.external.get(i).is_some_and(|e| e.name != info.name)
                        && !info.name.is_empty()
                    {
                        let name = info.name.clone();
                        self.settings.change(|s| s.engine.external[i].name = name);
                    }
                }
                self.analysis.engine_warning = None;
                self.analysis.engine_status = Some(status);
            }
        }
    }
}

/// Stops the whole-game review `review` and forgets its `progress`.
pub(super) fn cancel_review(review: &mut Option<Review>, progress: &mut Option<ReviewProgress>) {
    if let Some(mut review) = review.take() {
        review.cancel();
    }
    *progress = None;
}
