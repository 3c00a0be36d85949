//! Asking a collection: the moves played from a position and how they scored, the games
//! that reached it, games by their headers, games by material balance, one game whole.

use super::prepare::{COLUMN_HEADERS, unpack_moves};
use super::{Collection, DbError, MaterialKey, Occurrence, move_code, move_from_code};
use super::{Geometry, RUN_BITS, short_key};
use super::{result_code, result_from_code};
use crate::record::{GameResult, Record};
use crate::{Move, Position};
use rusqlite::{Connection, OptionalExtension};
use std::collections::HashMap;

/// How one move (or the whole position) scored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// The move, from the position asked about.
    pub mv: Option<Move>,
    /// Games that played it.
    pub games: u64,
    /// Of those, won by Red.
    pub red_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// Sum of the years of the games with a known year.
    pub year_sum: u64,
    /// How many games have a known year.
    pub year_count: u64,
    /// The latest year it was played.
    pub last_year: Option<i32>,
}

impl MoveStats {
    /// The average year of the games with a known year.
    pub fn average_year(&self) -> Option<f64> {
        (self.year_count > 0).then(|| self.year_sum as f64 / self.year_count as f64)
    }

    /// Games with a known result.
    pub fn decided(&self) -> u64 {
        self.red_wins + self.draws + self.black_wins
    }

    fn add_game(&mut self, result: GameResult, year: Option<i32>) {
        self.games += 1;
        match result {
            GameResult::RedWins => self.red_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWins => self.black_wins += 1,
            GameResult::Unknown => {}
        }
        if let Some(year) = year {
            self.year_sum += year.max(0) as u64;
            self.year_count += 1;
            self.last_year = self.last_year.max(Some(year));
        }
    }

    fn merge(&mut self, other: &MoveStats) {
        self.games += other.games;
        self.red_wins += other.red_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.year_sum += other.year_sum;
        self.year_count += other.year_count;
        self.last_year = self.last_year.max(other.last_year);
    }
}

/// What was played from a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explore {
    /// All games that reached it (those that ended there included), with their results.
    pub total: MoveStats,
    /// Every move played from it, most played first (then by ICCS).
    pub moves: Vec<MoveStats>,
}

impl Explore {
    /// Adds what another collection answered for the same position: the totals, and each
    /// move's counts to the same move's (a move only the other played joins the list).
    pub fn merge(&mut self, other: Explore) {
        self.total.merge(&other.total);
        for m in other.moves {
            match self.moves.iter_mut().find(|s| s.mv == m.mv) {
                Some(s) => s.merge(&m),
                None => self.moves.push(m),
            }
        }
        sort_moves(&mut self.moves);
    }
}

/// Most played first, then by ICCS: the order an explorer lists moves in.
fn sort_moves(moves: &mut [MoveStats]) {
    moves.sort_by(|a, b| {
        b.games.cmp(&a.games).then_with(|| {
            a.mv.map(|m| m.to_string())
                .cmp(&b.mv.map(|m| m.to_string()))
        })
    });
}

/// The sums of a position's occurrences by next move (code [`move_code`], or the
/// no-move code where games ended), as the `hot` table keeps them.
#[derive(Default)]
pub(crate) struct MoveSums(HashMap<i64, MoveStats>);

impl MoveSums {
    pub fn of(occurrences: &[Occurrence]) -> MoveSums {
        let mut sums = MoveSums::default();
        sums.add(occurrences);
        sums
    }

    pub fn add(&mut self, occurrences: &[Occurrence]) {
        for o in occurrences {
            self.0
                .entry(o.move_key())
                .or_insert_with(|| MoveStats {
                    mv: o.next,
                    ..MoveStats::default()
                })
                .add_game(o.result, o.year);
        }
    }

    pub fn load(conn: &Connection, key: i64) -> rusqlite::Result<MoveSums> {
        let mut stmt = conn.prepare_cached(
            "SELECT move, games, red_wins, draws, black_wins, year_sum, year_count, last_year
             FROM hot WHERE key = ?1",
        )?;
        let rows = stmt.query_map([key], |r| {
            let code: i64 = r.get(0)?;
            Ok((
                code,
                MoveStats {
                    mv: move_from_code(code),
                    games: r.get::<_, i64>(1)? as u64,
                    red_wins: r.get::<_, i64>(2)? as u64,
                    draws: r.get::<_, i64>(3)? as u64,
                    black_wins: r.get::<_, i64>(4)? as u64,
                    year_sum: r.get::<_, i64>(5)? as u64,
                    year_count: r.get::<_, i64>(6)? as u64,
                    last_year: r.get(7)?,
                },
            ))
        })?;
        Ok(MoveSums(rows.collect::<rusqlite::Result<_>>()?))
    }

