//! Opens Chuhe's window; `chuhe FILE` opens a game file at start (as a file manager's
//! "Open with" or a double-click through the desktop entry does).

fn main() -> eframe::Result {
    chuhe::process_age();
    let file = chuhe::file_argument(std::env::args_os());
    eframe::run_native(
        chuhe::APP_TITLE,
        chuhe::native_options(),
        Box::new(move |cc| {
            Ok(Box::new(chuhe::ChuheApp::with_file(
                cc,
                chuhe::services::storage::Storage::from_environment(),
                file,
            )))
        }),
    )
}
