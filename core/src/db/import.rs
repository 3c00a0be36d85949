//! Importing game files and folders into a collection: files are read and prepared on
//! worker threads, in file order, and written by one thread a batch at a time, each batch
//! one transaction.

use super::prepare::{Prepared, unpack_moves};
use super::query::{MoveSums, indexed_through, occurrences};
use super::{
    Collection, DbError, Geometry, HOT_THRESHOLD, Occurrence, last_game, result_code, short_key,
    sqlite_error,
};
use crate::Position;
use crate::gamefile::{self, Damage, ReadError};
use crate::record::Record;
use rusqlite::{Connection, TransactionBehavior};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

/// Games written per transaction.
const BATCH: usize = 4096;

/// Positions up to this ply are counted during an import, to find those many games reach.
const POPULAR_PLY: u32 = 12;

/// A position met this often in one import has its sums kept if the whole collection
/// reaches it [`HOT_THRESHOLD`] times.
const POPULAR_IN_RUN: u32 = 64;

/// How far an import has come.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportProgress {
    /// Files read so far.
    pub files_done: usize,
    /// Files to read in all.
    pub files_total: usize,
    /// New games written.
    pub games: u64,
    /// Games already in the collection (merged into the one there).
    pub duplicates: u64,
    /// Games or files that could not be read.
    pub failed: u64,
    /// Positions added to the index.
    pub positions: u64,
}

/// What an import did.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// The totals.
    pub progress: ImportProgress,
    /// Every file or game that could not be read, with why.
    pub failures: Vec<ImportFailure>,
    /// Whether it was stopped before the end (what was written stays).
    pub cancelled: bool,
}

/// A file, or one game of it, that could not be imported.
#[derive(Debug)]
pub struct ImportFailure {
    /// The file.
    pub file: PathBuf,
    /// Why.
    pub problem: ImportProblem,
}

/// Why a file or a game could not be imported.
#[derive(Debug)]
pub enum ImportProblem {
    /// The file could not be read from the disk.
    Io(std::io::Error),
    /// The file, or one game of it, is not a readable game ([`ReadError`] says where).
    Read(ReadError),
    /// The file holds no game.
    NoGames,
}

impl std::fmt::Display for ImportFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.file.display())?;
        match &self.problem {
            ImportProblem::Io(e) => write!(f, "{e}"),
            ImportProblem::Read(e) => write!(f, "{e}"),
            ImportProblem::NoGames => f.write_str("no game in this file"),
        }
    }
}

/// What a worker made of one file.
type FileResult = (Vec<Prepared>, Vec<ImportFailure>);

/// The game files named by `inputs`: files as given, folders searched through (their
/// sub-folders too) for files with a game file's extension, in name order.
pub fn collect_files(inputs: &[PathBuf]) -> (Vec<PathBuf>, Vec<ImportFailure>) {
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, &mut files, &mut failures);
        } else {
            files.push(input.clone());
        }
    }
    (files, failures)
}

/// The game files of `dir` and its sub-folders, in name order, folder by folder. One pass
/// over each folder, the entry's own type deciding (no second look at each file: a
/// collection's folders can hold tens of thousands).
fn walk(dir: &Path, files: &mut Vec<PathBuf>, failures: &mut Vec<ImportFailure>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            failures.push(ImportFailure {
                file: dir.to_owned(),
                problem: ImportProblem::Io(e),
            });
            return;
        }
    };
    let mut here = Vec::new();
    let mut dirs = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        // A link is followed to what it points at.
        let kind = match entry.file_type() {
            Ok(t) if t.is_symlink() => std::fs::metadata(&path).map(|m| m.file_type()),
            other => other,
        };
        match kind {
            Ok(t) if t.is_dir() => dirs.push(path),
            Ok(t) if t.is_file() && gamefile::has_game_file_extension(&path) => here.push(path),
            _ => {}
        }
    }
    here.sort();
    files.extend(here);
    dirs.sort();
    for d in dirs {
        walk(&d, files, failures);
    }
}

