//! Training data for the network: positions with the search's score and the game's
//! result, 32 bytes each.
//!
//! A data file is the 8 bytes `CHUHEDAT`, a little-endian `u32` version (1), then records
//! of [`RECORD`] bytes, nothing else:
//!
//! | bytes  | what |
//! |--------|------|
//! | 0..12  | the occupied points, bit `p` of the little-endian 96-bit number for point `p` (`rank · 9 + file`, rank 0 Red's back rank) |
//! | 12..28 | the occupants' board codes (1–7 Red general … pawn, 8–14 Black), four bits each in point order, the first in the low half of byte 12; unused halves 0 |
//! | 28..30 | the score for the side to move, centipawns, `i16` little-endian |
//! | 30     | the game's result for the side to move: 0 loss, 1 draw, 2 win |
//! | 31     | the side to move: 0 Red, 1 Black |
//!
//! Records are written by appending, so a generator that is stopped keeps what it wrote;
//! a file whose length is not a whole number of records is read up to its last whole one
//! and reported ([`DataError::Truncated`] carries what was read).

use crate::{Color, PieceKind, Position};
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// Bytes a record.
pub const RECORD: usize = 32;
/// The start of every data file.
pub const DATA_MAGIC: [u8; 8] = *b"CHUHEDAT";
/// The format's version.
pub const DATA_VERSION: u32 = 1;
/// Bytes before the first record.
pub const DATA_HEADER: usize = 12;

/// The game's result from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

impl Outcome {
    /// 0 for a loss, ½ for a draw, 1 for a win: the target a trainer blends with the
    /// score.
    pub fn value(self) -> f32 {
        match self {
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Win => 1.0,
        }
    }

    /// The same result seen by the other side.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }
}

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub position: Position,
    /// The search's score for the side to move, centipawns.
    pub score: i16,
    pub outcome: Outcome,
}

/// Why a data file could not be read.
#[derive(Debug)]
pub enum DataError {
    Io(io::Error),
    /// The file does not start with [`DATA_MAGIC`] and a known version.
    NotData,
    /// Record `index` (at byte `offset`) does not describe a position.
    BadRecord {
        index: usize,
        offset: usize,
        why: &'static str,
    },
    /// The file ends inside a record; the whole records before it were read.
    Truncated {
        samples: Vec<Sample>,
        extra_bytes: usize,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::NotData => write!(
                f,
                "not a Chuhe training data file (it must start with CHUHEDAT, version {DATA_VERSION})"
            ),
            DataError::BadRecord { index, offset, why } => {
                write!(f, "record {index} (byte {offset}): {why}")
            }
            DataError::Truncated {
                samples,
                extra_bytes,
            } => write!(
                f,
                "the file ends {extra_bytes} bytes into record {} (the {} before it were read)",
                samples.len(),
                samples.len()
            ),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> DataError {
        DataError::Io(e)
    }
}

impl Sample {
    /// The record of this sample.
    pub fn encode(&self) -> [u8; RECORD] {
        let pos = &self.position;
        let mut r = [0u8; RECORD];
        let mut occupied: u128 = 0;
        let mut n = 0;
        for (p, &code) in pos.cells.iter().enumerate() {
            if code == 0 {
                continue;
            }
            occupied |= 1 << p;
            // A position has at most 32 pieces (16 a side); more cannot be written.
            if n < 32 {
                r[12 + n / 2] |= code << (4 * (n % 2));
            }
            n += 1;
        }
        r[..12].copy_from_slice(&occupied.to_le_bytes()[..12]);
        r[28..30].copy_from_slice(&self.score.to_le_bytes());
        r[30] = match self.outcome {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        };
        r[31] = pos.side_to_move().index() as u8;
        r
    }

