use super::Ctx;
use crate::actions::*;
use crate::state::Notice;
use crate::state::tablebase::*;
use chuhe_core::Color;
use chuhe_core::tb;
use chuhe_core::tb::Material;

impl Ctx<'_> {
    /// Judges the user's last move and answers with the table's best move.
    /// Returns whether it played a move.
    fn practice_step(&mut self) -> bool {
        let pos = self.state.position().clone();
        let analysis = self.state.tablebase.analysis_of(&pos).cloned();
        let outcome = self.state.study.derived.outcome;
        let Some(practice) = &mut self.state.tablebase.practice else {
            return false;
        };
        match practice.step(&pos, outcome, analysis.as_ref()) {
            Some(best) => {
                // The same path as a move on the board: recorded, sounded, analysed.
                self.push(Action::Study(StudyAction::PlayMove(best)));
                true
            }
            None => false,
        }
    }

    /// Carries out an endgame-table action.
    pub(super) fn tablebase(&mut self, action: TbAction) {
        let state = &mut self.state.tablebase;
        match action {
            TbAction::Generate(material) => {
                self.services
                    .tablebase
                    .start(&mut self.services.work, state, material)
            }
            TbAction::Generated(result) => {
                if let Err(e) = result {
                    state.error = Some(e);
                }
                state.generating = None;
                state.analysis = None;
                // A training drill may wait for this table.
                if self.state.training.session.is_some() {
                    self.push(Action::Train(TrainAction::TableReady));
                }
            }
            TbAction::Progress(material, fraction) => state.progress = (material, fraction),
            TbAction::Analysed(fen, analysis) => {
                state.analysis = Some((fen, analysis.map(|a| *a)));
                self.practice_step();
            }
            TbAction::StartPractice { table_first } => {
                let pos = self.state.position().clone();
                let Some(analysis) = self.state.tablebase.analysis_of(&pos).cloned() else {
                    return;
                };
                self.state.tablebase.practice = Some(Practice::new(&pos, &analysis, table_first));
                self.practice_step();
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
                    self.services
                        .tablebase
                        .start(&mut self.services.work, state, material);
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
                        self.state.tablebase.practice = None;
                        self.push(Action::File(FileAction::Paste(pos.to_string())));
                    }
                    None => self.state.notice = Some(Notice::Message("tb-none-found")),
                }
            }
        }
    }
}
