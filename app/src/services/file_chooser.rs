//! Asking the user for a file or folder. The desktop's own dialog comes first (on Linux
//! through the XDG desktop portal); when no portal answers, the commands open the in-app
//! browser instead, so a choice never fails silently.
//!
//! `rfd` answers `None` both when the user cancels and when there is no portal, so the
//! service finds out itself: it asks the session bus whether
//! `org.freedesktop.portal.Desktop` is owned or can be started, and it takes a `None`
//! that comes back at once (faster than anyone can cancel) as "no portal" too.
//! `CHUHE_FILE_DIALOG=builtin` always uses the in-app browser.

use crate::state::file_chooser::{BrowserEntry, ChooserKind, FilePurpose, FileRequest};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The environment variable that chooses the in-app browser (`builtin`) over the desktop's.
pub const DIALOG_ENV: &str = "CHUHE_FILE_DIALOG";

/// A `None` from the desktop's dialog sooner than this is no user's cancel: the dialog
/// never showed.
const INSTANT: Duration = Duration::from_millis(250);

/// What the desktop's dialog said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The user chose this path.
    Chosen(PathBuf),
    /// The user closed the dialog.
    Cancelled,
    /// No dialog could be shown: the in-app browser must ask.
    NoPortal,
}

/// Which dialogs to use.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Backend {
    /// The desktop's, if its portal answers on the session bus (probed once).
    Desktop,
    /// The desktop's, if its portal answers on the bus at this address (for tests).
    DesktopOnBus(String),
    /// Only the in-app browser.
    InApp,
}

/// The file-chooser service.
#[derive(Debug)]
pub struct FileChooser {
    backend: Backend,
    /// The Documents folder to use instead of the user's (for tests).
    documents: Option<PathBuf>,
    /// Whether the desktop's dialog can answer, once known.
    portal: Option<bool>,
    /// Shows the desktop's dialog and waits for it.
    dialog: fn(&FileRequest) -> Option<PathBuf>,
}

impl FileChooser {
    /// The desktop's dialog unless `CHUHE_FILE_DIALOG=builtin` says otherwise.
    pub fn from_environment() -> FileChooser {
        let in_app = std::env::var_os(DIALOG_ENV).is_some_and(|v| v == "builtin");
        FileChooser::with_backend(if in_app {
            Backend::InApp
        } else {
            Backend::Desktop
        })
    }

    /// Only the in-app browser.
    pub fn in_app() -> FileChooser {
        FileChooser::with_backend(Backend::InApp)
    }

    /// The desktop's dialog when a portal answers on the D-Bus bus at `address` (a D-Bus
    /// address such as `unix:path=/run/user/1000/bus`).
    pub fn on_bus(address: &str) -> FileChooser {
        FileChooser::with_backend(Backend::DesktopOnBus(address.to_owned()))
    }

    fn with_backend(backend: Backend) -> FileChooser {
        FileChooser {
            backend,
            documents: None,
            portal: None,
            dialog: native_dialog,
        }
    }

    /// The same chooser with `folder` taken for the user's Documents (for tests, which
    /// must not look in the real one).
    pub fn with_documents(mut self, folder: PathBuf) -> FileChooser {
        self.documents = Some(folder);
        self
    }

    /// The user's Documents folder, where saving starts when there is no folder saved
    /// to yet; the home folder if there is none.
    pub fn documents(&self) -> PathBuf {
        self.documents
            .clone()
            .or_else(|| {
                directories::UserDirs::new().and_then(|dirs| dirs.document_dir().map(Into::into))
            })
            .filter(|f| is_folder(f))
            .unwrap_or_else(home)
    }

    /// Whether the desktop's dialog will be asked (probing the bus the first time).
    pub fn uses_desktop(&mut self) -> bool {
        if let Some(known) = self.portal {
            return known;
        }
        let answers = match &self.backend {
            Backend::InApp => false,
            Backend::Desktop => portal_answers(None),
            Backend::DesktopOnBus(address) => portal_answers(Some(address)),
        };
        self.portal = Some(answers);
        answers
    }

    /// Shows the desktop's dialog for `request` and waits for it, or says there is none.
    pub fn ask(&mut self, request: &FileRequest) -> Answer {
        if !self.uses_desktop() {
            return Answer::NoPortal;
        }
        let started = Instant::now();
        match (self.dialog)(request) {
            Some(path) => Answer::Chosen(path),
            None if started.elapsed() < INSTANT => {
                // Asking again would only fail again.
                self.portal = Some(false);
                Answer::NoPortal
            }
            None => Answer::Cancelled,
        }
    }
}

/// How long the bus may take to say whether the portal is there: a bus that does not
/// answer must not freeze the window.
#[cfg(target_os = "linux")]
const PROBE_LIMIT: Duration = Duration::from_secs(2);

