//! Game collections (棋谱库): many games in one SQLite file, with an index of every position
//! of every game's main line, so that "what was played here, and how did it go" is answered
//! in milliseconds over a million games.
//!
//! One collection is one file the user can copy. It holds:
//! - `games`: one row per game, its headers as columns (players, event, date, site, round,
//!   result, ECCO), its main line packed a byte a move, and the whole record as PGN only
//!   when it has more than the main line (comments, variations), so a plain game costs a
//!   few hundred bytes;
//! - `positions`: one row per position of a main line — the Zobrist key and one packed
//!   number holding the game, its year, the ply, the result and the move played next
//!   ([`Occurrence`]) — clustered on (run of 65,536 games, key): a position's games are one
//!   short range per run, so that a million games cost some sixteen seeks, few enough to
//!   answer quickly from a cold disk. A run is written once, whole and in key order, at
//!   the end of the table, when its last game arrives;
//! - `recent`: the same rows for the last run, still incomplete, which later imports add to;
//!   the games an import is writing are indexed when their run is complete or the import
//!   ends (a killed import's are indexed when the collection is next opened);
//! - `material`: for the endgame phase, the first ply at which each game reaches each
//!   material balance (车马兵 vs 车士象全);
//! - `hot`: the next-move statistics of the few positions that very many games reach (the
//!   first moves of the openings), summed once, so that asking about the start position
//!   does not count a million rows. Each hot position records the last game its sums cover;
//!   games imported after it are counted from `positions`, so an answer is always exact.
//!
//! Imports run a transaction per batch of games: a killed import leaves the collection as
//! it was after the last whole batch.

mod generate;
mod import;
mod material;
mod prepare;
mod query;

pub use generate::{GeneratorOptions, random_games};
pub use import::{ImportFailure, ImportProblem, ImportProgress, ImportReport};
pub use material::{MaterialKey, MaterialKeyError};
pub use query::{
    Explore, GameFilter, GameInfo, GamePage, GameSort, MoveStats, PositionGame, PositionPage,
    ResultFilter,
};

/// SQLite's error and its kinds, as [`DbError::Sqlite`] carries them, for callers that
/// put them into words of their own.
pub use rusqlite::{Error as SqliteError, ErrorCode as SqliteCode};

use crate::record::GameResult;
use rusqlite::{Connection, OpenFlags};
use std::fmt;
use std::path::{Path, PathBuf};

/// The file extension of a collection.
pub const EXTENSION: &str = "chuhedb";

/// The schema version this build reads and writes.
const SCHEMA_VERSION: i64 = 2;

/// A position reached by at least this many games is summed in the `hot` table.
const HOT_THRESHOLD: u64 = 2000;

/// A collection of games in one SQLite file.
pub struct Collection {
    conn: Connection,
    path: PathBuf,
    geometry: Geometry,
}

/// Why a collection could not be opened, read or written.
#[derive(Debug)]
pub enum DbError {
    /// SQLite refused (the file is not a database, is damaged, the disk is full, ...).
    Sqlite {
        /// The collection's file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The file is an SQLite database but not a Chuhe collection.
    NotACollection {
        /// The file.
        path: PathBuf,
    },
    /// The collection was written by a newer Chuhe.
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
    },
    /// The collection was written by an earlier test build, whose index this one does not
    /// read: its games must be imported again.
    OlderVersion {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
    },
    /// A stored game could not be read back (its row is damaged).
    DamagedGame {
        /// The game's number in the collection.
        id: i64,
        /// What is wrong with it.
        why: String,
    },
    /// No game with this number.
    NoSuchGame {
        /// The number asked for.
        id: i64,
    },
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Sqlite { path, source } => {
                write!(f, "collection {}: {source}", path.display())
            }
            DbError::NotACollection { path } => {
                write!(
                    f,
                    "{} is a database but not a Chuhe collection",
                    path.display()
                )
            }
            DbError::NewerVersion { path, found } => write!(
                f,
                "collection {} has format {found}, newer than this program reads ({SCHEMA_VERSION})",
                path.display()
            ),
            DbError::OlderVersion { path, found } => write!(
                f,
                "collection {} has format {found}, older than this program reads ({SCHEMA_VERSION}): import its games again",
                path.display()
            ),
            DbError::DamagedGame { id, why } => write!(f, "game {id} is damaged: {why}"),
            DbError::NoSuchGame { id } => write!(f, "no game {id} in the collection"),
        }
    }
}

