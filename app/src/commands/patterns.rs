use super::{Queue, SettingsMut};
use crate::actions::*;
use crate::services::work::{Work, WorkKey};
use crate::state::patterns::*;
use crate::state::patterns::{example, solved_key};
use chuhe_core::library::patterns::{self};

/// Carries out a patterns action on the browser; solved patterns are kept in `settings`;
/// hints are `barred` during a game against the engine; the defence is proved by `work`.
pub(super) fn run(
    view: &mut PatternsState,
    mut settings: SettingsMut,
    barred: bool,
    work: &mut Work,
    queue: &mut Queue,
    action: PatternAction,
) {
    match action {
        PatternAction::Gallery => {
            view.open = true;
            view.selected = None;
            view.practice = None;
        }
        PatternAction::Hide => view.open = false,
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
                queue.push(
                    FeedbackAction::Say(crate::state::Notice::Message("notice-fair-play")).into(),
                );
            } else if let Some(p) = &mut view.practice {
                p.hint_shown = true;
            }
        }
        PatternAction::Click(square) => {
            if let Some(p) = &mut view.practice
                && let Some((after, left)) = p.click(square)
            {
                crate::services::patterns::start_defence(work, after, left);
            }
        }
        PatternAction::Move(m) => {
            if let Some(p) = &mut view.practice
                && let Some((after, left)) = p.play(m)
            {
                crate::services::patterns::start_defence(work, after, left);
            }
        }
        PatternAction::Defended(defence) => {
            let solved = view
                .practice
                .as_mut()
                .is_some_and(|p| p.game.defended(defence));
            if solved && let Some((id, i)) = view.selected {
                let key = solved_key(id, i);
                if !settings.get().patterns_solved.contains(&key) {
                    settings.change(|s| s.patterns_solved.push(key));
                }
            }
        }
    }
    // The prover's answer is wanted only while a move waits for it.
    if view.practice.as_ref().is_none_or(|p| p.pending.is_none()) {
        work.cancel(WorkKey::PatternDefence);
    }
}
