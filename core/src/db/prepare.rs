//! Turning a game record into what the collection stores: the header columns, the packed
//! main line, its positions and material balances. Pure work with no database, so that
//! import threads do it in parallel while one thread writes.

use super::material::{MAX_INDEXED_PIECES, MaterialKey};
use crate::library::openings::ecco;
use crate::record::{GameResult, Record};
use crate::{Move, Notation, Position, pgn};

/// The header columns of a game; every other header is kept in `tags`.
pub(crate) const COLUMN_HEADERS: [&str; 7] =
    ["Red", "Black", "Event", "Site", "Date", "Round", "Result"];

/// A game ready to be written.
pub(crate) struct Prepared {
    pub red: String,
    pub black: String,
    pub event: String,
    pub site: String,
    pub date: String,
    pub year: Option<i32>,
    pub round: String,
    pub result: GameResult,
    pub ecco: String,
    pub plies: u32,
    /// The FEN of the start, when it is not the usual one.
    pub start: Option<String>,
    pub moves: Vec<u8>,
    pub tags: String,
    /// The whole record as PGN, when it holds more than its main line and headers.
    pub pgn: Option<String>,
    pub source: String,
    /// Same start, same moves, same players: the same game.
    pub dup: i64,
    /// Each distinct position of the main line at its first ply: key, ply, next move.
    pub positions: Vec<(u64, u32, Option<Move>)>,
    /// Each endgame material balance at its first ply.
    pub material: Vec<(u32, u32)>,
    /// Set once the fields above the headers' are filled.
    indexed: Option<()>,
    main_line: Vec<Move>,
    start_position: Position,
}

impl Prepared {
    /// A game prepared whole: its headers and its index.
    pub fn new(record: &Record, source: &str) -> Prepared {
        let mut game = Prepared::headers(record, source);
        game.index();
        game
    }

    /// Only what tells a game from another and what a duplicate adds to the first copy:
    /// the headers, the duplicate key and the PGN; [`Prepared::index`] does the rest when
    /// the game turns out to be new.
    pub fn headers(record: &Record, source: &str) -> Prepared {
        let headers = record.headers();
        let get = |name: &str| headers.get(name).unwrap_or("").trim().to_owned();
        let main_line = record.main_line_moves();
        let start = record.start();
        let standard = start.hash() == Position::startpos().hash();
        let mut tags = String::new();
        for (name, value) in headers.iter() {
            if !COLUMN_HEADERS.contains(&name) && !matches!(name, "Game" | "FEN" | "Format") {
                tags.push_str(name);
                tags.push('\t');
                tags.push_str(value);
                tags.push('\n');
            }
        }
        let red = get("Red");
        let black = get("Black");
        let start_fen = (!standard).then(|| start.to_string());
        let dup = {
            let mut h = Fnv::new();
            h.write(start_fen.as_deref().unwrap_or("").as_bytes());
            h.write(&[0]);
            for m in &main_line {
                h.write(&[m.from.index(), m.to.index()]);
            }
            h.write(&[0]);
            h.write(red.as_bytes());
            h.write(&[0]);
            h.write(black.as_bytes());
            h.finish() as i64
        };
        let date = get("Date");
        Prepared {
            year: year_of(&date),
            red,
            black,
            event: get("Event"),
            site: get("Site"),
            date,
            round: get("Round"),
            result: headers.result(),
            ecco: String::new(),
            plies: main_line.len() as u32,
            start: start_fen,
            moves: Vec::new(),
            tags,
            pgn: has_more_than_main_line(record).then(|| {
                let mut out = String::new();
                pgn::write_game(record, Notation::Iccs, &mut out);
                out
            }),
            source: source.to_owned(),
            dup,
            positions: Vec::new(),
            material: Vec::new(),
            indexed: None,
            main_line,
            start_position: start.clone(),
        }
    }

    /// Whether [`Prepared::index`] has run.
    pub fn is_indexed(&self) -> bool {
        self.indexed.is_some()
    }

    /// The ECCO code, the packed main line, its positions and balances.
    pub fn index(&mut self) {
        if self.is_indexed() {
            return;
        }
        let (start, moves) = (&self.start_position, &self.main_line);
        self.ecco = ecco::classify(start, moves)
            .map(|c| c.code)
            .unwrap_or_default();
        let (positions, material, packed) = index(start, moves);
        self.positions = positions;
        self.material = material;
        self.moves = packed;
        self.indexed = Some(());
    }
}

/// The main line's positions, as [`index`] gives them.
pub(crate) fn positions(start: &Position, moves: &[Move]) -> Vec<(u64, u32, Option<Move>)> {
    index(start, moves).0
}

