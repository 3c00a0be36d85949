//! Opens Chuhe's window; `chuhe FILE` opens a game file at start (as a file manager's
//! "Open with" or a double-click through the desktop entry does); `chuhe --class [--port N]
//! [--code CODE] [--bind ADDRESS] [FILE]` also opens a class and says on standard output
//! where to join it.

fn main() -> eframe::Result {
    chuhe::process_age();
    let arguments = match chuhe::arguments(std::env::args_os()) {
        Ok(arguments) => arguments,
        Err(e) => {
            eprintln!("chuhe: {e}");
            std::process::exit(2);
        }
    };
    eframe::run_native(
        chuhe::APP_TITLE,
        chuhe::native_options(),
        Box::new(move |cc| {
            let mut app = chuhe::ChuheApp::with_file(
                cc,
                chuhe::services::storage::Storage::from_environment(),
                arguments.file,
            );
            if let Some(class) = arguments.class {
                if let Some(bind) = class.bind {
                    let bind = chuhe::actions::ClassAction::SetBind(bind);
                    app.apply(&cc.egui_ctx, bind.into());
                }
                match app.open_class(&cc.egui_ctx, class.port, class.code) {
                    Ok(line) => println!("{line}"),
                    Err(why) => {
                        eprintln!("chuhe: {why}");
                        std::process::exit(1);
                    }
                }
            }
            Ok(Box::new(app))
        }),
    )
}
