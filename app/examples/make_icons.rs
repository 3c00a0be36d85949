//! Writes the app's icon in every hicolor size under `app/packaging/icons/` (or the
//! folder given), for the Debian package: `cargo run -p chuhe --example make_icons`.

use chuhe::services::icon::{ICON_SIZES, render_icon};
use chuhe::services::raster::save_png;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let root = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("packaging/icons"));
    for size in ICON_SIZES {
        let path = root.join(format!("{size}x{size}/apps/chuhe.png"));
        std::fs::create_dir_all(path.parent().expect("a folder"))?;
        save_png(&render_icon(size), &path)?;
        println!("{}", path.display());
    }
    Ok(())
}