/// The main line's positions (each at its first ply only, so a game counts once for a
/// position it repeats), its endgame balances, and its moves packed a byte each: the
/// move's place among the legal moves in square order (a position never has 256).
#[allow(clippy::type_complexity)]
fn index(
    start: &Position,
    moves: &[Move],
) -> (Vec<(u64, u32, Option<Move>)>, Vec<(u32, u32)>, Vec<u8>) {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut packed = Vec::with_capacity(moves.len());
    let mut legal = crate::MoveList::new();
    let mut material = Vec::new();
    let mut seen = std::collections::HashSet::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    let note_material = |pos: &Position, ply: u32, material: &mut Vec<(u32, u32)>| {
        let key = MaterialKey::of(pos);
        if key.pieces() <= MAX_INDEXED_PIECES && !material.iter().any(|&(k, _)| k == key.to_bits())
        {
            material.push((key.to_bits(), ply));
        }
    };
    note_material(&pos, 0, &mut material);
    for ply in 0..=moves.len() {
        if seen.insert(pos.hash()) {
            positions.push((pos.hash(), ply as u32, moves.get(ply).copied()));
        }
        let Some(&m) = moves.get(ply) else { break };
        packed.push(ordinal(&pos, m, &mut legal).unwrap_or(u8::MAX));
        let undo = pos.play_unchecked(m);
        if undo.captured().is_some() {
            note_material(&pos, ply as u32 + 1, &mut material);
        }
    }
    (positions, material, packed)
}

/// The legal moves of `pos` in square order (from, then to): an order that depends only
/// on the rules, so a packed main line reads back in any later version.
fn sorted_legal(pos: &Position, list: &mut crate::MoveList) -> Vec<Move> {
    pos.legal_moves_into(list);
    let mut moves: Vec<Move> = list.iter().copied().collect();
    moves.sort_unstable_by_key(|m| (m.from.index(), m.to.index()));
    moves
}

/// The place of `m` in [`sorted_legal`]'s order, counted without sorting (this runs for
/// every move imported).
fn ordinal(pos: &Position, m: Move, list: &mut crate::MoveList) -> Option<u8> {
    pos.legal_moves_into(list);
    let key = |x: &Move| (x.from.index(), x.to.index());
    if !list.contains(&m) {
        return None;
    }
    u8::try_from(list.iter().filter(|x| key(x) < key(&m)).count()).ok()
}

/// The main line packed by [`index`], replayed from `start`; `None` for a damaged blob.
pub(crate) fn unpack_moves(start: &Position, bytes: &[u8]) -> Option<Vec<Move>> {
    let mut pos = start.clone();
    let mut list = crate::MoveList::new();
    let mut moves = Vec::with_capacity(bytes.len());
    for &b in bytes {
        let m = *sorted_legal(&pos, &mut list).get(usize::from(b))?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Some(moves)
}

/// Whether the record holds comments, marks or variations that only its PGN keeps.
fn has_more_than_main_line(record: &Record) -> bool {
    let root = record.root();
    if !record.annotation(root).is_empty() {
        return true;
    }
    let mut node = root;
    while let Some(next) = record.main_child(node) {
        if record.next_sibling(next).is_some() || !record.annotation(next).is_empty() {
            return true;
        }
        node = next;
    }
    false
}

/// The first four-digit number from 1000 to 2999 in a date (`1963年8月15日`, `2019.05.01`).
pub(crate) fn year_of(date: &str) -> Option<i32> {
    let bytes = date.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i - start == 4 {
                let year: i32 = date[start..i].parse().ok()?;
                if (1000..3000).contains(&year) {
                    return Some(year);
                }
            }
        } else {
            i += 1;
        }
    }
    None
}

/// 64-bit FNV-1a: a hash that is the same in every build (std's is not promised to be),
/// so duplicate keys stored in a collection keep their meaning.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_come_from_dates_as_written() {
        assert_eq!(year_of("1963年8月15日"), Some(1963));
        assert_eq!(year_of("2019.05.01"), Some(2019));
        assert_eq!(year_of("05/01/2019"), Some(2019));
        assert_eq!(year_of("??"), None);
        assert_eq!(year_of("12345"), None);
    }

    #[test]
    fn a_repeated_position_is_indexed_at_its_first_ply_only() {
        let moves: Vec<Move> = ["h0g2", "h9g7", "g2h0", "g7h9", "h2e2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let (positions, material, packed) = index(&Position::startpos(), &moves);
        assert_eq!(
            unpack_moves(&Position::startpos(), &packed),
            Some(moves.clone())
        );
        assert_eq!(packed.len(), moves.len());
        // Six positions, the start twice: five rows, the start's with the first move.
        assert_eq!(positions.len(), 5);
        assert_eq!(positions[0].1, 0);
        assert_eq!(positions[0].2, Some(moves[0]));
        assert_eq!(positions.last().unwrap().2, None);
        assert!(material.is_empty());
    }
}
