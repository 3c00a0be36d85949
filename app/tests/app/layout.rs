//! The layout holds at any window size: the board stays whole and large in a small window
//! (the side panel gives way first), floating windows and dialogs stay under the menu bar,
//! and the evaluation bar does not move the board when it comes and goes.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::services::storage::Storage;
use chuhe::state::Dialog;
use egui::{Id, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::Path;
use std::time::Duration;

fn open_sized(dir: &Path, size: Vec2) -> Harness<'static, ChuheApp> {
    let dir = dir.to_owned();
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run_ok();
    harness
}

fn board_rect(harness: &Harness<'_, ChuheApp>) -> Rect {
    harness
        .state()
        .board_geometry()
        .expect("the board was drawn")
        .board_rect()
}

#[test]
fn in_a_400_by_300_window_the_board_stays_whole_and_the_side_panel_waits_behind_a_button() {
    let dir = common::temp_dir("layout", "small");
    let mut harness = open_sized(&dir, Vec2::new(400.0, 300.0));
    let window = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(400.0, 300.0));
    let board = board_rect(&harness);
    assert!(
        window.contains_rect(board),
        "{board:?} lies inside the window"
    );
    assert!(board.height() >= 240.0, "the board is large: {board:?}");
    // The menus that do not fit the width fold into one, every one of them in reach.
    assert!(harness.query_by_label("俱乐部").is_none());
    harness.get_by_label("菜单").click();
    harness.run_ok();
    let club = harness.get_by_label("俱乐部").rect();
    assert!(
        window.contains_rect(club),
        "{club:?} lies inside the window"
    );
    harness.key_press(egui::Key::Escape);
    harness.run_ok();
    // The side panel (with the analysis in it) is folded away behind a button.
    assert!(harness.query_by_label("开始分析（空格）").is_none());
    // Shown, it takes the board's place (no room for both): nothing of it lies under
    // the board, and all of its width is inside the window.
    harness.get_by_label("◀ 侧栏").click();
    harness.run_ok();
    forget_board(&harness);
    harness.run_ok();
    let analysis = harness.get_by_label("开始分析（空格）").rect();
    assert!(window.contains_rect(analysis), "{analysis:?}");
    let event = harness.get_by_label("赛事").rect();
    assert!(window.contains_rect(event), "{event:?}");
    if let Some(g) = harness.state().board_geometry() {
        let board = g.board_rect();
        assert!(
            !board.intersects(analysis) && !board.intersects(event),
            "the board {board:?} covers the side panel"
        );
    }
    harness.get_by_label("▶ 收起侧栏").click();
    harness.run_ok();
    assert!(harness.query_by_label("开始分析（空格）").is_none());
    assert_eq!(board_rect(&harness), board);
}

/// Forgets where the main board was drawn, so that only a board drawn in a later frame
/// is found.
fn forget_board(harness: &Harness<'_, ChuheApp>) {
    harness.ctx.data_mut(|d| {
        d.remove::<chuhe::widgets::board::BoardGeometry>(Id::unique(
            chuhe::widgets::board::MAIN_BOARD,
        ))
    });
}

#[test]
fn in_a_small_window_with_the_explorer_open_the_side_panel_stays_in_the_window() {
    let dir = common::temp_dir("layout", "small-explorer");
    let mut harness = open_sized(&dir, Vec2::new(480.0, 360.0));
    let window = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(480.0, 360.0));
    let ctx = harness.ctx.clone();
    harness
        .state_mut()
        .apply(&ctx, Action::Collections(CollectionAction::ToggleExplorer));
    harness.run_ok();
    harness.get_by_label("◀ 侧栏").click();
    harness.run_ok();
    forget_board(&harness);
    harness.run_ok();
    let analysis = harness.get_by_label("开始分析（空格）").rect();
    assert!(window.contains_rect(analysis), "{analysis:?}");
    if let Some(g) = harness.state().board_geometry() {
        assert!(!g.board_rect().intersects(analysis), "{:?}", g.board_rect());
    }
}

