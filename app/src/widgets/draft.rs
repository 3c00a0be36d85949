//! Text typed into a field (a comment, a header) is a draft until it is written into the
//! record: when the field loses focus, and also once the typing pauses, so that the
//! autosave holds it while the cursor is still in the field. Each pause is one undo step.

use egui::{Id, Response, Ui};

/// How long typing must pause, in seconds, before the draft is written into the record.
pub const SETTLE_SECS: f64 = 0.8;

/// Whether the draft of the field `id` (its `response` this frame) is to be written into
/// the record now. `differs`: whether the draft differs from the record. Remembers when
/// the draft last changed, and asks for a frame when the pause will be long enough, since
/// no input may come to run one.
pub fn due(ui: &Ui, id: Id, response: &Response, differs: bool) -> bool {
    let key = id.with("draft changed at");
    let now = ui.input(|i| i.time);
    if response.changed() {
        ui.data_mut(|d| d.insert_temp(key, now));
    }
    let changed_at = ui.data(|d| d.get_temp::<f64>(key));
    let due =
        differs && (response.lost_focus() || changed_at.is_some_and(|t| now - t >= SETTLE_SECS));
    match changed_at {
        Some(_) if due || !differs => ui.data_mut(|d| d.remove::<f64>(key)),
        Some(t) => ui
            .ctx()
            .request_repaint_after_secs((SETTLE_SECS - (now - t)) as f32),
        None => {}
    }
    due
}