/// Whether the XDG desktop portal answers on the session bus (or the bus at `address`),
/// within [`PROBE_LIMIT`].
#[cfg(target_os = "linux")]
pub fn portal_answers(address: Option<&str>) -> bool {
    let (sender, answer) = std::sync::mpsc::channel();
    let address = address.map(str::to_owned);
    let probe = std::thread::Builder::new()
        .name("chuhe portal probe".to_owned())
        .spawn(move || {
            // The receiver is gone only after the limit; nobody is left to tell.
            let _ = sender.send(probe_bus(address.as_deref()));
        });
    probe.is_ok() && answer.recv_timeout(PROBE_LIMIT).unwrap_or(false)
}

#[cfg(target_os = "linux")]
fn probe_bus(address: Option<&str>) -> bool {
    const PORTAL: &str = "org.freedesktop.portal.Desktop";
    let probe = async {
        let builder = match address {
            Some(address) => zbus::connection::Builder::address(address).ok()?,
            None => zbus::connection::Builder::session().ok()?,
        };
        let connection = builder.build().await.ok()?;
        let bus = zbus::fdo::DBusProxy::new(&connection).await.ok()?;
        let name = zbus::names::BusName::try_from(PORTAL).ok()?;
        if bus.name_has_owner(name).await.ok()? {
            return Some(true);
        }
        // Not running yet: the bus starts it on the first call if it is installed.
        let startable = bus.list_activatable_names().await.ok()?;
        Some(startable.iter().any(|n| n.as_str() == PORTAL))
    };
    pollster::block_on(probe).unwrap_or(false)
}

/// Windows and macOS always have their own dialogs.
#[cfg(not(target_os = "linux"))]
pub fn portal_answers(_address: Option<&str>) -> bool {
    true
}

/// The desktop dialog's filters for `request`: the purpose's files first (each extension
/// in lower and upper case, as some dialogs match case-sensitively), then every file.
/// None when the purpose takes any file or a folder.
pub fn dialog_filters(request: &FileRequest) -> Vec<(String, Vec<String>)> {
    let extensions = request.purpose.extensions();
    if extensions.is_empty() || request.purpose.kind() == ChooserKind::Folder {
        return Vec::new();
    }
    let mut cases: Vec<String> = Vec::new();
    for extension in extensions {
        for case in [extension.to_lowercase(), extension.to_uppercase()] {
            if !cases.contains(&case) {
                cases.push(case);
            }
        }
    }
    vec![
        (request.filter_name.clone(), cases),
        (request.all_files_name.clone(), vec!["*".to_owned()]),
    ]
}

/// The desktop's dialog (through `rfd`): the chosen path, or `None`.
fn native_dialog(request: &FileRequest) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new().set_title(&request.title);
    if let Some(folder) = &request.folder {
        dialog = dialog.set_directory(folder);
    }
    for (name, extensions) in dialog_filters(request) {
        dialog = dialog.add_filter(name, &extensions);
    }
    if let Some(name) = &request.file_name {
        dialog = dialog.set_file_name(name);
    }
    match request.purpose.kind() {
        ChooserKind::Open => dialog.pick_file(),
        ChooserKind::Save => dialog.save_file(),
        ChooserKind::Folder => dialog.pick_folder(),
    }
}

/// The sub-folders of `folder`, then its files that `purpose` offers (every file with
/// `all_files`), each sorted by name regardless of case; hidden ones (starting with a dot)
/// left out.
pub fn list_folder(
    folder: &Path,
    purpose: &FilePurpose,
    all_files: bool,
) -> std::io::Result<Vec<BrowserEntry>> {
    let mut folders = Vec::new();
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        // Follows links, so a linked folder is a folder.
        let is_folder = entry.path().is_dir();
        if is_folder {
            folders.push(name);
        } else if purpose.kind() != ChooserKind::Folder && (all_files || purpose.offers(&name)) {
            files.push(name);
        }
    }
    let by_name = |a: &String, b: &String| a.to_lowercase().cmp(&b.to_lowercase());
    folders.sort_by(by_name);
    files.sort_by(by_name);
    Ok(folders
        .into_iter()
        .map(|name| BrowserEntry {
            name,
            is_folder: true,
        })
        .chain(files.into_iter().map(|name| BrowserEntry {
            name,
            is_folder: false,
        }))
        .collect())
}

/// The user's home folder (the working folder if there is none).
pub fn home() -> PathBuf {
    directories::BaseDirs::new()
        .map(|dirs| dirs.home_dir().to_owned())
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"))
}

/// Whether `path` is a folder.
pub fn is_folder(path: &Path) -> bool {
    path.is_dir()
}

