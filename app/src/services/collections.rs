//! The collections service: one thread owns the open collections (their SQLite
//! connections) and answers the explorer's and the browser's queries; each import runs on
//! a thread of its own with its own connection, reporting its progress. The interface
//! thread only sends requests and drains answers, so a query never costs it a frame.
//!
//! Requests wait in a queue; when several explorer or browser queries are waiting, only
//! the newest of each is answered (the others are about a position or a list no longer
//! shown).

use crate::actions::{Action, CollectionAction, WorksheetAction};
use crate::state::collections::{
    ExploreKey, ExplorerAnswer, ImportOutcome, ListedGame, LoadedGame, POSITION_GAMES, SEARCH_LIMIT,
};
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::Position;
use chuhe_core::db::{Collection, GameFilter, GameInfo, GameSort, ImportProgress, MaterialKey};
use chuhe_core::worksheet::Entry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// A list for the browser.
#[derive(Clone, Debug)]
pub struct ListQuery {
    /// The collections searched: one for a list by headers, all for a position.
    pub collections: Vec<PathBuf>,
    /// The header filter.
    pub filter: GameFilter,
    /// A material balance the games must reach.
    pub material: Option<MaterialKey>,
    /// A position the games must reach, and whether its mirror counts.
    pub position: Option<(Position, bool)>,
    /// The column sorted by.
    pub sort: GameSort,
    /// From the largest.
    pub descending: bool,
    /// The first game of the page.
    pub offset: u64,
    /// Games a page.
    pub limit: u64,
}

/// What the service thread is asked to do.
enum Request {
    Open {
        path: PathBuf,
        create: bool,
        remembered: bool,
    },
    Close(PathBuf),
    Explore {
        key: ExploreKey,
        position: Position,
        collections: Vec<PathBuf>,
    },
    List(u64, ListQuery),
    LoadGame {
        collection: PathBuf,
        id: i64,
        ply: u32,
    },
    Positions(Vec<GamePosition>),
}

/// A game whose position a worksheet wants.
#[derive(Clone, Debug)]
pub struct GamePosition {
    /// The collection.
    pub collection: PathBuf,
    /// The game's number there.
    pub id: i64,
    /// The ply of the position along the main line; `None` for the final position.
    pub ply: Option<u32>,
    /// The worksheet entry's title.
    pub title: String,
}

/// An import under way: its stop flag and its progress.
struct Running {
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<ImportProgress>>,
    reported: ImportProgress,
}

/// The collections' thread, started when first needed.
#[derive(Default)]
pub struct Collections {
    thread: Option<Worker>,
    import: Option<Running>,
}

struct Worker {
    requests: Sender<Request>,
    answers: Receiver<Action>,
    /// A copy of the sender of answers, for the import threads.
    answer_tx: Sender<Action>,
    /// Requests sent and not yet answered.
    pending: Arc<Mutex<usize>>,
}

impl Collections {
    fn worker(&mut self, ui: &egui::Context) -> &Worker {
        self.thread.get_or_insert_with(|| {
            let (requests, rx) = channel::<Request>();
            let (answer_tx, answers) = channel::<Action>();
            let pending = Arc::new(Mutex::new(0usize));
            let (tx, count, ui) = (answer_tx.clone(), pending.clone(), ui.clone());
            let spawned = std::thread::Builder::new()
                .name("collections".into())
                .spawn(move || serve(rx, tx, count, ui));
            // Without a thread the requests go nowhere and no answer comes: the
            // explorer stays waiting (out of threads is the system's problem).
            drop(spawned);
            Worker {
                requests,
                answers,
                answer_tx,
                pending,
            }
        })
    }

    fn send(&mut self, ui: &egui::Context, request: Request) {
        let worker = self.worker(ui);
        if let Ok(mut n) = worker.pending.lock() {
            *n += 1;
        }
        if worker.requests.send(request).is_err()
            && let Ok(mut n) = worker.pending.lock()
        {
            *n = n.saturating_sub(1);
        }
    }

