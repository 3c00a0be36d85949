//! A position from a picture (识图), driven through the real window: a picture pasted,
//! dropped or opened from File ▸ 识图 reaches the reader; what it says goes wrong is said
//! in a toast; what it read opens the correction view, where a click on a point offers the
//! next likelier piece and 接受 opens the position in the editor; several boards go to a
//! puzzle set.
//!
//! The correction tests hand the view a reading made here (as the picture service would
//! answer), so they test the view, not the reader. The tests named `..._is_read` need
//! the real reader: they read a diagram the app itself exported.

use crate::common::{self, temp_dir, wait_for};
use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::services::file_chooser::FileChooser;
use chuhe::settings::Settings;
use chuhe::state::file_chooser::FilePurpose;
use chuhe::state::picture::{Found, Picture};
use chuhe::state::toasts::ToastKind;
use chuhe_core::recognize::Area;
use chuhe_core::recognize::net::{CLASSES, class_of};
use chuhe_core::{Board, Color, Piece, PieceKind, Position, Square};
use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

const FILE: &str = "picture";

fn open(name: &str) -> (Harness<'static, ChuheApp>, PathBuf) {
    let dir = temp_dir(FILE, name);
    let harness = common::open_in(&dir);
    (harness, dir)
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn apply(harness: &mut Harness<'_, ChuheApp>, action: impl Into<Action>) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action.into());
    harness.run_ok();
}

/// Steps the app until the picture service has answered.
fn wait_for_reading(harness: &mut Harness<'_, ChuheApp>) {
    wait_for(harness, Duration::from_secs(30), |app| {
        app.state.picture.reading.is_none()
    });
    harness.run_ok();
}

/// The one failure toast shown, in words.
fn failure_shown(harness: &Harness<'_, ChuheApp>) -> usize {
    harness
        .state()
        .state
        .toasts
        .shown
        .iter()
        .filter(|t| t.kind == ToastKind::Error)
        .count()
}

/// A dropped file, as the window system reports it.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(harness: &mut Harness<'_, ChuheApp>, path: PathBuf) {
    harness
        .input_mut()
        .dropped_files
        .push(Arc::new(Dropped(path)));
    harness.run_ok();
}

/// Pastes `image` as a clipboard holding a picture and no text does (Ctrl+V).
fn paste_image(harness: &mut Harness<'_, ChuheApp>, image: egui::ColorImage) {
    harness.event(Event::PasteImage(Arc::new(image)));
    harness.run_ok();
}

/// A plain picture with no board in it.
fn blank_image() -> egui::ColorImage {
    egui::ColorImage::new([320, 240], vec![egui::Color32::WHITE; 320 * 240])
}

fn write_blank_png(path: &Path) {
    image::RgbaImage::from_pixel(320, 240, image::Rgba([255, 255, 255, 255]))
        .save(path)
        .unwrap();
}

/// The probabilities of a point that certainly holds `piece`.
fn sure(piece: Option<Piece>) -> [f32; CLASSES] {
    let mut p = [0.0; CLASSES];
    p[class_of(piece)] = 1.0;
    p
}

/// A reading of `position`'s board as the reader gives one, `doubts` being points whose
/// reading is in doubt, each with its classes' probabilities.
fn found(position: &Position, doubts: &[(Square, [f32; CLASSES])], area: Area) -> Found {
    let board = position.to_setup().board;
    let mut probabilities: Vec<[f32; CLASSES]> =
        Square::ALL.iter().map(|&s| sure(board.get(s))).collect();
    for (square, p) in doubts {
        probabilities[square.index() as usize] = *p;
    }
    Found {
        board,
        confidence: 0.82,
        uncertain: doubts.iter().map(|(s, _)| *s).collect(),
        area,
        flipped: false,
        probabilities,
    }
}

/// A picture of `width`×`height` pixels, all grey.
fn grey_picture(width: u32, height: u32) -> Picture {
    Picture {
        width,
        height,
        shown_width: width,
        shown_height: height,
        rgba: Arc::new(vec![128; (width * height * 4) as usize]),
    }
}

fn red(kind: PieceKind) -> Piece {
    Piece::new(Color::Red, kind)
}

/// What the reader would answer for one board with one doubtful point, h2: most likely
/// Red's cannon, then Red's horse, then empty.
fn one_doubtful_board() -> Box<chuhe::state::picture::Outcome> {
    let mut h2 = [0.0; CLASSES];
    h2[class_of(Some(red(PieceKind::Cannon)))] = 0.55;
    h2[class_of(Some(red(PieceKind::Horse)))] = 0.30;
    h2[0] = 0.10;
    let area = Area {
        x: 20,
        y: 20,
        width: 360,
        height: 400,
    };
    Box::new(Ok((
        grey_picture(400, 440),
        vec![found(&Position::startpos(), &[(sq("h2"), h2)], area)],
    )))
}

