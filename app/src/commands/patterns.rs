use super::Ctx;
use crate::actions::*;
use crate::services::work::WorkKey;
use crate::state::patterns::*;
use crate::state::patterns::{example, solved_key};
use chuhe_core::library::patterns::{self};

impl Ctx<'_> {
    /// Carries out a patterns action.
    pub(super) fn patterns(&mut self, action: PatternAction) {
        let app = &mut *self;
        let barred = app.state.engine_help_barred();
        let view = &mut app.state.patterns;
        match action {
            PatternAction::Gallery => {
                view.open = true;
                view.selected = None;
                view.practice = None;
            }
            PatternAction::Close => {
                view.open = false;
                view.practice = None;
            }
            PatternAction::Open(id, index) => {
                if example(id, index).is_some() {
                    view.open = true;
                    view.selected = Some((id, index));
                    view.step = 0;
                    view.practice = None;
                }
            }
            PatternAction::Step(step) => {
                if let Some((_, ex)) = view.selected.and_then(|(id, i)| example(id, i)) {
                    view.step = step.min(ex.line.len());
                }
            }
            PatternAction::Practise => {
                if let Some((_, ex)) = view.selected.and_then(|(id, i)| example(id, i))
                    && let Ok(game) = patterns::Practice::new(ex)
                {
                    view.practice = Some(Practice {
                        game,
                        selected: None,
                        hint_shown: false,
                    });
                }
            }
            PatternAction::StopPractice => view.practice = None,
            PatternAction::Hint => {
                if barred {
                    app.state.notice = Some(crate::state::Notice::Message("notice-fair-play"));
                } else if let Some(p) = &mut view.practice {
                    p.hint_shown = true;
                }
            }
            PatternAction::Click(square) => {
                if let Some(p) = &mut view.practice
                    && let Some((after, left)) = p.click(square)
                {
                    crate::services::patterns::start_defence(&mut app.services.work, after, left);
                }
            }
            PatternAction::Move(m) => {
                if let Some(p) = &mut view.practice
                    && let Some((after, left)) = p.play(m)
                {
                    crate::services::patterns::start_defence(&mut app.services.work, after, left);
                }
            }
            PatternAction::Defended(defence) => {
                let solved = view
                    .practice
                    .as_mut()
                    .is_some_and(|p| p.game.defended(defence));
                if solved && let Some((id, i)) = view.selected {
                    let key = solved_key(id, i);
                    let done = &mut app.state.settings.patterns_solved;
                    if !done.contains(&key) {
                        done.push(key);
                        app.state.bookkeeping.settings_changed = true;
                    }
                }
            }
        }
        // The prover's answer is wanted only while a move waits for it.
        if app
            .state
            .patterns
            .practice
            .as_ref()
            .is_none_or(|p| p.pending.is_none())
        {
            app.services.work.cancel(WorkKey::PatternDefence);
        }
    }
}
