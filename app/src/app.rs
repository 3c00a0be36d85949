//! The eframe application: owns the position being studied and lays out the window.

use crate::board::{Board, Diagram};
use crate::fonts;
use crate::theme::Theme;
use chuhe_core::Position;

/// Chuhe's main window.
pub struct ChuheApp {
    position: Position,
    theme: Theme,
}

impl ChuheApp {
    /// Starts on the initial position, with the app's own font installed.
    pub fn new(cc: &eframe::CreationContext<'_>) -> ChuheApp {
        fonts::install(&cc.egui_ctx);
        ChuheApp {
            position: Position::startpos(),
            theme: Theme::wood(),
        }
    }
}

impl eframe::App for ChuheApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let frame = egui::Frame::central_panel(ui.style()).fill(self.theme.background);
        egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            let diagram = Diagram::from_position(&self.position);
            ui.add(Board::new(&diagram, &self.theme));
        });
    }
}