#[test]
fn in_a_laptop_window_the_side_panel_stays_open() {
    let dir = common::temp_dir("layout", "laptop");
    let harness = open_sized(&dir, Vec2::new(1024.0, 700.0));
    harness.get_by_label("开始分析（空格）");
    assert!(harness.query_by_label("◀ 侧栏").is_none());
    // The menus fit in one row: no folded menu.
    harness.get_by_label("俱乐部");
    assert!(harness.query_by_label("菜单").is_none());
}

#[test]
fn the_evaluation_bar_coming_and_going_does_not_move_the_board() {
    let dir = common::temp_dir("layout", "eval-bar");
    let mut harness = open_sized(&dir, Vec2::new(1024.0, 700.0));
    let ctx = harness.ctx.clone();
    let without = board_rect(&harness);
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    common::wait_for(&mut harness, Duration::from_secs(60), |app| {
        app.state.visible_engine().is_some()
    });
    harness.run_ok();
    assert_eq!(board_rect(&harness), without, "with the bar");
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleEngineHidden));
    harness.run_ok();
    assert!(harness.state().state.visible_engine().is_none());
    assert_eq!(board_rect(&harness), without, "with the bar hidden");
    harness
        .state_mut()
        .apply(&ctx, Action::Engine(EngineAction::ToggleAnalysis));
    harness.run_ok();
}

/// The rectangles of every window and dialog on screen (egui areas over the panels).
fn floating_rects(ctx: &egui::Context) -> Vec<(Id, Rect)> {
    ctx.memory(|m| {
        m.areas()
            .visible_layer_ids()
            .into_iter()
            .filter(|layer| matches!(layer.order, egui::Order::Middle | egui::Order::Foreground))
            .filter_map(|layer| Some((layer.id, m.area_rect(layer.id)?)))
            .collect()
    })
}

#[test]
fn floating_windows_and_dialogs_never_cover_the_menu_bar() {
    let dir = common::temp_dir("layout", "windows");
    // A short window: tall windows must give way downwards, not over the menu. (Where
    // the windows are is checked here, not the accessibility of what is in them.)
    let opened = dir.clone();
    let mut harness = Harness::builder()
        .with_size(Vec2::new(700.0, 360.0))
        .with_accessibility_check(false)
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(opened.clone())));
    harness.run();
    let ctx = harness.ctx.clone();
    // The menu bar's buttons: no window may reach up over them.
    let menu = harness.get_by_label("文件").rect();
    assert!(menu.bottom() > 10.0);
    let export = chuhe::state::export::ExportOptions::default();
    let windows: Vec<(&str, Vec<Action>, Vec<Action>)> = vec![
        (
            "knowledge",
            vec![Action::Knowledge(KnowledgeAction::Toggle)],
            vec![Action::Knowledge(KnowledgeAction::Toggle)],
        ),
        (
            "table browser",
            vec![Action::Tablebase(TbAction::ToggleBrowser)],
            vec![Action::Tablebase(TbAction::ToggleBrowser)],
        ),
        (
            "club",
            vec![Action::Club(ClubAction::Toggle)],
            vec![Action::Club(ClubAction::Toggle)],
        ),
        (
            "puzzles",
            vec![Action::Puzzle(PuzzleAction::ToggleBrowser)],
            vec![Action::Puzzle(PuzzleAction::ToggleBrowser)],
        ),
        (
            "export",
            vec![Action::Export(ExportAction::Dialog(Some(export)))],
            vec![Action::Export(ExportAction::Dialog(None))],
        ),
        (
            "play setup",
            vec![Action::Play(PlayAction::OpenSetup {
                against_engine: true,
            })],
            vec![Action::Play(PlayAction::CloseSetup)],
        ),
    ];
    for (name, open, close) in windows {
        for action in open {
            harness.state_mut().apply(&ctx, action);
        }
        // Windows settle their size over a few frames.
        for _ in 0..4 {
            harness.run();
        }
        let rects = floating_rects(&ctx);
        assert!(!rects.is_empty(), "the {name} window is shown");
        for (id, rect) in rects {
            assert!(
                rect.top() >= menu.bottom() - 0.5,
                "the {name} window ({id:?}, {rect:?}) starts under the menu bar ({menu:?})"
            );
        }
        for action in close {
            harness.state_mut().apply(&ctx, action);
        }
        harness.run();
    }
    // A dialog that waits for an answer, too.
    harness.state_mut().state.dialog = Some(Dialog::LeaveEditor);
    harness.run();
    harness.run();
    let rects = floating_rects(&ctx);
    assert!(!rects.is_empty(), "the dialog is shown");
    for (id, rect) in rects {
        assert!(
            rect.top() >= menu.bottom() - 0.5,
            "the dialog ({id:?}, {rect:?}) starts under the menu bar"
        );
    }
}

