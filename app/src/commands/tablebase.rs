//! The endgame tables: the verdict of the board's position, practice against the table,
//! the browser of a table's positions.

use super::Queue;
use crate::actions::*;
use crate::services::tablebase::Tables;
use crate::services::work::Work;
use crate::state::Notice;
use crate::state::study::Study;
use crate::state::tablebase::*;
use chuhe_core::Color;
use chuhe_core::tb;
use chuhe_core::tb::Material;

/// The services the endgame tables use: the tables' generator and the worker that asks them.
pub(super) struct Services<'a> {
    pub tables: &'a mut Tables,
    pub work: &'a mut Work,
}

/// Judges the user's last move on the board of `study` and answers with the table's best
/// move. Returns whether it played a move.
fn practice_step(state: &mut TbState, study: &Study, queue: &mut Queue) -> bool {
    let pos = &study.derived.position;
    let analysis = state.analysis_of(pos).cloned();
    let Some(practice) = &mut state.practice else {
        return false;
    };
    match practice.step(pos, study.derived.outcome, analysis.as_ref()) {
        Some(best) => {
            // The same path as a move on the board: recorded, sounded, analysed.
            queue.push(Action::Study(StudyAction::PlayMove(best)));
            true
        }
        None => false,
    }
}

/// Carries out an endgame-table action; `study` is the game on the board, and a training
/// drill `waits` for a table being made.
pub(super) fn run(
    state: &mut TbState,
    study: &Study,
    drill_waits: bool,
    services: Services,
    queue: &mut Queue,
    action: TbAction,
) {
    match action {
        TbAction::Generate(material) => services.tables.start(services.work, state, material),
        TbAction::StopGenerating => services.tables.stop(services.work, state),
        TbAction::Generated(result) => {
            match result {
                Err(e) => state.error = Some(e),
                // A running analysis starts again on the board, its search now with
                // the table.
                Ok(()) => queue.push(Action::Engine(EngineAction::TablesAdded)),
            }
            state.generating = None;
            state.analysis = None;
            // A training drill may wait for this table.
            if drill_waits {
                queue.push(Action::Train(TrainAction::TableReady));
            }
        }
        TbAction::Progress(material, fraction) => state.progress = (material, fraction),
        TbAction::Analysed(fen, analysis) => {
            state.analysis = Some((fen, analysis.map(|a| *a)));
            practice_step(state, study, queue);
        }
        TbAction::StartPractice { table_first } => {
            let pos = &study.derived.position;
            let Some(analysis) = state.analysis_of(pos).cloned() else {
                return;
            };
            state.practice = Some(Practice::new(pos, &analysis, table_first));
            practice_step(state, study, queue);
        }
        TbAction::StopPractice => state.practice = None,
        TbAction::ToggleBrowser => state.browser.open = !state.browser.open,
        TbAction::BrowserMaterial(m) => state.browser.material = m,
        TbAction::BrowserWant(w) => state.browser.want = w,
        TbAction::BrowserRandom | TbAction::BrowserLongest => {
            let Ok(material) = state.browser.material.parse::<Material>() else {
                return;
            };
            let Some(table) = tb::global().loaded(&material) else {
                services.tables.start(services.work, state, material);
                return;
            };
            let want = state.browser.want;
            let found = if action == TbAction::BrowserLongest {
                let side = if want == Want::BlackWins {
                    Color::Black
                } else {
                    Color::Red
                };
                table.longest_win(side)
            } else {
                state.browser.asked += 1;
                let seed = state.browser.asked
                    ^ std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos() as u64);
                table.sample(Color::Red, seed, |v| match want {
                    Want::RedWins => v.is_win(),
                    Want::Draw => Class::of(v) == Class::Draw,
                    Want::BlackWins => v.is_loss(),
                })
            };
            match found {
                Some(pos) => {
                    state.practice = None;
                    queue.push(Action::File(FileAction::Paste(pos.to_string())));
                }
                None => queue.push(FeedbackAction::Say(Notice::Message("tb-none-found")).into()),
            }
        }
    }
}
