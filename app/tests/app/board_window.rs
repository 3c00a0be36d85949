//! Drives the real app window headless with egui_kittest and checks what it paints: the
//! grid, the river, the palaces, the corner marks, the file numbers and the 32 pieces of the
//! start position, in the right places and read the right way round.
//!
//! The board's geometry is not asked from the app but read off what was painted, from the
//! two rooks' corners, so a board drawn in the wrong place or shape fails here.

use chuhe::ChuheApp;
use chuhe::services::storage::Storage;
use chuhe::theme::Theme;
use chuhe_core::{Color, File, Position, Rank, Square};
use egui::epaint::{ClippedShape, Shape};
use egui::{Color32, Pos2, Rect, Vec2, pos2};
use egui_kittest::Harness;

/// A painted character: its text, its ink, the centre of its layout box and of its inked
/// pixels.
#[derive(Debug)]
struct PaintedText {
    text: String,
    color: Color32,
    centre: Pos2,
    ink_centre: Pos2,
}

/// Everything the app painted, flattened.
struct Painted {
    texts: Vec<PaintedText>,
    /// Straight segments from line segments and paths.
    segments: Vec<[Pos2; 2]>,
    /// Centre and radius of each disc.
    circles: Vec<(Pos2, f32)>,
    /// Each rectangle and its fill.
    rects: Vec<(Rect, Color32)>,
}

fn collect(shape: &Shape, painted: &mut Painted) {
    match shape {
        Shape::Vec(shapes) => shapes.iter().for_each(|shape| collect(shape, painted)),
        Shape::LineSegment { points, .. } => painted.segments.push(*points),
        Shape::Path(path) => {
            painted
                .segments
                .extend(path.points.windows(2).map(|pair| [pair[0], pair[1]]));
        }
        Shape::Circle(circle) => painted.circles.push((circle.center, circle.radius)),
        Shape::Rect(rect) => painted.rects.push((rect.rect, rect.fill)),
        Shape::Text(text) => {
            let galley = &text.galley;
            let color = galley.job.sections[0].format.color;
            painted.texts.push(PaintedText {
                text: galley.text().to_owned(),
                color,
                centre: (galley.rect.translate(text.pos.to_vec2())).center(),
                ink_centre: galley.mesh_bounds.translate(text.pos.to_vec2()).center(),
            });
        }
        _ => {}
    }
}

