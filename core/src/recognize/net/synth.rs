//! Boards the project draws itself, for training and testing the point classifier: random
//! positions drawn by the diagram painter on the CPU surface ([`crate::diagram::raster`])
//! in many styles, then spoilt the way screenshots, scans and photos are.
//!
//! A [`Style`] is a font, a kind of disc and a colour scheme; [`HELD_OUT`] lists styles
//! none of whose three parts the trainer ever draws with, so the figures measured on them
//! say how the classifier does on a look it has never seen. Everything else varies board
//! by board from the seed: the proportions (line widths, piece and character sizes),
//! the margins and the frame, labels and the river's inscription, simplified or
//! traditional characters and their variants (车/車/俥, 炮/砲/包 …) or Western letters
//! (K A E H R C P and their variants) or figures ([`super::symbols`]: a crowned king, a
//! tower, a knight's head …), boards turned round,
//! pieces facing their owners, chequered boards with the pieces in the squares, wood
//! grain, clutter round the board, last-move frames and arrows; then [`Augment`]: a tilt
//! and perspective, colour shifts, grey, blur, noise and JPEG.

use super::super::geometry::Homography;
use super::symbols::{Fill, Symbols};
use crate::diagram::raster::{Raster, Rgba, Typeface};
use crate::diagram::surface::{Placement, Point, Surface, draw};
use crate::diagram::{self, BoardStyle, Coordinates, Element, Ink, Proportions, Spot};
use crate::play::Rng;
use crate::{Board, Color, Piece, PieceKind, Square};
use image::RgbImage;
use std::borrow::Cow;

/// The fonts boards are drawn in: the app's own, then the distribution's CJK fonts (Debian's
/// fonts-arphic-ukai, -uming, fonts-wqy-microhei, -zenhei, fonts-noto-cjk, then
/// fonts-noto-cjk-extra, fonts-lxgw-wenkai, fonts-arphic-gkai00mp, -bkai00mp, -gbsn00lp,
/// -bsmi00lp, fonts-cwtex-kai, -ming, -heib, -yen, -fs, fonts-cns11643-kai, -sung): name,
/// file, face in the collection. The later ones widen the hands the classifier has seen
/// (brush, rounded, black and hairline weights); several have only traditional
/// characters, which [`Characters::of`] then writes.
pub const FONT_FILES: [(&str, &str, u32); 28] = [
    ("chuhe-kai", "", 0),
    ("ukai", "/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("uming", "/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    (
        "wqy-microhei",
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        0,
    ),
    (
        "wqy-zenhei",
        "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
        0,
    ),
    (
        "noto-sans",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        2,
    ),
    (
        "noto-sans-bold",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        2,
    ),
    (
        "noto-serif",
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
        2,
    ),
    (
        "noto-serif-bold",
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
        2,
    ),
    (
        "noto-sans-black",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc",
        2,
    ),
    (
        "noto-sans-light",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Light.ttc",
        2,
    ),
    (
        "noto-sans-medium",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc",
        2,
    ),
    (
        "noto-serif-black",
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc",
        2,
    ),
    (
        "noto-serif-light",
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-Light.ttc",
        2,
    ),
    (
        "noto-serif-semibold",
        "/usr/share/fonts/opentype/noto/NotoSerifCJK-SemiBold.ttc",
        2,
    ),
    (
        "lxgw-wenkai",
        "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf",
        0,
    ),
    (
        "lxgw-wenkai-bold",
        "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf",
        0,
    ),
    (
        "gkai00mp",
        "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf",
        0,
    ),
    (
        "bkai00mp",
        "/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf",
        0,
    ),
    (
        "gbsn00lp",
        "/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf",
        0,
    ),
    (
        "bsmi00lp",
        "/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf",
        0,
    ),
    ("cwtex-kai", "/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0),
    (
        "cwtex-ming",
        "/usr/share/fonts/truetype/cwtex/cwming.ttf",
        0,
    ),
    (
        "cwtex-heib",
        "/usr/share/fonts/truetype/cwtex/cwheib.ttf",
        0,
    ),
    ("cwtex-yen", "/usr/share/fonts/truetype/cwtex/cwyen.ttf", 0),
    ("cwtex-fs", "/usr/share/fonts/truetype/cwtex/cwfs.ttf", 0),
    (
        "tw-kai",
        "/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf",
        0,
    ),
    (
        "tw-sung",
        "/usr/share/fonts/truetype/cns11643/TW-Sung-98_1.ttf",
        0,
    ),
];

/// The fonts of [`FONT_FILES`] that could be read here.
pub struct Fonts {
    faces: Vec<(&'static str, Cow<'static, [u8]>, u32)>,
}

impl Fonts {
    /// The app's font and every listed system font present on this machine.
    pub fn load() -> Fonts {
        let mut faces = Vec::new();
        for (name, path, index) in FONT_FILES {
            let data: Cow<'static, [u8]> = if path.is_empty() {
                Cow::Borrowed(diagram::FONT)
            } else {
                match std::fs::read(path) {
                    Ok(bytes) => Cow::Owned(bytes),
                    Err(_) => continue,
                }
            };
            if Typeface::new(&data, index).is_some() {
                faces.push((name, data, index));
            }
        }
        Fonts { faces }
    }

    /// Only the app's font (what a test on any machine has).
    pub fn app_only() -> Fonts {
        Fonts {
            faces: vec![(FONT_FILES[0].0, Cow::Borrowed(diagram::FONT), 0)],
        }
    }

    /// The names of the fonts that were read.
    pub fn names(&self) -> Vec<&'static str> {
        self.faces.iter().map(|f| f.0).collect()
    }

    /// The font called `name`, if it was read.
    pub fn typeface(&self, name: &str) -> Option<Typeface<'_>> {
        let (_, data, index) = self.faces.iter().find(|f| f.0 == name)?;
        Typeface::new(data, *index)
    }
}

/// How a piece is drawn round its character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disc {
    /// The painter's own piece: a shadow, a face with a rim, an inked ring.
    Painter,
    /// A flat face.
    Flat,
    /// A face with a broad edge in the ink's colour.
    Rimmed,
    /// A turned, shaded disc: concentric circles from dark to light.
    Shaded,
    /// No disc: the character alone on the board.
    Bare,
    /// A face with two inked rings.
    DoubleRing,
    /// A square tile with an inked border, as boards that put the pieces in the squares
    /// of a chequer draw them.
    Tile,
    /// A raised disc lit from the top left: a dark edge, a face brightening towards the
    /// light, a shadow below.
    Raised,
    /// A face with a thin inked ring at its edge.
    Outlined,
}

impl Disc {
    /// Every kind.
    pub const ALL: [Disc; 9] = [
        Disc::Painter,
        Disc::Flat,
        Disc::Rimmed,
        Disc::Shaded,
        Disc::Bare,
        Disc::DoubleRing,
        Disc::Tile,
        Disc::Raised,
        Disc::Outlined,
    ];
}

/// The colours of a board and its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// A light wooden board with grain, cream pieces, red and black ink.
    Wood,
    /// A flat yellow board.
    Yellow,
    /// White paper, black lines.
    Paper,
    /// A dark slate board with light lines.
    Slate,
    /// A pale blue web board.
    Web,
    /// A dark wooden board.
    DarkWood,
    /// Coloured discs: red and dark faces with light characters.
    Coloured,
    /// Black and white print: red pieces' characters hollow.
    PrintHollow,
    /// Black and white print: Black's pieces inverted, black discs with white characters.
    PrintInverse,
    /// Black and white print: red ink printed grey.
    PrintGrey,
    /// A red-orange board, cream pieces.
    Orange,
    /// A light wooden board with amber, saturated faces for both sides.
    Amber,
    /// A dark board with light lines, faces filled in each side's colour, the characters
    /// all dark or all light.
    Night,
    /// A dark board with light lines, dark faces, each side's rings and characters in its
    /// own colour.
    Neon,
    /// A light board, each side's face tinted towards its colour, ink in the sides' colours.
    Tinted,
    /// A dark board with light lines, faces in muted shades of each side's colour, light
    /// characters.
    Dusk,
}