/// Whether `path` is a folder this user can make files in: found by making (and removing)
/// an empty hidden file there, which no reading of permission bits can tell as surely
/// (ACLs, read-only mounts, an administrator).
pub fn is_writable_folder(path: &Path) -> bool {
    if !path.is_dir() {
        return false;
    }
    let probe = path.join(format!(".chuhe-write-test-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(file) => {
            drop(file);
            let _ = std::fs::remove_file(&probe);
            true
        }
        // Left by a run that was killed between making and removing it: still writable.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => true,
        Err(_) => false,
    }
}

/// Whether something is at `path` already.
pub fn exists(path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::file_chooser::AfterSave;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhe-chooser-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn folders_come_first_then_only_the_purposes_files() {
        let dir = temp("list");
        for file in [
            "b.pgn",
            "A.xqf",
            "C.DHTMLXQ",
            "notes.doc",
            "README.TXT",
            ".hidden.pgn",
        ] {
            std::fs::write(dir.join(file), "").unwrap();
        }
        std::fs::create_dir(dir.join("棋谱")).unwrap();
        std::fs::create_dir(dir.join("Archive")).unwrap();
        let names = |purpose| -> Vec<(String, bool)> {
            list_folder(&dir, &purpose, false)
                .unwrap()
                .into_iter()
                .map(|e| (e.name, e.is_folder))
                .collect()
        };
        assert_eq!(
            names(FilePurpose::OpenGame),
            [
                ("Archive".to_owned(), true),
                ("棋谱".to_owned(), true),
                ("A.xqf".to_owned(), false),
                ("b.pgn".to_owned(), false),
                ("C.DHTMLXQ".to_owned(), false),
            ]
        );
        // "All files": every file but the hidden one.
        let all: Vec<String> = list_folder(&dir, &FilePurpose::OpenGame, true)
            .unwrap()
            .into_iter()
            .filter(|e| !e.is_folder)
            .map(|e| e.name)
            .collect();
        assert_eq!(
            all,
            ["A.xqf", "b.pgn", "C.DHTMLXQ", "notes.doc", "README.TXT"]
        );
        assert_eq!(
            names(FilePurpose::SaveGame(AfterSave::Stay)).len(),
            3,
            "saving a game offers the folders and the PGN file"
        );
        assert_eq!(names(FilePurpose::OpenFolder).len(), 2);
        assert_eq!(
            list_folder(&dir, &FilePurpose::OpenFolder, true)
                .unwrap()
                .len(),
            2
        );
        assert!(list_folder(&dir.join("missing"), &FilePurpose::OpenGame, false).is_err());
    }

    #[test]
    fn a_folder_is_writable_when_a_file_can_be_made_there() {
        let dir = temp("writable");
        assert!(is_writable_folder(&dir));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing left");
        assert!(!is_writable_folder(&dir.join("missing")));
        std::fs::write(dir.join("a.pgn"), "").unwrap();
        assert!(
            !is_writable_folder(&dir.join("a.pgn")),
            "a file is no folder"
        );
        // Not even the administrator makes files in /proc.
        if cfg!(target_os = "linux") {
            assert!(!is_writable_folder(Path::new("/proc")));
        }
    }

    #[test]
    fn the_desktop_dialog_offers_the_purposes_files_in_either_case_and_every_file() {
        let request = FileRequest {
            filter_name: "棋谱文件".into(),
            all_files_name: "所有文件".into(),
            ..request()
        };
        let filters = dialog_filters(&request);
        assert_eq!(filters.len(), 2);
        assert_eq!(filters[0].0, "棋谱文件");
        for extension in ["pgn", "PGN", "xqf", "XQF", "dhtmlxq", "DHTMLXQ"] {
            assert!(filters[0].1.iter().any(|e| e == extension), "{extension}");
        }
        assert!(!filters[0].1.iter().any(|e| e.eq_ignore_ascii_case("txt")));
        assert_eq!(filters[1], ("所有文件".to_owned(), vec!["*".to_owned()]));
        // A folder, or an engine's program (any name), has no filter.
        for purpose in [FilePurpose::OpenFolder, FilePurpose::AddEngine] {
            let request = FileRequest {
                purpose,
                ..request.clone()
            };
            assert!(dialog_filters(&request).is_empty());
        }
    }

    fn request() -> FileRequest {
        FileRequest {
            purpose: FilePurpose::OpenGame,
            file_name: None,
            folder: None,
            filter_name: String::new(),
            all_files_name: String::new(),
            title: String::new(),
        }
    }

    /// A chooser whose portal answered the probe, with `dialog` for the desktop's.
    fn with_portal(dialog: fn(&FileRequest) -> Option<PathBuf>) -> FileChooser {
        FileChooser {
            backend: Backend::Desktop,
            documents: None,
            portal: Some(true),
            dialog,
        }
    }

    #[test]
    fn a_none_at_once_is_no_portal_and_a_slow_one_is_a_cancel() {
        let mut chooser = with_portal(|_| None);
        assert_eq!(chooser.ask(&request()), Answer::NoPortal);
        assert!(!chooser.uses_desktop(), "not asked again");

        let mut chooser = with_portal(|_| {
            std::thread::sleep(INSTANT + Duration::from_millis(50));
            None
        });
        assert_eq!(chooser.ask(&request()), Answer::Cancelled);
        assert!(chooser.uses_desktop());

        let mut chooser = with_portal(|_| Some(PathBuf::from("/games/a.pgn")));
        assert_eq!(
            chooser.ask(&request()),
            Answer::Chosen(PathBuf::from("/games/a.pgn"))
        );
    }

    #[test]
    fn no_bus_means_no_portal_and_the_in_app_browser() {
        let mut chooser = FileChooser::on_bus("unix:path=/nonexistent/chuhe/bus");
        let request = request();
        if cfg!(target_os = "linux") {
            assert_eq!(chooser.ask(&request), Answer::NoPortal);
        }
        assert_eq!(FileChooser::in_app().ask(&request), Answer::NoPortal);
    }
}