/// Reads one file; a game whose duplicate key is already in `seen` (met earlier in this
/// import) is only prepared as far as merging it needs.
fn read_one(path: &Path, seen: &Mutex<HashSet<i64>>) -> FileResult {
    let fail = |problem| ImportFailure {
        file: path.to_owned(),
        problem,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return (Vec::new(), vec![fail(ImportProblem::Io(e))]),
    };
    let source = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut games = Vec::new();
    let mut failures = Vec::new();
    for game in gamefile::games(&bytes, Some(path), Damage::Refuse) {
        match game {
            Ok(record) => {
                let mut game = Prepared::headers(&record, &source);
                let new = seen.lock().map(|mut s| s.insert(game.dup)).unwrap_or(true);
                if new {
                    game.index();
                }
                games.push(game);
            }
            Err(e) => failures.push(fail(ImportProblem::Read(e))),
        }
    }
    if games.is_empty() && failures.is_empty() {
        failures.push(fail(ImportProblem::NoGames));
    }
    (games, failures)
}

/// An index row waiting to be written: its game, its key inside the game's run
/// ([`Geometry::row_key`]) and the packed [`Occurrence`].
struct Row {
    game: i64,
    key: i64,
    occ: i64,
}

/// The index rows of games written but not yet indexed (those after the last game the
/// index covers), kept until their run is complete, or the import ends.
#[derive(Default)]
struct Pending {
    rows: Vec<Row>,
}

/// Adds `n` to the count of index rows kept beside them.
fn count_positions(conn: &Connection, n: usize) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO meta (name, value) VALUES ('positions', ?1)
         ON CONFLICT (name) DO UPDATE SET value = value + ?1",
        [n as i64],
    )?;
    Ok(())
}

/// Records that the index covers every game up to `game`.
fn set_indexed(conn: &Connection, game: i64) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO meta (name, value) VALUES ('indexed', ?1)
         ON CONFLICT (name) DO UPDATE SET value = ?1",
        [game],
    )?;
    Ok(())
}

impl Pending {
    /// Drops the rows of games that another connection indexed meanwhile (one that
    /// opened the collection while this import ran, and caught up with its games).
    fn forget_indexed(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let indexed = indexed_through(conn)?;
        self.rows.retain(|r| r.game > indexed);
        Ok(())
    }

    /// Writes every run whose last game is written: its rows from `recent` and from here,
    /// in key order, at the end of `positions`; `recent` is then empty.
    fn write_complete_runs(&mut self, conn: &Connection, g: Geometry) -> rusqlite::Result<()> {
        let last = last_game(conn)?;
        let mut indexed = indexed_through(conn)?;
        loop {
            let run = indexed / g.run_games();
            let end = (run + 1) * g.run_games();
            if end > last {
                return Ok(());
            }
            let mut rows: Vec<(i64, i64)> = Vec::new();
            {
                let mut stmt = conn.prepare_cached("SELECT bkey, occ FROM recent")?;
                let mut old = stmt.query([])?;
                while let Some(r) = old.next()? {
                    rows.push((Geometry::run_key(run, r.get(0)?), r.get(1)?));
                }
            }
            let before = rows.len();
            rows.extend(
                self.rows
                    .iter()
                    .filter(|r| r.game <= end)
                    .map(|r| (Geometry::run_key(run, r.key), r.occ)),
            );
            let new = rows.len() - before;
            // In key order the run is appended: its pages are written once, and full.
            rows.sort_unstable();
            let mut put =
                conn.prepare_cached("INSERT OR IGNORE INTO positions (bkey, occ) VALUES (?1, ?2)")?;
            for &(key, occ) in &rows {
                put.execute([key, occ])?;
            }
            conn.execute("DELETE FROM recent", [])?;
            self.rows.retain(|r| r.game > end);
            count_positions(conn, new)?;
            set_indexed(conn, end)?;
            indexed = end;
        }
    }