impl Scheme {
    /// Every scheme.
    pub const ALL: [Scheme; 16] = [
        Scheme::Wood,
        Scheme::Yellow,
        Scheme::Paper,
        Scheme::Slate,
        Scheme::Web,
        Scheme::DarkWood,
        Scheme::Coloured,
        Scheme::PrintHollow,
        Scheme::PrintInverse,
        Scheme::PrintGrey,
        Scheme::Orange,
        Scheme::Amber,
        Scheme::Night,
        Scheme::Neon,
        Scheme::Tinted,
        Scheme::Dusk,
    ];

    /// Whether it is a black-and-white print's.
    pub fn print(self) -> bool {
        matches!(
            self,
            Scheme::PrintHollow | Scheme::PrintInverse | Scheme::PrintGrey
        )
    }
}

/// A look: font, disc and colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// A name of [`FONT_FILES`].
    pub font: &'static str,
    /// The discs.
    pub disc: Disc,
    /// The colours.
    pub scheme: Scheme,
}

/// Styles kept for validation: no part of them is drawn in training. The first is the
/// app's own look (its font, the painter's discs, a wooden board); the third shares its
/// font and disc with the second, so holding it out costs training only a dark scheme.
pub const HELD_OUT: [Style; 3] = [
    Style {
        font: "chuhe-kai",
        disc: Disc::Painter,
        scheme: Scheme::Wood,
    },
    Style {
        font: "wqy-microhei",
        disc: Disc::Rimmed,
        scheme: Scheme::Web,
    },
    Style {
        font: "wqy-microhei",
        disc: Disc::Rimmed,
        scheme: Scheme::Dusk,
    },
];

/// Whether any part of `style` belongs to a held-out style.
pub fn touches_held_out(style: &Style) -> bool {
    HELD_OUT
        .iter()
        .any(|h| h.font == style.font || h.disc == style.disc || h.scheme == style.scheme)
}

/// A random training style: no part of it held out.
pub fn training_style(fonts: &Fonts, rng: &mut Rng) -> Style {
    let held_fonts: Vec<&str> = HELD_OUT.iter().map(|h| h.font).collect();
    let names: Vec<&'static str> = fonts
        .names()
        .into_iter()
        .filter(|n| !held_fonts.contains(n))
        .collect();
    let discs: Vec<Disc> = Disc::ALL
        .into_iter()
        .filter(|d| HELD_OUT.iter().all(|h| h.disc != *d))
        .collect();
    let schemes: Vec<Scheme> = Scheme::ALL
        .into_iter()
        .filter(|s| HELD_OUT.iter().all(|h| h.scheme != *s))
        .collect();
    Style {
        // With no font but held-out ones present, the app's font stands in.
        font: pick(rng, &names).copied().unwrap_or(FONT_FILES[0].0),
        disc: *pick(rng, &discs).unwrap_or(&Disc::Flat),
        scheme: *pick(rng, &schemes).unwrap_or(&Scheme::Paper),
    }
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        items.get(rng.below(items.len() as u64) as usize)
    }
}

fn uniform(rng: &mut Rng, low: f64, high: f64) -> f64 {
    low + (high - low) * rng.unit()
}

fn chance(rng: &mut Rng, p: f64) -> bool {
    rng.unit() < p
}

/// A normal deviate (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(1e-12);
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// How a drawn board is spoilt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Augment {
    /// Turned this many degrees about the picture's middle.
    pub rotation: f64,
    /// Seen this many degrees off square (the camera's tilt), about both axes.
    pub tilt: [f64; 2],
    /// Gaussian blur, its sigma in pixels (0: none).
    pub blur: f64,
    /// Gaussian noise, its deviation in grey levels (0: none).
    pub noise: f64,
    /// JPEG re-encoding at this quality.
    pub jpeg: Option<u8>,
    /// Each channel's gain.
    pub gain: [f64; 3],
    /// Each channel's offset.
    pub offset: [f64; 3],
    /// Gamma applied to all channels.
    pub gamma: f64,
    /// Turned grey (a black-and-white scan or print).
    pub grey: bool,
}

impl Augment {
    /// Nothing spoilt.
    pub const NONE: Augment = Augment {
        rotation: 0.0,
        tilt: [0.0, 0.0],
        blur: 0.0,
        noise: 0.0,
        jpeg: None,
        gain: [1.0; 3],
        offset: [0.0; 3],
        gamma: 1.0,
        grey: false,
    };

    /// A random mix at the strengths the reader is meant to stand: ±2° of rotation, up to
    /// 10° of tilt, blur, noise, JPEG at quality 30–95, colour shifts.
    pub fn random(rng: &mut Rng) -> Augment {
        let mut a = Augment::NONE;
        if chance(rng, 0.4) {
            a.rotation = uniform(rng, -2.0, 2.0);
        }
        if chance(rng, 0.25) {
            a.tilt = [uniform(rng, -10.0, 10.0), uniform(rng, -10.0, 10.0)];
        }
        if chance(rng, 0.35) {
            a.blur = uniform(rng, 0.3, 1.4);
        }
        if chance(rng, 0.35) {
            a.noise = uniform(rng, 1.0, 14.0);
        }
        if chance(rng, 0.45) {
            a.jpeg = Some(uniform(rng, 30.0, 95.0) as u8);
        }
        if chance(rng, 0.6) {
            let common = uniform(rng, 0.75, 1.2);
            a.gain = [0; 3].map(|_| common * uniform(rng, 0.88, 1.12));
            a.offset = [0; 3].map(|_| uniform(rng, -25.0, 25.0));
            a.gamma = uniform(rng, 0.7, 1.4);
        }
        a.grey = chance(rng, 0.12);
        a
    }
}

/// A drawn board: the picture, where its points are, and what stands on them.
pub struct Drawn {
    /// The picture.
    pub image: RgbImage,
    /// Grid coordinates (column from the picture's left, row from its top) to pixels.
    pub map: Homography,
    /// The position drawn, the right way round.
    pub board: Board,
    /// Whether it was drawn from Black's side.
    pub flipped: bool,
    /// Whether the pieces stand in the squares of a chequer.
    pub chequer: bool,
    /// Whether the pieces are figures ([`Symbols`]) rather than characters or letters.
    pub figures: bool,
}

impl Drawn {
    /// What stands on the point in column `x`, row `y` of the picture.
    pub fn piece_at(&self, x: u8, y: u8) -> Option<Piece> {
        self.board.get(square_at(self.flipped, x, y)?)
    }
}

/// The square in column `x`, row `y` of a picture of the board, turned round or not.
pub fn square_at(flipped: bool, x: u8, y: u8) -> Option<Square> {
    if x > 8 || y > 9 {
        return None;
    }
    if flipped {
        Square::from_coords(8 - x, y)
    } else {
        Square::from_coords(x, 9 - y)
    }
}

/// A random arrangement: each side's general in its palace, and some of its other pieces on
/// points they can reach (advisors in the palace, elephants on their seven points, pawns
/// on their files or over the river); sometimes the start with pieces taken off.
pub fn random_board(rng: &mut Rng) -> Board {
    if chance(rng, 0.15) {
        let mut board = Board::startpos();
        let keep = uniform(rng, 0.4, 1.0);
        let squares: Vec<Square> = board.pieces().map(|(s, _)| s).collect();
        for s in squares {
            let general = board.get(s).is_some_and(|p| p.kind == PieceKind::General);
            if !general && !chance(rng, keep) {
                board.set(s, None);
            }
        }
        return board;
    }
    let mut board = Board::empty();
    let fullness = uniform(rng, 0.1, 1.0);
    for color in [Color::Red, Color::Black] {
        for (kind, most) in [
            (PieceKind::General, 1),
            (PieceKind::Advisor, 2),
            (PieceKind::Elephant, 2),
            (PieceKind::Horse, 2),
            (PieceKind::Rook, 2),
            (PieceKind::Cannon, 2),
            (PieceKind::Pawn, 5),
        ] {
            let piece = Piece::new(color, kind);
            for _ in 0..most {
                if kind != PieceKind::General && !chance(rng, fullness) {
                    continue;
                }
                let places: Vec<Square> = Square::ALL
                    .into_iter()
                    .filter(|&s| board.get(s).is_none() && may_stand(piece, s))
                    .collect();
                if let Some(&s) = pick(rng, &places) {
                    board.set(s, Some(piece));
                }
            }
        }
    }
    board
}

