//! The correction view of a picture read (识图): the board as read, its doubtful points
//! circled, beside the picture (below it in a narrow window) with the boards found
//! outlined; a click on a point offers the next likelier piece, a right click the one
//! before; the side to move, and the way on: to the editor, to a puzzle set, or away.

use crate::actions::{Action, PictureAction};
use crate::i18n::Language;
use crate::state::picture::{Correction, Picture};
use crate::widgets::View;
use crate::widgets::board::{Diagram, Marks};
use crate::widgets::board_input::{BoardEvent, BoardInput, Pick};
use chuhe_core::Color;
use egui::{Rect, Sense, Stroke, Ui, Vec2, pos2, vec2};
use std::sync::{Arc, Weak};

/// Below this width (or in a window taller than wide) the picture goes under the board.
const SIDE_BY_SIDE_WIDTH: f32 = 560.0;

/// The least size the board is given, scrolling if the window has less.
const BOARD_MIN: f32 = 220.0;

fn push(actions: &mut Vec<Action>, action: PictureAction) {
    actions.push(Action::Picture(action));
}

/// Pixels pasted from the clipboard, as the reader takes them.
pub fn pasted(image: &egui::ColorImage) -> Picture {
    let rgba: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|c| c.to_srgba_unmultiplied())
        .collect();
    let [width, height] = image.size.map(|n| n as u32);
    Picture {
        width,
        height,
        shown_width: width,
        shown_height: height,
        rgba: Arc::new(rgba),
    }
}

/// Draws the correction view in the board's place.
pub fn show(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let Some(c) = &app.state.picture.correction else {
        return;
    };
    let room = ui.available_size();
    let side_by_side = room.x >= SIDE_BY_SIDE_WIDTH;
    egui::ScrollArea::vertical()
        .auto_shrink(false)
        .show(ui, |ui| {
            // Room on the right for the scroll bar, which floats over the content.
            egui::Frame::NONE
                .inner_margin(egui::Margin {
                    right: 10,
                    ..Default::default()
                })
                .show(ui, |ui| {
                    controls(app, c, ui, actions);
                    ui.add_space(4.0);
                    let rest = vec2(
                        ui.available_width(),
                        (room.y - ui.min_rect().height() - 8.0).max(0.0),
                    );
                    // The board with its coordinates is about square.
                    if side_by_side {
                        let side = rest.y.min(rest.x * 0.55).max(BOARD_MIN);
                        ui.horizontal_top(|ui| {
                            board(app, c, ui, Vec2::splat(side), actions);
                            let picture_room = vec2(ui.available_width(), side);
                            picture(app, c, ui, picture_room, actions);
                        });
                    } else {
                        let side = rest.x.min(rest.y.max(BOARD_MIN));
                        board(app, c, ui, vec2(rest.x, side), actions);
                        ui.add_space(4.0);
                        picture(app, c, ui, vec2(rest.x, rest.x * 1.5), actions);
                    }
                });
        });
}

/// What was read, what to say of it, and the buttons.
fn controls(app: &View, c: &Correction, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = app.i18n;
    let reading = c.reading();
    ui.horizontal_wrapped(|ui| {
        ui.heading(i18n.tr("picture-title"));
        ui.label(i18n.tr_args(
            "picture-confidence",
            &[
                (
                    "percent",
                    ((reading.confidence.clamp(0.0, 1.0) * 100.0).round() as u32).into(),
                ),
                ("uncertain", reading.uncertain.len().into()),
            ],
        ));
        if reading.flipped {
            ui.label(
                egui::RichText::new(i18n.tr("picture-flipped")).color(ui.visuals().warn_fg_color),
            );
        }
    });
    if c.found.len() > 1 {
        ui.horizontal_wrapped(|ui| {
            ui.label(i18n.tr_args("picture-boards", &[("count", c.found.len().into())]));
            for i in 0..c.found.len() {
                let label = i18n.tr_args("picture-board-n", &[("n", (i + 1).into())]);
                if ui.selectable_label(i == c.chosen, label).clicked() && i != c.chosen {
                    push(actions, PictureAction::Choose(i));
                }
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(i18n.tr("picture-side-to-move"));
        for (color, id) in [
            (Color::Red, "picture-red-to-move"),
            (Color::Black, "picture-black-to-move"),
        ] {
            if ui.radio(c.side_to_move == color, i18n.tr(id)).clicked() && c.side_to_move != color {
                push(actions, PictureAction::SetSideToMove(color));
            }
        }
    });
    ui.weak(i18n.tr("picture-hint"));
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(i18n.tr("picture-accept"))
            .on_hover_text(i18n.tr("picture-accept-tip"))
            .clicked()
        {
            push(actions, PictureAction::Accept);
        }
        if c.found.len() > 1
            && ui
                .button(i18n.tr("picture-add-all"))
                .on_hover_text(i18n.tr("picture-add-all-tip"))
                .clicked()
        {
            push(actions, PictureAction::AddAllToPuzzles);
        }
        if ui.button(i18n.tr("picture-cancel")).clicked() {
            push(actions, PictureAction::Cancel);
        }
    });
}

