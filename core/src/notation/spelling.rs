//! How a game file spells its moves: the notation, and the characters it writes where
//! Chuhe's own output writes others (馬 for 马, 進 for 进, `8` for `８`, lower-case WXF …).
//! Learned from the moves of a file as they are read, so that saving the game writes its
//! moves the way the file did.

use super::{Notation, format_move, hanzi};
use crate::{Color, Move, Position};

/// A notation as one file writes it (see the [module documentation](self)).
///
/// ```
/// use chuhe_core::Position;
/// use chuhe_core::notation::{Notation, Spelling};
/// let pos = Position::startpos();
/// let m = "b0c2".parse().unwrap();
/// let mut spelling = Spelling::new(Notation::Chinese);
/// spelling.learn(&pos, m, "馬八進七");
/// assert_eq!(spelling.format(&pos, m), "馬八進七");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spelling {
    /// The notation the moves are in.
    pub notation: Notation,
    /// For each side, a character of Chuhe's output and the one the file writes instead.
    swaps: Vec<(Color, char, char)>,
    /// Whether the file writes traditional characters, so that a character it never
    /// showed (後 in a 前/后 move that came only later) is written traditional too.
    traditional: bool,
}

impl Spelling {
    /// `notation` spelt as Chuhe writes it.
    pub fn new(notation: Notation) -> Spelling {
        Spelling {
            notation,
            swaps: Vec::new(),
            traditional: false,
        }
    }

    /// Learns from `written`, the text a file gives for the legal move `m` of `pos`: each
    /// character that stands where Chuhe writes another of the same meaning. The first
    /// spelling seen of a character is kept; a text shaped differently from Chuhe's (other
    /// disambiguation, shorthand) teaches nothing.
    pub fn learn(&mut self, pos: &Position, m: Move, written: &str) {
        let color = pos.side_to_move();
        self.traditional |= written.chars().any(hanzi::is_traditional_only);
        let ours = format_move(pos, m, self.notation);
        if ours.chars().count() != written.chars().count() {
            return;
        }
        for (c, w) in ours.chars().zip(written.chars()) {
            if c != w
                && same_meaning(c, w)
                && !self
                    .swaps
                    .iter()
                    .any(|&(s, from, _)| s == color && from == c)
            {
                self.swaps.push((color, c, w));
            }
        }
    }

    /// Writes the legal move `m` of `pos` as the file would.
    pub fn format(&self, pos: &Position, m: Move) -> String {
        let color = pos.side_to_move();
        format_move(pos, m, self.notation)
            .chars()
            .map(|c| {
                self.swaps
                    .iter()
                    .find(|&&(s, from, _)| s == color && from == c)
                    .map_or_else(|| self.default_form(c), |&(_, _, to)| to)
            })
            .collect()
    }
}

impl Spelling {
    /// A character the file never showed: in its script.
    fn default_form(&self, c: char) -> char {
        if !self.traditional {
            return c;
        }
        match c {
            '帅' => '帥',
            '将' => '將',
            '马' => '馬',
            '车' => '車',
            '进' => '進',
            '后' => '後',
            other => other,
        }
    }
}

/// A full-width form (`８`, `Ｃ`) as its ASCII character.
fn fold_width(c: char) -> char {
    match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
        _ => c,
    }
}

/// Whether two characters say the same thing in a move: the same piece, action, number
/// or position word in another script or width, or the same letter in another case.
fn same_meaning(a: char, b: char) -> bool {
    let (a, b) = (fold_width(a), fold_width(b));
    a.eq_ignore_ascii_case(&b)
        || both(hanzi::piece_kind(a), hanzi::piece_kind(b))
        || both(hanzi::numeral(a), hanzi::numeral(b))
        || both(hanzi::action(a), hanzi::action(b))
        || both(hanzi::stack_word(a), hanzi::stack_word(b))
}

/// Whether both characters were read, as the same thing.
fn both<T: PartialEq>(a: Option<T>, b: Option<T>) -> bool {
    a.is_some() && a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_characters_are_learned_per_side_and_written_back() {
        let mut pos = Position::startpos();
        let mut spelling = Spelling::new(Notation::Chinese);
        let mut moves = Vec::new();
        for (iccs, written) in [
            ("h2e2", "炮二平五"),
            ("h9g7", "馬8進7"),
            ("h0g2", "傌二進三"),
            ("i9h9", "車9平8"),
        ] {
            let m: Move = iccs.parse().unwrap();
            spelling.learn(&pos, m, written);
            moves.push((pos.clone(), m, written));
            pos.play_unchecked(m);
        }
        for (pos, m, written) in &moves {
            assert_eq!(&spelling.format(pos, *m), written);
        }
        // A text of another shape, or a character of another meaning, teaches nothing.
        let start = Position::startpos();
        let m: Move = "h2e2".parse().unwrap();
        let mut plain = Spelling::new(Notation::Chinese);
        plain.learn(&start, m, "炮2平5 ");
        plain.learn(&start, m, "兵二平五");
        assert_eq!(plain.format(&start, m), "炮二平五");
        // A traditional file writes what it never showed in traditional characters.
        let rear: Position = "3k5/9/9/9/9/9/9/4C4/9/4CK3 w - - 0 1".parse().unwrap();
        let m: Move = "e0e1".parse().unwrap();
        assert_eq!(spelling.format(&rear, m), "後炮進一");
        assert_eq!(plain.format(&rear, m), "后炮进一");
    }

    #[test]
    fn wxf_and_iccs_keep_their_case_and_width() {
        let pos = Position::startpos();
        let m: Move = "h2e2".parse().unwrap();
        let mut wxf = Spelling::new(Notation::Wxf);
        wxf.learn(&pos, m, "Ｃ２．５");
        assert_eq!(wxf.format(&pos, m), "Ｃ２．５");
        let mut iccs = Spelling::new(Notation::IccsPgn);
        iccs.learn(&pos, m, "h2-e2");
        assert_eq!(iccs.format(&pos, m), "h2-e2");
    }
}