/// Whether `piece` can ever stand on `square`.
fn may_stand(piece: Piece, square: Square) -> bool {
    let (file, rank) = (
        square.file().index(),
        square.rank().relative_to(piece.color),
    );
    match piece.kind {
        PieceKind::General => square.in_palace(piece.color),
        PieceKind::Advisor => square.in_palace(piece.color) && ((file == 4) == (rank == 1)),
        PieceKind::Elephant => {
            rank <= 4 && rank % 2 == 0 && file % 2 == 0 && (file / 2 + rank / 2) % 2 == 1
        }
        PieceKind::Pawn => rank >= 5 || (rank >= 3 && file % 2 == 0),
        _ => true,
    }
}

/// The character a piece is written with in this board's set of characters.
#[derive(Clone, Copy)]
struct Characters {
    traditional: bool,
    /// Western letters instead of characters (K A E H R C P and their variants), Black's
    /// in small letters when the flag is set.
    letters: Option<bool>,
    /// Which variant of each (colour, kind) to write, picked per board.
    choice: [[u8; 7]; 2],
}

impl Characters {
    fn random(rng: &mut Rng) -> Characters {
        let mut choice = [[0; 7]; 2];
        for side in &mut choice {
            for c in side.iter_mut() {
                *c = rng.below(4) as u8;
            }
        }
        Characters {
            traditional: chance(rng, 0.35),
            letters: chance(rng, 0.15).then(|| chance(rng, 0.3)),
            choice,
        }
    }

    /// The variants a piece is written with on real boards.
    fn variants(&self, piece: Piece) -> &'static [char] {
        use PieceKind::*;
        match (piece.color, piece.kind, self.traditional) {
            (Color::Red, General, false) => &['帅'],
            (Color::Red, General, true) => &['帥'],
            (Color::Black, General, false) => &['将'],
            (Color::Black, General, true) => &['將'],
            (Color::Red, Advisor, _) => &['仕', '仕', '士'],
            (Color::Black, Advisor, _) => &['士'],
            (Color::Red, Elephant, _) => &['相'],
            (Color::Black, Elephant, _) => &['象'],
            (Color::Red, Horse, false) => &['马', '马', '傌'],
            (Color::Red, Horse, true) => &['傌', '馬'],
            (Color::Black, Horse, false) => &['马'],
            (Color::Black, Horse, true) => &['馬'],
            (Color::Red, Rook, false) => &['车', '车', '俥'],
            (Color::Red, Rook, true) => &['俥', '車'],
            (Color::Black, Rook, false) => &['车'],
            (Color::Black, Rook, true) => &['車'],
            (Color::Red, Cannon, _) => &['炮', '炮', '砲'],
            (Color::Black, Cannon, false) => &['炮', '炮', '砲', '包'],
            (Color::Black, Cannon, true) => &['砲', '砲', '包'],
            (Color::Red, Pawn, _) => &['兵'],
            (Color::Black, Pawn, _) => &['卒'],
        }
    }

    /// What `piece` is written with in a font that draws the texts `covers` accepts.
    fn of(&self, piece: Piece, covers: impl Fn(&str) -> bool) -> String {
        if let Some(small) = self.letters {
            use PieceKind::*;
            let letters: &[char] = match piece.kind {
                General => &['K'],
                Advisor => &['A', 'A', 'G'],
                Elephant => &['E', 'B'],
                Horse => &['H', 'N'],
                Rook => &['R'],
                Cannon => &['C'],
                Pawn => &['P', 'P', 'S'],
            };
            let pick = self.choice[0][piece.kind as usize] as usize % letters.len();
            let letter = letters[pick];
            let letter = if small && piece.color == Color::Black {
                letter.to_ascii_lowercase()
            } else {
                letter
            };
            if covers(&letter.to_string()) {
                return letter.to_string();
            }
        }
        let variants = self.variants(piece);
        let first = self.choice[piece.color as usize][piece.kind as usize] as usize;
        // A font with only traditional characters (or only simplified) writes the other
        // set rather than leave a piece blank.
        let other = Characters {
            traditional: !self.traditional,
            ..*self
        };
        (0..variants.len())
            .map(|i| variants[(first + i) % variants.len()])
            .chain(other.variants(piece).iter().copied())
            .find(|c| covers(&c.to_string()))
            .unwrap_or(if self.traditional {
                piece.hanzi_traditional()
            } else {
                piece.hanzi()
            })
            .to_string()
    }
}

/// The colours of one board, picked from its scheme with some jitter.
struct Palette {
    board: [u8; 3],
    lines: Rgba,
    river: Rgba,
    labels: Rgba,
    /// Red's and Black's faces.
    face: [Rgba; 2],
    rim: Rgba,
    shadow: Option<Rgba>,
    /// Red's and Black's ink.
    ink: [Rgba; 2],
    grain: bool,
    hollow_red: bool,
}

fn jitter(rng: &mut Rng, c: [u8; 3], by: f64) -> [u8; 3] {
    c.map(|v| (f64::from(v) + uniform(rng, -by, by)).clamp(0.0, 255.0) as u8)
}

fn rgba([r, g, b]: [u8; 3]) -> Rgba {
    [r, g, b, 255]
}

/// One of `bases` (a repeated one is likelier), each channel moved by up to `by`.
fn shade_of(rng: &mut Rng, bases: &[[u8; 3]], by: f64) -> [u8; 3] {
    let base = *pick(rng, bases).unwrap_or(&bases[0]);
    jitter(rng, base, by)
}

/// Red's colour: mostly red, sometimes orange, crimson or pink.
fn red_side(rng: &mut Rng) -> [u8; 3] {
    const BASES: [[u8; 3]; 6] = [
        [200, 25, 25],
        [200, 25, 25],
        [200, 25, 25],
        [225, 95, 30],
        [170, 20, 60],
        [220, 80, 125],
    ];
    shade_of(rng, &BASES, 25.0)
}

/// Black's ink on a light face: mostly black, sometimes dark green, navy, blue or dark grey.
fn black_side(rng: &mut Rng) -> [u8; 3] {
    const BASES: [[u8; 3]; 8] = [
        [20, 20, 20],
        [20, 20, 20],
        [20, 20, 20],
        [20, 20, 20],
        [20, 85, 40],
        [25, 35, 105],
        [30, 70, 165],
        [70, 70, 75],
    ];
    shade_of(rng, &BASES, 18.0)
}

/// Black's colour where it must stand out on a dark board: green, blue, light grey.
fn black_side_bright(rng: &mut Rng) -> [u8; 3] {
    const BASES: [[u8; 3]; 5] = [
        [70, 185, 95],
        [40, 150, 70],
        [70, 120, 215],
        [60, 185, 200],
        [200, 200, 205],
    ];
    shade_of(rng, &BASES, 25.0)
}

/// A dark board's colour: navy, dark blue, charcoal, dark green or dark violet.
fn dark_board(rng: &mut Rng) -> [u8; 3] {
    const BASES: [[u8; 3]; 5] = [
        [42, 46, 80],
        [32, 55, 85],
        [40, 40, 45],
        [25, 55, 45],
        [50, 40, 70],
    ];
    shade_of(rng, &BASES, 15.0)
}

