//! The class: opening and ending it, and what its server reports.

use super::Queue;
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::class::{Class, addresses, interfaces};
use crate::state::Notice;
use crate::state::class::*;
use crate::words::problem::Problem;
use crate::words::problems;
use std::hash::{BuildHasher, Hasher};

mod quiz;

/// The class's command: its state, and the server it opens and ends.
pub(super) struct Manager<'a> {
    pub class: &'a mut ClassState,
    pub server: &'a mut Class,
    /// For the student page's words.
    pub i18n: &'a I18n,
    /// Asked to repaint when students come and go.
    pub ui: &'a egui::Context,
    pub queue: &'a mut Queue,
    /// The board's position, asked by the quiz.
    pub position: &'a chuhe_core::Position,
    /// How the quiz writes moves.
    pub notation: chuhe_core::notation::Notation,
    /// How the quiz draws its positions.
    pub look: crate::services::class::quiz::Look,
    /// The puzzle sets and training items a round is made of.
    pub puzzles: &'a crate::state::puzzles::Puzzles,
    pub training: &'a crate::state::training::TrainingState,
    /// Where the quiz's answers are worked out.
    pub work: &'a mut crate::services::work::Work,
}

impl Manager<'_> {
    pub(super) fn run(&mut self, action: ClassAction) {
        match action {
            ClassAction::Start => self.start(),
            ClassAction::Stop => {
                self.server.stop();
                // The record stays, to be saved; the question went with the server.
                self.class.quiz.open = None;
                self.class.quiz.round = None;
                self.work.cancel(crate::services::work::WorkKey::ClassQuiz);
                if self.class.running.take().is_some() {
                    self.queue.say(Notice::Message("class-stopped"));
                }
            }
            ClassAction::ToggleWindow => {
                self.class.window = !self.class.window;
                if self.class.window {
                    self.class.interfaces = interfaces();
                }
            }
            ClassAction::SetBind(ip) => self.class.bind = ip,
            ClassAction::SetPort(port) => self.class.port = port,
            ClassAction::SetCode(code) => {
                if is_join_code(&code) {
                    self.class.code = Some(code);
                } else {
                    self.queue.push(
                        FeedbackAction::Fail(Notice::Problem(
                            Problem::new("class-bad-code").text("code", code),
                        ))
                        .into(),
                    );
                }
            }
            ClassAction::Students(n) => {
                if let Some(running) = &mut self.class.running {
                    running.students = n;
                }
            }
            quiz => self.quiz(quiz),
        }
    }

    fn start(&mut self) {
        self.class.window = true;
        self.class.interfaces = interfaces();
        if self.class.running.is_some() {
            return;
        }
        let code = self.class.code.clone().unwrap_or_else(random_code);
        match self.server.start(
            self.class.bind,
            self.class.port,
            &code,
            self.i18n,
            self.ui.clone(),
        ) {
            Ok(address) => {
                let mut running = RunningClass {
                    addresses: addresses(self.class.bind),
                    port: address.port(),
                    code,
                    students: 0,
                    qr: QrModules::default(),
                };
                running.qr = running.join_url().map(|url| qr(&url)).unwrap_or_default();
                self.class.running = Some(running);
                self.queue.say(Notice::Message("class-started"));
            }
            Err(e) => self.queue.push(
                FeedbackAction::Fail(Notice::Problem(
                    Problem::new("class-not-started")
                        .text("port", self.class.port)
                        .with("error", problems::io_error(&e)),
                ))
                .into(),
            ),
        }
    }
}

/// A join code no one can guess from the last: four digits from the process's random
/// hash keys.
fn random_code() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    format!("{:04}", hasher.finish() % 10_000)
}

/// `text` as a QR code's modules (empty if it cannot be encoded).
fn qr(text: &str) -> QrModules {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => QrModules {
            text: text.to_owned(),
            width: code.width(),
            dark: code
                .to_colors()
                .into_iter()
                .map(|c| c == qrcode::Color::Dark)
                .collect(),
        },
        Err(_) => QrModules::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_code_is_a_join_code() {
        for _ in 0..50 {
            assert!(is_join_code(&random_code()));
        }
    }

    #[test]
    fn the_qr_code_is_square_and_has_its_finder_patterns() {
        let modules = qr("http://192.168.1.20:8080/?code=1234");
        assert!(modules.width >= 21);
        assert_eq!(modules.dark.len(), modules.width * modules.width);
        // The top-left finder pattern: a dark 7×7 ring.
        assert!((0..7).all(|i| modules.dark[i] && modules.dark[i * modules.width]));
        assert!(!modules.dark[modules.width + 1]);
    }
}