    /// Opens the collection at `path` (making it when `create`).
    pub fn open(&mut self, ui: &egui::Context, path: PathBuf, create: bool, remembered: bool) {
        self.send(
            ui,
            Request::Open {
                path,
                create,
                remembered,
            },
        );
    }

    /// Closes the collection at `path`.
    pub fn close(&mut self, ui: &egui::Context, path: PathBuf) {
        self.send(ui, Request::Close(path));
    }

    /// Asks what the `collections` hold for `position`.
    pub fn explore(
        &mut self,
        ui: &egui::Context,
        key: ExploreKey,
        position: Position,
        collections: Vec<PathBuf>,
    ) {
        self.send(
            ui,
            Request::Explore {
                key,
                position,
                collections,
            },
        );
    }

    /// Asks for the browser's list number `id`.
    pub fn list(&mut self, ui: &egui::Context, id: u64, query: ListQuery) {
        self.send(ui, Request::List(id, query));
    }

    /// Asks for a game whole, to open at `ply`.
    pub fn load_game(&mut self, ui: &egui::Context, collection: PathBuf, id: i64, ply: u32) {
        self.send(
            ui,
            Request::LoadGame {
                collection,
                id,
                ply,
            },
        );
    }

    /// Asks for the positions of `games` for a worksheet; the answer opens its dialog.
    pub fn worksheet_positions(&mut self, ui: &egui::Context, games: Vec<GamePosition>) {
        self.send(ui, Request::Positions(games));
    }

    /// Whether an import runs.
    pub fn importing(&self) -> bool {
        self.import.is_some()
    }