fn palette(scheme: Scheme, rng: &mut Rng) -> Palette {
    let red = rgba(red_side(rng));
    let black = rgba(black_side(rng));
    let cream = rgba(jitter(rng, [245, 230, 200], 12.0));
    let shadow = chance(rng, 0.5).then_some([0, 0, 0, uniform(rng, 40.0, 110.0) as u8]);
    let base = Palette {
        board: [255, 255, 255],
        lines: black,
        river: black,
        labels: black,
        face: [cream, cream],
        rim: rgba(jitter(rng, [150, 100, 50], 30.0)),
        shadow,
        ink: [red, black],
        grain: false,
        hollow_red: false,
    };
    let white = rgba(jitter(rng, [252, 252, 250], 4.0));
    match scheme {
        Scheme::Wood => {
            let board = jitter(rng, [225, 185, 130], 18.0);
            Palette {
                board,
                lines: rgba(jitter(rng, [70, 40, 20], 25.0)),
                river: rgba(jitter(rng, [70, 40, 20], 25.0)),
                grain: true,
                ..base
            }
        }
        Scheme::Yellow => Palette {
            board: jitter(rng, [240, 210, 140], 15.0),
            ..base
        },
        Scheme::Paper => Palette {
            board: jitter(rng, [250, 250, 248], 5.0),
            face: [white, white],
            ..base
        },
        Scheme::Slate => {
            let light = rgba(jitter(rng, [210, 220, 210], 20.0));
            Palette {
                board: jitter(rng, [60, 80, 75], 20.0),
                lines: light,
                river: light,
                labels: light,
                face: [rgba(jitter(rng, [235, 225, 205], 15.0)); 2],
                ..base
            }
        }
        Scheme::Web => Palette {
            board: jitter(rng, [205, 222, 236], 12.0),
            lines: rgba(jitter(rng, [60, 80, 115], 20.0)),
            river: rgba(jitter(rng, [60, 80, 115], 20.0)),
            face: [white, white],
            ..base
        },
        Scheme::DarkWood => Palette {
            board: jitter(rng, [150, 95, 55], 20.0),
            lines: rgba(jitter(rng, [30, 15, 5], 10.0)),
            river: rgba(jitter(rng, [40, 20, 10], 10.0)),
            face: [rgba(jitter(rng, [235, 205, 150], 15.0)); 2],
            grain: true,
            ..base
        },
        Scheme::Coloured => {
            let light = rgba(jitter(rng, [250, 240, 210], 10.0));
            Palette {
                board: jitter(rng, [230, 200, 150], 25.0),
                face: [
                    rgba(jitter(rng, [190, 30, 30], 30.0)),
                    if chance(rng, 0.4) {
                        rgba(jitter(rng, [30, 40, 110], 25.0))
                    } else {
                        rgba(jitter(rng, [40, 45, 50], 25.0))
                    },
                ],
                ink: [light, light],
                rim: rgba(jitter(rng, [240, 220, 170], 20.0)),
                ..base
            }
        }
        Scheme::Orange => Palette {
            board: jitter(rng, [215, 95, 45], 25.0),
            lines: rgba(jitter(rng, [40, 20, 10], 20.0)),
            river: rgba(jitter(rng, [40, 20, 10], 20.0)),
            labels: rgba(jitter(rng, [40, 20, 10], 20.0)),
            face: [rgba(jitter(rng, [250, 235, 190], 12.0)); 2],
            ..base
        },
        Scheme::Amber => Palette {
            board: jitter(rng, [240, 215, 165], 15.0),
            lines: rgba(jitter(rng, [90, 60, 30], 30.0)),
            river: rgba(jitter(rng, [90, 60, 30], 30.0)),
            face: [rgba(jitter(rng, [240, 185, 95], 20.0)); 2],
            rim: rgba(jitter(rng, [170, 100, 40], 25.0)),
            grain: chance(rng, 0.5),
            ..base
        },
        Scheme::Night | Scheme::Neon | Scheme::Dusk => {
            let board = dark_board(rng);
            let light = rgba(jitter(rng, [225, 228, 235], 25.0));
            let lines = Palette {
                board,
                lines: light,
                river: light,
                labels: light,
                shadow: None,
                ..base
            };
            match scheme {
                Scheme::Night => {
                    let dark = rgba(jitter(rng, [20, 20, 25], 15.0));
                    let bright = rgba(jitter(rng, [245, 245, 240], 10.0));
                    let ink = if chance(rng, 0.6) { dark } else { bright };
                    let face = [rgba(red_side(rng)), rgba(black_side_bright(rng))];
                    // Light characters on a light face, or dark on a dark one, could not be
                    // read: those take the other ink.
                    let ink_on = |face: Rgba| {
                        let luma = 0.299 * f64::from(face[0])
                            + 0.587 * f64::from(face[1])
                            + 0.114 * f64::from(face[2]);
                        if luma > 150.0 {
                            dark
                        } else if luma < 90.0 {
                            bright
                        } else {
                            ink
                        }
                    };
                    Palette {
                        face,
                        ink: face.map(ink_on),
                        rim: if chance(rng, 0.5) { light } else { ink },
                        ..lines
                    }
                }
                Scheme::Neon => {
                    let face = if chance(rng, 0.5) {
                        board.map(|v| (f64::from(v) * uniform(rng, 0.5, 1.0)) as u8)
                    } else {
                        jitter(rng, [25, 25, 30], 15.0)
                    };
                    let red = red_side(rng).map(|v| v.saturating_add(40));
                    Palette {
                        face: [rgba(face); 2],
                        ink: [rgba(red), rgba(black_side_bright(rng))],
                        rim: light,
                        ..lines
                    }
                }
                _ => {
                    let ink = rgba(jitter(rng, [245, 235, 210], 12.0));
                    let dim = |c: [u8; 3], k: f64| c.map(|v| (f64::from(v) * k) as u8);
                    Palette {
                        face: [
                            rgba(dim(red_side(rng), 0.7)),
                            rgba(dim(black_side_bright(rng), 0.6)),
                        ],
                        ink: [ink, ink],
                        rim: ink,
                        ..lines
                    }
                }
            }
        }
        Scheme::Tinted => {
            let tint = |c: [u8; 3], k: f64| c.map(|v| (255.0 - (255.0 - f64::from(v)) * k) as u8);
            let red_ink = red_side(rng);
            let black_ink = if chance(rng, 0.7) {
                black_side(rng)
            } else {
                black_side_bright(rng).map(|v| (f64::from(v) * 0.7) as u8)
            };
            let k = uniform(rng, 0.12, 0.35);
            Palette {
                board: jitter(rng, [238, 232, 220], 15.0),
                face: [rgba(tint(red_ink, k)), rgba(tint(black_ink, k))],
                ink: [rgba(red_ink), rgba(black_ink)],
                ..base
            }
        }
        Scheme::PrintHollow | Scheme::PrintInverse | Scheme::PrintGrey => {
            let ink = rgba(jitter(rng, [15, 15, 15], 15.0));
            let paper = jitter(rng, [250, 250, 248], 6.0);
            let grey = uniform(rng, 90.0, 160.0) as u8;
            let (face, ink_colours) = match scheme {
                Scheme::PrintInverse => ([rgba(paper), ink], [ink, rgba(paper)]),
                Scheme::PrintGrey => ([rgba(paper); 2], [[grey, grey, grey, 255], ink]),
                _ => ([rgba(paper); 2], [ink, ink]),
            };
            Palette {
                board: paper,
                lines: ink,
                river: ink,
                labels: ink,
                face,
                rim: ink,
                shadow: None,
                ink: ink_colours,
                grain: false,
                hollow_red: scheme == Scheme::PrintHollow,
            }
        }
    }
}

/// Random proportions round the painter's own, a piece's character always inside its disc.
fn proportions(rng: &mut Rng) -> Proportions {
    let mut p = Proportions::WOOD;
    p.line_width = uniform(rng, 0.008, 0.045) as f32;
    p.frame_width = uniform(rng, 0.015, 0.08) as f32;
    p.piece_radius = uniform(rng, 0.37, 0.49) as f32;
    p.piece_rim_width = uniform(rng, 0.0, 0.06) as f32;
    p.piece_ring_radius = p.piece_radius * uniform(rng, 0.75, 0.9) as f32;
    p.piece_text = p.piece_radius * uniform(rng, 0.9, 1.5) as f32;
    p.river_text = uniform(rng, 0.35, 0.7) as f32;
    p.file_number_text = uniform(rng, 0.2, 0.35) as f32;
    p.file_number_offset = uniform(rng, 0.6, 0.9) as f32;
    p.mark_gap = uniform(rng, 0.04, 0.1) as f32;
    p.mark_arm = uniform(rng, 0.1, 0.25) as f32;
    p
}

/// A 3×3 matrix product.
fn multiply(a: &[f64; 9], b: &[f64; 9]) -> [f64; 9] {
    let mut m = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            m[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
        }
    }
    m
}

