//! Reading positions from pictures: damaged and huge files give a clear error without a
//! panic, and `chuhe-engine recognize` prints one line per board in the contract's forms.

use chuhe_core::recognize::{self, Error};
use image::{ImageFormat, Rgb, RgbImage};
use std::io::Cursor;
use std::process::Command;

/// A plain board drawn with straight lines: 9 columns and 10 rows `spacing` apart from
/// (`x`, `y`), a river, a frame, and a disc on each of the corners and the generals' points.
fn draw_board(image: &mut RgbImage, x: u32, y: u32, spacing: u32) {
    let ink = Rgb([20, 20, 20]);
    for k in 0..10 {
        for dx in 0..=8 * spacing {
            image.put_pixel(x + dx, y + k * spacing, ink);
        }
    }
    for i in 0..9 {
        for dy in 0..=9 * spacing {
            let river = dy > 4 * spacing && dy < 5 * spacing;
            if !river || i == 0 || i == 8 {
                image.put_pixel(x + i * spacing, y + dy, ink);
            }
        }
    }
    for (px, py) in [(0, 0), (8, 0), (4, 0), (0, 9), (8, 9), (4, 9)] {
        let (cx, cy) = ((x + px * spacing) as i64, (y + py * spacing) as i64);
        let r = (spacing * 2 / 5) as i64;
        for dy in -r..=r {
            for dx in -r..=r {
                if dx * dx + dy * dy <= r * r {
                    image.put_pixel((cx + dx) as u32, (cy + dy) as u32, Rgb([230, 200, 150]));
                }
            }
        }
    }
}

fn encoded(image: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Cursor::new(Vec::new());
    image.write_to(&mut bytes, format).unwrap();
    bytes.into_inner()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header claims `width`×`height` pixels, with a few bytes of data.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut header = width.to_be_bytes().to_vec();
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [
        (b"IHDR", header),
        (b"IDAT", vec![0x78, 0x9C, 0x03, 0x00]),
        (b"IEND", Vec::new()),
    ] {
        png.extend((data.len() as u32).to_be_bytes());
        let mut chunk = kind.to_vec();
        chunk.extend(&data);
        png.extend(&chunk);
        png.extend(crc32(&chunk).to_be_bytes());
    }
    png
}

/// The start of a BMP whose header claims `width`×`height` pixels.
fn bmp_header(width: i32, height: i32) -> Vec<u8> {
    let mut bmp = b"BM".to_vec();
    bmp.extend(1000u32.to_le_bytes());
    bmp.extend([0; 4]);
    bmp.extend(54u32.to_le_bytes());
    bmp.extend(40u32.to_le_bytes());
    bmp.extend(width.to_le_bytes());
    bmp.extend(height.to_le_bytes());
    bmp.extend(1u16.to_le_bytes());
    bmp.extend(24u16.to_le_bytes());
    bmp.extend([0; 24]);
    bmp
}

#[test]
fn a_header_claiming_a_huge_picture_is_too_large_before_anything_is_decoded() {
    // (The BMP decoder itself refuses sides over 65535, so its header claims less.)
    for (bytes, side) in [
        (png_header(100_000, 100_000), 100_000),
        (bmp_header(60_000, 60_000), 60_000),
    ] {
        assert_eq!(
            recognize::read_bytes(&bytes).unwrap_err(),
            Error::TooLarge {
                width: side,
                height: side
            }
        );
    }
    // Within each side's limit but over the pixel count.
    assert_eq!(
        recognize::read_bytes(&png_header(16_000, 3_000)).unwrap_err(),
        Error::TooLarge {
            width: 16_000,
            height: 3_000
        }
    );
}

#[test]
fn damaged_and_foreign_bytes_are_unreadable_and_never_panic() {
    let mut picture = RgbImage::from_pixel(400, 450, Rgb([240, 220, 180]));
    draw_board(&mut picture, 20, 20, 40);
    for format in [
        ImageFormat::Png,
        ImageFormat::Jpeg,
        ImageFormat::Bmp,
        ImageFormat::WebP,
    ] {
        let whole = encoded(&picture, format);
        assert!(recognize::read_bytes(&whole).is_ok(), "{format:?}");
        for cut in [0, 1, 8, 16, 33, 60, 100, whole.len() / 3, whole.len() - 1] {
            // A cut file may still decode (a JPEG or WebP keeps its head); otherwise the
            // decoder's reason comes back.
            if let Err(Error::Unreadable(why)) = recognize::read_bytes(&whole[..cut]) {
                assert!(!why.is_empty() && !why.contains('\n'));
            }
        }
        let mut spoiled = whole.clone();
        let mut state = 7u32;
        for _ in 0..200 {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let at = 8 + (state as usize >> 4) % (spoiled.len() - 8);
            spoiled[at] ^= (state >> 20) as u8 | 1;
        }
        let _ = recognize::read_bytes(&spoiled);
    }
    for garbage in [
        &b""[..],
        b"not a picture at all",
        &[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10][..],
    ] {
        assert!(matches!(
            recognize::read_bytes(garbage),
            Err(Error::Unreadable(_))
        ));
    }
}

