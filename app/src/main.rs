//! Opens Chuhe's window; `chuhe FILE` opens a game file at start (as a file manager's
//! "Open with" does).

fn main() -> eframe::Result {
    chuhe::process_age();
    let file = std::env::args_os().nth(1).map(std::path::PathBuf::from);
    eframe::run_native(
        chuhe::APP_TITLE,
        chuhe::native_options(),
        Box::new(move |cc| {
            let mut app = chuhe::ChuheApp::new(cc);
            if let Some(path) = file {
                app.apply(
                    &cc.egui_ctx,
                    chuhe::actions::Action::File(chuhe::actions::FileAction::Open(path)),
                );
            }
            Ok(Box::new(app))
        }),
    )
}
