//! Opens Chuhe's window.

fn main() -> eframe::Result {
    chuhe::process_age();
    eframe::run_native(
        chuhe::APP_TITLE,
        chuhe::native_options(),
        Box::new(|cc| Ok(Box::new(chuhe::ChuheApp::new(cc)))),
    )
}
