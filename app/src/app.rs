//! The eframe application: owns the state and the services, and runs each frame: input
//! and the services' results to actions, the panels drawn from the state producing more
//! actions, every action carried out by the commands in order.

use crate::actions::{Action, FileAction, WindowAction};
use crate::i18n::I18n;
use crate::services::Services;
use crate::services::storage::Storage;
use crate::state::toasts::ToastKind;
use crate::state::{Dialog, Notice, State};
use crate::widgets::board::{self, BoardGeometry};
use crate::{commands, fonts, panels};
use std::time::{Duration, Instant};

/// Chuhe's main window: the state, the services, and the frame's bookkeeping.
pub struct ChuheApp {
    /// Everything shown and edited.
    pub state: State,
    /// The threads and I/O the commands call.
    pub services: Services,
    /// The actions waiting to be carried out, drained in order each frame.
    pub queue: commands::Queue,
    /// The window's geometry as of the last frame, remembered at exit.
    window: WindowGeometry,
    /// How long the app's own work took in each recent frame.
    frame_times: FrameTimes,
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
        let mut state = State::new(settings);
        if let Some(problem) = problem {
            let notice = Notice::Problem(
                crate::words::problem::Problem::new("notice-settings-reset").with(
                    "error",
                    crate::words::problem::Problem::new("settings-error-in-file")
                        .text("path", problem.path.display())
                        .with("reason", problem.problem),
                ),
            );
            // The settings the user chose are gone: that is said where they look.
            let now = cc.egui_ctx.input(|i| i.time);
            state.toasts.push(ToastKind::Error, notice.clone(), now);
            state.notice = Some(notice);
        }
        if storage.autosave_path().is_some_and(|p| p.exists()) {
            state.dialog = Some(Dialog::RestoreAutosave);
        }
        let services = Services::new(cc.egui_ctx.clone(), storage, &state);
        services.apply_visuals(&state);
        let mut app = ChuheApp {
            state,
            services,
            queue: commands::Queue::default(),
            window: WindowGeometry::default(),
            frame_times: FrameTimes::default(),
        };
        // The collections open last time open again (in the background; one that is gone
        // is reported, not fatal).
        if !app.state.settings.collections.is_empty() {
            app.queue.push(Action::Collections(
                crate::actions::CollectionAction::Restore,
            ));
            app.drain();
        }
        app
    }

    /// Opens as `chuhe FILE` does: the settings and autosave in `storage`, then `file`.
    /// When an autosave waits to be restored, that question comes first and the file
    /// opens once it is answered; a file that cannot be read says why.
    pub fn with_file(
        cc: &eframe::CreationContext<'_>,
        storage: Storage,
        file: Option<std::path::PathBuf>,
    ) -> ChuheApp {
        let mut app = ChuheApp::with_storage(cc, storage);
        if let Some(path) = file {
            let open = Action::File(FileAction::Open(path));
            if app.state.dialog == Some(Dialog::RestoreAutosave) {
                app.queue.held = Some(open);
            } else {
                app.apply(&cc.egui_ctx, open);
            }
        }
        app
    }

    /// Opens a class at start, as `chuhe --class` does: on `port` (or the usual one) with
    /// join code `code` (or a new one). Gives the line announcing it, `class:
    /// http://<address>:<port>/ code <code>`, or why it could not open.
    pub fn open_class(
        &mut self,
        ctx: &egui::Context,
        port: Option<u16>,
        code: Option<String>,
    ) -> Result<String, String> {
        use crate::actions::ClassAction;
        if let Some(port) = port {
            self.apply(ctx, Action::Class(ClassAction::SetPort(port)));
        }
        if let Some(code) = code {
            self.apply(ctx, Action::Class(ClassAction::SetCode(code)));
        }
        self.apply(ctx, Action::Class(ClassAction::Start));
        match &self.state.class.running {
            Some(class) => Ok(format!(
                "class: {} code {}",
                class.url(class.addresses[0]),
                class.code
            )),
            None => Err(self
                .state
                .notice
                .as_ref()
                .map(|n| crate::widgets::text::notice_text(&self.services.i18n, n))
                .unwrap_or_default()),
        }
    }

    /// Carries out `action` (as a click, a key or a service would): for the file `main`
    /// opens at start, and for tests.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        self.services.ui = ctx.clone();
        self.queue.push(action);
        self.drain();
    }

    /// The user moved on (a step, an edit, a file): the last notice is old news.
    fn user_acted(&mut self, actions: &[Action]) {
        if actions.iter().any(Action::moves_on) {
            commands::user_acted(&mut self.state);
        }
    }

    /// Carries out the waiting actions in order, and what each of them sets off, until
    /// none is left.
    fn drain(&mut self) {
        while let Some(action) = self.queue.pop() {
            commands::run(&mut self.state, &mut self.services, &mut self.queue, action);
        }
        // The class sees what the actions left on the board.
        self.services.class.follow(&self.state);
    }

    /// Where the board was drawn in the last frame (for hit-testing from outside, such as
    /// a presentation clicker or a test).
    pub fn board_geometry(&self) -> Option<BoardGeometry> {
        board::drawn(&self.services.ui, board::MAIN_BOARD)
    }

    /// Where the pattern browser's board was drawn in the last frame.
    pub fn pattern_board_geometry(&self) -> Option<BoardGeometry> {
        board::drawn(&self.services.ui, board::PATTERN_BOARD)
    }

    /// The translations.
    pub fn i18n(&self) -> &I18n {
        &self.services.i18n
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
            && let Err(e) = self
                .services
                .storage
                .save_settings(&self.state.settings_to_save())
        {
            log_error(&e);
        }
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
                self.state.analysis.analysing,
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
        self.services.ui = ctx.clone();
        let mut actions = Vec::new();

        if ctx.input(|i| i.viewport().close_requested()) && !self.state.bookkeeping.allowed_to_close
        {
            if self.state.any_dirty() {
                ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
                commands::autosave(&mut self.state, &mut self.services, &mut self.queue, true);
                actions.push(Action::Window(WindowAction::RequestQuit));
            } else {
                commands::remove_autosave(&mut self.state, &mut self.services, &mut self.queue);
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
        actions.extend(panels::input(&ctx, &self.state));
        self.user_acted(&actions);
        for action in actions.drain(..) {
            self.queue.push(action);
        }
        self.drain();
        // The services' results, applied before drawing; what a result sets off (a table
        // made, then the board's verdict from it) is looked for again at once.
        let mut busy = false;
        for _ in 0..3 {
            let (reported, working) = self.services.poll(&self.state);
            busy = working;
            if reported.is_empty() {
                break;
            }
            for action in reported {
                self.queue.push(action);
            }
            self.drain();
        }
        let view = panels::View {
            state: &self.state,
            i18n: &self.services.i18n,
            frame_ms: self.frame_times.mean().as_secs_f64() * 1000.0,
            now: ctx.input(|i| i.time),
        };
        panels::show(&view, ui, &mut actions);
        self.user_acted(&actions);
        for action in actions {
            self.queue.push(action);
        }
        self.drain();
        commands::autosave(&mut self.state, &mut self.services, &mut self.queue, false);
        if let Some(after) = commands::tick(&mut self.state, ctx.input(|i| i.time)) {
            // A toast fades, a notice clears, without the user doing anything.
            ctx.request_repaint_after(Duration::from_secs_f64(after));
        }
        if busy {
            // Background work answers soon: look for it.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        if self.state.analysis.analysing
            || self.state.play.as_ref().is_some_and(|m| m.result.is_none())
        {
            // The engine's lines, a game's clock.
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
        self.services.analysis = None;
        // Quitting ends the class and every student's connection.
        self.services.class.stop();
        // A table being made stops at its next progress report; only whole tables are
        // ever renamed into the cache.
        self.services
            .work
            .cancel(crate::services::work::WorkKey::Tablebase);
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