impl std::error::Error for DbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DbError::Sqlite { source, .. } => Some(source),
            _ => None,
        }
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    red TEXT NOT NULL, black TEXT NOT NULL, event TEXT NOT NULL, site TEXT NOT NULL,
    date TEXT NOT NULL, year INTEGER, round TEXT NOT NULL,
    result INTEGER NOT NULL, ecco TEXT NOT NULL,
    plies INTEGER NOT NULL, start TEXT, moves BLOB NOT NULL, tags TEXT NOT NULL,
    pgn TEXT, source TEXT NOT NULL, dup INTEGER NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS games_red ON games (red);
CREATE INDEX IF NOT EXISTS games_black ON games (black);
CREATE INDEX IF NOT EXISTS games_ecco ON games (ecco);
CREATE TABLE IF NOT EXISTS positions (
    bkey INTEGER NOT NULL, occ INTEGER NOT NULL, PRIMARY KEY (bkey, occ)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS recent (
    bkey INTEGER NOT NULL, occ INTEGER NOT NULL, PRIMARY KEY (bkey, occ)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS material (
    sig INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY (sig, game)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hot (
    key INTEGER NOT NULL, move INTEGER NOT NULL, games INTEGER NOT NULL,
    red_wins INTEGER NOT NULL, draws INTEGER NOT NULL, black_wins INTEGER NOT NULL,
    year_sum INTEGER NOT NULL, year_count INTEGER NOT NULL, last_year INTEGER,
    PRIMARY KEY (key, move)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS hot_keys (key INTEGER PRIMARY KEY, covered INTEGER NOT NULL);
";

/// Turns SQLite's errors into [`DbError::Sqlite`] for the collection at `path` (for code
/// that holds a transaction, and so cannot borrow the collection to call `err`).
pub(crate) fn sqlite_error(path: PathBuf) -> impl Fn(rusqlite::Error) -> DbError {
    move |source| DbError::Sqlite {
        path: path.clone(),
        source,
    }
}

/// The number of the last game written (indexed or not), 0 in an empty collection.
pub(crate) fn last_game(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))
}

impl Collection {
    /// Opens the collection at `path`, creating an empty one if there is no file. Games a
    /// killed import wrote without indexing them are indexed now.
    pub fn open(path: &Path) -> Result<Collection, DbError> {
        Collection::open_with_block_bits(path, BLOCK_BITS as u32)
    }

    /// [`Collection::open`], a new collection getting blocks of `2^block_bits` games
    /// (runs of sixteen blocks) instead of 4096: tests make small collections that cross
    /// many runs. An existing collection keeps its own.
    #[doc(hidden)]
    pub fn open_with_block_bits(path: &Path, block_bits: u32) -> Result<Collection, DbError> {
        let block_bits = i64::from(block_bits.clamp(1, BLOCK_BITS as u32));
        let sql = &sqlite_error(path.to_owned());
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sql)?;
        // WAL: readers and one writer at once, and a commit costs one append; NORMAL
        // synchronisation keeps every committed batch through a killed process.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(sql)?;
        conn.pragma_update(None, "cache_size", -262_144)
            .map_err(sql)?;
        conn.pragma_update(None, "temp_store", "MEMORY")
            .map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        let mut collection = Collection {
            conn,
            path: path.to_owned(),
            geometry: Geometry { block_bits },
        };
        collection.check_or_create(block_bits)?;
        collection.geometry = collection.stored_geometry()?;
        match collection.catch_up() {
            // An import writing into the collection now holds it: its games are indexed
            // when it ends, and meanwhile the answers leave them out.
            Err(DbError::Sqlite { source, .. })
                if source.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => {}
            other => other?,
        }
        Ok(collection)
    }

    /// Opens an existing collection only for reading (queries from another thread while
    /// an import writes).
    pub fn open_read_only(path: &Path) -> Result<Collection, DbError> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| DbError::Sqlite {
            path: path.to_owned(),
            source,
        })?;
        let mut collection = Collection {
            conn,
            path: path.to_owned(),
            geometry: Geometry {
                block_bits: BLOCK_BITS,
            },
        };
        collection.check_version()?;
        collection.geometry = collection.stored_geometry()?;
        Ok(collection)
    }

    /// The collection's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn stored_geometry(&self) -> Result<Geometry, DbError> {
        let bits = self.meta("block_bits")?;
        Ok(Geometry {
            block_bits: if (1..=BLOCK_BITS).contains(&bits) {
                bits
            } else {
                BLOCK_BITS
            },
        })
    }

    fn check_or_create(&self, block_bits: i64) -> Result<(), DbError> {
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        if tables == 0 {
            self.conn.execute_batch(SCHEMA).map_err(|e| self.err(e))?;
            self.conn
                .execute(
                    "INSERT INTO meta (name, value) VALUES ('schema', ?1), ('block_bits', ?2)",
                    [SCHEMA_VERSION, block_bits],
                )
                .map_err(|e| self.err(e))?;
            return Ok(());
        }
        self.check_version()
    }

    fn check_version(&self) -> Result<(), DbError> {
        let version: Option<i64> = self
            .conn
            .query_row("SELECT value FROM meta WHERE name = 'schema'", [], |r| {
                r.get(0)
            })
            .ok();
        match version {
            None => Err(DbError::NotACollection {
                path: self.path.clone(),
            }),
            Some(v) if v > SCHEMA_VERSION => Err(DbError::NewerVersion {
                path: self.path.clone(),
                found: v,
            }),
            Some(v) if v < SCHEMA_VERSION => Err(DbError::OlderVersion {
                path: self.path.clone(),
                found: v,
            }),
            Some(_) => Ok(()),
        }
    }

    fn err(&self, source: rusqlite::Error) -> DbError {
        DbError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    fn meta(&self, name: &str) -> Result<i64, DbError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .unwrap_or(0))
    }

    /// How many games the collection holds.
    pub fn game_count(&self) -> Result<u64, DbError> {
        self.conn
            .query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// How many positions the index holds (one per position of each game's main line).
    pub fn position_count(&self) -> Result<u64, DbError> {
        Ok(self.meta("positions")? as u64)
    }
}

