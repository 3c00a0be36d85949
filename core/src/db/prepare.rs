//! Turning a game record into what the collection stores: the header columns, the packed
//! main line, its positions and material balances. Pure work with no database, so that
//! import threads do it in parallel while one thread writes.

use super::material::{MAX_INDEXED_PIECES, MaterialKey};
use crate::library::openings::ecco;
use crate::record::{GameResult, Record};
use crate::{Move, Notation, Position, Square, pgn};

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
    pub opening: String,
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
}

impl Prepared {
    pub fn new(record: &Record, source: &str) -> Prepared {
        let headers = record.headers();
        let get = |name: &str| headers.get(name).unwrap_or("").trim().to_owned();
        let moves = record.main_line_moves();
        let start = record.start();
        let standard = start.hash() == Position::startpos().hash();
        let (ecco, opening) = ecco::classify(start, &moves)
            .map(|c| {
                let name = c.name();
                (c.code, name)
            })
            .unwrap_or_default();
        let mut packed = Vec::with_capacity(moves.len() * 2);
        for m in &moves {
            packed.push(m.from.index());
            packed.push(m.to.index());
        }
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
            h.write(&packed);
            h.write(&[0]);
            h.write(red.as_bytes());
            h.write(&[0]);
            h.write(black.as_bytes());
            h.finish() as i64
        };
        let (positions, material) = index(start, &moves);
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
            ecco,
            opening,
            plies: moves.len() as u32,
            start: start_fen,
            moves: packed,
            tags,
            pgn: has_more_than_main_line(record).then(|| {
                let mut out = String::new();
                pgn::write_game(record, Notation::Iccs, &mut out);
                out
            }),
            source: source.to_owned(),
            dup,
            positions,
            material,
        }
    }
}

/// The main line's positions (each at its first ply only, so a game counts once for a
/// position it repeats) and its endgame balances.
#[allow(clippy::type_complexity)]
fn index(start: &Position, moves: &[Move]) -> (Vec<(u64, u32, Option<Move>)>, Vec<(u32, u32)>) {
    let mut positions = Vec::with_capacity(moves.len() + 1);
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
        let undo = pos.play_unchecked(m);
        if undo.captured().is_some() {
            note_material(&pos, ply as u32 + 1, &mut material);
        }
    }
    (positions, material)
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

/// The moves of a packed main line (two bytes a move); `None` for a damaged blob.
pub(crate) fn unpack_moves(bytes: &[u8]) -> Option<Vec<Move>> {
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks_exact(2)
        .map(|c| {
            Some(Move::new(
                Square::from_index(c[0])?,
                Square::from_index(c[1])?,
            ))
        })
        .collect()
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
        let (positions, material) = index(&Position::startpos(), &moves);
        // Six positions, the start twice: five rows, the start's with the first move.
        assert_eq!(positions.len(), 5);
        assert_eq!(positions[0].1, 0);
        assert_eq!(positions[0].2, Some(moves[0]));
        assert_eq!(positions.last().unwrap().2, None);
        assert!(material.is_empty());
    }
}