/// The board as corrected so far, under the shared board controller: a click cycles a
/// point forward, a right click back.
fn board(app: &View, c: &Correction, ui: &mut Ui, size: Vec2, actions: &mut Vec<Action>) {
    let theme = app.state.settings.theme.theme();
    let diagram = Diagram::from_board(c.board());
    let doubt = ui.visuals().warn_fg_color;
    let marks = Marks {
        flipped: app.state.settings.flipped,
        coordinates: app.state.settings.coordinates,
        circles: c.reading().uncertain.iter().map(|&s| (s, doubt)).collect(),
        traditional: app.state.settings.language == Language::ZhTw,
        side_to_move: Some(c.side_to_move),
        ..Marks::default()
    };
    let shown = BoardInput::new(
        ui,
        egui::Id::unique("chuhe picture board input"),
        Pick::Nothing,
    )
    .within(size)
    .show(ui, &diagram, marks, &theme);
    for event in shown.events {
        match event {
            BoardEvent::Click(square) => push(actions, PictureAction::Cycle(square)),
            BoardEvent::SecondaryClick(square) => push(actions, PictureAction::CycleBack(square)),
            _ => {}
        }
    }
}

/// The picture, scaled to fit `room`, every board found outlined (the one shown
/// strongest); a click inside another board's outline shows that board.
fn picture(app: &View, c: &Correction, ui: &mut Ui, room: Vec2, actions: &mut Vec<Action>) {
    let p = &c.picture;
    let pixels = p.shown_width as usize * p.shown_height as usize;
    if pixels == 0 || p.rgba.len() != pixels * 4 {
        return;
    }
    let texture = texture(ui.ctx(), p);
    let scale = (room.x / p.shown_width as f32)
        .min(room.y / p.shown_height as f32)
        .max(0.01);
    let size = vec2(p.shown_width as f32, p.shown_height as f32) * scale;
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    let painter = ui.painter_at(rect);
    painter.image(
        texture.id(),
        rect,
        Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    // The boards' areas are in the pixels read, the picture shown may be scaled down.
    let per_pixel = vec2(
        size.x / p.width.max(1) as f32,
        size.y / p.height.max(1) as f32,
    );
    let area_rect = |a: &chuhe_core::recognize::Area| {
        Rect::from_min_size(
            rect.min + vec2(a.x as f32 * per_pixel.x, a.y as f32 * per_pixel.y),
            vec2(a.width as f32 * per_pixel.x, a.height as f32 * per_pixel.y),
        )
    };
    let theme = app.state.settings.theme.theme();
    for (i, found) in c.found.iter().enumerate() {
        let (width, colour) = if i == c.chosen {
            (3.0, theme.selection)
        } else {
            (1.5, theme.last_move)
        };
        painter.rect_stroke(
            area_rect(&found.area).expand(2.0),
            2.0,
            Stroke::new(width, colour),
            egui::StrokeKind::Outside,
        );
    }
    if c.found.len() > 1
        && response.clicked()
        && let Some(at) = response.interact_pointer_pos()
        && let Some(i) = c.found.iter().position(|f| area_rect(&f.area).contains(at))
        && i != c.chosen
    {
        push(actions, PictureAction::Choose(i));
    }
}

/// The picture's texture, made once for each picture shown: egui keeps it with the
/// window's memory, beside a weak handle on the pixels it was made from.
fn texture(ctx: &egui::Context, p: &Picture) -> egui::TextureHandle {
    let id = egui::Id::unique("chuhe picture texture");
    let kept: Option<(Weak<Vec<u8>>, egui::TextureHandle)> = ctx.data(|d| d.get_temp(id));
    if let Some((pixels, handle)) = kept
        && pixels.upgrade().is_some_and(|a| Arc::ptr_eq(&a, &p.rgba))
    {
        return handle;
    }
    let image = egui::ColorImage::from_rgba_unmultiplied(
        [p.shown_width as usize, p.shown_height as usize],
        &p.rgba,
    );
    let handle = ctx.load_texture("chuhe picture", image, egui::TextureOptions::LINEAR);
    ctx.data_mut(|d| d.insert_temp(id, (Arc::downgrade(&p.rgba), handle.clone())));
    handle
}