/// Every stroke painted: its points, width and colour.
fn strokes(harness: &Harness<'_, ChuheApp>) -> Vec<(Vec<egui::Pos2>, f32, egui::Color32)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(Vec<egui::Pos2>, f32, egui::Color32)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::LineSegment { points, stroke } => {
                out.push((points.to_vec(), stroke.width, stroke.color))
            }
            egui::Shape::Path(path) => out.push((
                path.points.clone(),
                path.stroke.width,
                match path.stroke.color {
                    egui::epaint::ColorMode::Solid(c) => c,
                    _ => egui::Color32::TRANSPARENT,
                },
            )),
            egui::Shape::Rect(rect) => out.push((
                vec![rect.rect.left_top(), rect.rect.right_bottom()],
                rect.stroke.width,
                rect.stroke.color,
            )),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &harness.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// Whether a thick, opaque stroke (at least `fraction` of a spacing wide) is painted
/// round or through the point `square`.
fn bold_mark_at(harness: &Harness<'_, ChuheApp>, square: &str, fraction: f32) -> bool {
    let geometry = harness.state().board_geometry().unwrap();
    let spacing = geometry.spacing();
    let centre = geometry.point(square.parse().unwrap());
    strokes(harness).iter().any(|(points, width, colour)| {
        *width >= fraction * spacing
            && colour.a() == 255
            && points.iter().any(|p| p.distance(centre) <= 0.75 * spacing)
    })
}

#[test]
fn in_presentation_the_last_move_is_marked_boldly_with_a_caption() {
    let dir = common::temp_dir("layout", "presentation");
    let mut harness = common::open_in(&dir);
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h2e2".parse().unwrap())),
    );
    harness.run_ok();
    // At the desk the last move's mark is light.
    assert!(!bold_mark_at(&harness, "e2", 0.1));
    harness
        .state_mut()
        .apply(&ctx, Action::Presentation(PresentationAction::Toggle));
    harness.run_ok();
    harness.run_ok();
    assert!(bold_mark_at(&harness, "e2", 0.1), "the to-point");
    assert!(bold_mark_at(&harness, "h2", 0.1), "the from-point");
    harness.get_by_label("第 1 回合 红方 炮二平五 — 黑方走棋");
    // In the user's language.
    harness.state_mut().apply(
        &ctx,
        Action::View(ViewAction::SetLanguage(chuhe::i18n::Language::En)),
    );
    harness.run_ok();
    harness.get_by_label_contains("Move 1: Red");
    harness.get_by_label_contains("Black to move");
}

