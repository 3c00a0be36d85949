//! What the user is told where they are looking: toasts in a corner of the board's area,
//! beside the status bar's line. A failure stays until dismissed or replaced; a
//! confirmation or a hint fades after a few seconds. Times are egui's clock, in seconds.

use super::Notice;

/// How long a confirmation stays fully shown, in seconds.
pub const CONFIRMATION_SECONDS: f64 = 4.0;

/// How long a confirmation takes to fade out after that, in seconds.
pub const FADE_SECONDS: f64 = 1.0;

/// How long the status bar keeps a notice, in seconds.
pub const NOTICE_SECONDS: f64 = 8.0;

/// How many toasts show at once: more would cover the board.
pub const MAX_TOASTS: usize = 3;

/// What a toast says: something failed, or something worth knowing went well.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToastKind {
    /// A failure: stays until dismissed or replaced by another failure.
    Error,
    /// A confirmation or a hint: fades by itself.
    Confirmation,
}

/// One toast.
#[derive(Clone, Debug, PartialEq)]
pub struct Toast {
    /// Its number, for dismissing it.
    pub id: u64,
    /// A failure or a confirmation.
    pub kind: ToastKind,
    /// What it says, put into words when drawn so it follows the language.
    pub notice: Notice,
    /// When it was shown.
    pub shown_at: f64,
}

impl Toast {
    /// How opaque it is at `now`: 1 until a confirmation starts to fade, 0 once gone.
    pub fn opacity(&self, now: f64) -> f32 {
        match self.kind {
            ToastKind::Error => 1.0,
            ToastKind::Confirmation => {
                let fading = now - self.shown_at - CONFIRMATION_SECONDS;
                (1.0 - fading / FADE_SECONDS).clamp(0.0, 1.0) as f32
            }
        }
    }

    /// When it goes by itself (never, for a failure).
    pub fn ends_at(&self) -> Option<f64> {
        match self.kind {
            ToastKind::Error => None,
            ToastKind::Confirmation => Some(self.shown_at + CONFIRMATION_SECONDS + FADE_SECONDS),
        }
    }
}

/// The toasts showing, oldest first.
#[derive(Clone, Debug, Default)]
pub struct Toasts {
    /// Oldest first.
    pub shown: Vec<Toast>,
    next_id: u64,
}

impl Toasts {
    /// Shows `notice` at `now`. The same words already showing are shown afresh; a failure
    /// replaces the failure before it; the oldest gives way beyond [`MAX_TOASTS`].
    pub fn push(&mut self, kind: ToastKind, notice: Notice, now: f64) {
        self.shown
            .retain(|t| t.notice != notice && !(kind == ToastKind::Error && t.kind == kind));
        self.next_id += 1;
        self.shown.push(Toast {
            id: self.next_id,
            kind,
            notice,
            shown_at: now,
        });
        let extra = self.shown.len().saturating_sub(MAX_TOASTS);
        self.shown.drain(..extra);
    }

    /// Takes away toast `id`.
    pub fn dismiss(&mut self, id: u64) {
        self.shown.retain(|t| t.id != id);
    }

    /// Takes away the confirmations that have faded by `now`.
    pub fn expire(&mut self, now: f64) {
        self.shown
            .retain(|t| t.ends_at().is_none_or(|end| end > now));
    }

    /// Whether a toast says `notice` (the status bar then need not say it too).
    pub fn says(&self, notice: &Notice) -> bool {
        self.shown.iter().any(|t| t.notice == *notice)
    }
}
