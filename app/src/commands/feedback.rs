//! Telling the user: the status bar's notice, and the toasts for what matters (a file
//! that did not open, a collection made, an import finished). The notice clears once it
//! has been there a while, or when the user does something that has nothing to say.

use super::Ctx;
use crate::actions::FeedbackAction;
use crate::state::toasts::{FADE_SECONDS, NOTICE_SECONDS, ToastKind, Toasts};
use crate::state::{Notice, State};

/// What telling the user changes: the status bar's notice, the toasts, and since when the
/// notice has been shown.
pub(super) struct Telling<'a> {
    pub notice: &'a mut Option<Notice>,
    pub toasts: &'a mut Toasts,
    pub since: &'a mut (Option<Notice>, f64),
    /// Now, on egui's clock.
    pub now: f64,
}

impl Telling<'_> {
    /// Carries out a feedback action.
    pub(super) fn run(mut self, action: FeedbackAction) {
        match action {
            FeedbackAction::Say(notice) => *self.notice = Some(notice),
            FeedbackAction::Fail(notice) => self.tell(ToastKind::Error, notice),
            FeedbackAction::Done(notice) => self.tell(ToastKind::Confirmation, notice),
            FeedbackAction::Quiet => *self.notice = None,
            FeedbackAction::Clear(notice) => {
                if self.notice.as_ref() == Some(&notice) {
                    *self.notice = None;
                }
            }
        }
    }

    /// Says `notice` in the status bar and in a toast of `kind`.
    fn tell(&mut self, kind: ToastKind, notice: Notice) {
        self.toasts.push(kind, notice.clone(), self.now);
        *self.notice = Some(notice);
        *self.since = (self.notice.clone(), self.now);
    }
}

impl Ctx<'_> {
    /// Telling the user, now.
    pub(super) fn telling(&mut self) -> Telling<'_> {
        Telling {
            notice: &mut self.state.notice,
            toasts: &mut self.state.toasts,
            since: &mut self.state.bookkeeping.notice_since,
            now: self.services.ui.input(|i| i.time),
        }
    }

    /// Says a failure in the status bar and in a toast that stays until dismissed.
    pub(super) fn tell_failure(&mut self, notice: Notice) {
        self.telling().run(FeedbackAction::Fail(notice));
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
