//! The class window: where students join (addresses, port, code, a QR code of the join
//! address), how many follow, and starting and ending the class.

use super::View;
use crate::actions::{Action, ClassAction};
use crate::state::class::QrModules;
use crate::theme::{QR_DARK, QR_LIGHT};
use egui::{Rect, Sense, Ui, Vec2};
use std::net::{IpAddr, Ipv4Addr};

mod quiz;

/// The class window, while it is shown.
pub fn window(app: &View, ctx: &egui::Context, actions: &mut Vec<Action>) {
    if !app.state.class.window {
        return;
    }
    let mut open = true;
    egui::Window::new(app.i18n.tr("class-title"))
        .constrain_to(crate::widgets::window_area(ctx))
        .id(egui::Id::unique("class window"))
        .open(&mut open)
        .default_pos([120.0, 80.0])
        .resizable(false)
        .show(ctx, |ui| contents(app, ui, actions));
    if !open {
        actions.push(Action::Class(ClassAction::ToggleWindow));
    }
}

fn contents(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let class = &app.state.class;
    let Some(running) = &class.running else {
        bind_choice(app, ui, actions);
        ui.horizontal(|ui| {
            let label = ui.label(i18n.tr("class-port"));
            let mut port = class.port;
            if ui
                .add(egui::DragValue::new(&mut port).range(1..=65535))
                .labelled_by(label.id)
                .changed()
            {
                actions.push(Action::Class(ClassAction::SetPort(port)));
            }
        });
        if ui.button(i18n.tr("class-start")).clicked() {
            actions.push(Action::Class(ClassAction::Start));
        }
        // The last class's scores stay to be saved.
        quiz::scores(app, ui, actions);
        return;
    };
    egui::Grid::new("class facts")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label(i18n.tr("class-address"));
            ui.vertical(|ui| {
                for &ip in &running.addresses {
                    ui.monospace(running.url(ip));
                }
            });
            ui.end_row();
            ui.label(i18n.tr("class-code"));
            ui.heading(running.code.as_str());
            ui.end_row();
            ui.label(i18n.tr("class-students"));
            ui.label(running.students.to_string());
            ui.end_row();
        });
    // While a question is open its chart takes the room: the class has joined, and a
    // latecomer still has the address.
    if class.quiz.open.is_none() {
        qr_code(ui, &running.qr);
    }
    if ui.button(i18n.tr("class-stop")).clicked() {
        actions.push(Action::Class(ClassAction::Stop));
    }
    quiz::section(app, ui, actions);
}

/// The address the class is to listen on: all interfaces, or one of the machine's.
fn bind_choice(app: &View, ui: &mut Ui, actions: &mut Vec<Action>) {
    let i18n = &app.i18n;
    let class = &app.state.class;
    let describe = |ip: IpAddr| {
        if ip.is_unspecified() {
            return i18n.tr("class-all-interfaces");
        }
        match class.interfaces.iter().find(|i| i.ip == ip) {
            Some(interface) => format!("{}  {}", interface.ip, interface.name),
            None => ip.to_string(),
        }
    };
    ui.horizontal(|ui| {
        let label = ui.label(i18n.tr("class-bind"));
        egui::ComboBox::from_id_salt("class bind")
            .selected_text(describe(class.bind))
            .show_ui(ui, |ui| {
                let all = IpAddr::V4(Ipv4Addr::UNSPECIFIED);
                let choices = std::iter::once(all).chain(class.interfaces.iter().map(|i| i.ip));
                for ip in choices {
                    if ui
                        .selectable_label(class.bind == ip, describe(ip))
                        .clicked()
                        && class.bind != ip
                    {
                        actions.push(Action::Class(ClassAction::SetBind(ip)));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
}

/// The QR code, dark on white with the quiet zone a reader needs round it: drawn once into
/// a texture a pixel a module and shown scaled without smoothing, because painting its
/// five hundred or so squares anew every frame cost the frame more than the rest of the
/// window. The texture is kept in egui's memory under the text it encodes, a short
/// string to hash each frame where the modules were several hundred.
fn qr_code(ui: &mut Ui, qr: &QrModules) {
    if qr.width == 0 {
        return;
    }
    let quiet = 4;
    let modules = qr.width + 2 * quiet;
    let cell = (200.0 / modules as f32).floor().max(2.0);
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(cell * modules as f32), Sense::hover());
    let code = egui::Id::unique(("class qr", qr.text.as_str()));
    let memory = egui::Id::unique("chuhe class qr texture");
    let kept: Option<(egui::Id, egui::TextureHandle)> = ui.data(|d| d.get_temp(memory));
    let texture = match kept {
        Some((kept_code, texture)) if kept_code == code => texture,
        _ => {
            let mut image = egui::ColorImage::filled([modules, modules], QR_LIGHT);
            for (i, _) in qr.dark.iter().enumerate().filter(|(_, dark)| **dark) {
                let (x, y) = (i % qr.width + quiet, i / qr.width + quiet);
                image[(x, y)] = QR_DARK;
            }
            let texture = ui
                .ctx()
                .load_texture("class qr", image, egui::TextureOptions::NEAREST);
            ui.data_mut(|d| d.insert_temp(memory, (code, texture.clone())));
            texture
        }
    };
    let whole = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    ui.painter_at(rect)
        .image(texture.id(), rect, whole, egui::Color32::WHITE);
}
