//! The endgame tables' service. Tables are loaded or generated in the background (never
//! on the interface thread, which only looks at tables already in memory); small tables
//! (at most five pieces, a few seconds at most) are fetched as soon as the board shows
//! one, bigger ones when the user asks, since they can take minutes.

use crate::actions::{Action, TbAction};
use crate::services::work::{Work, WorkKey};
use crate::state::State;
use crate::state::tablebase::{AUTO_PIECES, TbState};
use crate::words::problems;
use chuhe_core::Color;
use chuhe_core::tb::{self, Material};
use std::sync::{Arc, Mutex};

/// The tables' background work and its progress.
#[derive(Default)]
pub struct Tables {
    /// The progress the work reports: the table being made and the fraction done.
    progress: Arc<Mutex<(String, f32)>>,
    /// The progress last reported to the state.
    reported: (String, f32),
}

impl Tables {
    /// Starts loading or generating `material`'s table (and those its captures lead
    /// into), unless a table is being made already.
    pub fn start(&mut self, work: &mut Work, state: &mut TbState, material: Material) {
        if work.busy(WorkKey::Tablebase) {
            return;
        }
        let progress = self.progress.clone();
        state.error = None;
        state.generating = Some(material.clone());
        work.start(WorkKey::Tablebase, "endgame table", move |stop| {
            let tbs = tb::global();
            let mut report = |p: tb::Progress| {
                if let Ok(mut g) = progress.lock() {
                    *g = (p.material.to_string(), p.fraction);
                }
                !stop.load(std::sync::atomic::Ordering::Relaxed)
            };
            let made = (|| {
                tbs.get_or_generate(&material, &mut report)
                    .map_err(|e| problems::tb_error(&e))?;
                // The tables its captures lead into, for the moves' values.
                for color in Color::ALL {
                    for &kind in material.pieces(color) {
                        if let Some(sub) = material.without(chuhe_core::Piece::new(color, kind)) {
                            tbs.get_or_generate(&sub, &mut report)
                                .map_err(|e| problems::tb_error(&e))?;
                        }
                    }
                }
                Ok(())
            })();
            Action::Tablebase(TbAction::Generated(made))
        });
    }

    /// What the tables say of the board's position once it changed (and the small tables
    /// to fetch for it), and the progress of a table being made.
    pub fn poll(&mut self, state: &State, work: &mut Work) -> Vec<Action> {
        let mut actions = Vec::new();
        let busy = work.busy(WorkKey::Tablebase);
        if busy
            && let Ok(progress) = self.progress.lock()
            && *progress != self.reported
        {
            self.reported = progress.clone();
            actions.push(Action::Tablebase(TbAction::Progress(
                progress.0.clone(),
                progress.1,
            )));
        }
        if state.editor.is_some() || state.puzzles.session.is_some() {
            return actions;
        }
        let pos = state.position();
        let fen = pos.to_string();
        let tbs = &state.tablebase;
        if tbs.analysis.as_ref().is_none_or(|(f, _)| *f != fen) {
            let analysis = tb::global().analyse_loaded(pos);
            if analysis.is_none()
                && !busy
                && tbs.error.is_none()
                && let Some(material) = Material::of(pos)
                && material.piece_count() <= AUTO_PIECES
            {
                actions.push(Action::Tablebase(TbAction::Generate(material)));
            }
            actions.push(Action::Tablebase(TbAction::Analysed(
                fen,
                analysis.map(Box::new),
            )));
        }
        actions
    }
}
