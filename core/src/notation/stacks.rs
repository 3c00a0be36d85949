//! Like pieces that share a file (同一纵线). The notations name a piece by its file, and
//! when two or more pieces of one kind stand on that file, by its place in the file instead:
//! 前/后 for two, 前/中/后 or 一…五 for pawns (WXF `+`/`-`, see the module documentation of
//! `notation`). Front and rear are seen from the mover: Red's front piece is the one nearest
//! Black's side.

use crate::{Color, PieceKind, Position, Square};

/// The pieces of one kind of one side, file by file.
pub(super) struct Stacks {
    /// Index = the file number as the side counts it (1 = its right edge) − 1; each file
    /// lists its pieces front to back.
    files: [FileStack; 9],
}

/// The like pieces of one file, front to back: at most five (a side's five pawns), kept
/// in place because every move read or written builds a set of these.
#[derive(Clone, Copy)]
struct FileStack {
    squares: [Square; 5],
    len: usize,
}

impl FileStack {
    const EMPTY: FileStack = FileStack {
        squares: [Square::ALL[0]; 5],
        len: 0,
    };

    fn push(&mut self, sq: Square) {
        if let Some(slot) = self.squares.get_mut(self.len) {
            *slot = sq;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len]
    }
}

/// Where a piece stands among the like pieces of its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    /// The file number as the mover counts it (1–9).
    pub file: u8,
    /// 0 for the front piece of the file.
    pub index: usize,
    /// How many like pieces the file holds.
    pub count: usize,
}

/// A word that names a piece by its place in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StackWord {
    /// 前: the front piece.
    Front,
    /// 中: the middle one of three (or five).
    Middle,
    /// 后: the rear piece.
    Rear,
    /// 一…五: the n-th from the front (1-based).
    Nth(u8),
}

/// How the Chinese record names the moving piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// The piece and its file: 炮二.
    File(u8),
    /// A place word and the piece: 前车, 中兵, 三兵.
    Word(StackWord),
    /// A place word and a file, for pawns stacked on two files: 前七 (the front pawn of file 七).
    FileWord(u8, StackWord),
}

impl Stacks {
    /// The pieces of `kind` belonging to `color`.
    pub(super) fn new(pos: &Position, color: Color, kind: PieceKind) -> Stacks {
        let mut files = [FileStack::EMPTY; 9];
        for sq in pos.squares_of_color(color) {
            if pos.piece_at(sq).is_some_and(|p| p.kind == kind) {
                files[usize::from(sq.file().number_for(color) - 1)].push(sq);
            }
        }
        for file in &mut files {
            file.squares[..file.len]
                .sort_by_key(|sq| std::cmp::Reverse(sq.rank().relative_to(color)));
        }
        Stacks { files }
    }

    /// The pieces on file `number` (1–9 as the side counts), front to back; none for a
    /// number off the board.
    pub(super) fn file(&self, number: u8) -> &[Square] {
        usize::from(number)
            .checked_sub(1)
            .and_then(|i| self.files.get(i))
            .map_or(&[], FileStack::as_slice)
    }

    /// The files holding two or more of the pieces, right to left.
    pub(super) fn shared_files(&self) -> impl Iterator<Item = &[Square]> {
        self.files
            .iter()
            .filter(|f| f.len >= 2)
            .map(FileStack::as_slice)
    }

    /// How many files hold two or more of the pieces.
    pub(super) fn shared_count(&self) -> usize {
        self.shared_files().count()
    }

    /// Where `sq` stands (it must hold one of the pieces).
    pub(super) fn place(&self, sq: Square) -> Place {
        for (i, file) in self.files.iter().enumerate() {
            let file = file.as_slice();
            if let Some(index) = file.iter().position(|&s| s == sq) {
                return Place {
                    file: i as u8 + 1,
                    index,
                    count: file.len(),
                };
            }
        }
        Place {
            file: sq.file().number_for(Color::Red),
            index: 0,
            count: 1,
        }
    }

    /// The n-th (1-based) of the pieces on shared files, counted file by file from the right
    /// and front to back in each file. xqbase's programs number pawns on two shared files
    /// this way (一兵…五兵); on a single shared file it is simply the n-th from the front.
    pub(super) fn nth_in_reading_order(&self, n: u8) -> Option<Square> {
        self.shared_files()
            .flatten()
            .nth(usize::from(n).checked_sub(1)?)
            .copied()
    }

