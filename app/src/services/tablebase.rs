//! The endgame tables' service. Tables are loaded or generated in the background (never
//! on the interface thread, which only looks at tables already in memory); small tables
//! (at most five pieces, a few seconds at most) are fetched as soon as the board shows
//! one, bigger ones when the user asks, since they can take minutes, or while the engine
//! analyses the board. A table made is written to the cache atomically by the core and
//! put in the process's tables, where the analysis's search finds it.

use crate::actions::{Action, TbAction};
use crate::services::work::{Work, WorkKey};
use crate::state::State;
use crate::state::tablebase::{TbState, fetched_unasked};
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
        state.asked = Some(material.clone());
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

    /// Stops the table being made: the generator sees its flag at its next progress
    /// report and leaves no file behind (a cache file is only ever renamed into place
    /// whole).
    pub fn stop(&mut self, work: &mut Work, state: &mut TbState) {
        work.cancel(WorkKey::Tablebase);
        state.generating = None;
        self.reported = (String::new(), 0.0);
        if let Ok(mut progress) = self.progress.lock() {
            *progress = (String::new(), 0.0);
        }
        state.progress = (String::new(), 0.0);
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
        let in_table = match &tbs.analysis {
            Some((f, analysis)) if *f == fen => analysis.is_some(),
            _ => {
                let analysis = tb::global().analyse_loaded(pos);
                let found = analysis.is_some();
                actions.push(Action::Tablebase(TbAction::Analysed(
                    fen,
                    analysis.map(Box::new),
                )));
                found
            }
        };
        // Asked once per material: a table the user stopped, or one that came out
        // without the board's answer, is not started again and again.
        if !in_table
            && !busy
            && tbs.error.is_none()
            && let Some(material) = Material::of(pos)
            && tbs.asked.as_ref() != Some(&material)
            && fetched_unasked(&material, state.analysis.analysing)
        {
            actions.push(Action::Tablebase(TbAction::Generate(material)));
        }
        actions
    }
}
