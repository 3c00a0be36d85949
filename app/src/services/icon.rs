//! The app's icon: a red 帅 drawn by the board's own piece painting and the CPU
//! rasteriser, so the desktop's icon is the piece the user sees on the board. The PNGs
//! the Debian package installs are made from it by `cargo run -p chuhe --example
//! make_icons`.

use crate::services::export::paint_picture;
use crate::theme::ThemeChoice;
use crate::widgets::board::paint_piece;
use chuhe_core::{Color, Piece, PieceKind};
use image::imageops::FilterType;

/// The sizes of the icon (in pixels) the desktop's icon theme asks for.
pub const ICON_SIZES: [u32; 6] = [16, 32, 48, 64, 128, 256];

/// The side the piece is drawn at before it is scaled down, so small icons are smooth.
const DRAWN: u32 = 512;

/// The icon, `size` pixels square, transparent round the piece.
pub fn render_icon(size: u32) -> image::RgbaImage {
    let theme = ThemeChoice::default().theme();
    let big = paint_picture(DRAWN, |painter, rect| {
        // The piece with its rim and shadow fills the square, with a little room.
        let spacing = rect.width() / 1.1;
        let general = Piece::new(Color::Red, PieceKind::General);
        paint_piece(
            painter,
            spacing,
            rect.center() - egui::Vec2::from(theme.proportions.piece_shadow_offset) * spacing / 2.0,
            general,
            false,
            &theme,
        );
    });
    image::imageops::resize(&big, size, size, FilterType::Lanczos3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_icon_is_a_red_piece_on_a_clear_background() {
        let theme = ThemeChoice::default().theme();
        for size in [16, 64] {
            let icon = render_icon(size);
            assert_eq!(icon.dimensions(), (size, size));
            assert_eq!(icon.get_pixel(0, 0).0[3], 0, "the corner is transparent");
            let centre = icon.get_pixel(size / 2, size / 2).0;
            assert_eq!(centre[3], 255, "the piece is opaque");
        }
        // The character is inked red: some pixels are close to the red ink.
        let icon = render_icon(128);
        let ink = theme.red_ink.to_array();
        let red = icon
            .pixels()
            .filter(|p| (0..3).all(|i| (i32::from(p.0[i]) - i32::from(ink[i])).abs() < 40))
            .count();
        assert!(red > 200, "only {red} red pixels");
    }
}