fn board_point(harness: &Harness<'_, ChuheApp>, square: &str) -> Pos2 {
    harness
        .state()
        .board_geometry()
        .expect("the correction board was drawn")
        .point(sq(square))
}

fn click_point(harness: &mut Harness<'_, ChuheApp>, square: &str, which: PointerButton) {
    let pos = board_point(harness, square);
    for pressed in [true, false] {
        harness.event(Event::PointerMoved(pos));
        harness.event(Event::PointerButton {
            pos,
            button: which,
            pressed,
            modifiers: Modifiers::NONE,
        });
        harness.step();
    }
    harness.run_ok();
}

fn corrected(harness: &Harness<'_, ChuheApp>) -> Board {
    *harness
        .state()
        .state
        .picture
        .correction
        .as_ref()
        .expect("the correction view is open")
        .board()
}

#[test]
fn a_pasted_picture_with_no_board_says_so_in_a_toast() {
    let (mut harness, _) = open("paste-no-board");
    paste_image(&mut harness, blank_image());
    wait_for_reading(&mut harness);
    assert_eq!(failure_shown(&harness), 1);
    harness.get_by_label_contains("图中找不到棋盘");
    assert!(harness.state().state.picture.correction.is_none());
    assert!(harness.state().state.editor.is_none());
}

#[test]
fn a_dropped_picture_file_is_read_not_opened_as_a_game() {
    let (mut harness, dir) = open("drop");
    let garbage = dir.join("screenshot.png");
    std::fs::write(&garbage, b"these bytes are no picture").unwrap();
    drop_file(&mut harness, garbage);
    wait_for_reading(&mut harness);
    assert_eq!(failure_shown(&harness), 1);
    harness.get_by_label_contains("不是能识别的图片");

    let blank = dir.join("blank.PNG");
    write_blank_png(&blank);
    drop_file(&mut harness, blank);
    wait_for_reading(&mut harness);
    harness.get_by_label_contains("图中找不到棋盘");
    assert_eq!(
        harness.state().state.study.file,
        None,
        "no game was opened from the pictures"
    );
}

#[test]
fn a_picture_file_over_the_cap_is_refused_before_it_is_read() {
    let (mut harness, dir) = open("too-large");
    let big = dir.join("huge.png");
    // A sparse file: the size is there, the disk is spared.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(chuhe::state::picture::MAX_FILE_BYTES + 1)
        .unwrap();
    drop_file(&mut harness, big);
    wait_for_reading(&mut harness);
    harness.get_by_label_contains("图片文件太大");
}

#[test]
fn file_menu_picture_entry_reaches_the_chooser_and_reads_the_chosen_picture() {
    let dir = temp_dir(FILE, "menu");
    let folder = dir.join("pictures");
    std::fs::create_dir_all(&folder).unwrap();
    write_blank_png(&folder.join("page.png"));
    std::fs::write(folder.join("game.pgn"), "1. h2e2 *\n").unwrap();
    let settings = Settings {
        last_folder: Some(folder.clone()),
        ..Settings::default()
    };
    let mut harness = common::open_with_settings(&dir, &settings);
    harness.state_mut().services.file_chooser = FileChooser::in_app();

    harness.get_by_label("文件").click();
    harness.run_ok();
    harness.get_by_label_contains("识图").click();
    harness.run_ok();
    let browser = harness.state().state.file_browser.as_ref();
    assert_eq!(
        browser.map(|b| &b.purpose),
        Some(&FilePurpose::OpenPicture),
        "the chooser asks for a picture"
    );
    let names: Vec<&str> = browser
        .unwrap()
        .entries
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["page.png"], "only pictures are offered");
    harness.get_by_label("page.png").click();
    harness.run_ok();
    harness.get_by_label("打开").click();
    harness.run_ok();
    wait_for_reading(&mut harness);
    harness.get_by_label_contains("图中找不到棋盘");
}

