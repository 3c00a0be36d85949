//! The analysis service and the whole-game review.

use super::Ctx;
use crate::actions::*;
use crate::services::analysis::EngineWorker;
use crate::services::review::Review;
use crate::state::Notice;
use crate::state::analysis::ReviewProgress;
use crate::state::analysis::{EngineStatus, EngineView, PositionReview};
use chuhe_core::analysis::Update;
use chuhe_core::record::NodeId;
use chuhe_core::search::Options;
use std::time::Duration;

impl Ctx<'_> {
    /// Carries out a engine action.
    pub(super) fn engine(&mut self, action: EngineAction) {
        match action {
            EngineAction::ToggleAnalysis => self.toggle_analysis(),
            EngineAction::ToggleEngineHidden => {
                self.state.analysis.engine_hidden = !self.state.analysis.engine_hidden
            }
            EngineAction::SetMultiPv(lines) => {
                let range = crate::settings::MULTIPV_RANGE;
                let lines = lines.clamp(*range.start(), *range.end());
                self.change_settings(|s| s.engine.multipv = lines);
                self.engine_options_changed();
            }
            EngineAction::SetEngineSettings(engine) => {
                let engine_changed = engine.active() != self.state.settings.engine.active();
                self.change_settings(|s| s.engine = engine);
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
                self.change_settings(|s| {
                    s.engine.external.push(engine);
                    s.engine.active_external = Some(s.engine.external.len() - 1);
                });
                self.engine_choice_changed();
            }
            EngineAction::RestartEngine => self.engine_choice_changed(),
            EngineAction::StartReview => self.start_review(),
            EngineAction::CancelReview => self.cancel_review(),
            EngineAction::ReviewProgress(done, total) => {
                if let Some(progress) = &mut self.state.analysis.review {
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

impl Ctx<'_> {
    /// The engine options the settings ask for.
    pub(super) fn engine_options(&self) -> Options {
        let engine = &self.state.settings.engine;
        Options {
            hash_mb: engine.hash_mb,
            threads: engine.threads,
            multipv: engine.multipv,
            ..Options::default()
        }
    }

    pub(super) fn engine_options_changed(&mut self) {
        if let Some(analysis) = &self.services.analysis {
            analysis.set_options(self.engine_options());
        }
    }

    /// The external engine chosen in the settings, or its options, changed: the worker
    /// starts it (or the built-in engine) and analyses on with it.
    pub(super) fn engine_choice_changed(&mut self) {
        self.state.analysis.engine_status = None;
        self.state.analysis.engine = None;
        self.state.bookkeeping.analysed = None;
        if let Some(analysis) = &self.services.analysis {
            let external = self.state.settings.engine.active().map(|e| e.config());
            analysis.use_engine(external);
        }
    }

    pub(super) fn toggle_analysis(&mut self) {
        if !self.state.analysis.analysing && self.state.engine_help_barred() {
            self.state.notice = Some(Notice::Message("notice-fair-play"));
            return;
        }
        self.state.analysis.analysing = !self.state.analysis.analysing;
        self.state.bookkeeping.analysed = None;
        if self.state.analysis.analysing {
            let failed = matches!(
                self.state.analysis.engine_status,
                Some(crate::services::analysis::EngineStatus::Failed(_))
            );
            if failed {
                // Turning analysis on again is how the user retries an engine that failed.
                self.engine_choice_changed();
            }
            let options = self.engine_options();
            let external = self.state.settings.engine.active().map(|e| e.config());
            self.services
                .analysis
                .get_or_insert_with(|| EngineWorker::spawn(options, external));
        } else if let Some(analysis) = &self.services.analysis {
            analysis.stop();
        }
    }

    /// Keeps the analysis on the position shown.
    pub(super) fn follow_with_analysis(&mut self) {
        let target = (self.state.study.generation, self.state.study.cursor);
        if !self.state.analysis.analysing
            || self.state.bookkeeping.analysed == Some(target)
            || self.state.engine_help_barred()
        {
            return;
        }
        let Some(analysis) = &self.services.analysis else {
            return;
        };
        let record = &self.state.study.record;
        let game = crate::services::analysis::Game {
            start: record.start().clone(),
            moves: record.moves_to(self.state.study.cursor),
        };
        analysis.analyse(target, game);
        self.state.bookkeeping.analysed = Some(target);
    }

    pub(super) fn start_review(&mut self) {
        if self.services.review.is_some() {
            return;
        }
        if self.state.engine_help_barred() {
            self.state.notice = Some(Notice::Message("notice-fair-play"));
            return;
        }
        let record = &self.state.study.record;
        let moves = record.main_line_moves();
        let engine = &self.state.settings.engine;
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
        self.state.analysis.review = Some(ReviewProgress {
            done: 0,
            total: review.total(),
        });
        self.services.review = Some(review);
    }

    /// Takes in what the review found; when it has covered every position, writes the
    /// evaluations, the judgements and the engine's better moves into the record.
    pub(super) fn reviewed(&mut self, results: Vec<PositionReview>) {
        if self.services.review.take().is_none() {
            // Cancelled meanwhile: the findings belong to no record now.
            return;
        }
        self.state.analysis.review = None;
        chuhe_core::review::annotate(&mut self.state.study.record, &results);
        self.state.notice = Some(Notice::Message("notice-review-done"));
        self.state.mark_edited();
        self.state.refresh();
    }

    /// The analysis service's latest word on `node`.
    fn analysed(&mut self, node: NodeId, update: Update) {
        let position = self
            .state
            .study
            .record
            .position_at(node)
            .unwrap_or_else(|| self.state.position().clone());
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
        self.state.analysis.engine = Some(EngineView {
            node,
            position,
            update,
            mate_patterns,
        });
    }

    /// Takes in what the engine said of itself; an external engine's name is kept.
    fn engine_status(&mut self, status: EngineStatus) {
        match status {
            EngineStatus::Warning(w) => self.state.analysis.engine_warning = Some(w),
            status => {
                if let EngineStatus::External(info) = &status {
                    let engine = &mut self.state.settings.engine;
                    if let Some(i) = engine.active_external
                        && let Some(e) = engine.external.get_mut(i)
                        && e.name != info.name
                        && !info.name.is_empty()
                    {
                        e.name = info.name.clone();
                        self.state.bookkeeping.settings_changed = true;
                    }
                }
                self.state.analysis.engine_warning = None;
                self.state.analysis.engine_status = Some(status);
            }
        }
    }
}
