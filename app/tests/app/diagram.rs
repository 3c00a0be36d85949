//! Exporting the board as a PNG diagram: from the File menu's dialog, at the chosen size,
//! drawn by the board's own painting code (so pieces, marks and theme are the screen's).

use crate::common;

use chuhe::actions::*;
use chuhe::state::export::ExportOptions;
use common::{open_in, temp_dir, wait_for};
use egui_kittest::kittest::Queryable as _;
use std::time::Duration;

#[test]
fn the_board_is_exported_as_a_png_of_the_chosen_size_that_is_not_blank() {
    let dir = temp_dir("diagram", "export");
    let mut harness = open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h2e2".parse().unwrap())),
    );
    harness.run_ok();

    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label("导出棋图（PNG）…").click();
    harness.run_ok();
    assert!(harness.state().state.export_dialog.is_some());
    harness.get_by_label("导出棋图");
    // Without coordinates: the checkbox is clicked off.
    harness.get_by_label("标出纵线编号").click();
    harness.run_ok();
    let options = harness.state().state.export_dialog.unwrap();
    assert!(!options.coordinates && options.marks);

    // The file dialog is the system's; the test gives the path it would return.
    let path = dir.join("diagram.png");
    let options = ExportOptions {
        size: 640,
        ..options
    };
    harness.state_mut().apply(
        &ctx,
        Action::Export(ExportAction::Png(path.clone(), options)),
    );
    wait_for(&mut harness, Duration::from_secs(120), |app| {
        app.state
            .notice
            .as_ref()
            .is_some_and(|n| format!("{n:?}").contains("export-done"))
    });
    let picture = image::open(&path).expect("a PNG was written").to_rgba8();
    assert_eq!(picture.dimensions(), (640, 640));
    let first = *picture.get_pixel(0, 0);
    let differing = picture.pixels().filter(|p| **p != first).count();
    assert!(
        differing > 640 * 640 / 2,
        "only {differing} pixels differ from the corner"
    );
    // No half-written file is left beside it.
    let leftovers = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("diagram") && e.path() != path)
        .count();
    assert_eq!(leftovers, 0);
}