    pub fn store(&self, conn: &Connection, key: i64) -> rusqlite::Result<()> {
        conn.prepare_cached("DELETE FROM hot WHERE key = ?1")?
            .execute([key])?;
        let mut put = conn.prepare_cached(
            "INSERT INTO hot (key, move, games, red_wins, draws, black_wins, year_sum,
             year_count, last_year) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        for (&code, s) in &self.0 {
            put.execute(rusqlite::params![
                key,
                code,
                s.games as i64,
                s.red_wins as i64,
                s.draws as i64,
                s.black_wins as i64,
                s.year_sum as i64,
                s.year_count as i64,
                s.last_year
            ])?;
        }
        Ok(())
    }
}

/// The last game the index covers (the games after it are being written by an import,
/// or were left by a killed one).
pub(crate) fn indexed_through(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT value FROM meta WHERE name = 'indexed'")?
        .query_row([], |r| r.get(0))
        .optional()
        .map(Option::unwrap_or_default)
}

/// Calls `found` with every row of the position with the (short) key `key` in `run`: the
/// complete runs are in `positions`, the last one in `recent`.
fn scan_run(
    conn: &Connection,
    g: Geometry,
    key: i64,
    run: i64,
    complete_runs: i64,
    found: &mut dyn FnMut(Occurrence),
) -> rusqlite::Result<()> {
    let first = key << RUN_BITS;
    let (sql, lo) = if run < complete_runs {
        (
            "SELECT bkey, occ FROM positions WHERE bkey BETWEEN ?1 AND ?2",
            Geometry::run_key(run, first),
        )
    } else {
        (
            "SELECT bkey, occ FROM recent WHERE bkey BETWEEN ?1 AND ?2",
            first,
        )
    };
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query([lo, lo | ((1 << RUN_BITS) - 1)])?;
    while let Some(row) = rows.next()? {
        let (bkey, occ): (i64, i64) = (row.get(0)?, row.get(1)?);
        found(Occurrence::unpack(
            g,
            Geometry::block_of_row(run, bkey),
            occ,
        ));
    }
    Ok(())
}

/// Every occurrence of the position with the (short) key `key` in the games numbered
/// `from` to `last` that the index covers: one short range in each run of games.
pub(crate) fn occurrences(
    conn: &Connection,
    g: Geometry,
    key: i64,
    from: i64,
    last: i64,
) -> rusqlite::Result<Vec<Occurrence>> {
    let indexed = indexed_through(conn)?;
    let (from, last) = (from.max(1), last.min(indexed));
    let mut out = Vec::new();
    if from > last {
        return Ok(out);
    }
    let complete = indexed / g.run_games();
    for run in g.run(from)..=g.run(last) {
        scan_run(conn, g, key, run, complete, &mut |o| {
            if (from..=last).contains(&o.game) {
                out.push(o);
            }
        })?;
    }
    Ok(out)
}

/// A game's headers as the collection lists them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// Its number in the collection.
    pub id: i64,
    /// Red's player.
    pub red: String,
    /// Black's player.
    pub black: String,
    /// The event.
    pub event: String,
    /// Where it was played.
    pub site: String,
    /// The date as written.
    pub date: String,
    /// The year, when the date has one.
    pub year: Option<i32>,
    /// The round.
    pub round: String,
    /// The result.
    pub result: GameResult,
    /// The ECCO code (empty for a game from a set-up position).
    pub ecco: String,
    /// The ECCO opening name.
    pub opening: String,
    /// Plies of the main line.
    pub plies: u32,
    /// The file it was imported from.
    pub source: String,
}

/// A game that reached a position, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionGame {
    /// The game.
    pub info: GameInfo,
    /// The ply after which the position stands (0: the start).
    pub ply: u32,
    /// Whether the game reached the left–right mirror of the position asked about.
    pub mirrored: bool,
}