    /// Imports `inputs` (files or folders) into the collection at `path` on a thread of
    /// its own; the answer is [`CollectionAction::Imported`].
    pub fn import(&mut self, ui: &egui::Context, path: PathBuf, inputs: Vec<PathBuf>) {
        if self.import.is_some() {
            return;
        }
        let tx = self.worker(ui).answer_tx.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(ImportProgress::default()));
        let (stop, shared, ui) = (cancel.clone(), progress.clone(), ui.clone());
        let spawned = std::thread::Builder::new()
            .name("collection import".into())
            .spawn(move || {
                let outcome = import(&path, &inputs, &stop, &shared, &ui);
                let _ = tx.send(Action::Collections(CollectionAction::Imported(outcome)));
                ui.request_repaint();
            });
        if spawned.is_ok() {
            self.import = Some(Running {
                cancel,
                progress,
                reported: ImportProgress::default(),
            });
        }
    }

    /// Asks the import under way to stop after the batch it is writing.
    pub fn cancel_import(&self) {
        if let Some(running) = &self.import {
            running.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The answers that came, and the progress of an import; and whether anything is
    /// still being worked on.
    pub fn poll(&mut self) -> (Vec<Action>, bool) {
        let mut actions = Vec::new();
        if let Some(running) = &mut self.import
            && let Ok(progress) = running.progress.lock()
            && *progress != running.reported
        {
            running.reported = progress.clone();
            actions.push(Action::Collections(CollectionAction::ImportProgress(
                progress.clone(),
            )));
        }
        let mut busy = self.import.is_some();
        if let Some(worker) = &self.thread {
            while let Ok(action) = worker.answers.try_recv() {
                if matches!(action, Action::Collections(CollectionAction::Imported(_))) {
                    self.import = None;
                }
                actions.push(action);
            }
            busy |= worker.pending.lock().map(|n| *n > 0).unwrap_or(false);
        }
        (actions, busy)
    }
}

/// The service thread: answers requests until the app drops its end of the queue.
fn serve(rx: Receiver<Request>, tx: Sender<Action>, pending: Arc<Mutex<usize>>, ui: egui::Context) {
    let mut open: HashMap<PathBuf, Collection> = HashMap::new();
    while let Ok(first) = rx.recv() {
        // Everything waiting, of which only the newest explorer and browser queries count.
        let mut batch = vec![first];
        while let Ok(more) = rx.try_recv() {
            batch.push(more);
        }
        let taken = batch.len();
        let last_explore = batch
            .iter()
            .rposition(|r| matches!(r, Request::Explore { .. }));
        let last_list = batch.iter().rposition(|r| matches!(r, Request::List(..)));
        for (i, request) in batch.into_iter().enumerate() {
            let answer = match request {
                Request::Explore { .. } if Some(i) != last_explore => None,
                Request::List(..) if Some(i) != last_list => None,
                Request::Open {
                    path,
                    create,
                    remembered,
                } => {
                    let result = open_collection(&mut open, &path, create);
                    Some(CollectionAction::Opened {
                        path,
                        result,
                        remembered,
                    })
                }
                Request::Close(path) => {
                    open.remove(&path);
                    None
                }
                Request::Explore {
                    key,
                    position,
                    collections,
                } => {
                    let result = explore(&open, &position, &key, &collections);
                    Some(CollectionAction::Explored(key, result))
                }
                Request::List(id, query) => Some(CollectionAction::Listed(id, list(&open, &query))),
                Request::LoadGame {
                    collection,
                    id,
                    ply,
                } => {
                    let result = match open.get(&collection) {
                        Some(c) => c
                            .game(id)
                            .map(|record| LoadedGame {
                                collection: collection.clone(),
                                id,
                                ply,
                                record: Box::new(record),
                            })
                            .map_err(|e| problems::db_error(&e)),
                        None => Err(not_open(&collection)),
                    };
                    Some(CollectionAction::GameLoaded(result))
                }
                Request::Positions(games) => {
                    let answer = WorksheetAction::CollectionGames(positions(&open, &games));
                    if tx.send(Action::Worksheet(answer)).is_err() {
                        return;
                    }
                    None
                }
            };
            if let Some(answer) = answer
                && tx.send(Action::Collections(answer)).is_err()
            {
                return;
            }
        }
        if let Ok(mut n) = pending.lock() {
            *n = n.saturating_sub(taken);
        }
        ui.request_repaint();
    }
}

/// The worksheet entries of `games`: each game read whole and played to its ply (or its
/// end); a game that cannot be read stops it with why.
fn positions(
    open: &HashMap<PathBuf, Collection>,
    games: &[GamePosition],
) -> Result<Vec<Entry>, Problem> {
    games
        .iter()
        .map(|game| {
            let collection = open
                .get(&game.collection)
                .ok_or_else(|| not_open(&game.collection))?;
            let record = collection
                .game(game.id)
                .map_err(|e| problems::db_error(&e))?;
            let line = record.main_line();
            let at = game
                .ply
                .map_or(line.len(), |ply| (ply as usize).min(line.len()));
            let position = match at {
                0 => Some(record.start().clone()),
                n => record.position_at(line[n - 1]),
            }
            .unwrap_or_else(|| record.start().clone());
            Ok(Entry::new(game.title.clone(), position))
        })
        .collect()
}

fn not_open(path: &Path) -> Problem {
    Problem::new("collection-not-open").text("path", path.display())
}

fn open_collection(
    open: &mut HashMap<PathBuf, Collection>,
    path: &Path,
    create: bool,
) -> Result<u64, Problem> {
    if !open.contains_key(path) {
        if !create && !path.is_file() {
            return Err(problems::in_file(
                path,
                problems::io_error(&std::io::Error::from(std::io::ErrorKind::NotFound)),
            ));
        }
        let collection = Collection::open(path).map_err(|e| problems::db_error(&e))?;
        open.insert(path.to_owned(), collection);
    }
    open[path].game_count().map_err(|e| problems::db_error(&e))
}

/// The moves played from `position` in all the `collections`, summed, and the page of
/// the games that reached it that `key` asks for: the collections' lists one after the
/// other, each newest first.
fn explore(
    open: &HashMap<PathBuf, Collection>,
    position: &Position,
    key: &ExploreKey,
    collections: &[PathBuf],
) -> Result<ExplorerAnswer, Problem> {
    let fold = key.fold;
    let mut answer = ExplorerAnswer {
        games_from: key.games_from,
        ..ExplorerAnswer::default()
    };
    let mut summed = chuhe_core::db::Explore::default();
    // Games of the page still to skip, and room left on it.
    let (mut skip, mut room) = (key.games_from, POSITION_GAMES);
    for path in collections {
        let collection = open.get(path).ok_or_else(|| not_open(path))?;
        let found = collection
            .explore(position, fold)
            .map_err(|e| problems::db_error(&e))?;
        summed.merge(found);
        let page = collection
            .games_reaching(position, fold, skip, room)
            .map_err(|e| problems::db_error(&e))?;
        answer.games_total += page.total;
        skip = skip.saturating_sub(usize::try_from(page.total).unwrap_or(usize::MAX));
        room -= page.games.len().min(room);
        answer
            .games
            .extend(page.games.into_iter().map(|g| ListedGame {
                collection: path.clone(),
                info: g.info,
                ply: g.ply,
            }));
    }
    answer.total = summed.total;
    answer.moves = summed.moves;
    Ok(answer)
}

/// The browser's list: one collection's games by their headers (the database sorts and
/// pages), or the games reaching a position or a material balance (gathered, filtered
/// and sorted here).
fn list(
    open: &HashMap<PathBuf, Collection>,
    query: &ListQuery,
) -> Result<(u64, Vec<ListedGame>), Problem> {
    if query.position.is_none() && query.material.is_none() {
        let Some(path) = query.collections.first() else {
            return Ok((0, Vec::new()));
        };
        let collection = open.get(path).ok_or_else(|| not_open(path))?;
        let page = collection
            .find_games(
                &query.filter,
                query.sort,
                query.descending,
                query.offset,
                query.limit,
            )
            .map_err(|e| problems::db_error(&e))?;
        let games = page
            .games
            .into_iter()
            .map(|info| ListedGame {
                collection: path.clone(),
                info,
                ply: 0,
            })
            .collect();
        return Ok((page.total, games));
    }
    let mut found: Vec<ListedGame> = Vec::new();
    for path in &query.collections {
        let collection = open.get(path).ok_or_else(|| not_open(path))?;
        let games = match (&query.position, query.material) {
            (Some((position, fold)), _) => collection
                .games_reaching(position, *fold, 0, SEARCH_LIMIT)
                .map(|page| page.games),
            (None, Some(material)) => collection
                .games_with_material(material, SEARCH_LIMIT)
                .map(|(_, games)| games),
            (None, None) => Ok(Vec::new()),
        }
        .map_err(|e| problems::db_error(&e))?;
        for g in games {
            let material_ok = match (&query.position, query.material) {
                // A position search with a material filter too: the position's own
                // balance decides.
                (Some((position, _)), Some(material)) => MaterialKey::of(position) == material,
                _ => true,
            };
            if material_ok && matches(&query.filter, &g.info) {
                found.push(ListedGame {
                    collection: path.clone(),
                    info: g.info,
                    ply: g.ply,
                });
            }
        }
    }
    sort_games(&mut found, query.sort, query.descending);
    let total = found.len() as u64;
    let games = found
        .into_iter()
        .skip(query.offset as usize)
        .take(query.limit as usize)
        .collect();
    Ok((total, games))
}

/// Whether a game passes the header filter (as the collection's own query would judge:
/// parts of names, a year range, a result, an ECCO prefix).
fn matches(filter: &GameFilter, info: &GameInfo) -> bool {
    let has = |field: &str, part: &str| {
        part.trim().is_empty() || field.to_lowercase().contains(&part.trim().to_lowercase())
    };
    let player = filter.player.trim().is_empty()
        || has(&info.red, &filter.player)
        || has(&info.black, &filter.player);
    let result = filter.result.is_none_or(|r| {
        use chuhe_core::db::ResultFilter;
        use chuhe_core::record::GameResult;
        info.result
            == match r {
                ResultFilter::RedWins => GameResult::RedWins,
                ResultFilter::Draw => GameResult::Draw,
                ResultFilter::BlackWins => GameResult::BlackWins,
            }
    });
    player
        && has(&info.event, &filter.event)
        && filter
            .year_from
            .is_none_or(|y| info.year.is_some_and(|g| g >= y))
        && filter
            .year_to
            .is_none_or(|y| info.year.is_some_and(|g| g <= y))
        && result
        && info
            .ecco
            .to_ascii_uppercase()
            .starts_with(&filter.ecco.trim().to_ascii_uppercase())
}

/// Sorts games by a column as the collection's query does (ties by number).
pub fn sort_games(games: &mut [ListedGame], sort: GameSort, descending: bool) {
    use chuhe_core::db::GameSort as S;
    games.sort_by(|a, b| {
        let (a, b) = (&a.info, &b.info);
        let order = match sort {
            S::Number => std::cmp::Ordering::Equal,
            S::Red => a.red.cmp(&b.red),
            S::Black => a.black.cmp(&b.black),
            S::Event => a.event.cmp(&b.event),
            S::Date => a.date.cmp(&b.date),
            S::Result => result_rank(a.result).cmp(&result_rank(b.result)),
            S::Ecco => a.ecco.cmp(&b.ecco),
            S::Plies => a.plies.cmp(&b.plies),
        }
        .then(a.id.cmp(&b.id));
        if descending { order.reverse() } else { order }
    });
}

fn result_rank(r: chuhe_core::record::GameResult) -> u8 {
    use chuhe_core::record::GameResult;
    match r {
        GameResult::RedWins => 0,
        GameResult::Draw => 1,
        GameResult::BlackWins => 2,
        GameResult::Unknown => 3,
    }
}

/// Runs an import into `path`, sharing its progress, and says how it went.
fn import(
    path: &Path,
    inputs: &[PathBuf],
    cancel: &AtomicBool,
    shared: &Mutex<ImportProgress>,
    ui: &egui::Context,
) -> ImportOutcome {
    let mut outcome = ImportOutcome {
        collection: path.to_owned(),
        progress: ImportProgress::default(),
        cancelled: false,
        failures: Vec::new(),
        error: None,
    };
    let mut collection = match Collection::open(path) {
        Ok(c) => c,
        Err(e) => {
            outcome.error = Some(problems::db_error(&e));
            return outcome;
        }
    };
    let mut report = |p: &ImportProgress| {
        if let Ok(mut g) = shared.lock() {
            *g = p.clone();
        }
        ui.request_repaint();
    };
    match collection.import_paths(inputs, cancel, &mut report) {
        Ok(done) => {
            outcome.progress = done.progress;
            outcome.cancelled = done.cancelled;
            outcome.failures = done.failures.iter().map(problems::import_failure).collect();
        }
        Err(e) => outcome.error = Some(problems::db_error(&e)),
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhe_core::record::GameResult;

    fn game(id: i64, red: &str, year: Option<i32>, result: GameResult) -> ListedGame {
        ListedGame {
            collection: PathBuf::from("a.chuhedb"),
            info: GameInfo {
                id,
                red: red.into(),
                year,
                result,
                ecco: "C45".into(),
                ..GameInfo::default()
            },
            ply: 0,
        }
    }

    #[test]
    fn the_filter_in_memory_judges_as_the_query_does() {
        let g = game(1, "Xu Yinchuan", Some(1995), GameResult::RedWins).info;
        let mut f = GameFilter {
            player: "yinch".into(),
            ..GameFilter::default()
        };
        assert!(matches(&f, &g));
        f.year_from = Some(1996);
        assert!(!matches(&f, &g));
        f.year_from = Some(1990);
        f.ecco = "c4".into();
        assert!(matches(&f, &g));
        f.result = Some(chuhe_core::db::ResultFilter::Draw);
        assert!(!matches(&f, &g));
    }

    #[test]
    fn sorting_by_a_column_and_turning_it_round() {
        let mut games = vec![
            game(1, "b", None, GameResult::Draw),
            game(2, "a", None, GameResult::RedWins),
            game(3, "c", None, GameResult::BlackWins),
        ];
        sort_games(&mut games, GameSort::Red, false);
        let ids: Vec<i64> = games.iter().map(|g| g.info.id).collect();
        assert_eq!(ids, [2, 1, 3]);
        sort_games(&mut games, GameSort::Result, true);
        let ids: Vec<i64> = games.iter().map(|g| g.info.id).collect();
        assert_eq!(ids, [3, 1, 2]);
    }
}