    /// The pieces a Chinese origin can name. A file number names every piece on the file:
    /// the caller keeps the one that can make the move (the shorthand real files use).
    pub(super) fn origins(&self, origin: Origin) -> Vec<Square> {
        match origin {
            Origin::File(n) => self.file(n).to_vec(),
            Origin::Word(StackWord::Nth(n)) if self.shared_count() >= 2 => {
                self.nth_in_reading_order(n).into_iter().collect()
            }
            // With pawns stacked on two files a bare 前兵 could be either front pawn; both
            // are candidates and the move decides, like any shorthand.
            Origin::Word(word) => self
                .shared_files()
                .filter_map(|file| pick(file, word))
                .collect(),
            Origin::FileWord(n, word) => {
                let file = self.file(n);
                if file.len() >= 2 {
                    pick(file, word).into_iter().collect()
                } else {
                    Vec::new()
                }
            }
        }
    }
}

/// The piece of a shared file a word names.
pub(super) fn pick(file: &[Square], word: StackWord) -> Option<Square> {
    match word {
        StackWord::Front => file.first().copied(),
        StackWord::Rear => file.last().copied(),
        StackWord::Middle if file.len() % 2 == 1 => file.get(file.len() / 2).copied(),
        StackWord::Middle => None,
        StackWord::Nth(n) => file.get(usize::from(n).checked_sub(1)?).copied(),
    }
}

/// The word for the piece at `index` of a file holding `count` like pieces: 前/后 for two,
/// 前/中/后 for three, the ordinals 一…五 for four or five.
pub(super) fn word_for(index: usize, count: usize) -> StackWord {
    match (count, index) {
        (2 | 3, 0) => StackWord::Front,
        (3, 1) => StackWord::Middle,
        (2 | 3, _) => StackWord::Rear,
        _ => StackWord::Nth(index as u8 + 1),
    }
}

/// How the Chinese record (and the short record) names the `kind` piece on `from`.
///
/// The general, advisors and elephants are always named by their file: two advisors or
/// elephants on one file can never go the same way (one can only advance, the other only
/// retreat), so the direction tells them apart. Rooks, horses and cannons sharing a file are
/// 前/后. Pawns: 前/后 for two, 前/中/后 for three, 一…五 for four or five on one file; when
/// two files each hold several pawns, the place word comes with the file instead of 兵
/// (前七平六), the common practice that matches the WXF's rule "the first digit denotes
/// the file of the pawn to move".
pub(super) fn chinese_origin(stacks: &Stacks, kind: PieceKind, from: Square) -> Origin {
    let place = stacks.place(from);
    match kind {
        PieceKind::General | PieceKind::Advisor | PieceKind::Elephant => Origin::File(place.file),
        _ if place.count < 2 => Origin::File(place.file),
        PieceKind::Pawn if stacks.shared_count() >= 2 => {
            Origin::FileWord(place.file, word_for(place.index, place.count))
        }
        _ => Origin::Word(word_for(place.index, place.count)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_counted_from_each_sides_right_and_sorted_front_to_back() {
        let pos: Position = "4k4/9/2P1P4/2P1P4/2P6/9/9/9/9/4K4 w - - 0 1"
            .parse()
            .unwrap();
        let s = Stacks::new(&pos, Color::Red, PieceKind::Pawn);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(s.file(7), [sq("c7"), sq("c6"), sq("c5")]);
        assert_eq!(s.file(5), [sq("e7"), sq("e6")]);
        assert_eq!(s.shared_count(), 2);
        assert_eq!(
            s.place(sq("c6")),
            Place {
                file: 7,
                index: 1,
                count: 3
            }
        );
        assert_eq!(s.nth_in_reading_order(1), Some(sq("e7")));
        assert_eq!(s.nth_in_reading_order(3), Some(sq("c7")));
        assert_eq!(s.nth_in_reading_order(6), None);
        assert_eq!(
            chinese_origin(&s, PieceKind::Pawn, sq("c6")),
            Origin::FileWord(7, StackWord::Middle)
        );
        assert_eq!(
            s.origins(Origin::Word(StackWord::Front)),
            [sq("e7"), sq("c7")]
        );
        let black = Stacks::new(&pos, Color::Black, PieceKind::General);
        assert_eq!(black.file(5), [sq("e9")]);
        assert!(black.file(0).is_empty() && black.file(10).is_empty());
    }
}