/// Games per block of the position index (as a power of two): a block is the unit a
/// row's game is numbered in.
pub(crate) const BLOCK_BITS: i64 = 12;

/// Blocks per run (as a power of two). A run is written once, when its last game arrives,
/// in key order at the end of the index: a position's games are then one short range per
/// run, and a query at a million games makes sixteen seeks, not the 245 that one per block
/// cost (about 25 ms each from a cold disk, p99 up to 260 ms).
pub(crate) const RUN_BITS: i64 = 4;

/// The highest run the index keys have room for (a run in the top bits, above the
/// 48-bit position key and the block): 2048 runs, 134 million games.
const MAX_RUN: i64 = (1 << (63 - 48 - RUN_BITS)) - 1;

/// How a collection's games are cut into blocks and runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub block_bits: i64,
}

impl Geometry {
    /// The block of a game (numbers start at 1: games 1 to 4096 are block 0).
    pub fn block(self, game: i64) -> i64 {
        (game.max(1) - 1) >> self.block_bits
    }

    /// A game's place in its block.
    fn offset(self, game: i64) -> i64 {
        (game.max(1) - 1) & ((1 << self.block_bits) - 1)
    }

    /// The run of a game.
    pub fn run(self, game: i64) -> i64 {
        self.block(game) >> RUN_BITS
    }

    /// Games per run.
    pub fn run_games(self) -> i64 {
        1 << (self.block_bits + RUN_BITS)
    }

    /// The key of a row of `game` inside its run: the position's [`short_key`], then the
    /// game's block in the run, so that the games of a position are one range of a run.
    pub fn row_key(self, short: i64, game: i64) -> i64 {
        (short << RUN_BITS) | (self.block(game) & ((1 << RUN_BITS) - 1))
    }

    /// The `positions` key of a row of a complete run.
    pub fn run_key(run: i64, row_key: i64) -> i64 {
        (run.min(MAX_RUN) << (48 + RUN_BITS)) | row_key
    }

    /// The block of a row of `run` with the row key `row_key`.
    pub fn block_of_row(run: i64, row_key: i64) -> i64 {
        (run << RUN_BITS) | (row_key & ((1 << RUN_BITS) - 1))
    }
}

/// The part of a Zobrist key the index keeps (and the `hot` tables): its top 48 bits. The
/// chance that two of a collection's positions share them is about one in ten million per
/// query at a million games.
pub(crate) fn short_key(key: u64) -> i64 {
    (key >> 16) as i64
}

/// One row of the position index: a game that reached a position, its year, at which ply,
/// with which result, and the move it played next. Packed into one number under six bytes
/// so that a row is about 20 bytes: bits 32..44 the game's place in its block, 24..32 the
/// year (1801–2055, 0 unknown), 15..24 the ply, 13..15 the result, 0..13 the next move
/// (`from × 90 + to`, or [`Occurrence::NO_MOVE`] where the game ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Occurrence {
    pub game: i64,
    pub year: Option<i32>,
    pub ply: u32,
    pub result: GameResult,
    pub next: Option<crate::Move>,
}

impl Occurrence {
    const NO_MOVE: i64 = 0x1FFF;
    /// Plies past this are not indexed (no real game is that long).
    pub const MAX_PLY: u32 = 511;