#[test]
fn a_transparent_picture_is_read_on_white() {
    // Lines drawn on a fully transparent background whose colour channels are black: read
    // as they are, the background would be as dark as the lines.
    let mut rgba = image::RgbaImage::from_pixel(420, 470, image::Rgba([0, 0, 0, 0]));
    let mut lines = RgbImage::from_pixel(420, 470, Rgb([255, 255, 255]));
    draw_board(&mut lines, 30, 30, 40);
    for (x, y, p) in lines.enumerate_pixels() {
        if p.0 != [255, 255, 255] {
            rgba.put_pixel(x, y, image::Rgba([p[0], p[1], p[2], 255]));
        }
    }
    let mut bytes = Cursor::new(Vec::new());
    rgba.write_to(&mut bytes, ImageFormat::Png).unwrap();
    let picture = recognize::decode_picture(bytes.get_ref()).unwrap();
    assert_eq!(picture.get_pixel(0, 0).0, [255, 255, 255]);
    assert_eq!(picture.get_pixel(50, 70).0, [20, 20, 20]);
    let readings = recognize::read_bytes(bytes.get_ref()).unwrap();
    assert_eq!(readings.len(), 1);
    assert_eq!((readings[0].area.x, readings[0].area.y), (30, 30));
}

fn run(args: &[&std::path::Path], json: bool) -> (String, Option<i32>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"));
    command.arg("recognize").args(args);
    if json {
        command.arg("--json");
    }
    let out = command.output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.code())
}

#[test]
fn recognize_prints_a_line_per_board_and_fails_for_pictures_without_one() {
    let dir = std::env::temp_dir().join(format!("chuhe-recognize-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.png");
    let mut picture = RgbImage::from_pixel(900, 480, Rgb([255, 255, 255]));
    draw_board(&mut picture, 30, 40, 40);
    draw_board(&mut picture, 480, 20, 44);
    picture.save(&page).unwrap();
    let garbage = dir.join("garbage.jpg");
    std::fs::write(&garbage, b"\xFF\xD8\xFF\xE0 not really").unwrap();
    let blank = dir.join("blank.bmp");
    RgbImage::from_fn(500, 400, |x, y| Rgb([(x / 2) as u8, (y / 2) as u8, 128]))
        .save(&blank)
        .unwrap();

    let (text, code) = run(&[&page], false);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for l in &lines {
        let (path, fen) = l.split_once('\t').unwrap();
        assert_eq!(path, page.to_str().unwrap());
        assert!(fen.parse::<chuhe_core::Setup>().is_ok(), "{fen}");
        assert!(fen.ends_with(" w - - 0 1"), "{fen}");
    }

    let (text, code) = run(&[&garbage, &page, &blank], false);
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with(&format!("{}\terror: unreadable picture", garbage.display())));
    assert!(lines[1].starts_with(&format!("{}\t", page.display())));
    assert_eq!(
        lines[3],
        format!("{}\terror: no board found", blank.display())
    );

    let (text, code) = run(&[&page, &garbage], true);
    assert_eq!(code, Some(1));
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    let left = &objects[0];
    assert_eq!(left["file"], page.to_str().unwrap());
    assert_eq!(left["board"]["x"], 30);
    assert_eq!(left["board"]["y"], 40);
    assert_eq!(left["board"]["width"], 320);
    assert_eq!(left["board"]["height"], 360);
    assert_eq!(objects[1]["board"]["x"], 480);
    assert_eq!(objects[1]["board"]["width"], 352);
    for o in &objects[..2] {
        let c = o["confidence"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&c));
        assert!(o["uncertain"].is_array());
        assert!(o["flipped"].is_boolean());
        assert!(
            o["fen"]
                .as_str()
                .unwrap()
                .parse::<chuhe_core::Setup>()
                .is_ok()
        );
    }
    assert_eq!(objects[2]["file"], garbage.to_str().unwrap());
    assert!(
        objects[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("unreadable picture")
    );
    assert_eq!(objects[2].as_object().unwrap().len(), 2);

    let (_, code) = run(&[], false);
    assert_eq!(code, Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}
