//! Chuhe (楚河), a desktop Xiangqi study app: the egui user interface over `chuhe-core`.
//!
//! The app is a library so that tests drive the real window with egui_kittest; the
//! `chuhe` binary only opens it. Data flows one way, one layer per job:
//!
//! - [`state`]: plain data, one struct per feature; no drawing, threads or I/O.
//! - [`panels`]: draw from the state and push [`actions::Action`]s; they never change the
//!   state, never import the commands or each other (shared drawing is in [`widgets`]).
//! - [`commands`]: one `apply` per feature, the only code that changes the state.
//! - [`services`]: threads and I/O (analysis, review, background work, files, sound,
//!   pictures); their results come back as actions.
//!
//! Beside them: colours by role in [`theme`], strings in `locales/` through [`i18n`], the
//! settings' data in [`settings`].

pub mod actions;
pub mod app;
pub mod commands;
pub mod fonts;
pub mod i18n;
pub mod panels;
pub mod services;
pub mod settings;
pub mod state;
pub mod theme;
pub mod widgets;
pub mod words;

pub use app::ChuheApp;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The window title.
pub const APP_TITLE: &str = "Chuhe (楚河)";

/// The window's size when there is none to restore.
pub const DEFAULT_WINDOW_SIZE: [f32; 2] = [1100.0, 780.0];

/// How the native window opens: where and as large as it was when last closed.
pub fn native_options() -> eframe::NativeOptions {
    let (settings, _) = services::storage::Storage::from_environment().load_settings();
    native_options_for(&settings.layout)
}

/// How the native window opens, given the remembered layout.
pub fn native_options_for(layout: &settings::Layout) -> eframe::NativeOptions {
    // A size from a bigger screen than this one is clamped by the window system.
    let size = layout
        .window_size
        .filter(|[w, h]| w.is_finite() && h.is_finite() && *w >= 280.0 && *h >= 280.0)
        .unwrap_or(DEFAULT_WINDOW_SIZE);
    let mut viewport = egui::ViewportBuilder::default()
        .with_title(APP_TITLE)
        .with_app_id("chuhe")
        .with_inner_size(size)
        .with_min_inner_size([280.0, 280.0])
        .with_maximized(layout.maximized)
        .with_drag_and_drop(true);
    if let Some(position) = layout
        .window_position
        .filter(|[x, y]| x.is_finite() && y.is_finite())
    {
        viewport = viewport.with_position(position);
    }
    eframe::NativeOptions {
        viewport,
        ..Default::default()
    }
}

/// The game file named on the command line (`chuhe FILE`, as a desktop entry's
/// `Exec=chuhe %f` runs it): the first argument after the program's name.
pub fn file_argument(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Option<std::path::PathBuf> {
    args.into_iter().nth(1).map(std::path::PathBuf::from)
}

/// What the command line asks for: `chuhe [--class [--port N] [--code CODE] [--bind
/// ADDRESS]] [FILE]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Arguments {
    /// The game file to open.
    pub file: Option<std::path::PathBuf>,
    /// A class to open at start (`--class`), for a classroom PC nobody sits at.
    pub class: Option<ClassArguments>,
}

/// The class `--class` opens: on the port and with the join code given, or the usual
/// port and a new code.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassArguments {
    /// `--port N`.
    pub port: Option<u16>,
    /// `--code CODE`: four digits.
    pub code: Option<String>,
    /// `--bind ADDRESS`: the one address to listen on (all local interfaces without it).
    pub bind: Option<std::net::IpAddr>,
}

/// A command line that cannot be followed: which argument, and why.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgumentError {
    /// An option that needs a value came last.
    MissingValue(String),
    /// `--port` was given something other than a port number (1–65535).
    BadPort(String),
    /// `--code` was given something other than four digits.
    BadCode(String),
    /// `--bind` was given something other than an IP address.
    BadAddress(String),
    /// `--port` or `--code` without `--class`.
    WithoutClass(String),
    /// An option Chuhe does not know, or a second file.
    Unexpected(String),
}

impl std::fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgumentError::MissingValue(option) => write!(f, "{option} needs a value"),
            ArgumentError::BadPort(value) => {
                write!(f, "--port {value}: not a port number (1 to 65535)")
            }
            ArgumentError::BadCode(value) => write!(f, "--code {value}: not four digits"),
            ArgumentError::BadAddress(value) => {
                write!(
                    f,
                    "--bind {value}: not an IP address (such as 192.168.1.20)"
                )
            }
            ArgumentError::WithoutClass(option) => write!(f, "{option} goes with --class"),
            ArgumentError::Unexpected(argument) => write!(f, "{argument}: unexpected argument"),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// Reads the command line (the program's name first, as `std::env::args_os` gives it).
pub fn arguments(
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Arguments, ArgumentError> {
    let mut parsed = Arguments::default();
    let (mut class, mut port, mut code, mut bind) = (false, None, None, None);
    let mut args = args.into_iter().skip(1);
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        let mut value = |option: &str| {
            args.next()
                .map(|v| v.to_string_lossy().into_owned())
                .ok_or_else(|| ArgumentError::MissingValue(option.to_owned()))
        };
        match text.as_str() {
            "--class" => class = true,
            "--port" => {
                let v = value("--port")?;
                port = Some(match v.parse::<u16>() {
                    Ok(p) if p > 0 => p,
                    _ => return Err(ArgumentError::BadPort(v)),
                });
            }
            "--code" => {
                let v = value("--code")?;
                if !state::class::is_join_code(&v) {
                    return Err(ArgumentError::BadCode(v));
                }
                code = Some(v);
            }
            "--bind" => {
                let v = value("--bind")?;
                bind = Some(v.parse().map_err(|_| ArgumentError::BadAddress(v))?);
            }
            _ if text.starts_with("--") || parsed.file.is_some() => {
                return Err(ArgumentError::Unexpected(text));
            }
            _ => parsed.file = Some(std::path::PathBuf::from(arg)),
        }
    }
    if class {
        parsed.class = Some(ClassArguments { port, code, bind });
    } else if port.is_some() {
        return Err(ArgumentError::WithoutClass("--port".to_owned()));
    } else if code.is_some() {
        return Err(ArgumentError::WithoutClass("--code".to_owned()));
    } else if bind.is_some() {
        return Err(ArgumentError::WithoutClass("--bind".to_owned()));
    }
    Ok(parsed)
}

/// Time since the process started (strictly: since the first call, which `main` makes
/// first thing), for the time-to-first-frame measurement.
pub fn process_age() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}