    /// The sample a record holds, or why it holds none.
    pub fn decode(r: &[u8; RECORD]) -> Result<Sample, &'static str> {
        let mut bits = [0u8; 16];
        bits[..12].copy_from_slice(&r[..12]);
        let occupied = u128::from_le_bytes(bits);
        if occupied >> 90 != 0 {
            return Err("a point beyond the board is occupied");
        }
        if occupied.count_ones() > 32 {
            return Err("more than 32 pieces");
        }
        let mut pos = Position {
            cells: [0; 90],
            occupied: [0; 2],
            generals: [u8::MAX; 2],
            side: match r[31] {
                0 => Color::Red,
                1 => Color::Black,
                _ => return Err("the side to move is neither 0 nor 1"),
            },
            hash: 0,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        let mut n = 0;
        for p in 0..90u8 {
            if occupied >> p & 1 == 0 {
                continue;
            }
            let code = (r[12 + n / 2] >> (4 * (n % 2))) & 15;
            n += 1;
            if !(1..=14).contains(&code) {
                return Err("a piece code outside 1–14");
            }
            let piece = crate::Piece::from_code(code);
            if piece.kind == PieceKind::General {
                if pos.generals[piece.color.index()] != u8::MAX {
                    return Err("two generals of one side");
                }
                pos.generals[piece.color.index()] = p;
            }
            pos.cells[p as usize] = code;
            pos.occupied[piece.color.index()] |= 1 << p;
        }
        if pos.generals.contains(&u8::MAX) {
            return Err("a side without its general");
        }
        pos.hash = pos.compute_hash();
        let outcome = match r[30] {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            _ => return Err("the result is not 0, 1 or 2"),
        };
        Ok(Sample {
            position: pos,
            score: i16::from_le_bytes([r[28], r[29]]),
            outcome,
        })
    }
}

/// Appends samples to a data file, writing the header first when the file is new or
/// empty.
pub struct DataWriter {
    out: io::BufWriter<std::fs::File>,
}

impl DataWriter {
    /// Opens `path` for appending; an existing file must be a data file.
    pub fn append(path: &Path) -> Result<DataWriter, DataError> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)?;
        let len = file.metadata()?.len();
        if len == 0 {
            file.write_all(&header())?;
        } else {
            let mut head = [0u8; DATA_HEADER];
            file.read_exact(&mut head).map_err(|_| DataError::NotData)?;
            if head != header() {
                return Err(DataError::NotData);
            }
        }
        Ok(DataWriter {
            out: io::BufWriter::new(file),
        })
    }

    /// Adds one sample.
    pub fn write(&mut self, sample: &Sample) -> io::Result<()> {
        self.out.write_all(&sample.encode())
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn header() -> [u8; DATA_HEADER] {
    let mut h = [0u8; DATA_HEADER];
    h[..8].copy_from_slice(&DATA_MAGIC);
    h[8..].copy_from_slice(&DATA_VERSION.to_le_bytes());
    h
}

/// Every sample of the data in `bytes` (a whole file).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    if bytes.len() < DATA_HEADER || bytes[..DATA_HEADER] != header() {
        return Err(DataError::NotData);
    }
    let body = &bytes[DATA_HEADER..];
    let mut samples = Vec::with_capacity(body.len() / RECORD);
    for (index, chunk) in body.chunks_exact(RECORD).enumerate() {
        let record: &[u8; RECORD] = chunk.try_into().unwrap_or_else(|_| unreachable!());
        let sample = Sample::decode(record).map_err(|why| DataError::BadRecord {
            index,
            offset: DATA_HEADER + index * RECORD,
            why,
        })?;
        samples.push(sample);
    }
    let extra_bytes = body.len() % RECORD;
    if extra_bytes != 0 {
        return Err(DataError::Truncated {
            samples,
            extra_bytes,
        });
    }
    Ok(samples)
}

/// Every sample of the data file at `path`.
pub fn read(path: &Path) -> Result<Vec<Sample>, DataError> {
    decode_all(&std::fs::read(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Rng;

    fn random_positions(n: usize) -> Vec<Position> {
        let mut rng = Rng::new(7);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < n {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmove_clock() > 80 {
                pos = Position::startpos();
                continue;
            }
            pos = pos
                .play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap_or_else(|e| panic!("{e}"));
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn records_give_back_the_position_score_and_result() {
        let outcomes = [Outcome::Loss, Outcome::Draw, Outcome::Win];
        for (i, pos) in random_positions(3000).into_iter().enumerate() {
            let sample = Sample {
                position: pos.clone(),
                score: (i as i16).wrapping_mul(97),
                outcome: outcomes[i % 3],
            };
            let back = Sample::decode(&sample.encode()).unwrap_or_else(|e| panic!("{e}"));
            // The counters are not kept: compare the arrangement, side and hash.
            assert_eq!(
                back.position
                    .to_string()
                    .split(' ')
                    .take(2)
                    .collect::<Vec<_>>(),
                pos.to_string().split(' ').take(2).collect::<Vec<_>>()
            );
            assert_eq!(back.position.hash(), pos.hash());
            assert_eq!((back.score, back.outcome), (sample.score, sample.outcome));
        }
    }

    #[test]
    fn a_file_is_appended_to_and_a_cut_or_damaged_one_says_where() {
        let dir = std::env::temp_dir().join(format!("chuhe-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let path = dir.join("a.bin");
        let _ = std::fs::remove_file(&path);
        let positions = random_positions(10);
        for half in positions.chunks(5) {
            let mut w = DataWriter::append(&path).unwrap_or_else(|e| panic!("{e}"));
            for p in half {
                let s = Sample {
                    position: p.clone(),
                    score: -12,
                    outcome: Outcome::Draw,
                };
                w.write(&s).unwrap_or_else(|e| panic!("{e}"));
            }
            w.flush().unwrap_or_else(|e| panic!("{e}"));
        }
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(bytes.len(), DATA_HEADER + 10 * RECORD);
        let all = read(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all.len(), 10);
        assert_eq!(all[7].position.hash(), positions[7].hash());

        match decode_all(&bytes[..bytes.len() - 5]) {
            Err(DataError::Truncated {
                samples,
                extra_bytes,
            }) => assert_eq!((samples.len(), extra_bytes), (9, RECORD - 5)),
            other => panic!("{other:?}"),
        }
        let mut bad = bytes.clone();
        bad[DATA_HEADER + 3 * RECORD + 30] = 9;
        match decode_all(&bad) {
            Err(e @ DataError::BadRecord { index: 3, .. }) => {
                assert!(
                    e.to_string()
                        .contains(&format!("byte {}", DATA_HEADER + 3 * RECORD))
                )
            }
            other => panic!("{other:?}"),
        }
        // A record whose Black general became an advisor has a side without its general.
        let mut bad = bytes.clone();
        let codes = &mut bad[DATA_HEADER + 12..DATA_HEADER + 28];
        let nibble = (0..32)
            .find(|&n| (codes[n / 2] >> (4 * (n % 2))) & 15 == 8)
            .unwrap_or_else(|| panic!("the Black general is written"));
        codes[nibble / 2] ^= (8 ^ 9) << (4 * (nibble % 2));
        match decode_all(&bad) {
            Err(DataError::BadRecord { index: 0, why, .. }) => {
                assert_eq!(why, "a side without its general")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            decode_all(b"CHUHENNU...."),
            Err(DataError::NotData)
        ));
        std::fs::remove_dir_all(&dir).ok();
    }
}
