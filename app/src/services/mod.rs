//! The services: threads and I/O. Each owns its thread or channel; the commands call them,
//! and what they find reaches the state only as actions, drained each frame.

pub mod analysis;
pub mod class;
pub mod collections;
pub mod composer;
pub mod export;
pub mod file_chooser;
pub mod files;
pub mod icon;
pub mod jobs;
pub mod patterns;
pub mod picture;
pub mod play;
pub mod print;
pub mod puzzles;
pub mod raster;
pub mod review;
pub mod sound;
pub mod storage;
pub mod tablebase;
pub mod work;

use crate::actions::Action;
use crate::i18n::I18n;
use crate::state::State;
use std::time::Duration;

/// How long unsaved changes may wait before they are written to the autosave file: a kill
/// or crash loses at most this much work.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(1);

/// Every service the commands may call, and the window's own effects (clipboard, full
/// screen, closing), which go through egui's context.
pub struct Services {
    /// The translations, in the interface language.
    pub i18n: I18n,
    /// Where the settings, autosave, puzzles and clubs are kept.
    pub storage: storage::Storage,
    /// The analysis service, once analysis was first asked for.
    pub analysis: Option<analysis::EngineWorker>,
    /// A whole-game review under way.
    pub review: Option<review::Review>,
    /// Plays the sounds of moves.
    pub sounds: sound::SoundPlayer,
    /// Background work answering with actions.
    pub work: work::Work,
    /// How far the composer's solve under way has got.
    pub composer: composer::Composer,
    /// The engine playing a game against the user.
    pub opponent: play::Opponent,
    /// The endgame tables' service: what the tables say of the board, and their making.
    pub tablebase: tablebase::Tables,
    /// egui's context: the clipboard, the viewport (full screen, closing), repaints.
    pub ui: egui::Context,
    /// Asks the user for files and folders.
    pub file_chooser: file_chooser::FileChooser,
    /// The game collections' thread: queries and imports.
    pub collections: collections::Collections,
    /// The class server, while a class is on.
    pub class: class::Class,
    /// Reads positions from pictures.
    pub picture: picture::Reader,
}

impl Services {
    /// The services for a window whose egui context is `ui`, keeping files in `storage`.
    pub fn new(ui: egui::Context, storage: storage::Storage, state: &State) -> Services {
        Services {
            i18n: I18n::new(state.settings.language),
            storage,
            analysis: None,
            review: None,
            sounds: Default::default(),
            work: Default::default(),
            composer: Default::default(),
            opponent: Default::default(),
            tablebase: Default::default(),
            ui,
            file_chooser: file_chooser::FileChooser::from_environment(),
            collections: Default::default(),
            class: Default::default(),
            picture: Default::default(),
        }
    }

    /// Light or dark panels to suit the board theme.
    pub fn apply_visuals(&self, state: &State) {
        apply_visuals(&self.ui, state.settings.theme);
    }

    /// What the services found since the last frame, as actions, and whether any of them
    /// is still working (so the frame asks for another soon).
    pub fn poll(&mut self, state: &State) -> (Vec<Action>, bool) {
        let mut actions = Vec::new();
        if let Some(analysis) = &self.analysis {
            actions.extend(
                analysis
                    .statuses()
                    .into_iter()
                    .map(|s| Action::Engine(crate::actions::EngineAction::Status(s))),
            );
            if let Some(wanted) = state.bookkeeping.analysed
                && let Some((request, update)) = analysis
                    .poll()
                    .into_iter()
                    .rev()
                    .find(|(request, _)| *request == wanted)
            {
                actions.push(Action::Engine(crate::actions::EngineAction::Analysed(
                    request.1,
                    Box::new(update),
                )));
            }
        }
        if let Some(review) = &mut self.review {
            actions.extend(review.poll_action());
        }
        actions.extend(self.composer.poll(&self.work));
        let (answers, lost) = self.work.poll();
        actions.extend(answers);
        actions.extend(lost.into_iter().map(work::WorkKey::lost));
        actions.extend(self.opponent.poll(state));
        actions.extend(self.tablebase.poll(state, &mut self.work));
        let (answers, collections_busy) = self.collections.poll();
        actions.extend(answers);
        actions.extend(self.class.poll());
        actions.extend(self.class.answers());
        let (read, picture_busy) = self.picture.poll();
        actions.extend(read);
        let busy = self.work.any_busy()
            || self.opponent.busy()
            || self.review.is_some()
            || collections_busy
            || picture_busy;
        (actions, busy)
    }
}

/// Light or dark panels to suit the board `theme`.
pub fn apply_visuals(ui: &egui::Context, theme: crate::theme::ThemeChoice) {
    ui.set_visuals(if theme.theme().dark_panels {
        egui::Visuals::dark()
    } else {
        egui::Visuals::light()
    });
}