/// The portal probe against a private D-Bus daemon: nobody there, a name owner, a
/// startable service.
#[cfg(all(test, target_os = "linux"))]
mod bus_tests {
    use super::*;
    use std::process::{Child, Command, Stdio};

    const PORTAL: &str = "org.freedesktop.portal.Desktop";

    /// A session bus of its own in `dir`, with `services` as its service folder.
    struct Daemon {
        child: Child,
        address: String,
    }

    impl Daemon {
        /// `answers`: whether the bus lets its replies through (a bus that does not is a
        /// bus that hangs).
        fn start(dir: &Path, services: &Path, answers: bool) -> Option<Daemon> {
            let socket = dir.join("bus");
            let config = dir.join("bus.conf");
            std::fs::write(
                &config,
                format!(
                    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n \
                     \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n\
                     <busconfig><type>session</type><listen>unix:path={}</listen>\
                     <servicedir>{}</servicedir><auth>EXTERNAL</auth>\
                     <policy context=\"default\"><allow send_destination=\"*\"/>\
                     {}<allow own=\"*\"/></policy>\
                     </busconfig>\n",
                    socket.display(),
                    services.display(),
                    if answers {
                        "<allow eavesdrop=\"true\"/>"
                    } else {
                        ""
                    },
                ),
            )
            .unwrap();
            let child = Command::new("dbus-daemon")
                .arg(format!("--config-file={}", config.display()))
                .arg("--nofork")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .ok()?;
            let started = Instant::now();
            while !socket.exists() {
                assert!(started.elapsed() < Duration::from_secs(10), "no bus socket");
                std::thread::sleep(Duration::from_millis(20));
            }
            Some(Daemon {
                child,
                address: format!("unix:path={}", socket.display()),
            })
        }
    }

    impl Drop for Daemon {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhe-bus-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("services")).unwrap();
        dir
    }

    #[test]
    fn the_portal_answers_only_when_its_name_is_owned_or_startable() {
        let dir = temp("owned");
        let Some(daemon) = Daemon::start(&dir, &dir.join("services"), true) else {
            eprintln!("dbus-daemon is not installed: the bus probe is not tested here");
            return;
        };
        assert!(
            !portal_answers(Some(&daemon.address)),
            "nobody owns the name"
        );
        let owner = pollster::block_on(async {
            let connection = zbus::connection::Builder::address(daemon.address.as_str())
                .unwrap()
                .build()
                .await
                .unwrap();
            connection.request_name(PORTAL).await.unwrap();
            connection
        });
        assert!(portal_answers(Some(&daemon.address)), "the name is owned");
        drop(owner);

        let dir = temp("startable");
        std::fs::write(
            dir.join("services").join(format!("{PORTAL}.service")),
            format!("[D-BUS Service]\nName={PORTAL}\nExec=/bin/false\n"),
        )
        .unwrap();
        let daemon = Daemon::start(&dir, &dir.join("services"), true).unwrap();
        assert!(
            portal_answers(Some(&daemon.address)),
            "the bus can start it"
        );
    }

    #[test]
    fn a_bus_that_does_not_answer_is_given_up_on_in_time() {
        let dir = temp("silent");
        let Some(daemon) = Daemon::start(&dir, &dir.join("services"), false) else {
            eprintln!("dbus-daemon is not installed: the bus probe is not tested here");
            return;
        };
        let started = Instant::now();
        assert!(!portal_answers(Some(&daemon.address)));
        assert!(started.elapsed() < PROBE_LIMIT + Duration::from_secs(1));
    }
}