#[test]
fn a_click_on_a_doubtful_point_offers_the_next_likeliest_piece_and_accept_opens_the_editor() {
    let (mut harness, _) = open("correct");
    // A game behind the view, at its start, with a move to step to.
    apply(&mut harness, StudyAction::PlayMove("h2e2".parse().unwrap()));
    apply(&mut harness, StudyAction::Start);
    let root = harness.state().state.study.cursor;
    apply(
        &mut harness,
        PictureAction::Read(None, one_doubtful_board()),
    );
    harness.get_by_label("接受");
    harness.get_by_label_contains("把握 82%");
    assert_eq!(
        corrected(&harness).get(sq("h2")),
        Some(red(PieceKind::Cannon))
    );

    click_point(&mut harness, "h2", PointerButton::Primary);
    assert_eq!(
        corrected(&harness).get(sq("h2")),
        Some(red(PieceKind::Horse)),
        "the second likeliest piece"
    );
    click_point(&mut harness, "h2", PointerButton::Primary);
    assert_eq!(corrected(&harness).get(sq("h2")), None, "then empty");
    click_point(&mut harness, "h2", PointerButton::Secondary);
    assert_eq!(
        corrected(&harness).get(sq("h2")),
        Some(red(PieceKind::Horse)),
        "a right click goes back"
    );
    // The keys of the study board do nothing to the game hidden behind the view.
    harness.key_press(egui::Key::ArrowRight);
    harness.run_ok();
    assert_eq!(harness.state().state.study.cursor, root);

    harness.get_by_label("黑方先走").click();
    harness.run_ok();
    harness.get_by_label("接受").click();
    harness.run_ok();

    assert!(harness.state().state.picture.correction.is_none());
    let editor = harness
        .state()
        .state
        .editor
        .as_ref()
        .expect("the editor opened");
    let mut expected = Position::startpos().to_setup().board;
    expected.set(sq("h2"), Some(red(PieceKind::Horse)));
    assert_eq!(editor.setup.board, expected);
    assert_eq!(editor.setup.side_to_move, Color::Black);
}

#[test]
fn cancel_closes_the_correction_view_and_keeps_nothing() {
    let (mut harness, _) = open("cancel");
    apply(
        &mut harness,
        PictureAction::Read(None, one_doubtful_board()),
    );
    harness.get_by_label("取消").click();
    harness.run_ok();
    assert!(harness.state().state.picture.correction.is_none());
    assert!(harness.state().state.editor.is_none());
    assert_eq!(harness.state().state.position(), &Position::startpos());
}

#[test]
fn several_boards_in_one_picture_are_picked_from_or_all_go_to_a_puzzle_set() {
    let (mut harness, _) = open("several");
    let first: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".parse().unwrap();
    let second: Position = "4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1".parse().unwrap();
    let left = Area {
        x: 10,
        y: 10,
        width: 180,
        height: 200,
    };
    let right = Area { x: 210, ..left };
    let outcome = Ok((
        grey_picture(400, 220),
        vec![found(&first, &[], left), found(&second, &[], right)],
    ));
    apply(
        &mut harness,
        PictureAction::Read(Some(PathBuf::from("/book/page 12.png")), Box::new(outcome)),
    );
    harness.get_by_label_contains("找到 2 个棋盘");
    harness.get_by_label("棋盘 2").click();
    harness.run_ok();
    assert_eq!(corrected(&harness), second.to_setup().board);

    harness.get_by_label("全部加入题集").click();
    harness.run_ok();
    let puzzles = &harness.state().state.puzzles;
    let set = puzzles
        .sets
        .iter()
        .find(|s| s.set.name == "page 12")
        .expect("a set named after the picture");
    let positions: Vec<&Position> = set.set.puzzles.iter().map(|p| &p.position).collect();
    assert_eq!(positions, [&first, &second]);
    assert!(puzzles.browser_open, "the set is shown");
    assert!(harness.state().state.picture.correction.is_none());
}

/// A diagram of `position` exported by the app itself, `size` pixels wide.
fn exported_diagram(position: &Position, size: u32) -> image::RgbaImage {
    use chuhe::state::export::ExportOptions;
    use chuhe::widgets::board::{Diagram, Marks};
    let theme = Settings::default().theme.theme();
    chuhe::services::export::render(
        &Diagram::from_board(&position.to_setup().board),
        &Marks::default(),
        &theme,
        ExportOptions {
            size,
            coordinates: true,
            marks: false,
        },
    )
}

/// A middle-game position with every kind of piece on the board.
fn middle_game() -> Position {
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 3"
        .parse()
        .unwrap()
}

/// Needs the real reader (the core's `recognize`): fails while it finds no board.
#[test]
fn pasted_board_picture_is_read() {
    let (mut harness, _) = open("paste-read");
    let picture = exported_diagram(&middle_game(), 600);
    let image = egui::ColorImage::from_rgba_unmultiplied(
        [picture.width() as usize, picture.height() as usize],
        picture.as_raw(),
    );
    paste_image(&mut harness, image);
    wait_for_reading(&mut harness);
    assert_eq!(
        failure_shown(&harness),
        0,
        "{:?}",
        harness.state().state.toasts
    );
    assert_eq!(corrected(&harness), middle_game().to_setup().board);
}

/// Needs the real reader (the core's `recognize`): fails while it finds no board.
#[test]
fn dropped_board_picture_file_is_read() {
    let (mut harness, dir) = open("drop-read");
    let path = dir.join("diagram.png");
    chuhe::services::export::save_png(&exported_diagram(&middle_game(), 500), &path).unwrap();
    drop_file(&mut harness, path);
    wait_for_reading(&mut harness);
    assert_eq!(
        failure_shown(&harness),
        0,
        "{:?}",
        harness.state().state.toasts
    );
    assert_eq!(corrected(&harness), middle_game().to_setup().board);
}
