//! The eframe application: owns the state, the services (analysis, review, storage,
//! translations) and runs each frame: input to actions, panels drawn from the state
//! producing more actions, then every action applied in order.

use crate::actions::Action;
use crate::engine::{EngineStatus, EngineWorker};
use crate::i18n::I18n;
use crate::panels;
use crate::review::{PositionReview, Review};
use crate::settings::{Storage, write_atomically};
use crate::state::{AppState, Dialog, EngineView, Notice};
use crate::{fonts, shortcuts};
use chuhe_core::record::NodeId;
use std::time::{Duration, Instant};

/// How long unsaved changes may wait before they are written to the autosave file: a kill
/// or crash loses at most this much work.
const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(5);

/// Chuhe's main window.
pub struct ChuheApp {
    /// Everything shown and edited.
    pub state: AppState,
    pub(crate) i18n: I18n,
    pub(crate) storage: Storage,
    pub(crate) analysis: Option<EngineWorker>,
    /// The node the analysis service was last pointed at, with the record's generation.
    pub(crate) analysed: Option<(u64, NodeId)>,
    pub(crate) review: Option<Review>,
    pub(crate) review_results: Vec<PositionReview>,
    pub(crate) settings_changed: bool,
    /// Plays the sounds of moves.
    pub(crate) sounds: crate::sound::SoundPlayer,
    /// The record and node the last sound was for (or the board was at).
    pub(crate) sound_cursor: (u64, NodeId),
    /// The window's geometry as of the last frame, remembered at exit.
    pub(crate) window: WindowGeometry,
    pub(crate) allowed_to_close: bool,
    /// Board interaction between frames (drags).
    pub(crate) board_input: panels::board::BoardInput,
    /// A drag in the position editor.
    pub(crate) editor_drag: Option<panels::editor::EditorDrag>,
    /// The piece dragged in solve mode.
    pub(crate) board_input_puzzle: Option<chuhe_core::Square>,
    /// Where the board was drawn in the last frame.
    pub(crate) board_geometry: Option<crate::board::BoardGeometry>,
    /// The comment being edited, and for which node.
    pub(crate) comment_draft: Option<(NodeId, String)>,
    /// A diagram being exported.
    pub(crate) export_job: Option<crate::jobs::Job<Result<std::path::PathBuf, String>>>,
    last_autosave: Instant,
    autosaved_edits: u64,
    /// How long the app's own work took in each recent frame.
    pub(crate) frame_times: FrameTimes,
}

/// Frames left out of the longest-frame figure: the first ones lay out the font atlas.
const WARM_UP_FRAMES: u64 = 30;

/// The CPU time of recent frames' `ui`, for the status bar and measurements.
#[derive(Default)]
pub struct FrameTimes {
    recent: std::collections::VecDeque<Duration>,
    /// The longest frame after the first [`WARM_UP_FRAMES`] (which load the font atlas).
    pub max: Duration,
    /// Frames drawn.
    pub count: u64,
    /// When the first frame finished, since the app was created.
    pub first_frame: Option<Duration>,
}

impl FrameTimes {
    fn record(&mut self, took: Duration, since_start: Duration) {
        if self.recent.len() == 120 {
            self.recent.pop_front();
        }
        self.recent.push_back(took);
        if self.count >= WARM_UP_FRAMES {
            self.max = self.max.max(took);
        }
        self.count += 1;
        self.first_frame.get_or_insert(since_start);
    }

    /// The longest of the recent frames.
    pub fn recent_max(&self) -> Duration {
        self.recent.iter().max().copied().unwrap_or_default()
    }

    /// The mean of the recent frames.
    pub fn mean(&self) -> Duration {
        if self.recent.is_empty() {
            return Duration::ZERO;
        }
        self.recent.iter().sum::<Duration>() / self.recent.len() as u32
    }
}

impl ChuheApp {
    /// Opens with the user's settings from the OS config directory (or `$CHUHE_HOME`).
    pub fn new(cc: &eframe::CreationContext<'_>) -> ChuheApp {
        ChuheApp::with_storage(cc, Storage::from_environment())
    }

    /// Opens with the settings and autosave kept in `storage`.
    pub fn with_storage(cc: &eframe::CreationContext<'_>, storage: Storage) -> ChuheApp {
        fonts::install(&cc.egui_ctx);
        // The endgame tables live in the app's data directory (the first window decides).
        chuhe_core::tb::init_global(storage.tablebase_dir());
        let (settings, problem) = storage.load_settings();
        let mut state = AppState::new(settings);
        if let Some(problem) = problem {
            state.notice = Some(Notice::WithArg(
                "notice-settings-reset",
                "error",
                format!("{}: {}", problem.path.display(), problem.message),
            ));
        }
        if storage.autosave_path().is_some_and(|p| p.exists()) {
            state.dialog = Some(Dialog::RestoreAutosave);
        }
        let sound_cursor = (state.generation, state.cursor);
        let app = ChuheApp {
            i18n: I18n::new(state.settings.language),
            state,
            storage,
            analysis: None,
            analysed: None,
            review: None,
            review_results: Vec::new(),
            settings_changed: false,
            sounds: Default::default(),
            sound_cursor,
            window: WindowGeometry::default(),
            allowed_to_close: false,
            board_input: Default::default(),
            editor_drag: None,
            board_input_puzzle: None,
            comment_draft: None,
            board_geometry: None,
            export_job: None,
            last_autosave: Instant::now(),
            autosaved_edits: 0,
            frame_times: FrameTimes::default(),
        };
        app.apply_visuals(&cc.egui_ctx);
        app
    }