/// Opens the app in a window of `size`, in board-only mode (F11: no menus or panels, as
/// on a projector), and returns what it painted.
fn paint_window(size: Vec2) -> Painted {
    let dir = std::env::temp_dir().join(format!(
        "chuhe-board-window-{}-{}x{}",
        std::process::id(),
        size.x,
        size.y
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.ron"), "(layout: (board_only: true))").unwrap();
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| ChuheApp::with_storage(cc, Storage::in_dir(dir.clone())));
    harness.run();
    let mut painted = Painted {
        texts: Vec::new(),
        segments: Vec::new(),
        circles: Vec::new(),
        rects: Vec::new(),
    };
    for ClippedShape { shape, .. } in &harness.output().shapes {
        collect(shape, &mut painted);
    }
    painted
}

/// The grid as painted: where point a9 is and the distance between points.
struct Grid {
    top_left: Pos2,
    spacing: f32,
}

impl Grid {
    /// Reads the grid off the four rooks, which stand on its corners at the start.
    fn from_rooks(painted: &Painted) -> Grid {
        let rooks: Vec<Pos2> = painted
            .texts
            .iter()
            .filter(|text| text.text == "车")
            .map(|text| text.centre)
            .collect();
        assert_eq!(rooks.len(), 4, "four rooks (车) are painted");
        let left = rooks.iter().map(|p| p.x).fold(f32::INFINITY, f32::min);
        let right = rooks.iter().map(|p| p.x).fold(f32::NEG_INFINITY, f32::max);
        let top = rooks.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        let bottom = rooks.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
        let spacing = (right - left) / 8.0;
        assert!(spacing > 10.0, "the board is drawn at a usable size");
        assert!(
            ((bottom - top) / 9.0 - spacing).abs() < 0.01,
            "files and ranks are equally spaced"
        );
        Grid {
            top_left: pos2(left, top),
            spacing,
        }
    }

    /// Screen position of grid coordinates, Red at the bottom.
    fn at(&self, file: f32, rank: f32) -> Pos2 {
        self.top_left + Vec2::new(file, 9.0 - rank) * self.spacing
    }

    fn point(&self, square: Square) -> Pos2 {
        self.at(
            f32::from(square.file().index()),
            f32::from(square.rank().index()),
        )
    }

    fn near(&self, a: Pos2, b: Pos2) -> bool {
        a.distance(b) < self.spacing * 0.02
    }

    /// Whether a straight line was painted from `from` to `to` (in grid coordinates),
    /// in one segment or several.
    fn has_line(&self, painted: &Painted, from: (f32, f32), to: (f32, f32)) -> bool {
        let (a, b) = (self.at(from.0, from.1), self.at(to.0, to.1));
        let on_line = |p: Pos2| {
            let along = (p - a).dot(b - a) / (b - a).length_sq();
            (-0.001..=1.001).contains(&along) && self.near(a + (b - a) * along, p)
        };
        let mut covered: Vec<(f32, f32)> = painted
            .segments
            .iter()
            .filter(|[p, q]| on_line(*p) && on_line(*q))
            .map(|[p, q]| {
                let t = |x: Pos2| (x - a).dot(b - a) / (b - a).length_sq();
                (t(*p).min(t(*q)), t(*p).max(t(*q)))
            })
            .collect();
        covered.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut reached = 0.0;
        for (start, end) in covered {
            if start > reached + 0.001 {
                break;
            }
            reached = f32::max(reached, end);
        }
        reached >= 0.999
    }

    /// Whether any painted segment crosses the horizontal line at `rank` at `file`.
    fn crosses(&self, painted: &Painted, file: f32, rank: f32) -> bool {
        let p = self.at(file, rank);
        painted.segments.iter().any(|[a, b]| {
            let (top, bottom) = (a.y.min(b.y), a.y.max(b.y));
            (a.x - p.x).abs() < 0.5 && (b.x - p.x).abs() < 0.5 && top < p.y && p.y < bottom
        })
    }
}

fn square(file: u8, rank: u8) -> Square {
    Square::new(File::new(file).unwrap(), Rank::new(rank).unwrap())
}

fn texts<'a>(painted: &'a Painted, text: &str) -> Vec<&'a PaintedText> {
    painted.texts.iter().filter(|t| t.text == text).collect()
}

#[test]
fn the_window_is_titled_chuhe() {
    let options = chuhe::native_options();
    assert_eq!(options.viewport.title.as_deref(), Some("Chuhe (楚河)"));
}

#[test]
fn the_start_position_is_drawn_with_every_piece_on_its_point() {
    let painted = paint_window(Vec2::new(720.0, 760.0));
    let grid = Grid::from_rooks(&painted);
    let theme = Theme::wood();
    let start = Position::startpos();

    let mut pieces_seen = 0;
    for square in Square::ALL {
        let Some(piece) = start.piece_at(square) else {
            continue;
        };
        let expected_ink = match piece.color {
            Color::Red => theme.red_ink,
            Color::Black => theme.black_ink,
        };
        let at_point: Vec<_> = painted
            .texts
            .iter()
            .filter(|text| grid.near(text.centre, grid.point(square)))
            .collect();
        assert_eq!(at_point.len(), 1, "one character on {square:?}");
        assert_eq!(at_point[0].text, piece.hanzi().to_string(), "on {square:?}");
        assert_eq!(at_point[0].color, expected_ink, "ink of {}", piece.hanzi());
        // The glyph itself, not just its line box, is centred on the piece.
        assert!(
            at_point[0].ink_centre.distance(grid.point(square)) < grid.spacing * 0.08,
            "{} is drawn centred on its disc",
            piece.hanzi()
        );
        let discs = painted
            .circles
            .iter()
            .filter(|(centre, radius)| {
                grid.near(*centre, grid.point(square)) && *radius > grid.spacing * 0.4
            })
            .count();
        assert!(discs >= 1, "a disc under {}", piece.hanzi());
        pieces_seen += 1;
    }
    assert_eq!(pieces_seen, 32);

    // The characters the players read, in simplified script: red 帅仕相马车炮兵 and
    // black 将士象马车炮卒 (马, 车 and 炮 are the same for both sides).
    let counts = [
        ("帅", 1),
        ("仕", 2),
        ("相", 2),
        ("兵", 5),
        ("将", 1),
        ("士", 2),
        ("象", 2),
        ("卒", 5),
        ("马", 4),
        ("车", 4),
        ("炮", 4),
    ];
    for (text, count) in counts {
        assert_eq!(texts(&painted, text).len(), count, "{text}");
    }
    let general = texts(&painted, "帅")[0];
    assert!(
        grid.near(general.centre, grid.point(square(4, 0))),
        "帅 on e0"
    );
    assert_eq!(general.color, theme.red_ink);
}