/// The projective map turning a picture `width` × `height` about its middle by
/// `rotation` degrees and tilting it by `tilt` degrees, scaled to stay inside.
fn tilt_map(width: f64, height: f64, rotation: f64, tilt: [f64; 2]) -> [f64; 9] {
    let (cx, cy) = (width / 2.0, height / 2.0);
    let (s, c) = rotation.to_radians().sin_cos();
    let size = width.max(height);
    // A plane tilted by t seen from about 1.5 picture sizes away.
    let px = tilt[0].to_radians().tan() / (1.5 * size);
    let py = tilt[1].to_radians().tan() / (1.5 * size);
    let to_centre = [1.0, 0.0, -cx, 0.0, 1.0, -cy, 0.0, 0.0, 1.0];
    let turn = [c, -s, 0.0, s, c, 0.0, px, py, 1.0];
    let shrink = 0.94;
    let back = [shrink, 0.0, cx, 0.0, shrink, cy, 0.0, 0.0, 1.0];
    multiply(&back, &multiply(&turn, &to_centre))
}

/// Draws `board` in `style` with the details picked from `rng`, `spacing` pixels between
/// points, spoilt as `augment` says; the pieces always characters or letters.
pub fn draw_board(
    fonts: &Fonts,
    style: &Style,
    board: &Board,
    spacing: f64,
    augment: &Augment,
    rng: &mut Rng,
) -> Drawn {
    draw_board_with(fonts, style, board, spacing, augment, 0.0, rng)
}

/// The share of boards without letters that `vision_train --figures` draws with figures
/// ([`draw_board_with`]); boards with letters take figures eight times as often.
pub const FIGURE_SHARE: f64 = 0.05;

/// [`draw_board`], with figures ([`Symbols`]) instead of characters on a share `figures` of
/// the boards that would have had characters, and on eight times that share (at most all)
/// of those that would have had letters. At 0 nothing more is drawn from `rng`, so the
/// boards are those [`draw_board`] has always drawn.
pub fn draw_board_with(
    fonts: &Fonts,
    style: &Style,
    board: &Board,
    spacing: f64,
    augment: &Augment,
    figures: f64,
    rng: &mut Rng,
) -> Drawn {
    #[allow(clippy::redundant_closure)] // The closure shortens the app font's lifetime.
    let typeface = fonts
        .typeface(style.font)
        .unwrap_or_else(|| Typeface::app());
    let s = spacing as f32;
    let flipped = chance(rng, 0.2);
    let chequer = chance(rng, 0.08);
    let colours = palette(style.scheme, rng);
    let mut p = proportions(rng);
    let labels = if chequer {
        None
    } else {
        *pick(
            rng,
            &[
                None,
                Some(Coordinates::Chinese),
                Some(Coordinates::Chinese),
                Some(Coordinates::Iccs),
            ],
        )
        .unwrap_or(&None)
    };
    let board_style = BoardStyle {
        flipped,
        coordinates: labels,
        rank_digits: chance(rng, 0.5),
        river: !chequer && chance(rng, 0.8),
        traditional: chance(rng, 0.3),
    };
    // Margins round the grid, in spacings: room for the labels when there are any.
    let least = if labels.is_some() {
        p.file_number_offset + p.file_number_text * 0.8
    } else {
        0.5
    };
    let side = uniform(rng, f64::from(least.max(0.5)), 1.7) as f32;
    let end = uniform(rng, f64::from(least.max(0.5)), 1.4) as f32;
    p.frame_gap = uniform(rng, 0.06, f64::from(end.min(side) - 0.05).min(0.6)) as f32;
    // Clutter round the board, in spacings.
    let border = [0; 4].map(|_| {
        if chance(rng, 0.5) {
            uniform(rng, 0.0, 2.0) as f32
        } else {
            0.0
        }
    });
    let width = ((8.0 + 2.0 * side + border[0] + border[2]) * s).ceil() as u32;
    let height = ((9.0 + 2.0 * end + border[1] + border[3]) * s).ceil() as u32;
    let origin = Point::new((border[0] + side) * s, (border[1] + end) * s);
    let placement = Placement { origin, spacing: s };
    let backgrounds = [
        [255, 255, 255],
        [235, 235, 235],
        [40, 40, 45],
        [200, 200, 190],
    ];
    let background = *pick(rng, &backgrounds).unwrap_or(&[255; 3]);
    let background = jitter(rng, background, 20.0);
    let mut raster = Raster::with_typeface(width, height, background, typeface.clone());
    raster.snap = chance(rng, 0.5);
    clutter(&mut raster, rng, &typeface);
    let transform = (augment.rotation != 0.0 || augment.tilt != [0.0, 0.0]).then(|| {
        tilt_map(
            f64::from(width),
            f64::from(height),
            augment.rotation,
            augment.tilt,
        )
    });
    raster.set_transform(transform);

    // The board's face, its grain, then its lines and inscriptions.
    let mut elements = diagram::board(&board_style, &p);
    elements[0] = Element::Panel {
        min: Spot::new(-side, -end),
        max: Spot::new(8.0 + side, 9.0 + end),
        corner_radius: if chance(rng, 0.5) {
            0.0
        } else {
            uniform(rng, 0.0, 0.3) as f32
        },
        ink: Ink::Board,
    };
    let board_colour = rgba(colours.board);
    draw(&mut raster, placement, &elements[..1], |_| {
        Some(board_colour)
    });
    if colours.grain {
        grain(&mut raster, placement, side, end, colours.board, rng);
    }
    let mut rest: Vec<Element> = elements[1..].to_vec();
    if chance(rng, 0.2) {
        // No frame.
        rest.remove(0);
    }
    if chance(rng, 0.3) {
        // No corner marks.
        rest.retain(|e| !matches!(e, Element::Line { points, .. } if points.len() == 3));
    }
    if chequer {
        rest.retain(|e| !matches!(e, Element::Line { crisp: true, .. }));
        let dark = jitter(
            rng,
            colours.board.map(|v| (f64::from(v) * 0.75) as u8),
            10.0,
        );
        let cells: Vec<Element> = (0..9)
            .flat_map(|x| (0..10).map(move |y| (x, y)))
            .filter(|(x, y)| (x + y) % 2 == 1)
            .map(|(x, y)| Element::Panel {
                min: Spot::new(x as f32 - 0.5, y as f32 - 0.5),
                max: Spot::new(x as f32 + 0.5, y as f32 + 0.5),
                corner_radius: 0.0,
                ink: Ink::Board,
            })
            .collect();
        draw(&mut raster, placement, &cells, |_| Some(rgba(dark)));
    }
    draw(&mut raster, placement, &rest, |ink| match ink {
        Ink::RiverText => Some(colours.river),
        Ink::FileNumbers => Some(colours.labels),
        _ => Some(colours.lines),
    });
    if chance(rng, 0.15) {
        let from = Square::ALL[rng.below(90) as usize];
        let to = Square::ALL[rng.below(90) as usize];
        let mut marks = diagram::point_frame(flipped, from);
        marks.extend(diagram::point_frame(flipped, to));
        if chance(rng, 0.5) {
            marks.extend(diagram::arrow(flipped, from, to));
        }
        let colour = rgba(jitter(rng, [40, 140, 220], 60.0));
        draw(&mut raster, placement, &marks, |_| Some(colour));
    }

    // The pieces.
    let characters = Characters::random(rng);
    // Figures instead of characters on some boards, many of them boards that would have
    // had letters; never on a held-out style, whose boards are drawn as they always were
    // (no more draws from `rng`), so the figures measured on them stay comparable.
    let symbols = if figures <= 0.0 || HELD_OUT.contains(style) {
        None
    } else {
        let share = if characters.letters.is_some() {
            (8.0 * figures).min(1.0)
        } else {
            figures
        };
        chance(rng, share).then(|| Symbols::random(rng))
    };
    let facing_owner = chance(rng, 0.08);
    // Sometimes heavier strokes than the font's: the glyphs' outlines stroked as well.
    let bold = chance(rng, 0.25).then(|| uniform(rng, 0.015, 0.05) as f32);
    for (square, piece) in board.pieces() {
        let centre = diagram::spot(flipped, square);
        let side_index = piece.color as usize;
        let hollow = colours.hollow_red && piece.color == Color::Red;
        let turned = facing_owner && (centre.y < 4.5);
        let glyph = match &symbols {
            Some(symbols) => Glyph::Figure(symbols.elements(
                piece.kind,
                piece.color,
                centre,
                p.piece_radius,
                turned,
                hollow.then_some(Fill::Outline),
            )),
            None => Glyph::Text(characters.of(piece, |text| typeface.covers(text))),
        };
        raster.hollow_text = hollow.then(|| uniform(rng, 0.02, 0.05) as f32);
        raster.turned_text = turned;
        draw_piece(
            &mut raster,
            placement,
            centre,
            &glyph,
            side_index,
            style.disc,
            &p,
            &colours,
            bold,
        );
    }
    raster.hollow_text = None;
    raster.turned_text = false;

    let mut image = raster.image;
    // Blur beyond a twentieth of a spacing would wipe a small board's characters out.
    let augment = Augment {
        blur: augment.blur.min(spacing / 20.0),
        ..*augment
    };
    spoil(&mut image, &augment, rng);
    let grid = [
        f64::from(s),
        0.0,
        f64::from(origin.x),
        0.0,
        f64::from(s),
        f64::from(origin.y),
        0.0,
        0.0,
        1.0,
    ];
    let map = match transform {
        Some(t) => multiply(&t, &grid),
        None => grid,
    };
    Drawn {
        image,
        map: Homography(map),
        board: *board,
        flipped,
        chequer,
        figures: symbols.is_some(),
    }
}