    /// Where the board was drawn in the last frame (for hit-testing from outside, such as
    /// a presentation clicker or a test).
    pub fn board_geometry(&self) -> Option<crate::board::BoardGeometry> {
        self.board_geometry
    }

    /// The translations.
    pub fn i18n(&self) -> &I18n {
        &self.i18n
    }

    /// Light or dark panels to suit the board theme.
    pub(crate) fn apply_visuals(&self, ctx: &egui::Context) {
        let theme = self.state.settings.theme.theme();
        ctx.set_visuals(if theme.dark_panels {
            egui::Visuals::dark()
        } else {
            egui::Visuals::light()
        });
    }

    /// Brings the autosaved game back, or throws it away.
    pub(crate) fn restore_autosave(&mut self, restore: bool) {
        let Some(path) = self.storage.autosave_path() else {
            return;
        };
        if restore {
            match crate::files::load_file(&path) {
                Ok(crate::files::Loaded::One(record)) => {
                    self.state.replace_record(record, None);
                    // Restored work is unsaved work.
                    self.state.mark_edited();
                    self.state.notice = Some(Notice::Message("notice-restored"));
                }
                Ok(crate::files::Loaded::Many(_)) | Err(_) => {
                    self.state.notice = Some(Notice::Message("notice-restore-failed"));
                }
            }
        }
        if !restore {
            self.remove_autosave();
        }
    }

    pub(crate) fn remove_autosave(&mut self) {
        if let Some(path) = self.storage.autosave_path() {
            // Absent already is fine.
            let _ = std::fs::remove_file(path);
        }
        self.autosaved_edits = self.state.edits;
    }

    /// Writes unsaved changes to the autosave file now and then.
    fn autosave(&mut self, force: bool) {
        if !self.state.dirty || self.autosaved_edits == self.state.edits {
            return;
        }
        if !force && self.last_autosave.elapsed() < AUTOSAVE_INTERVAL {
            return;
        }
        let Some(path) = self.storage.autosave_path() else {
            return;
        };
        self.last_autosave = Instant::now();
        let text = crate::files::to_pgn(&self.state.record, chuhe_core::Notation::Iccs);
        match write_atomically(&path, text.as_bytes()) {
            Ok(()) => self.autosaved_edits = self.state.edits,
            Err(e) => {
                self.state.notice = Some(Notice::WithArg(
                    "notice-autosave-failed",
                    "error",
                    e.to_string(),
                ))
            }
        }
    }

    /// Drains the analysis service.
    fn poll_analysis(&mut self) {
        self.poll_engine_status();
        let (Some(analysis), Some(wanted)) = (&self.analysis, self.analysed) else {
            return;
        };
        let newest = analysis
            .poll()
            .into_iter()
            .rev()
            .find(|(request, _)| *request == wanted);
        if let Some(((_, node), update)) = newest {
            let position = self
                .state
                .record
                .position_at(node)
                .unwrap_or_else(|| self.state.position().clone());
            let mate_patterns = update
                .lines
                .iter()
                .map(|line| match line.score {
                    chuhe_core::search::Score::Mate(n) if n > 0 => {
                        crate::panels::patterns::mate_patterns(&position, &line.moves)
                    }
                    _ => Vec::new(),
                })
                .collect();
            self.state.engine = Some(EngineView {
                node,
                position,
                update,
                mate_patterns,
            });
        }
    }

    /// Keeps the window's size, place and maximised state for the next start.
    pub fn remember_window(&mut self) {
        let window = self.window;
        let layout = &mut self.state.settings.layout;
        let before = layout.clone();
        layout.maximized = window.maximized;
        // A maximised window's size is the screen's; the size to restore is the one before.
        if !window.maximized {
            if let Some(size) = window.inner_size {
                layout.window_size = Some(size);
            }
            if let Some(position) = window.position {
                layout.window_position = Some(position);
            }
        }
        if *layout != before
            && let Err(e) = self.storage.save_settings(&self.state.settings_to_save())
        {
            log_error(&e);
        }
    }