#[test]
fn the_river_is_inscribed_and_only_the_edge_files_cross_it() {
    let painted = paint_window(Vec2::new(720.0, 760.0));
    let grid = Grid::from_rooks(&painted);

    let centre_of = |text: &str| {
        let found = texts(&painted, text);
        assert_eq!(found.len(), 1, "{text} is painted once");
        found[0].centre
    };
    let river = grid.at(4.0, 4.5).y;
    for character in ["楚", "河", "汉", "界"] {
        assert!(
            (centre_of(character).y - river).abs() < grid.spacing * 0.1,
            "{character} in the river"
        );
    }
    let middle = grid.at(4.0, 0.0).x;
    assert!(centre_of("楚").x < centre_of("河").x && centre_of("河").x < middle);
    assert!(middle < centre_of("汉").x && centre_of("汉").x < centre_of("界").x);

    for file in 0..=8_u8 {
        let file = f32::from(file);
        let edge = file == 0.0 || file == 8.0;
        assert_eq!(
            grid.crosses(&painted, file, 4.5),
            edge,
            "file {file} across the river"
        );
        if edge {
            assert!(grid.has_line(&painted, (file, 0.0), (file, 9.0)));
        } else {
            assert!(grid.has_line(&painted, (file, 0.0), (file, 4.0)));
            assert!(grid.has_line(&painted, (file, 5.0), (file, 9.0)));
        }
    }
    for rank in 0..=9_u8 {
        let rank = f32::from(rank);
        assert!(
            grid.has_line(&painted, (0.0, rank), (8.0, rank)),
            "rank {rank}"
        );
    }
}

#[test]
fn both_palaces_have_their_diagonals() {
    let painted = paint_window(Vec2::new(720.0, 760.0));
    let grid = Grid::from_rooks(&painted);
    for (near, far) in [(0.0, 2.0), (7.0, 9.0)] {
        assert!(grid.has_line(&painted, (3.0, near), (5.0, far)));
        assert!(grid.has_line(&painted, (5.0, near), (3.0, far)));
    }
    // No other diagonal: none through the middle of the board.
    assert!(!grid.has_line(&painted, (3.0, 3.0), (5.0, 5.0)));
}