/// The discs painted, with their centres and radii.
fn discs(harness: &Harness<'_, ChuheApp>) -> Vec<(egui::Pos2, f32, egui::Color32)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(egui::Pos2, f32, egui::Color32)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::Circle(c) => out.push((c.center, c.radius, c.fill)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &harness.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

#[test]
fn the_side_to_move_is_marked_on_the_board_and_in_the_status_bar() {
    let dir = common::temp_dir("layout", "to-move");
    let mut harness = common::open_in(&dir);
    let ctx = harness.ctx.clone();
    let theme = harness.state().state.settings.theme.theme();
    let mark = |harness: &Harness<'_, ChuheApp>| {
        let geometry = harness.state().board_geometry().unwrap();
        let spacing = geometry.spacing();
        let grid_right = geometry
            .point("a0".parse().unwrap())
            .x
            .max(geometry.point("i0".parse().unwrap()).x);
        let radius = chuhe::widgets::board::SIDE_TO_MOVE_RADIUS * spacing;
        discs(harness)
            .into_iter()
            .filter(|(centre, r, _)| {
                (r - radius).abs() < 0.5 && centre.x > grid_right + 0.5 * spacing
            })
            .map(|(centre, _, fill)| (centre.y > geometry.board_rect().center().y, fill))
            .collect::<Vec<_>>()
    };
    harness.get_by_label("红方走棋");
    assert_eq!(
        mark(&harness),
        vec![(true, theme.red_ink)],
        "red, at the bottom"
    );
    harness.state_mut().apply(
        &ctx,
        Action::Study(StudyAction::PlayMove("h2e2".parse().unwrap())),
    );
    harness.run_ok();
    harness.get_by_label("黑方走棋");
    assert!(harness.query_by_label("红方走棋").is_none());
    assert_eq!(
        mark(&harness),
        vec![(false, theme.black_ink)],
        "black, at the top"
    );
}

#[test]
fn a_long_opening_name_beside_the_explorer_wraps_and_leaves_the_board_its_size() {
    let dir = common::temp_dir("layout", "long-opening");
    let settings = chuhe::settings::Settings {
        explorer_open: true,
        ..Default::default()
    };
    Storage::in_dir(dir.clone())
        .save_settings(&settings)
        .unwrap();
    let size = Vec2::new(1080.0, 720.0);
    let mut harness = open_sized(&dir, size);
    let before = board_rect(&harness);
    // Five moves a side that the library names "C40 中炮过河车互进七兵对屏风马平炮兑车".
    let ctx = harness.ctx.clone();
    for m in "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7".split(' ') {
        let m = m.parse().unwrap();
        harness
            .state_mut()
            .apply(&ctx, Action::Study(StudyAction::PlayMove(m)));
    }
    harness.run_ok();
    let name = harness
        .state()
        .state
        .study
        .derived
        .ecco
        .as_ref()
        .map(|c| format!("{} {}", c.code, c.name()))
        .expect("the opening is named");
    assert!(name.chars().count() > 18, "a long name: {name}");
    let board = board_rect(&harness);
    // The board keeps its size, and it is no stamp.
    assert_eq!(board.size(), before.size(), "{board:?} against {before:?}");
    assert!(
        board.height() > 0.45 * size.y,
        "the board is large: {board:?}"
    );
    // The name is shown whole in the side panel, inside the window.
    let window = Rect::from_min_size(egui::Pos2::ZERO, size);
    let beside: Vec<Rect> = harness
        .get_all_by_label_contains(&name)
        .map(|node| node.rect())
        .filter(|r| r.left() > board.right())
        .collect();
    assert!(!beside.is_empty(), "the name is in the side panel");
    for shown in beside {
        assert!(window.contains_rect(shown), "{shown:?}");
    }
}

/// However many menus there are, the folded menu of a 400×300 window reaches the last.
#[test]
fn in_a_400_by_300_window_the_folded_menu_reaches_its_last_menu() {
    let dir = common::temp_dir("layout", "small-last-menu");
    let mut harness = open_sized(&dir, Vec2::new(400.0, 300.0));
    let window = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(400.0, 300.0));
    harness.get_by_label("菜单").click();
    harness.run_ok();
    harness.get_by_label("课堂").scroll_to_me();
    harness.run_ok();
    let class = harness.get_by_label("课堂").rect();
    assert!(
        window.contains_rect(class),
        "{class:?} lies inside the window"
    );
}