    pub fn pack(self, g: Geometry) -> i64 {
        let year = self
            .year
            .filter(|y| (1801..=2055).contains(y))
            .map_or(0, |y| i64::from(y - 1800));
        (g.offset(self.game) << 32)
            | (year << 24)
            | (i64::from(self.ply.min(Self::MAX_PLY)) << 15)
            | (result_code(self.result) << 13)
            | self.next.map_or(Self::NO_MOVE, move_code)
    }

    pub fn unpack(g: Geometry, block: i64, occ: i64) -> Occurrence {
        let year = (occ >> 24) & 0xFF;
        Occurrence {
            game: ((block << g.block_bits) | ((occ >> 32) & ((1 << g.block_bits) - 1))) + 1,
            year: (year > 0).then_some(1800 + year as i32),
            ply: ((occ >> 15) & 0x1FF) as u32,
            result: result_from_code((occ >> 13) & 3),
            next: move_from_code(occ & 0x1FFF),
        }
    }

    /// The code of the next move, as the sums are keyed.
    pub fn move_key(self) -> i64 {
        self.next.map_or(Self::NO_MOVE, move_code)
    }
}

pub(crate) fn move_code(m: crate::Move) -> i64 {
    i64::from(m.from.index()) * 90 + i64::from(m.to.index())
}

pub(crate) fn move_from_code(code: i64) -> Option<crate::Move> {
    if !(0..8100).contains(&code) {
        return None;
    }
    let from = crate::Square::from_index((code / 90) as u8)?;
    let to = crate::Square::from_index((code % 90) as u8)?;
    Some(crate::Move::new(from, to))
}

pub(crate) fn result_code(r: GameResult) -> i64 {
    match r {
        GameResult::RedWins => 0,
        GameResult::Draw => 1,
        GameResult::BlackWins => 2,
        GameResult::Unknown => 3,
    }
}

pub(crate) fn result_from_code(code: i64) -> GameResult {
    match code {
        0 => GameResult::RedWins,
        1 => GameResult::Draw,
        2 => GameResult::BlackWins,
        _ => GameResult::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Position};

    #[test]
    fn an_occurrence_packs_and_unpacks_every_field() {
        let pos = Position::startpos();
        for block_bits in [4, BLOCK_BITS] {
            let g = Geometry { block_bits };
            for (i, m) in pos.legal_moves().iter().enumerate() {
                for result in [
                    GameResult::RedWins,
                    GameResult::Draw,
                    GameResult::BlackWins,
                    GameResult::Unknown,
                ] {
                    let occ = Occurrence {
                        // Games in the run there is room for, at either size.
                        game: (block_bits << 16) + 977 * i as i64,
                        year: [None, Some(1801), Some(1987), Some(2055)][i % 4],
                        ply: (i as u32 * 7) % 512,
                        result,
                        next: Some(*m),
                    };
                    let packed = occ.pack(g);
                    assert!(packed < 1 << 47, "six bytes");
                    assert_eq!(Occurrence::unpack(g, g.block(occ.game), packed), occ);
                    // The row key names the block inside the run.
                    let row = g.row_key(0x1234_5678_9ABC, occ.game);
                    let key = Geometry::run_key(g.run(occ.game), row);
                    assert!(key > 0, "fits a positive 64-bit integer");
                    assert_eq!(
                        Geometry::block_of_row(key >> (48 + RUN_BITS), row),
                        g.block(occ.game)
                    );
                }
            }
        }
        let g = Geometry {
            block_bits: BLOCK_BITS,
        };
        let end = Occurrence {
            game: 7,
            year: None,
            ply: 511,
            result: GameResult::Draw,
            next: None,
        };
        assert_eq!(Occurrence::unpack(g, 0, end.pack(g)), end);
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(move_from_code(move_code(m)), Some(m));
        // The last run there is room for still keys within 63 bits.
        assert!(Geometry::run_key(MAX_RUN, (0xFFFF_FFFF_FFFF << RUN_BITS) | 15) > 0);
    }

    #[test]
    fn a_file_that_is_not_a_collection_is_refused() {
        let dir = std::env::temp_dir().join(format!("chuhe-db-not-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("other.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE t (x INTEGER);").unwrap();
        }
        assert!(matches!(
            Collection::open(&path),
            Err(DbError::NotACollection { .. })
        ));
        let text = dir.join("text.chuhedb");
        std::fs::write(&text, "not a database at all, just some words").unwrap();
        assert!(matches!(
            Collection::open(&text),
            Err(DbError::Sqlite { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