/// One page of the games that reached a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionPage {
    /// The games that reached it, in all.
    pub total: u64,
    /// The games of this page, newest imported first.
    pub games: Vec<PositionGame>,
}

/// Which games to list. Empty fields do not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Part of either player's name.
    pub player: String,
    /// Part of the event's name.
    pub event: String,
    /// Played in this year or later.
    pub year_from: Option<i32>,
    /// Played in this year or earlier.
    pub year_to: Option<i32>,
    /// This result only.
    pub result: Option<ResultFilter>,
    /// ECCO codes starting so (`B`, `C9`, `D03`).
    pub ecco: String,
}

/// A result to filter by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// Red won.
    RedWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
}

/// The column a game list is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameSort {
    /// Order of import.
    #[default]
    Number,
    /// Red's player.
    Red,
    /// Black's player.
    Black,
    /// The event.
    Event,
    /// The date.
    Date,
    /// The result.
    Result,
    /// The ECCO code.
    Ecco,
    /// The length.
    Plies,
}

impl GameSort {
    fn column(self) -> &'static str {
        match self {
            GameSort::Number => "id",
            GameSort::Red => "red",
            GameSort::Black => "black",
            GameSort::Event => "event",
            GameSort::Date => "date",
            GameSort::Result => "result",
            GameSort::Ecco => "ecco",
            GameSort::Plies => "plies",
        }
    }
}

/// One page of a game list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamePage {
    /// Games matching the filter, in all.
    pub total: u64,
    /// The games of this page.
    pub games: Vec<GameInfo>,
}

const INFO_COLUMNS: &str =
    "id, red, black, event, site, date, year, round, result, ecco, plies, source";

fn info_of(r: &rusqlite::Row) -> rusqlite::Result<GameInfo> {
    Ok(GameInfo {
        id: r.get(0)?,
        red: r.get(1)?,
        black: r.get(2)?,
        event: r.get(3)?,
        site: r.get(4)?,
        date: r.get(5)?,
        year: r.get(6)?,
        round: r.get(7)?,
        result: result_from_code(r.get(8)?),
        opening: crate::library::openings::ecco::name_of(&r.get::<_, String>(9)?)
            .unwrap_or_default(),
        ecco: r.get(9)?,
        plies: r.get(10)?,
        source: r.get(11)?,
    })
}

/// The position with its pieces mirrored left–right (same side to move).
fn mirrored(pos: &Position) -> Position {
    Position::from_setup(&pos.to_setup().mirrored()).unwrap_or_else(|_| pos.clone())
}

fn mirror_move(m: Move) -> Move {
    Move::new(m.from.mirror(), m.to.mirror())
}

/// In a position that is its own mirror image, folding the mirror in means a move and its
/// mirror image are one choice (炮二平五 and 炮八平五 from the start): each pair is counted
/// under the one played more, or on a tie under the one on the mover's right wing, as
/// Xiangqi books name them.
fn fold_symmetric(
    by_move: HashMap<i64, MoveStats>,
    mover: crate::Color,
) -> HashMap<i64, MoveStats> {
    let right_wing = |m: Move| {
        let (from, to) = (
            i32::from(m.from.file().index()),
            i32::from(m.to.file().index()),
        );
        match mover {
            crate::Color::Red => (from, to),
            crate::Color::Black => (-from, -to),
        }
    };
    let mut folded: HashMap<i64, MoveStats> = HashMap::new();
    for stats in by_move.values() {
        let Some(m) = stats.mv else { continue };
        let twin = mirror_move(m);
        let twin_stats = by_move.get(&move_code(twin));
        let keep = match twin_stats {
            None => m,
            Some(t) if t.games != stats.games => {
                if stats.games > t.games {
                    m
                } else {
                    twin
                }
            }
            Some(_) => {
                if right_wing(m) >= right_wing(twin) {
                    m
                } else {
                    twin
                }
            }
        };
        folded
            .entry(move_code(keep))
            .or_insert_with(|| MoveStats {
                mv: Some(keep),
                ..MoveStats::default()
            })
            .merge(stats);
    }
    folded
}

