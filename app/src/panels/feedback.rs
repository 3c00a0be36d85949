//! What the user is told where they are looking: the toasts in the corner of the board's
//! area, and the welcome on the empty board of a first start.

use crate::actions::*;
use crate::state::toasts::ToastKind;
use crate::widgets::View;
use crate::widgets::shortcuts;
use crate::widgets::text::notice_text;
use egui::{Align2, Ui};

/// How wide a toast grows before its words wrap, in points.
const TOAST_WIDTH: f32 = 360.0;

/// The toasts, newest at the top, in the top right corner of `area` (the board's area,
/// below the menu and the tabs).
pub fn toasts(app: &View, ctx: &egui::Context, area: egui::Rect, actions: &mut Vec<Action>) {
    if app.state.toasts.shown.is_empty() {
        return;
    }
    let palette = app.palette();
    egui::Area::new(egui::Id::unique("chuhe toasts"))
        .order(egui::Order::Foreground)
        .pivot(Align2::RIGHT_TOP)
        .fixed_pos(area.right_top() + egui::vec2(-8.0, 8.0))
        .show(ctx, |ui| {
            ui.set_max_width(TOAST_WIDTH.min(area.width() - 16.0).max(120.0));
            for toast in app.state.toasts.shown.iter().rev() {
                let opacity = toast.opacity(app.now);
                if opacity <= 0.0 {
                    continue;
                }
                ui.scope(|ui| {
                    ui.multiply_opacity(opacity);
                    let colour = match toast.kind {
                        ToastKind::Error => palette.danger,
                        ToastKind::Confirmation => palette.success,
                    };
                    egui::Frame::popup(ui.style())
                        .stroke(egui::Stroke::new(1.5, colour))
                        .show(ui, |ui| {
                            ui.horizontal(|ui| {
                                let dismiss = ui
                                    .small_button("×")
                                    .on_hover_text(app.i18n.tr("toast-dismiss"));
                                if dismiss.clicked() {
                                    actions.push(Action::View(ViewAction::DismissToast(toast.id)));
                                }
                                ui.add(
                                    egui::Label::new(notice_text(app.i18n, &toast.notice)).wrap(),
                                );
                            });
                        });
                });
                ui.add_space(4.0);
            }
        });
}

/// Whether the welcome shows: on a first start, until dismissed, while the board is the
/// empty game of one lone tab and nothing else has taken the window.
pub fn welcome_shown(app: &View) -> bool {
    let state = app.state;
    state.settings.show_welcome
        && state.study.is_blank()
        && state.tab_count() == 1
        && state.dialog.is_none()
        && state.editor.is_none()
        && state.play.is_none()
        && state.play_setup.is_none()
        && state.presentation.is_none()
        && state.file_browser.is_none()
        && state.puzzles.session.is_none()
        && state.training.session.is_none()
        && !state.audience
        && !state.settings.layout.board_only
}

/// The keys shown in the welcome: the action each gives and what it is called.
fn welcome_keys() -> [(Action, &'static str); 7] {
    [
        (Action::File(FileAction::OpenDialog), "welcome-key-open"),
        (Action::File(FileAction::Save), "welcome-key-save"),
        (Action::Study(StudyAction::Forward), "welcome-key-forward"),
        (Action::Study(StudyAction::Back), "welcome-key-back"),
        (Action::Study(StudyAction::Undo), "welcome-key-undo"),
        (
            Action::Engine(EngineAction::ToggleAnalysis),
            "welcome-key-analysis",
        ),
        (
            Action::Presentation(PresentationAction::Toggle),
            "welcome-key-present",
        ),
    ]
}

/// The height of the board's area the welcome needs to list the keys as well (its card is
/// about 370 points tall with them, 220 without).
const ROOM_FOR_KEYS: f32 = 420.0;

/// The welcome over the empty board of a first start: the three things most people came
/// for, the keys worth knowing, and a button to put it away for good.
pub fn welcome(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = app.i18n;
    let ctx = ui.ctx().clone();
    let cursor = app.state.study.cursor;
    let area = ui.max_rect();
    let width = 380.0_f32.min(area.width() - 16.0).max(200.0);
    let card = egui::Rect::from_center_size(area.center(), egui::vec2(width, 0.0));
    let builder = egui::UiBuilder::new()
        .max_rect(egui::Rect::from_min_max(
            egui::pos2(card.left(), area.top()),
            egui::pos2(card.right(), area.bottom()),
        ))
        .layout(egui::Layout::top_down(egui::Align::Center));
    ui.scope_builder(builder, |ui| {
        // Centred in the height it takes: measured last frame.
        let height_id = egui::Id::unique("chuhe welcome height");
        let height: f32 = ui.data(|d| d.get_temp(height_id)).unwrap_or(320.0);
        ui.add_space(((area.height() - height) / 2.0).max(0.0));
        // Clicks on the card are the card's, not the board's underneath (its buttons,
        // laid out after, are above this).
        let covered = egui::Rect::from_min_size(
            egui::pos2(card.left(), ui.cursor().top()),
            egui::vec2(width, height),
        );
        ui.interact(
            covered,
            egui::Id::unique("chuhe welcome"),
            egui::Sense::click(),
        );
        let frame = egui::Frame::window(ui.style()).show(ui, |ui| {
            ui.set_width(width - 24.0);
            ui.vertical_centered(|ui| {
                ui.heading(i18n.tr("welcome-title"));
                ui.label(i18n.tr("welcome-intro"));
                ui.add_space(6.0);
                let big = egui::vec2(width - 48.0, 34.0);
                for (id, action) in [
                    ("welcome-open", Action::File(FileAction::OpenDialog)),
                    ("welcome-set-up", Action::Editor(EditorAction::Open)),
                    (
                        "welcome-present",
                        Action::Presentation(PresentationAction::Toggle),
                    ),
                ] {
                    let mut button = egui::Button::new(egui::RichText::new(i18n.tr(id)).size(16.0))
                        .min_size(big);
                    if let Some(keys) = shortcuts::label_of(&ctx, &action, cursor) {
                        button = button.shortcut_text(keys);
                    }
                    if ui.add(button).clicked() {
                        actions.push(action);
                    }
                    if id == "welcome-open" && ui.link(i18n.tr("welcome-open-collection")).clicked()
                    {
                        actions.push(Action::Collections(CollectionAction::OpenDialog));
                    }
                }
                // In a short window the keys give way, so the button that puts the
                // welcome away stays in reach (the menus list the keys too).
                if area.height() >= ROOM_FOR_KEYS {
                    ui.add_space(6.0);
                    ui.label(egui::RichText::new(i18n.tr("welcome-keys")).strong());
                    for (action, id) in welcome_keys() {
                        if let Some(keys) = shortcuts::label_of(&ctx, &action, cursor) {
                            ui.label(format!("{keys}  {}", i18n.tr(id)));
                        }
                    }
                }
                ui.add_space(6.0);
                if ui.button(i18n.tr("welcome-dismiss")).clicked() {
                    actions.push(Action::View(ViewAction::DismissWelcome));
                }
            });
        });
        let measured = frame.response.rect.height();
        ui.data_mut(|d| d.insert_temp(height_id, measured));
    });
}