/// What a piece is marked with: a character (or letter), or a figure.
enum Glyph {
    Text(String),
    /// Drawn in the side's ink and face colours.
    Figure(Vec<Element>),
}

/// One piece: its disc as `disc` says and its character or figure.
#[allow(clippy::too_many_arguments)]
fn draw_piece(
    raster: &mut Raster,
    placement: Placement,
    centre: Spot,
    glyph: &Glyph,
    side: usize,
    disc: Disc,
    p: &Proportions,
    colours: &Palette,
    bold: Option<f32>,
) {
    let (face, ink) = (colours.face[side], colours.ink[side]);
    let r = p.piece_radius;
    let disc_element = |radius: f32, outline: Option<(f32, Ink)>, fill: bool| Element::Disc {
        centre,
        radius,
        fill: fill.then_some(Ink::PieceFace(Color::Red)),
        outline,
    };
    let mut paint = |elements: &[Element], colour: Rgba| {
        draw(raster, placement, elements, |_| Some(colour));
    };
    if let (Some(shadow), Disc::Painter | Disc::Shaded | Disc::Raised | Disc::Tile) =
        (colours.shadow, disc)
    {
        let [dx, dy] = p.piece_shadow_offset;
        paint(
            &[disc_element(r, None, true)].map(|e| shift(e, dx, dy)),
            shadow,
        );
    }
    match disc {
        Disc::Painter => {
            paint(&[disc_element(r, None, true)], face);
            if p.piece_rim_width > 0.0 {
                paint(
                    &[disc_element(
                        r,
                        Some((p.piece_rim_width, Ink::PieceRim)),
                        false,
                    )],
                    colours.rim,
                );
            }
            paint(
                &[disc_element(
                    p.piece_ring_radius,
                    Some((p.line_width.max(0.02), Ink::PieceRim)),
                    false,
                )],
                ink,
            );
        }
        Disc::Flat => paint(&[disc_element(r, None, true)], face),
        Disc::Outlined => {
            paint(&[disc_element(r, None, true)], face);
            let width = p.piece_rim_width.clamp(0.015, 0.05);
            paint(
                &[disc_element(r - width, Some((width, Ink::PieceRim)), false)],
                ink,
            );
        }
        Disc::Rimmed => {
            paint(&[disc_element(r, None, true)], face);
            let width = (r * 0.12).max(0.03);
            paint(
                &[disc_element(r - width, Some((width, Ink::PieceRim)), false)],
                ink,
            );
        }
        Disc::Shaded => {
            let steps = 6;
            for i in 0..steps {
                let t = i as f32 / (steps - 1) as f32;
                let radius = r * (1.0 - 0.35 * t);
                let light = 0.7 + 0.3 * t;
                let colour = [
                    (f32::from(face[0]) * light) as u8,
                    (f32::from(face[1]) * light) as u8,
                    (f32::from(face[2]) * light) as u8,
                    255,
                ];
                paint(&[disc_element(radius, None, true)], colour);
            }
        }
        Disc::Bare => {}
        Disc::Tile => {
            let tile = |half: f32| Element::Panel {
                min: centre.offset(-half, -half),
                max: centre.offset(half, half),
                corner_radius: half * 0.12,
                ink: Ink::PieceFace(Color::Red),
            };
            let border = (r * 0.1).max(0.03);
            paint(&[tile(r)], ink);
            paint(&[tile(r - border)], face);
        }
        Disc::Raised => {
            // The edge a little darker than the face, then the face in steps that move
            // towards the light and brighten.
            let edge = face.map(|v| (f32::from(v) * 0.72) as u8);
            paint(
                &[disc_element(r, None, true)],
                [edge[0], edge[1], edge[2], 255],
            );
            let steps = 5;
            for i in 0..steps {
                let t = i as f32 / (steps - 1) as f32;
                let radius = r * (0.9 - 0.3 * t);
                let light = 0.88 + 0.2 * t;
                let colour = face.map(|v| (f32::from(v) * light).min(255.0) as u8);
                paint(
                    &[shift(
                        disc_element(radius, None, true),
                        -0.06 * r * t,
                        -0.06 * r * t,
                    )],
                    [colour[0], colour[1], colour[2], 255],
                );
            }
        }
        Disc::DoubleRing => {
            paint(&[disc_element(r, None, true)], face);
            paint(
                &[disc_element(r * 0.93, Some((0.025, Ink::PieceRim)), false)],
                ink,
            );
            paint(
                &[disc_element(r * 0.8, Some((0.015, Ink::PieceRim)), false)],
                ink,
            );
        }
    }
    let text = match glyph {
        Glyph::Text(text) => text,
        Glyph::Figure(elements) => {
            draw(raster, placement, elements, |i| match i {
                Ink::PieceFace(_) => Some(face),
                _ => Some(ink),
            });
            return;
        }
    };
    let character = [Element::Text {
        centre,
        text: text.to_string(),
        size: p.piece_text,
        ink: Ink::PieceInk(Color::Red),
    }];
    paint(&character, ink);
    if let (Some(ems), None) = (bold, raster.hollow_text) {
        raster.hollow_text = Some(ems);
        draw(raster, placement, &character, |_| Some(ink));
        raster.hollow_text = None;
    }
}

fn shift(element: Element, dx: f32, dy: f32) -> Element {
    match element {
        Element::Disc {
            centre,
            radius,
            fill,
            outline,
        } => Element::Disc {
            centre: centre.offset(dx, dy),
            radius,
            fill,
            outline,
        },
        other => other,
    }
}

/// Wood grain: faint wavy streaks of a darker tone across the board's face.
fn grain(
    raster: &mut Raster,
    placement: Placement,
    side: f32,
    end: f32,
    board: [u8; 3],
    rng: &mut Rng,
) {
    let dark = board.map(|v| (f64::from(v) * uniform(rng, 0.6, 0.85)) as u8);
    let streaks = 20 + rng.below(40) as usize;
    let horizontal = chance(rng, 0.5);
    for _ in 0..streaks {
        let at = uniform(rng, 0.0, 1.0) as f32;
        let wave = uniform(rng, 0.05, 0.4) as f32;
        let phase = uniform(rng, 0.0, 6.3) as f32;
        let points: Vec<Point> = (0..=40)
            .map(|i| {
                let t = i as f32 / 40.0;
                let (u, v) = if horizontal {
                    (
                        -side + t * (8.0 + 2.0 * side),
                        -end + at * (9.0 + 2.0 * end) + wave * (t * 9.0 + phase).sin(),
                    )
                } else {
                    (
                        -side + at * (8.0 + 2.0 * side) + wave * (t * 9.0 + phase).sin(),
                        -end + t * (9.0 + 2.0 * end),
                    )
                };
                placement.at(Spot::new(u, v))
            })
            .collect();
        let alpha = uniform(rng, 15.0, 60.0) as u8;
        let width = placement.spacing * uniform(rng, 0.02, 0.25) as f32;
        raster.line(
            &points,
            false,
            width,
            [dark[0], dark[1], dark[2], alpha],
            false,
        );
    }
}