fn like_pattern(text: &str) -> String {
    let mut p = String::from("%");
    for c in text.trim().chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

impl Collection {
    /// The keys to look up for `pos`: its own, and its mirror's when asked to fold the
    /// mirror in and the position is not its own mirror.
    fn keys(pos: &Position, fold_mirror: bool) -> Vec<(i64, bool)> {
        let mut keys = vec![(short_key(pos.hash()), false)];
        if fold_mirror {
            let m = short_key(mirrored(pos).hash());
            if m != keys[0].0 {
                keys.push((m, true));
            }
        }
        keys
    }

    /// The number of the last game.
    fn last_game(&self) -> Result<i64, DbError> {
        super::last_game(&self.conn).map_err(|e| self.err(e))
    }

    /// The sums for one key: the hot table's where it has them, plus every game after
    /// the last it covers; otherwise every game from the index.
    fn sums_of_key(&self, key: i64, last: i64) -> Result<MoveSums, DbError> {
        let covered: Option<i64> = self
            .conn
            .prepare_cached("SELECT covered FROM hot_keys WHERE key = ?1")
            .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))?;
        let (mut sums, from) = match covered {
            Some(c) => (
                MoveSums::load(&self.conn, key).map_err(|e| self.err(e))?,
                c + 1,
            ),
            None => (MoveSums::default(), 0),
        };
        if from <= last {
            sums.add(
                &occurrences(&self.conn, self.geometry, key, from, last)
                    .map_err(|e| self.err(e))?,
            );
        }
        Ok(sums)
    }

    /// Every move played from `pos` with how it scored, most played first; with
    /// `fold_mirror`, the games that reached its left–right mirror count too, their
    /// moves mirrored back (炮八平五 counts with 炮二平五).
    pub fn explore(&self, pos: &Position, fold_mirror: bool) -> Result<Explore, DbError> {
        let mut by_move: HashMap<i64, MoveStats> = HashMap::new();
        let mut total = MoveStats::default();
        let last = self.last_game()?;
        for (key, is_mirror) in Collection::keys(pos, fold_mirror) {
            for (_, mut s) in self.sums_of_key(key, last)?.0 {
                if is_mirror {
                    s.mv = s.mv.map(mirror_move);
                }
                total.merge(&s);
                if let Some(m) = s.mv {
                    by_move
                        .entry(move_code(m))
                        .or_insert_with(|| MoveStats {
                            mv: Some(m),
                            ..MoveStats::default()
                        })
                        .merge(&s);
                }
            }
        }
        if fold_mirror && mirrored(pos).hash() == pos.hash() {
            by_move = fold_symmetric(by_move, pos.side_to_move());
        }
        let mut moves: Vec<MoveStats> = by_move.into_values().collect();
        sort_moves(&mut moves);
        Ok(Explore { total, moves })
    }

    /// A page of the games that reached `pos` (or, folding, its mirror), newest imported
    /// first: at most `limit` from the `offset`-th on, and how many there are in all, so
    /// that a list can say "30 of 53" and go on to the rest.
    pub fn games_reaching(
        &self,
        pos: &Position,
        fold_mirror: bool,
        offset: usize,
        limit: usize,
    ) -> Result<PositionPage, DbError> {
        let mut found: Vec<(i64, u32, bool)> = Vec::new();
        let sql = |e| self.err(e);
        let indexed = indexed_through(&self.conn).map_err(sql)?;
        let last = self.last_game()?.min(indexed);
        let complete = indexed / self.geometry.run_games();
        let keys = Collection::keys(pos, fold_mirror);
        // The count from the sums, which the hot table keeps for the positions very many
        // games reach, instead of from every row.
        let mut total = 0;
        for &(key, _) in &keys {
            total += self
                .sums_of_key(key, last)?
                .0
                .values()
                .map(|s| s.games)
                .sum::<u64>();
        }
        // Asked for the count alone, no game is looked for.
        let wanted = if limit == 0 {
            0
        } else {
            offset.saturating_add(limit)
        };
        // Newest runs first, until enough games are found.
        for run in (0..=self.geometry.run(last)).rev() {
            if found.len() >= wanted || last == 0 {
                break;
            }
            for &(key, is_mirror) in &keys {
                scan_run(&self.conn, self.geometry, key, run, complete, &mut |o| {
                    found.push((o.game, o.ply, is_mirror))
                })
                .map_err(sql)?;
            }
        }
        found.sort_by_key(|&(game, _, _)| std::cmp::Reverse(game));
        let games = found
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|(game, ply, mirrored)| {
                Ok(PositionGame {
                    info: self.game_info(game)?,
                    ply,
                    mirrored,
                })
            })
            .collect::<Result<_, DbError>>()?;
        Ok(PositionPage { total, games })
    }

    /// One game's headers.
    pub fn game_info(&self, id: i64) -> Result<GameInfo, DbError> {
        self.conn
            .prepare_cached(&format!("SELECT {INFO_COLUMNS} FROM games WHERE id = ?1"))
            .and_then(|mut s| s.query_row([id], info_of).optional())
            .map_err(|e| self.err(e))?
            .ok_or(DbError::NoSuchGame { id })
    }

    /// A page of the games matching `filter`, sorted by `sort`.
    pub fn find_games(
        &self,
        filter: &GameFilter,
        sort: GameSort,
        descending: bool,
        offset: u64,
        limit: u64,
    ) -> Result<GamePage, DbError> {
        let mut clauses: Vec<String> = Vec::new();
        let mut params: Vec<rusqlite::types::Value> = Vec::new();
        let mut param = |v: rusqlite::types::Value| {
            params.push(v);
            format!("?{}", params.len())
        };
        if !filter.player.trim().is_empty() {
            let p = param(like_pattern(&filter.player).into());
            clauses.push(format!(
                "(red LIKE {p} ESCAPE '\\' OR black LIKE {p} ESCAPE '\\')"
            ));
        }
        if !filter.event.trim().is_empty() {
            let p = param(like_pattern(&filter.event).into());
            clauses.push(format!("event LIKE {p} ESCAPE '\\'"));
        }
        if let Some(y) = filter.year_from {
            let p = param(i64::from(y).into());
            clauses.push(format!("year >= {p}"));
        }
        if let Some(y) = filter.year_to {
            let p = param(i64::from(y).into());
            clauses.push(format!("year <= {p}"));
        }
        if let Some(r) = filter.result {
            let code = result_code(match r {
                ResultFilter::RedWins => GameResult::RedWins,
                ResultFilter::Draw => GameResult::Draw,
                ResultFilter::BlackWins => GameResult::BlackWins,
            });
            let p = param(code.into());
            clauses.push(format!("result = {p}"));
        }
        if !filter.ecco.trim().is_empty() {
            let prefix = filter.ecco.trim().to_ascii_uppercase();
            let p = param(format!("{prefix}%").into());
            clauses.push(format!("ecco LIKE {p}"));
        }
        let filter_sql = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let total: i64 = self
            .conn
            .query_row(
                &format!("SELECT count(*) FROM games {filter_sql}"),
                rusqlite::params_from_iter(params.iter()),
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        let order = if descending { "DESC" } else { "ASC" };
        let sql = format!(
            "SELECT {INFO_COLUMNS} FROM games {filter_sql} ORDER BY {} {order}, id {order}
             LIMIT {} OFFSET {}",
            sort.column(),
            limit.min(i64::MAX as u64),
            offset.min(i64::MAX as u64)
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let games = stmt
            .query_map(rusqlite::params_from_iter(params.iter()), info_of)
            .map_err(|e| self.err(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.err(e))?;
        Ok(GamePage {
            total: total as u64,
            games,
        })
    }

    /// The games that reached the material balance `key` (at most 16 pieces on the
    /// board), with the first ply they had it, at most `limit`, and how many in all.
    pub fn games_with_material(
        &self,
        key: MaterialKey,
        limit: usize,
    ) -> Result<(u64, Vec<PositionGame>), DbError> {
        let sig = i64::from(key.to_bits());
        let total: i64 = self
            .conn
            .query_row("SELECT count(*) FROM material WHERE sig = ?1", [sig], |r| {
                r.get(0)
            })
            .map_err(|e| self.err(e))?;
        let found: Vec<(i64, u32)> = {
            let mut stmt = self
                .conn
                .prepare_cached(
                    "SELECT game, ply FROM material WHERE sig = ?1 ORDER BY game DESC LIMIT ?2",
                )
                .map_err(|e| self.err(e))?;
            let rows = stmt
                .query_map([sig, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(|e| self.err(e))?;
            rows.collect::<Result<_, _>>().map_err(|e| self.err(e))?
        };
        let games = found
            .into_iter()
            .map(|(game, ply)| {
                Ok(PositionGame {
                    info: self.game_info(game)?,
                    ply,
                    mirrored: false,
                })
            })
            .collect::<Result<_, DbError>>()?;
        Ok((total as u64, games))
    }

    /// One game whole: its moves, comments, variations and headers.
    pub fn game(&self, id: i64) -> Result<Record, DbError> {
        type Row = (Option<String>, Option<String>, Vec<u8>, String);
        let row: Option<Row> = self
            .conn
            .prepare_cached("SELECT pgn, start, moves, tags FROM games WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                    .optional()
            })
            .map_err(|e| self.err(e))?;
        let (pgn, start, moves, tags) = row.ok_or(DbError::NoSuchGame { id })?;
        let damaged = |why: String| DbError::DamagedGame { id, why };
        if let Some(text) = pgn {
            return crate::pgn::read_game(&text).map_err(|e| damaged(e.to_string()));
        }
        let info = self.game_info(id)?;
        let start = match start {
            Some(fen) => fen
                .parse::<Position>()
                .map_err(|e| damaged(e.to_string()))?,
            None => Position::startpos(),
        };
        let moves = unpack_moves(&start, &moves)
            .ok_or_else(|| damaged("a move that is not legal".into()))?;
        let mut record = Record::new(start);
        let mut node = record.root();
        for m in moves {
            node = record.push_child(node, m);
        }
        let headers = record.headers_mut();
        let values = [
            &info.red,
            &info.black,
            &info.event,
            &info.site,
            &info.date,
            &info.round,
        ];
        for (name, value) in COLUMN_HEADERS.iter().zip(values) {
            if !value.is_empty() {
                headers.set(name, value);
            }
        }
        headers.set("Result", info.result.as_pgn());
        for line in tags.lines() {
            if let Some((name, value)) = line.split_once('\t') {
                headers.set(name, value);
            }
        }
        Ok(record)
    }
}

impl Collection {
    /// `count` positions drawn from the collection's games (a random game, a random ply
    /// of its main line), the same for the same `seed`: for benchmarks and tests.
    pub fn sample_positions(&self, count: usize, seed: u64) -> Result<Vec<Position>, DbError> {
        let max = self.last_game()?;
        if max == 0 {
            return Ok(Vec::new());
        }
        let mut rng = crate::play::Rng::new(seed);
        let mut out = Vec::with_capacity(count);
        let mut misses = 0;
        while out.len() < count && misses < count * 10 + 100 {
            let id = 1 + rng.below(max as u64) as i64;
            let record = match self.game(id) {
                Ok(r) => r,
                Err(DbError::NoSuchGame { .. }) => {
                    misses += 1;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let moves = record.main_line_moves();
            let ply = rng.below(moves.len() as u64 + 1) as usize;
            let mut pos = record.start().clone();
            for &m in &moves[..ply] {
                pos.play_unchecked(m);
            }
            out.push(pos);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{GeneratorOptions, random_games};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_games_reaching_a_position_come_page_by_page_with_their_count() {
        let dir = std::env::temp_dir().join(format!("chuhe-query-pages-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut c = Collection::open(&dir.join("c.chuhedb")).unwrap();
        let options = GeneratorOptions {
            seed: 11,
            games: 300,
            players: 20,
        };
        c.import_records(
            random_games(&options),
            "x",
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        // The start and the position after the most played first move: one reached by
        // every game, one by a share of them, both by more than a page.
        let start = Position::startpos();
        let first = c.explore(&start, false).unwrap().moves[0].mv.unwrap();
        let mut after = start.clone();
        after.play_unchecked(first);
        for (pos, fold) in [(start, false), (after.clone(), false), (after, true)] {
            let reached = c.explore(&pos, fold).unwrap().total.games;
            assert!(reached > 60, "{reached} games reach {pos}");
            let mut listed = Vec::new();
            let mut offset = 0;
            loop {
                let page = c.games_reaching(&pos, fold, offset, 30).unwrap();
                assert_eq!(page.total, reached, "{pos}");
                if page.games.is_empty() {
                    break;
                }
                assert!(page.games.len() <= 30);
                offset += page.games.len();
                listed.extend(page.games.into_iter().map(|g| g.info.id));
            }
            assert_eq!(listed.len() as u64, reached, "every game, once: {pos}");
            assert!(listed.windows(2).all(|w| w[0] > w[1]), "newest first");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