    /// Takes in what the engine said of itself; an external engine's name is kept.
    fn poll_engine_status(&mut self) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        for status in analysis.statuses() {
            match status {
                EngineStatus::Warning(w) => self.state.engine_warning = Some(w),
                status => {
                    if let EngineStatus::External(info) = &status {
                        let engine = &mut self.state.settings.engine;
                        if let Some(i) = engine.active_external
                            && let Some(e) = engine.external.get_mut(i)
                            && e.name != info.name
                            && !info.name.is_empty()
                        {
                            e.name = info.name.clone();
                            self.settings_changed = true;
                        }
                    }
                    self.state.engine_warning = None;
                    self.state.engine_status = Some(status);
                }
            }
        }
    }

    /// Input that is not aimed at a widget: dropped files, pasted text, shortcuts.
    fn global_input(&mut self, ctx: &egui::Context, actions: &mut Vec<Action>) {
        let dropped: Vec<_> = ctx.input(|i| i.raw.dropped_files.clone());
        for file in dropped {
            let path = file.path().to_owned();
            actions.push(if path.is_dir() {
                Action::OpenFolder(path)
            } else {
                Action::Open(path)
            });
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let events = ctx.input(|i| i.events.clone());
        for event in events {
            match event {
                egui::Event::Paste(text) => actions.push(Action::Paste(text)),
                egui::Event::Copy => actions.push(Action::CopyFen),
                _ => {}
            }
        }
        actions.extend(shortcuts::actions(
            ctx,
            self.state.cursor,
            self.state.presentation.is_some(),
        ));
    }

    /// Writes frame statistics to `$CHUHE_STATS` when set (for measurements).
    fn write_stats(&self) {
        if let Some(path) = std::env::var_os("CHUHE_STATS") {
            let stats = format!(
                "frames {}\nfirst_frame_ms {:.1}\nmean_frame_ms {:.3}\nrecent_max_frame_ms {:.3}\nmax_frame_ms {:.3}\nanalysing {}\n",
                self.frame_times.count,
                self.frame_times
                    .first_frame
                    .unwrap_or_default()
                    .as_secs_f64()
                    * 1000.0,
                self.frame_times.mean().as_secs_f64() * 1000.0,
                self.frame_times.recent_max().as_secs_f64() * 1000.0,
                self.frame_times.max.as_secs_f64() * 1000.0,
                self.state.analysing,
            );
            // Measurement output only; failing to write it is not the user's problem.
            let _ = std::fs::write(path, stats);
        }
    }
}

impl eframe::App for ChuheApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let started = Instant::now();
        let ctx = ui.ctx().clone();
        let mut actions = Vec::new();

        if ctx.input(|i| i.viewport().close_requested()) && !self.allowed_to_close {
            if self.state.dirty {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                self.autosave(true);
                actions.push(Action::RequestQuit);
            } else {
                self.remove_autosave();
            }
        }
        self.window = ctx.input(|i| {
            let viewport = i.viewport();
            // Some platforms (and test harnesses) leave the inner rectangle out; the
            // content's rectangle is the same size.
            let inner = viewport.inner_rect.unwrap_or(i.content_rect());
            WindowGeometry {
                inner_size: Some([inner.width(), inner.height()]),
                position: viewport.outer_rect.map(|r| [r.min.x, r.min.y]),
                maximized: viewport.maximized.unwrap_or(false),
            }
        });
        self.global_input(&ctx, &mut actions);
        self.poll_analysis();
        self.poll_review();
        if self.tablebase_frame(&ctx) {
            // A table is being made, or practice just answered: look again soon.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        if self.poll_puzzle_work() {
            // The solver works in the background: look for its answer again soon.
            ctx.request_repaint_after(Duration::from_millis(50));
        }

        if self.poll_export() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        if self.poll_match() {
            // A clock runs or the engine thinks: show the time, look for its move.
            ctx.request_repaint_after(Duration::from_millis(100));
        }

        panels::show(self, ui, &mut actions);

        for action in actions {
            self.apply(&ctx, action);
        }
        self.autosave(false);
        if self.state.dirty && self.autosaved_edits != self.state.edits {
            // No input may come to run a frame: ask for one when the autosave is due.
            ctx.request_repaint_after(
                AUTOSAVE_INTERVAL.saturating_sub(self.last_autosave.elapsed()),
            );
        }
        if self.state.analysing || self.review.is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        self.frame_times
            .record(started.elapsed(), crate::process_age());
        if self.frame_times.count % 30 == 1 {
            self.write_stats();
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.write_stats();
        self.remember_window();
        // Dropping the worker stops the search and joins its thread.
        self.analysis = None;
    }
}

/// The window's size and place as the platform reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WindowGeometry {
    /// Inner size in points.
    pub inner_size: Option<[f32; 2]>,
    /// Outer top-left corner in points (unknown on Wayland).
    pub position: Option<[f32; 2]>,
    /// Whether the window is maximised.
    pub maximized: bool,
}

/// Nobody can be told at exit (the window is gone); stderr is the last resort.
fn log_error(e: &std::io::Error) {
    eprintln!("chuhe: the settings could not be saved: {e}");
}
