//! The class's state: the window, the port and code asked for, and the class while it is
//! on (where students join, with what code, how many follow).

pub mod quiz;

use crate::state::file_chooser::{ChooserKind, OwnFile};
use std::net::{IpAddr, Ipv4Addr};

/// The class as the teacher's window shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassState {
    /// Whether the class window is shown.
    pub window: bool,
    /// The address the server binds to: all local interfaces unless one is chosen.
    pub bind: IpAddr,
    /// The port the next class opens on.
    pub port: u16,
    /// The join code the next class uses; a new random one when none is set.
    pub code: Option<String>,
    /// The class while it is on.
    pub running: Option<RunningClass>,
    /// The machine's addresses the teacher may choose to bind to, as last looked up.
    pub interfaces: Vec<Interface>,
    /// The quiz: its questions and scores (kept when the class ends, to be saved).
    pub quiz: quiz::QuizState,
}

/// One address of one of the machine's network interfaces.
#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    /// The interface's name (`wlan0`, `eth0`, `lo`).
    pub name: String,
    /// Its address.
    pub ip: IpAddr,
}

/// The class's record of its questions, answers and scores, saved as CSV.
pub const RECORD_FILE: OwnFile = OwnFile {
    kind: ChooserKind::Save,
    extensions: &["csv"],
    title_id: "chooser-title-class-record",
    filter_id: None,
};

impl Default for ClassState {
    fn default() -> ClassState {
        ClassState {
            window: false,
            bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            port: 8080,
            code: None,
            running: None,
            interfaces: Vec::new(),
            quiz: Default::default(),
        }
    }
}

/// A class that is on.
#[derive(Clone, Debug, PartialEq)]
pub struct RunningClass {
    /// The addresses students can reach it at, the likeliest first.
    pub addresses: Vec<IpAddr>,
    /// The port it listens on.
    pub port: u16,
    /// The 4-digit join code.
    pub code: String,
    /// How many students follow the board.
    pub students: usize,
    /// The join address (with the code) as a QR code.
    pub qr: QrModules,
}

impl RunningClass {
    /// The page's address at `ip` (the code given apart, as the projector shows it).
    pub fn url(&self, ip: IpAddr) -> String {
        match ip {
            IpAddr::V6(v6) => format!("http://[{v6}]:{}/", self.port),
            IpAddr::V4(v4) => format!("http://{v4}:{}/", self.port),
        }
    }

    /// The address a phone's camera opens: the page with the code in it.
    pub fn join_url(&self) -> Option<String> {
        let ip = *self.addresses.first()?;
        Some(format!("{}?code={}", self.url(ip), self.code))
    }
}

/// A QR code's modules, row by row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QrModules {
    /// The text it encodes, which names the picture drawn from it.
    pub text: String,
    /// Modules a row (and rows).
    pub width: usize,
    /// Whether each module is dark.
    pub dark: Vec<bool>,
}

/// Whether `code` is a join code: four digits.
pub fn is_join_code(code: &str) -> bool {
    code.len() == 4 && code.bytes().all(|b| b.is_ascii_digit())
}