    /// Writes everything pending: the runs now complete, and the rest to `recent`.
    fn write_all(&mut self, conn: &Connection, g: Geometry) -> rusqlite::Result<()> {
        self.forget_indexed(conn)?;
        self.write_complete_runs(conn, g)?;
        self.write_rest(conn)
    }

    /// Writes the rows left (all of the last run, still incomplete) to `recent`: the
    /// index then covers every game written.
    fn write_rest(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let mut rows: Vec<(i64, i64)> = self.rows.iter().map(|r| (r.key, r.occ)).collect();
        rows.sort_unstable();
        let mut put =
            conn.prepare_cached("INSERT OR IGNORE INTO recent (bkey, occ) VALUES (?1, ?2)")?;
        for &(key, occ) in &rows {
            put.execute([key, occ])?;
        }
        count_positions(conn, rows.len())?;
        set_indexed(conn, last_game(conn)?)?;
        self.rows.clear();
        Ok(())
    }
}

impl Collection {
    /// Imports the game files named by `inputs` (files, or folders searched through),
    /// calling `progress` now and then; stops between batches once `cancel` is set.
    /// Every batch written stays written, whatever happens after it.
    pub fn import_paths(
        &mut self,
        inputs: &[PathBuf],
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ImportProgress),
    ) -> Result<ImportReport, DbError> {
        let (files, mut failures) = collect_files(inputs);
        self.catch_up()?;
        let mut pending = Pending::default();
        let mut popular = HashMap::new();
        let mut report = ImportReport::default();
        report.progress.files_total = files.len();
        report.progress.failed = failures.len() as u64;
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 4);
        let next = AtomicUsize::new(0);
        let seen = Mutex::new(HashSet::new());
        // Room for a whole batch of files, so that the readers go on while a batch is written.
        let (tx, rx) = mpsc::sync_channel::<(usize, FileResult)>(BATCH);
        let result = std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = tx.clone();
                let (next, files, seen) = (&next, &files, &seen);
                scope.spawn(move || {
                    loop {
                        if cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        if tx.send((i, read_one(path, seen))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Owned here, so that however this ends the workers' sends fail and they stop.
            let rx = rx;
            // Files come back in any order; they are written in the order given, so
            // that game numbers do not depend on the threads.
            let mut waiting: BTreeMap<usize, FileResult> = BTreeMap::new();
            let mut expected = 0;
            let mut batch: Vec<Prepared> = Vec::with_capacity(BATCH);
            for (i, result) in rx.iter() {
                waiting.insert(i, result);
                while let Some((games, failed)) = waiting.remove(&expected) {
                    expected += 1;
                    report.progress.files_done += 1;
                    report.progress.failed += failed.len() as u64;
                    failures.extend(failed);
                    batch.extend(games);
                    if batch.len() >= BATCH {
                        self.write_batch(
                            &mut batch,
                            &mut report.progress,
                            &mut popular,
                            &mut pending,
                        )?;
                        progress(&report.progress);
                    }
                }
                if cancel.load(Ordering::Relaxed) {
                    report.cancelled = true;
                    break;
                }
            }
            // A cancelled import drops the games read since the last batch: never written,
            // they leave the collection as it was after that batch.
            if !report.cancelled {
                self.write_batch(&mut batch, &mut report.progress, &mut popular, &mut pending)?;
            }
            Ok(())
        });
        // Workers stop at the cancel flag; the channel is dropped with the scope.
        result?;
        self.finish_index(&mut pending)?;
        self.refresh_hot(&popular)?;
        self.compact_after(report.progress.positions)?;
        progress(&report.progress);
        report.failures = failures;
        Ok(report)
    }

    /// Imports games already in memory (from the generator, or a file the app has open),
    /// named `source`, a batch per transaction. Gives the totals.
    pub fn import_records<I>(
        &mut self,
        records: I,
        source: &str,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&ImportProgress),
    ) -> Result<ImportReport, DbError>
    where
        I: IntoIterator<Item = Record>,
        I::IntoIter: Send,
    {
        self.catch_up()?;
        let mut pending = Pending::default();
        let mut report = ImportReport::default();
        let mut popular = HashMap::new();
        let mut records = records.into_iter();
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 4);
        // The next batch is made and prepared on other threads while this one writes.
        let (tx, rx) = mpsc::sync_channel::<Vec<Prepared>>(1);
        let result = std::thread::scope(|scope| {
            scope.spawn(move || {
                while !cancel.load(Ordering::Relaxed) {
                    let chunk: Vec<Record> = records.by_ref().take(BATCH).collect();
                    if chunk.is_empty()
                        || tx.send(prepare_parallel(&chunk, source, workers)).is_err()
                    {
                        break;
                    }
                }
            });
            // Owned here, so that however this ends the maker's send fails and it stops.
            let rx = rx;
            for mut batch in rx.iter() {
                if cancel.load(Ordering::Relaxed) {
                    report.cancelled = true;
                    break;
                }
                self.write_batch(&mut batch, &mut report.progress, &mut popular, &mut pending)?;
                progress(&report.progress);
            }
            if cancel.load(Ordering::Relaxed) {
                report.cancelled = true;
            }
            Ok::<(), DbError>(())
        });
        result?;
        self.finish_index(&mut pending)?;
        self.refresh_hot(&popular)?;
        self.compact_after(report.progress.positions)?;
        Ok(report)
    }

    /// Writes a batch of games in one transaction and empties it.
    fn write_batch(
        &mut self,
        batch: &mut Vec<Prepared>,
        progress: &mut ImportProgress,
        popular: &mut HashMap<u64, u32>,
        pending: &mut Pending,
    ) -> Result<(), DbError> {
        if batch.is_empty() {
            return Ok(());
        }
        let sql = &sqlite_error(self.path.clone());
        let geometry = self.geometry;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        pending.forget_indexed(&tx).map_err(sql)?;
        let mut material: Vec<(i64, i64, i64)> = Vec::new();
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO games (red, black, event, site, date, year, round,
                     result, ecco, plies, start, moves, tags, pgn, source, dup)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,
                     ?16)",
                )
                .map_err(sql)?;
            // A game met again keeps its first copy, with any header, comment or
            // variation the new copy has and the first lacks.
            let mut merge = tx
                .prepare_cached(
                    "UPDATE games SET
                       event = CASE WHEN event = '' THEN ?2 ELSE event END,
                       site = CASE WHEN site = '' THEN ?3 ELSE site END,
                       date = CASE WHEN date = '' THEN ?4 ELSE date END,
                       year = coalesce(year, ?5),
                       round = CASE WHEN round = '' THEN ?6 ELSE round END,
                       pgn = coalesce(pgn, ?7)
                     WHERE dup = ?1",
                )
                .map_err(sql)?;
            let mut known = tx
                .prepare_cached("SELECT 1 FROM games WHERE dup = ?1")
                .map_err(sql)?;
            for g in batch.iter_mut() {
                // A copy met earlier in the import was not indexed; it is, if the game
                // turns out not to be in the collection after all (its first copy came
                // later in the files than this one).
                if !g.is_indexed() && !known.exists([g.dup]).map_err(sql)? {
                    g.index();
                }
                let inserted = insert
                    .execute(rusqlite::params![
                        g.red,
                        g.black,
                        g.event,
                        g.site,
                        g.date,
                        g.year,
                        g.round,
                        result_code(g.result),
                        g.ecco,
                        g.plies,
                        g.start,
                        g.moves,
                        g.tags,
                        g.pgn,
                        g.source,
                        g.dup
                    ])
                    .map_err(sql)?;
                if inserted == 0 {
                    progress.duplicates += 1;
                    merge
                        .execute(rusqlite::params![
                            g.dup, g.event, g.site, g.date, g.year, g.round, g.pgn
                        ])
                        .map_err(sql)?;
                    continue;
                }
                let game = tx.last_insert_rowid();
                progress.games += 1;
                for &(key, ply, next) in &g.positions {
                    let occ = Occurrence {
                        game,
                        year: g.year,
                        ply,
                        result: g.result,
                        next,
                    };
                    pending.rows.push(Row {
                        game,
                        key: geometry.row_key(short_key(key), game),
                        occ: occ.pack(geometry),
                    });
                    if ply <= POPULAR_PLY {
                        *popular.entry(key).or_insert(0) += 1;
                    }
                }
                progress.positions += g.positions.len() as u64;
                for &(sig, ply) in &g.material {
                    material.push((i64::from(sig), game, i64::from(ply)));
                }
            }
            material.sort_unstable();
            let mut put = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO material (sig, game, ply) VALUES (?1, ?2, ?3)",
                )
                .map_err(sql)?;
            for &(sig, game, ply) in &material {
                put.execute([sig, game, ply]).map_err(sql)?;
            }
        }
        pending.write_complete_runs(&tx, geometry).map_err(sql)?;
        tx.commit().map_err(sql)?;
        batch.clear();
        Ok(())
    }

    /// Indexes what is pending at the end of an import: the rows of the last run, still
    /// incomplete, go to `recent`.
    fn finish_index(&mut self, pending: &mut Pending) -> Result<(), DbError> {
        let g = self.geometry;
        let sql = &sqlite_error(self.path.clone());
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        pending.write_all(&tx, g).map_err(sql)?;
        tx.commit().map_err(sql)
    }

    /// Indexes the games a killed or failed import wrote and did not index (those after
    /// the last game the index covers), from their stored moves.
    pub(crate) fn catch_up(&mut self) -> Result<(), DbError> {
        let g = self.geometry;
        let sql = &sqlite_error(self.path.clone());
        let indexed = indexed_through(&self.conn).map_err(sql)?;
        if last_game(&self.conn).map_err(sql)? <= indexed {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        // Read again under the write lock: another connection may have caught up first.
        let indexed = indexed_through(&tx).map_err(sql)?;
        let mut pending = Pending::default();
        {
            let mut stmt = tx
                .prepare("SELECT id, year, result, start, moves FROM games WHERE id > ?1")
                .map_err(sql)?;
            let mut rows = stmt.query([indexed]).map_err(sql)?;
            while let Some(r) = rows.next().map_err(sql)? {
                let game: i64 = r.get(0).map_err(sql)?;
                let year: Option<i32> = r.get(1).map_err(sql)?;
                let result = super::result_from_code(r.get(2).map_err(sql)?);
                let start = match r.get::<_, Option<String>>(3).map_err(sql)? {
                    Some(fen) => match fen.parse::<Position>() {
                        Ok(p) => p,
                        Err(_) => continue,
                    },
                    None => Position::startpos(),
                };
                let bytes: Vec<u8> = r.get(4).map_err(sql)?;
                // A damaged row has no index (and the game says so when it is opened).
                let Some(moves) = unpack_moves(&start, &bytes) else {
                    continue;
                };
                for (key, ply, next) in super::prepare::positions(&start, &moves) {
                    let occ = Occurrence {
                        game,
                        year,
                        ply,
                        result,
                        next,
                    };
                    pending.rows.push(Row {
                        game,
                        key: g.row_key(short_key(key), game),
                        occ: occ.pack(g),
                    });
                }
            }
        }
        pending.write_all(&tx, g).map_err(sql)?;
        tx.commit().map_err(sql)
    }

    /// Packs the file after an import that made up a good part of the collection (a new
    /// collection, a bulk build): the index's B-tree, filled in order, leaves an eighth of
    /// each page empty, which `VACUUM` packs (a million games: 2.1 GB to 1.87 GB, in about
    /// fifteen seconds). Imports under five million positions (some sixty thousand games)
    /// leave the file as it is: a few megabytes are not worth the wait.
    fn compact_after(&mut self, added: u64) -> Result<(), DbError> {
        let total = self.position_count()?;
        if added >= 5_000_000 && added * 4 >= total {
            // The copy VACUUM makes goes to a temporary file, not memory: it is as large
            // as the collection.
            self.conn
                .execute_batch("PRAGMA temp_store = FILE; VACUUM; PRAGMA temp_store = MEMORY;")
                .map_err(|e| self.err(e))?;
        }
        Ok(())
    }

    /// Brings the sums of the positions many games reach up to date after an import: the
    /// positions already summed get the games added since; the positions this import met
    /// often (in its first plies) are counted in full, and summed if the whole collection
    /// reaches them often enough. The sums only make answers quicker: a position without
    /// them is counted from the index, so they never change an answer.
    fn refresh_hot(&mut self, popular: &HashMap<u64, u32>) -> Result<(), DbError> {
        let sql = &sqlite_error(self.path.clone());
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let last = last_game(&tx).map_err(sql)?;
        let summed: HashMap<i64, i64> = {
            let mut stmt = tx
                .prepare("SELECT key, covered FROM hot_keys")
                .map_err(sql)?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(sql)?;
            rows.collect::<Result<_, _>>().map_err(sql)?
        };
        for (&key, &covered) in &summed {
            if covered >= last {
                continue;
            }
            let tail = occurrences(&tx, self.geometry, key, covered + 1, last).map_err(sql)?;
            let mut sums = MoveSums::load(&tx, key).map_err(sql)?;
            sums.add(&tail);
            sums.store(&tx, key).map_err(sql)?;
            tx.execute(
                "UPDATE hot_keys SET covered = ?2 WHERE key = ?1",
                [key, last],
            )
            .map_err(sql)?;
        }
        for (&full_key, &count) in popular {
            let key = short_key(full_key);
            if count < POPULAR_IN_RUN || summed.contains_key(&key) {
                continue;
            }
            let all = occurrences(&tx, self.geometry, key, 0, last).map_err(sql)?;
            if (all.len() as u64) < HOT_THRESHOLD {
                continue;
            }
            MoveSums::of(&all).store(&tx, key).map_err(sql)?;
            tx.execute(
                "INSERT INTO hot_keys (key, covered) VALUES (?1, ?2)",
                [key, last],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }
}

/// Prepares records on `workers` threads, keeping their order.
fn prepare_parallel(records: &[Record], source: &str, workers: usize) -> Vec<Prepared> {
    let size = records.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(size)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|r| Prepared::new(r, source))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::db::{GeneratorOptions, random_games};

    fn games(seed: u64, count: usize) -> Vec<Record> {
        random_games(&GeneratorOptions {
            seed,
            games: count,
            players: 50,
        })
        .collect()
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhe-import-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("c.chuhedb")
    }

    #[test]
    fn sums_brought_up_to_date_equal_sums_made_at_once() {
        let (first, second) = (games(1, 3000), games(2, 500));
        let never = AtomicBool::new(false);
        let a_path = temp("twice");
        let mut a = Collection::open(&a_path).unwrap();
        a.import_records(first.clone(), "a", &never, &mut |_| {})
            .unwrap();
        // A sixth more: the popular positions are brought up to date.
        a.import_records(second.clone(), "b", &never, &mut |_| {})
            .unwrap();
        let b_path = temp("once");
        let mut b = Collection::open(&b_path).unwrap();
        b.import_records(first.into_iter().chain(second), "a", &never, &mut |_| {})
            .unwrap();
        let start = Position::startpos();
        let hot: i64 = a
            .conn
            .query_row(
                "SELECT covered FROM hot_keys WHERE key = ?1",
                [short_key(start.hash())],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(hot, 3500, "the start's sums cover every game");
        assert_eq!(
            a.explore(&start, false).unwrap(),
            b.explore(&start, false).unwrap()
        );
        assert_eq!(a.explore(&start, false).unwrap().total.games, 3500);
        for pos in b.sample_positions(50, 3).unwrap() {
            for fold in [false, true] {
                assert_eq!(
                    a.explore(&pos, fold).unwrap(),
                    b.explore(&pos, fold).unwrap()
                );
            }
        }
    }

    #[test]
    fn answers_of_two_collections_merge_into_the_answer_of_both() {
        let (first, second) = (games(5, 300), games(6, 300));
        let never = AtomicBool::new(false);
        let mut a = Collection::open(&temp("merge-a")).unwrap();
        a.import_records(first.clone(), "a", &never, &mut |_| {})
            .unwrap();
        let mut b = Collection::open(&temp("merge-b")).unwrap();
        b.import_records(second.clone(), "b", &never, &mut |_| {})
            .unwrap();
        let mut both = Collection::open(&temp("merge-both")).unwrap();
        both.import_records(first.into_iter().chain(second), "ab", &never, &mut |_| {})
            .unwrap();
        let mut positions = both.sample_positions(40, 8).unwrap();
        positions.push(Position::startpos());
        for pos in positions {
            let mut merged = a.explore(&pos, false).unwrap();
            merged.merge(b.explore(&pos, false).unwrap());
            assert_eq!(merged, both.explore(&pos, false).unwrap(), "{pos}");
        }
    }

    #[test]
    fn an_index_lost_with_a_killed_import_is_made_again_when_opened() {
        let never = AtomicBool::new(false);
        let all = games(9, 1000);
        // Runs of 256 games: three complete, the last 232 games still open.
        let path = temp("catch-up");
        let mut c = Collection::open_with_block_bits(&path, 4).unwrap();
        c.import_records(all.clone(), "x", &never, &mut |_| {})
            .unwrap();
        let runs: i64 = c
            .conn
            .query_row(
                "SELECT count(DISTINCT bkey >> 52) FROM positions",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(runs, 3);
        let open_run: i64 = c
            .conn
            .query_row("SELECT count(*) FROM recent", [], |r| r.get(0))
            .unwrap();
        assert!(open_run > 232, "{open_run} rows of the last run");
        let sample = c.sample_positions(60, 4).unwrap();
        let answers: Vec<_> = sample
            .iter()
            .map(|p| {
                (
                    c.explore(p, true).unwrap(),
                    c.games_reaching(p, false, 0, 50).unwrap().games,
                )
            })
            .collect();
        let count = c.position_count().unwrap();
        // What a kill leaves when it comes before any run is written: the games, and
        // none of their index.
        c.conn
            .execute_batch(
                "DELETE FROM positions; DELETE FROM recent;
                 UPDATE meta SET value = 0 WHERE name IN ('indexed', 'positions');",
            )
            .unwrap();
        drop(c);
        let c = Collection::open(&path).unwrap();
        assert_eq!(c.position_count().unwrap(), count);
        for (p, (explore, reaching)) in sample.iter().zip(&answers) {
            assert_eq!(&c.explore(p, true).unwrap(), explore, "{p}");
            let again = c.games_reaching(p, false, 0, 50).unwrap().games;
            let ids = |v: &[crate::db::PositionGame]| -> Vec<(i64, u32)> {
                v.iter().map(|g| (g.info.id, g.ply)).collect()
            };
            assert_eq!(ids(&again), ids(reaching), "{p}");
        }
        // And the answers are those of a collection built at once.
        let mut fresh = Collection::open(&temp("catch-up-fresh")).unwrap();
        fresh.import_records(all, "x", &never, &mut |_| {}).unwrap();
        for (p, (explore, _)) in sample.iter().zip(&answers) {
            assert_eq!(&fresh.explore(p, true).unwrap(), explore, "{p}");
        }
    }

    #[test]
    fn a_cancelled_import_keeps_the_batches_written() {
        let path = temp("cancel");
        let mut c = Collection::open(&path).unwrap();
        let cancel = AtomicBool::new(false);
        let report = c
            .import_records(games(4, 3 * BATCH), "x", &cancel, &mut |_| {
                cancel.store(true, Ordering::Relaxed)
            })
            .unwrap();
        assert!(report.cancelled);
        assert_eq!(c.game_count().unwrap(), BATCH as u64);
        assert_eq!(report.progress.games, BATCH as u64);
    }
}