#[test]
fn cannon_and_pawn_points_have_corner_marks_on_the_board_side_only() {
    let painted = paint_window(Vec2::new(720.0, 760.0));
    let grid = Grid::from_rooks(&painted);
    let marked: Vec<(u8, u8)> = [(1, 2), (7, 2), (1, 7), (7, 7)]
        .into_iter()
        .chain([0, 2, 4, 6, 8].into_iter().flat_map(|f| [(f, 3), (f, 6)]))
        .collect();

    // A mark is a short segment that touches none of the board's lines: it lies in a
    // quadrant around a point, within a third of a spacing of it.
    let mark_quadrants = |file: u8, rank: u8| -> Vec<(bool, bool)> {
        let centre = grid.point(square(file, rank));
        let mut quadrants: Vec<(bool, bool)> = painted
            .segments
            .iter()
            .filter(|[a, b]| {
                let short = a.distance(*b) < grid.spacing * 0.35;
                let close = a.distance(centre) < grid.spacing * 0.35
                    && b.distance(centre) < grid.spacing * 0.35;
                let off_lines = [a, b]
                    .iter()
                    .all(|p| (p.x - centre.x).abs() > 0.5 && (p.y - centre.y).abs() > 0.5);
                short && close && off_lines
            })
            .map(|[a, b]| {
                let mid = pos2((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                (mid.x > centre.x, mid.y > centre.y)
            })
            .collect();
        quadrants.sort();
        quadrants.dedup();
        quadrants
    };

    for file in 0..=8 {
        for rank in 0..=9 {
            let quadrants = mark_quadrants(file, rank);
            let expected: Vec<(bool, bool)> = if !marked.contains(&(file, rank)) {
                vec![]
            } else if file == 0 {
                vec![(true, false), (true, true)]
            } else if file == 8 {
                vec![(false, false), (false, true)]
            } else {
                vec![(false, false), (false, true), (true, false), (true, true)]
            };
            let mut expected = expected;
            expected.sort();
            assert_eq!(
                quadrants, expected,
                "corner marks at file {file}, rank {rank}"
            );
        }
    }
}

#[test]
fn file_numbers_read_from_each_players_right() {
    let painted = paint_window(Vec2::new(720.0, 760.0));
    let grid = Grid::from_rooks(&painted);
    // Each label stands by its file, between half a spacing and a spacing and a bit beyond
    // the outermost rank on its side.
    let row = |labels: &[&str], rank: f32, outwards: f32| {
        for (file, label) in labels.iter().enumerate() {
            let line = grid.at(file as f32, rank);
            let found = texts(&painted, label);
            assert!(
                found.iter().any(|text| {
                    let beyond = (text.centre.y - line.y) * outwards / grid.spacing;
                    (text.centre.x - line.x).abs() < 1.0 && (0.5..1.1).contains(&beyond)
                }),
                "{label} is by file {file}, beyond rank {rank}"
            );
        }
    };
    // Red's numbers, below rank 0: 九 on Red's left … 一 on Red's right.
    row(
        &["九", "八", "七", "六", "五", "四", "三", "二", "一"],
        0.0,
        1.0,
    );
    // Black's numbers, above rank 9: 1 on Black's right, which is Red's left.
    row(&["1", "2", "3", "4", "5", "6", "7", "8", "9"], 9.0, -1.0);
}

#[test]
fn the_board_stays_square_and_centred_at_any_window_size() {
    let theme = Theme::wood();
    for size in [
        Vec2::new(320.0, 300.0),
        Vec2::new(1600.0, 900.0),
        Vec2::new(700.0, 1400.0),
    ] {
        let painted = paint_window(size);
        let boards: Vec<Rect> = painted
            .rects
            .iter()
            .filter(|(_, fill)| *fill == theme.board)
            .map(|(rect, _)| *rect)
            .collect();
        assert_eq!(boards.len(), 1, "one board face in {size:?}");
        let board = boards[0];
        assert!(
            (board.width() - board.height()).abs() < 0.01,
            "square in {size:?}"
        );
        assert!(
            board.center().distance(pos2(size.x, size.y) / 2.0) < 1.0,
            "centred in {size:?}"
        );
        // It fills the shorter side, less the panel's margins and rounding to whole pixels.
        let shorter = size.x.min(size.y);
        assert!(
            board.width() <= shorter && board.width() > shorter - 30.0,
            "fills {size:?}"
        );

        let grid = Grid::from_rooks(&painted);
        assert!(board.contains_rect(Rect::from_two_pos(grid.at(0.0, 9.0), grid.at(8.0, 0.0))));
        assert!(
            grid.at(4.0, 4.5).distance(board.center()) < 1.0,
            "the grid is centred"
        );
    }
}