/// Unrelated shapes and writing round the board, as on a page or a screen.
fn clutter(raster: &mut Raster, rng: &mut Rng, typeface: &Typeface) {
    let (w, h) = (raster.image.width() as f32, raster.image.height() as f32);
    let _ = typeface;
    for _ in 0..rng.below(8) {
        let colour = [
            rng.below(256) as u8,
            rng.below(256) as u8,
            rng.below(256) as u8,
            255,
        ];
        let (x, y) = (
            uniform(rng, 0.0, f64::from(w)) as f32,
            uniform(rng, 0.0, f64::from(h)) as f32,
        );
        let size = uniform(rng, 5.0, f64::from(w) / 4.0) as f32;
        match rng.below(3) {
            0 => raster.rounded_rect(
                Point::new(x, y),
                Point::new(x + size, y + size * 0.6),
                0.0,
                colour,
            ),
            1 => raster.text(Point::new(x, y), "象棋第局", size / 4.0, colour),
            _ => raster.line(
                &[Point::new(x, y), Point::new(x + size, y)],
                false,
                size / 20.0,
                colour,
                false,
            ),
        }
    }
}

/// Spoils a picture as `augment` says: colours, grey, blur, noise, JPEG, in that order.
pub fn spoil(image: &mut RgbImage, augment: &Augment, rng: &mut Rng) {
    if augment.gain != [1.0; 3] || augment.offset != [0.0; 3] || augment.gamma != 1.0 {
        let table: Vec<[u8; 256]> = (0..3)
            .map(|c| {
                let mut t = [0; 256];
                for (v, out) in t.iter_mut().enumerate() {
                    let x = (v as f64 / 255.0).powf(augment.gamma) * 255.0;
                    *out = (x * augment.gain[c] + augment.offset[c]).clamp(0.0, 255.0) as u8;
                }
                t
            })
            .collect();
        for p in image.pixels_mut() {
            for c in 0..3 {
                p.0[c] = table[c][p.0[c] as usize];
            }
        }
    }
    if augment.grey {
        for p in image.pixels_mut() {
            let [r, g, b] = p.0.map(f32::from);
            let y = (0.299 * r + 0.587 * g + 0.114 * b).round() as u8;
            p.0 = [y; 3];
        }
    }
    if augment.blur > 0.0 {
        blur(image, augment.blur);
    }
    if augment.noise > 0.0 {
        for p in image.pixels_mut() {
            let n = normal(rng) * augment.noise;
            for c in p.0.iter_mut() {
                *c = (f64::from(*c) + n).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    if let Some(quality) = augment.jpeg {
        let mut bytes = Vec::new();
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
        if image.write_with_encoder(encoder).is_ok()
            && let Ok(decoded) = image::load_from_memory(&bytes)
        {
            *image = decoded.to_rgb8();
        }
    }
}

/// A Gaussian blur of deviation `sigma`, rows then columns.
fn blur(image: &mut RgbImage, sigma: f64) {
    let radius = (sigma * 3.0).ceil() as i64;
    let kernel: Vec<f32> = {
        let k: Vec<f64> = (-radius..=radius)
            .map(|i| (-((i * i) as f64) / (2.0 * sigma * sigma)).exp())
            .collect();
        let total: f64 = k.iter().sum();
        k.iter().map(|v| (v / total) as f32).collect()
    };
    let (w, h) = (image.width() as i64, image.height() as i64);
    let mut buffer = vec![[0.0_f32; 3]; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0.0; 3];
            for (k, weight) in kernel.iter().enumerate() {
                let xx = (x + k as i64 - radius).clamp(0, w - 1);
                let p = image.get_pixel(xx as u32, y as u32).0;
                for c in 0..3 {
                    acc[c] += weight * f32::from(p[c]);
                }
            }
            buffer[(y * w + x) as usize] = acc;
        }
    }
    for y in 0..h {
        for x in 0..w {
            let mut acc = [0.0; 3];
            for (k, weight) in kernel.iter().enumerate() {
                let yy = (y + k as i64 - radius).clamp(0, h - 1);
                let p = buffer[(yy * w + x) as usize];
                for c in 0..3 {
                    acc[c] += weight * p[c];
                }
            }
            image.put_pixel(
                x as u32,
                y as u32,
                image::Rgb(acc.map(|v| v.round().clamp(0.0, 255.0) as u8)),
            );
        }
    }
}

/// `map` moved by a small error in grid units, the kind a board finder makes: shifted by
/// up to `shift` spacings, scaled by up to `scale`, turned by up to `turn` degrees, about
/// the board's middle.
pub fn jitter_map(
    map: &Homography,
    rng: &mut Rng,
    shift: f64,
    scale: f64,
    turn: f64,
) -> Homography {
    let (dx, dy) = (uniform(rng, -shift, shift), uniform(rng, -shift, shift));
    let k = 1.0 + uniform(rng, -scale, scale);
    let (s, c) = uniform(rng, -turn, turn).to_radians().sin_cos();
    let (cx, cy) = (4.0, 4.5);
    // Grid to grid: about the middle, turn and scale, then shift.
    let m = [
        k * c,
        -k * s,
        cx + dx - k * (c * cx - s * cy),
        k * s,
        k * c,
        cy + dy - k * (s * cx + c * cy),
        0.0,
        0.0,
        1.0,
    ];
    Homography(multiply(&map.0, &m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luma(c: [u8; 3]) -> f64 {
        0.299 * f64::from(c[0]) + 0.587 * f64::from(c[1]) + 0.114 * f64::from(c[2])
    }

    /// Red less the mean of green and blue, as the classifier's second channel measures it.
    fn redness(c: Rgba) -> f64 {
        f64::from(c[0]) - 0.5 * (f64::from(c[1]) + f64::from(c[2]))
    }

    fn rgb(c: Rgba) -> [u8; 3] {
        [c[0], c[1], c[2]]
    }

    #[test]
    fn a_font_with_one_set_of_characters_writes_every_piece_in_it() {
        let simplified_only = ['车', '马', '帅', '将'];
        let traditional_only = ['車', '馬', '帥', '將', '俥', '傌', '砲'];
        let mut rng = Rng::new(7);
        for missing in [&simplified_only[..], &traditional_only[..]] {
            // Nor any Latin letter: boards meant for letters fall back to characters.
            let covers = |text: &str| text.chars().all(|c| !missing.contains(&c) && !c.is_ascii());
            for _ in 0..200 {
                let characters = Characters::random(&mut rng);
                for color in [Color::Red, Color::Black] {
                    for kind in PieceKind::ALL {
                        let written = characters.of(Piece { color, kind }, covers);
                        assert!(covers(&written), "{color:?} {kind:?} written {written}");
                    }
                }
            }
        }
    }

    #[test]
    fn dark_schemes_have_a_dark_board_light_lines_and_sides_told_by_colour() {
        let mut rng = Rng::new(5);
        for scheme in [Scheme::Night, Scheme::Neon, Scheme::Dusk] {
            for _ in 0..200 {
                let p = palette(scheme, &mut rng);
                assert!(luma(p.board) < 90.0, "{scheme:?}: board {:?}", p.board);
                assert!(luma(rgb(p.lines)) > luma(p.board) + 100.0, "{scheme:?}");
                // Where the sides differ, Red's is the redder by a wide margin.
                let (red, black) = match scheme {
                    Scheme::Neon => (p.ink[0], p.ink[1]),
                    _ => (p.face[0], p.face[1]),
                };
                assert!(
                    redness(red) > redness(black) + 60.0,
                    "{scheme:?}: Red {red:?}, Black {black:?}"
                );
                // The characters stand out from the faces.
                for side in 0..2 {
                    let contrast = (luma(rgb(p.ink[side])) - luma(rgb(p.face[side]))).abs();
                    assert!(
                        contrast > 40.0 || scheme == Scheme::Neon,
                        "{scheme:?}: {p:?}",
                        p = (p.face, p.ink)
                    );
                }
            }
        }
    }

    #[test]
    fn tinted_faces_lean_towards_their_side_and_black_is_not_always_black() {
        let mut rng = Rng::new(6);
        let mut coloured_black = 0;
        for _ in 0..200 {
            let p = palette(Scheme::Tinted, &mut rng);
            assert!(luma(p.board) > 180.0);
            assert!(redness(p.face[0]) > redness(p.face[1]), "{:?}", p.face);
            assert!(luma(rgb(p.face[1])) - luma(rgb(p.ink[1])) > 60.0);
            if (redness(p.ink[1]) < -25.0) || luma(rgb(p.ink[1])) > 60.0 {
                coloured_black += 1;
            }
        }
        // Black is inked green, blue or grey on a good share of the boards.
        assert!(coloured_black > 40, "{coloured_black}");
    }

    #[test]
    fn held_out_styles_never_come_up_in_training() {
        let fonts = Fonts::app_only();
        let mut rng = Rng::new(7);
        let mut seen = Vec::new();
        for _ in 0..2000 {
            let style = training_style(&fonts, &mut rng);
            // (With only the app's font here, it stands in for the fonts: not checked.)
            assert!(
                HELD_OUT
                    .iter()
                    .all(|h| h.disc != style.disc && h.scheme != style.scheme),
                "{style:?}"
            );
            if !seen.contains(&style.scheme) {
                seen.push(style.scheme);
            }
        }
        for scheme in [Scheme::Night, Scheme::Neon, Scheme::Tinted] {
            assert!(seen.contains(&scheme), "{scheme:?} never drawn");
        }
        assert!(!seen.contains(&Scheme::Dusk));
        assert!(HELD_OUT.iter().any(|h| h.scheme == Scheme::Dusk));
    }

    #[test]
    fn an_outlined_disc_differs_from_a_flat_one_only_in_a_ring_at_its_edge() {
        let fonts = Fonts::app_only();
        let mut board = Board::empty();
        let square = Square::from_coords(4, 4).unwrap();
        board.set(square, Some(Piece::new(Color::Black, PieceKind::Rook)));
        let spacing = 60.0;
        let picture = |disc| {
            let style = Style {
                font: "chuhe-kai",
                disc,
                scheme: Scheme::Neon,
            };
            let mut rng = Rng::new(8);
            draw_board(&fonts, &style, &board, spacing, &Augment::NONE, &mut rng)
        };
        let (outlined, flat) = (picture(Disc::Outlined), picture(Disc::Flat));
        let (x, y) = if outlined.flipped {
            (4.0, 4.0)
        } else {
            (4.0, 5.0)
        };
        let centre = outlined.map.apply(x, y);
        let mut differing = 0;
        for (px, py, p) in outlined.image.enumerate_pixels() {
            if p == flat.image.get_pixel(px, py) {
                continue;
            }
            differing += 1;
            let d = (f64::from(px) + 0.5 - centre.0).hypot(f64::from(py) + 0.5 - centre.1);
            // The radius is 0.37 to 0.49 spacings, the ring up to 0.05 wide inside it.
            assert!(
                (0.3 * spacing..0.52 * spacing).contains(&d),
                "({px}, {py}) at {d:.1} px"
            );
        }
        // A ring of at least 0.015 spacings round a disc of 0.37.
        assert!(differing > 100, "{differing}");
    }

    #[test]
    fn figures_stand_in_for_characters_on_some_boards_but_never_in_a_held_out_style() {
        let fonts = Fonts::app_only();
        let board = Board::startpos();
        let style = Style {
            font: "chuhe-kai",
            disc: Disc::Flat,
            scheme: Scheme::Paper,
        };
        // Odd seeds: the generator makes the same stream of 2n and 2n + 1.
        let count = |style: &Style, share: f64, seeds: std::ops::Range<u64>| {
            seeds
                .filter(|&i| {
                    let mut rng = Rng::new(2 * i + 1);
                    draw_board_with(&fonts, style, &board, 12.0, &Augment::NONE, share, &mut rng)
                        .figures
                })
                .count()
        };
        // About one board in ten: 0.15 × 0.4 + 0.85 × 0.05.
        let figures = count(&style, FIGURE_SHARE, 0..400);
        assert!((16..60).contains(&figures), "{figures} of 400");
        // Over half at a share of one half: 0.15 × 1 + 0.85 × 0.5.
        let most = count(&style, 0.5, 0..400);
        assert!((190..270).contains(&most), "{most} of 400");
        assert_eq!(count(&style, 0.0, 0..150), 0);
        for held in &HELD_OUT {
            assert_eq!(count(held, 0.5, 0..150), 0, "{held:?}");
        }
    }

    #[test]
    fn figures_are_drawn_in_each_sides_colour() {
        let fonts = Fonts::app_only();
        let mut board = Board::empty();
        let (red, black) = (
            Square::from_coords(2, 2).unwrap(),
            Square::from_coords(6, 7).unwrap(),
        );
        let style = Style {
            font: "chuhe-kai",
            disc: Disc::Flat,
            scheme: Scheme::Paper,
        };
        let spacing = 60.0;
        let mut checked = 0;
        for kind in PieceKind::ALL {
            board.set(red, Some(Piece::new(Color::Red, kind)));
            board.set(black, Some(Piece::new(Color::Black, kind)));
            for seed in (1..600).step_by(2) {
                let mut rng = Rng::new(seed);
                let drawn = draw_board_with(
                    &fonts,
                    &style,
                    &board,
                    spacing,
                    &Augment::NONE,
                    FIGURE_SHARE,
                    &mut rng,
                );
                if !drawn.figures {
                    continue;
                }
                checked += 1;
                // The reddish and the dark pixels within 0.35 spacings of each piece.
                let inks = |square: Square| {
                    let (x, y) = (square.file().index(), square.rank().index());
                    let (x, y) = if drawn.flipped {
                        (8 - x, y)
                    } else {
                        (x, 9 - y)
                    };
                    let centre = drawn.map.apply(f64::from(x), f64::from(y));
                    let (mut reddish, mut dark) = (0, 0);
                    for (px, py, p) in drawn.image.enumerate_pixels() {
                        let d =
                            (f64::from(px) + 0.5 - centre.0).hypot(f64::from(py) + 0.5 - centre.1);
                        if d > 0.35 * spacing {
                            continue;
                        }
                        let c = [p.0[0], p.0[1], p.0[2], 255];
                        if redness(c) > 60.0 {
                            reddish += 1;
                        } else if luma(p.0) < 110.0 {
                            dark += 1;
                        }
                    }
                    (reddish, dark)
                };
                let (r, b) = (inks(red), inks(black));
                assert!(
                    r.0 > 40 && r.0 > 4 * r.1,
                    "{kind:?} seed {seed}: Red's {r:?}"
                );
                assert!(
                    b.1 > 40 && b.1 > 4 * b.0,
                    "{kind:?} seed {seed}: Black's {b:?}"
                );
                break;
            }
        }
        assert_eq!(checked, 7);
    }

    #[test]
    fn a_board_of_figures_is_drawn_again_the_same_from_its_seed() {
        let fonts = Fonts::app_only();
        let board = Board::startpos();
        let style = Style {
            font: "chuhe-kai",
            disc: Disc::Outlined,
            scheme: Scheme::Tinted,
        };
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            let augment = Augment::random(&mut rng);
            draw_board_with(
                &fonts,
                &style,
                &board,
                30.0,
                &augment,
                FIGURE_SHARE,
                &mut rng,
            )
        };
        let seed = (1..600)
            .step_by(2)
            .find(|&seed| draw(seed).figures)
            .unwrap();
        let (a, b) = (draw(seed), draw(seed));
        assert!(a.figures && b.figures);
        assert!(a.image == b.image);
        // Another board of figures is drawn otherwise.
        // (Odd seeds: the generator makes the same stream of 2n and 2n + 1.)
        let other = (seed + 2..1200)
            .step_by(2)
            .find(|&seed| draw(seed).figures)
            .unwrap();
        assert!(draw(other).image != a.image);
    }
}
