//! Telling the user: the status bar's notice, and the toasts for what matters (a file
//! that did not open, a collection made, an import finished). The notice clears once it
//! has been there a while, or when the user does something that has nothing to say.

use super::Ctx;
use crate::actions::FeedbackAction;
use crate::state::toasts::{FADE_SECONDS, NOTICE_SECONDS, ToastKind};
use crate::state::{Notice, State};

impl Ctx<'_> {
    /// Carries out a feedback action.
    pub(super) fn feedback(&mut self, action: FeedbackAction) {
        match action {
            FeedbackAction::Say(notice) => self.state.notice = Some(notice),
            FeedbackAction::Fail(notice) => self.tell_failure(notice),
            FeedbackAction::Done(notice) => self.tell_done(notice),
            FeedbackAction::Quiet => self.state.notice = None,
            FeedbackAction::Clear(notice) => {
                if self.state.notice.as_ref() == Some(&notice) {
                    self.state.notice = None;
                }
            }
        }
    }

    /// Says `notice` in the status bar and in a toast of `kind`.
    pub(super) fn tell(&mut self, kind: ToastKind, notice: Notice) {
        let now = self.services.ui.input(|i| i.time);
        self.state.toasts.push(kind, notice.clone(), now);
        self.state.notice = Some(notice);
        self.state.bookkeeping.notice_since = (self.state.notice.clone(), now);
    }

    /// Says a failure in the status bar and in a toast that stays until dismissed.
    pub(super) fn tell_failure(&mut self, notice: Notice) {
        self.tell(ToastKind::Error, notice);
    }

    /// Says a confirmation (or a hint) in the status bar and in a toast that fades.
    pub(super) fn tell_done(&mut self, notice: Notice) {
        self.tell(ToastKind::Confirmation, notice);
    }
}

/// The user moved on (a step, an edit, a file): the notice of what came before clears, so
/// it is not read as the answer to this. What this says, it says afresh.
pub fn user_acted(state: &mut State) {
    state.notice = None;
}

/// Once a frame, at `now` (egui's clock): faded toasts go, and a notice that has been in
/// the status bar for [`NOTICE_SECONDS`] clears. Returns how long until something
/// shown changes by itself (a toast fading, a notice clearing), for the next repaint.
pub fn tick(state: &mut State, now: f64) -> Option<f64> {
    state.toasts.expire(now);
    let since = &mut state.bookkeeping.notice_since;
    if since.0 != state.notice {
        *since = (state.notice.clone(), now);
    }
    if state.notice.is_some() && now - since.1 >= NOTICE_SECONDS {
        state.notice = None;
        since.0 = None;
    }
    let notice_clears = state
        .notice
        .as_ref()
        .map(|_| since.1 + NOTICE_SECONDS - now);
    let toast_changes = state.toasts.shown.iter().filter_map(|t| {
        let end = t.ends_at()?;
        // While it fades, a few frames a second.
        Some(if end - now <= FADE_SECONDS {
            0.05
        } else {
            end - FADE_SECONDS - now
        })
    });
    toast_changes
        .chain(notice_clears)
        .map(|s| s.max(0.0))
        .min_by(f64::total_cmp)
}
