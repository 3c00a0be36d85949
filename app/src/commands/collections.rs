//! Game collections: opening and closing them, the explorer following the board, the
//! browser's lists, imports, and opening a collection's game in a tab of its own.

use super::{Ctx, Queue, SettingsMut};
use crate::actions::*;
use crate::i18n::I18n;
use crate::services::collections::{Collections, GamePosition};
use crate::state::Notice;
use crate::state::collections::CollectionsState;
use crate::state::collections::{
    ExploreKey, Import, ImportOutcome, OpenCollection, PAGE_SIZE, collection_name,
};
use crate::state::file_chooser::FilePurpose;
use crate::words::problem::Problem;
use chuhe_core::Position;
use std::path::PathBuf;

/// The collections' command: their state, and what it reads and uses.
pub(super) struct Manager<'a> {
    pub collections: &'a mut CollectionsState,
    /// The collections open, the explorer shown and its mirror folding are settings.
    pub settings: SettingsMut<'a>,
    /// The position on the board, the explorer's and a search's.
    pub position: &'a Position,
    pub i18n: &'a I18n,
    /// The thread that owns the open collections.
    pub service: &'a mut Collections,
    /// The interface, woken by the service's answers.
    pub ui: &'a egui::Context,
    pub queue: &'a mut Queue,
}

impl Manager<'_> {
    fn change_settings(&mut self, change: impl FnOnce(&mut crate::settings::Settings)) {
        self.settings.change(change);
    }

    /// Carries out a collections action.
    pub(super) fn run(&mut self, action: CollectionAction) {
        match action {
            CollectionAction::ToggleExplorer => {
                self.change_settings(|s| s.explorer_open = !s.explorer_open);
            }
            CollectionAction::SetFoldMirror(fold) => {
                self.change_settings(|s| s.explorer_fold_mirror = fold);
                if self.collections.browser.position.is_some() {
                    self.ask_list();
                }
            }
            CollectionAction::ToggleBrowser => {
                let browser = &mut self.collections.browser;
                browser.open = !browser.open;
                if browser.open {
                    self.ask_list();
                }
            }
            CollectionAction::NewDialog => self.queue.ask_for_file(
                FilePurpose::NewCollection,
                Some(format!("games.{}", chuhe_core::db::EXTENSION)),
                |path| CollectionAction::Create(path).into(),
            ),
            CollectionAction::OpenDialog => {
                self.queue
                    .ask_for_file(FilePurpose::OpenCollection, None, |path| {
                        CollectionAction::Open(path).into()
                    })
            }
            CollectionAction::Create(path) => {
                self.collections.creating.push(path.clone());
                self.service.open(self.ui, path, true, false)
            }
            CollectionAction::Open(path) => self.service.open(self.ui, path, false, false),
            CollectionAction::Restore => {
                for path in self.settings.get().collections.clone() {
                    self.service.open(self.ui, path, false, true);
                }
            }
            CollectionAction::Close(path) => {
                let collections = &mut self.collections;
                collections.open.retain(|c| c.path != path);
                collections.revision += 1;
                if collections.browser.collection.as_ref() == Some(&path) {
                    collections.browser.collection = None;
                }
                self.service.close(self.ui, path.clone());
                self.change_settings(|s| s.collections.retain(|p| *p != path));
                self.ask_list();
            }
            CollectionAction::Opened {
                path,
                result,
                remembered,
            } => self.opened(path, result, remembered),
            CollectionAction::ImportFileDialog => {
                if self.has_collection() {
                    self.queue
                        .ask_for_file(FilePurpose::ImportGames, None, |path| {
                            CollectionAction::Import(vec![path]).into()
                        });
                }
            }
            CollectionAction::ImportFolderDialog => {
                if self.has_collection() {
                    self.queue
                        .ask_for_file(FilePurpose::ImportFolder, None, |path| {
                            CollectionAction::Import(vec![path]).into()
                        });
                }
            }
            CollectionAction::Import(inputs) => self.import(inputs),
            CollectionAction::CancelImport => {
                self.service.cancel_import();
                if let Some(import) = &mut self.collections.import {
                    import.cancelling = true;
                }
            }
            CollectionAction::ImportProgress(progress) => {
                if let Some(import) = &mut self.collections.import {
                    import.progress = progress;
                }
            }
            CollectionAction::Imported(outcome) => {
                self.tell_imported(&outcome);
                let path = outcome.collection.clone();
                self.collections.import = None;
                self.collections.last_import = Some(outcome);
                self.collections.revision += 1;
                // Its new number of games, and the lists again.
                if self.collections.is_open(&path) {
                    self.service.open(self.ui, path, false, true);
                }
            }
            CollectionAction::ExplorerPage(from) => self.ask_explorer_page(from),
            CollectionAction::Explored(key, result) => {
                // An answer about a position no longer on the board is dropped.
                if self.collections.asked.as_ref() == Some(&key) {
                    self.collections.answer = Some(result);
                }
            }
            CollectionAction::Show(path) => {
                let browser = &mut self.collections.browser;
                browser.collection = Some(path);
                browser.position = None;
                browser.offset = 0;
                browser.selected = None;
                self.ask_list();
            }
            CollectionAction::SetFilter(filter) => {
                let browser = &mut self.collections.browser;
                if browser.filter != filter {
                    browser.filter = filter;
                    browser.offset = 0;
                    self.ask_list();
                }
            }
            CollectionAction::Sort(column) => {
                let browser = &mut self.collections.browser;
                if browser.sort == column {
                    browser.descending = !browser.descending;
                } else {
                    browser.sort = column;
                    browser.descending = false;
                }
                browser.offset = 0;
                self.ask_list();
            }
            CollectionAction::Page(offset) => {
                self.collections.browser.offset = offset;
                self.ask_list();
            }
            CollectionAction::Select(path, id) => {
                self.collections.browser.selected = Some((path, id));
            }
            CollectionAction::OpenSelected => {
                let browser = &self.collections.browser;
                let found = browser.selected.as_ref().and_then(|(path, id)| {
                    browser.page.as_ref().and_then(|(_, games)| {
                        games
                            .iter()
                            .find(|g| g.collection == *path && g.info.id == *id)
                    })
                });
                if let Some(game) = found {
                    let (collection, id, ply) = (game.collection.clone(), game.info.id, game.ply);
                    self.service.load_game(self.ui, collection, id, ply);
                }
            }
            CollectionAction::Listed(id, result) => {
                let browser = &mut self.collections.browser;
                if browser.asked == id {
                    browser.shown = id;
                    match result {
                        Ok(page) => {
                            browser.page = Some(page);
                            browser.error = None;
                        }
                        Err(problem) => {
                            browser.page = None;
                            browser.error = Some(problem);
                        }
                    }
                }
            }
            CollectionAction::OpenGame {
                collection,
                id,
                ply,
            } => self.service.load_game(self.ui, collection, id, ply),
            CollectionAction::GameLoaded(Ok(game)) => {
                let record = *game.record;
                let line = record.main_line();
                let at = (game.ply as usize).min(line.len());
                let cursor = if at > 0 { line[at - 1] } else { record.root() };
                self.queue
                    .push(TabAction::Open(OpenGame::new(record, cursor)).into());
            }
            CollectionAction::GameLoaded(Err(problem)) => {
                self.queue.fail(Notice::Problem(problem));
            }
            CollectionAction::FindPosition(position) => {
                if self.has_collection() {
                    let position = position.unwrap_or_else(|| self.position.clone());
                    let browser = &mut self.collections.browser;
                    browser.open = true;
                    browser.position = Some(position);
                    browser.offset = 0;
                    browser.selected = None;
                    self.ask_list();
                }
            }
            CollectionAction::ClearPosition => {
                self.collections.browser.position = None;
                self.collections.browser.offset = 0;
                self.ask_list();
            }
            CollectionAction::Worksheet => self.ask_worksheet_positions(),
        }
    }

    /// Asks the service for the positions of the games listed: the one each game reached
    /// for a position or material search, otherwise its final one.
    fn ask_worksheet_positions(&mut self) {
        let browser = &self.collections.browser;
        let Some((_, listed)) = &browser.page else {
            return;
        };
        let reached = browser.position.is_some() || !browser.filter.material.trim().is_empty();
        let i18n = self.i18n;
        let games: Vec<GamePosition> = listed
            .iter()
            .take(PAGE_SIZE as usize)
            .map(|game| GamePosition {
                collection: game.collection.clone(),
                id: game.info.id,
                ply: reached.then_some(game.ply),
                title: i18n
                    .tr_args(
                        "worksheet-collection-game",
                        &[
                            ("red", game.info.red.clone().into()),
                            ("black", game.info.black.clone().into()),
                            ("event", game.info.event.clone().into()),
                            ("date", game.info.date.clone().into()),
                        ],
                    )
                    .trim()
                    .to_owned(),
            })
            .collect();
        if games.is_empty() {
            return;
        }
        self.service.worksheet_positions(self.ui, games);
        self.queue
            .say(Notice::Message("collection-worksheet-loading"));
    }

    /// Whether a collection is open; if not, the user is told to open or make one.
    fn has_collection(&mut self) -> bool {
        let any = !self.collections.open.is_empty();
        if !any {
            self.queue.done(Notice::Message("collection-none-open"));
        }
        any
    }

    /// The service opened a collection, or could not.
    fn opened(&mut self, path: PathBuf, result: Result<u64, Problem>, remembered: bool) {
        let creating = &mut self.collections.creating;
        let created = creating.contains(&path);
        creating.retain(|p| *p != path);
        match result {
            Ok(games) => {
                if created {
                    self.queue.done(Notice::WithArg(
                        "collection-created",
                        "name",
                        collection_name(&path),
                    ));
                }
                let collections = &mut self.collections;
                match collections.open.iter_mut().find(|c| c.path == path) {
                    Some(open) => open.games = games,
                    None => collections.open.push(OpenCollection {
                        path: path.clone(),
                        games,
                    }),
                }
                collections.revision += 1;
                if !remembered {
                    // The collection just opened is the one the browser lists.
                    collections.browser.collection = Some(path.clone());
                    collections.browser.offset = 0;
                }
                if !self.settings.get().collections.contains(&path) {
                    self.change_settings(|s| s.collections.push(path));
                }
                self.ask_list();
            }
            Err(problem) => {
                self.queue.fail(Notice::Problem(
                    Problem::new("collection-open-failed").with("error", problem),
                ));
                // One that is gone is not looked for at every start.
                if remembered && !self.collections.is_open(&path) {
                    self.change_settings(|s| s.collections.retain(|p| *p != path));
                }
            }
        }
    }

    /// Says how an import ended where the user looks: what went in, and whether anything
    /// failed (a failure stays until dismissed; the browser lists the failures).
    fn tell_imported(&mut self, outcome: &ImportOutcome) {
        let name = collection_name(&outcome.collection);
        if let Some(error) = &outcome.error {
            self.queue.fail(Notice::Problem(
                Problem::new("toast-import-failed")
                    .text("name", name)
                    .with("error", error.clone()),
            ));
            return;
        }
        if outcome.cancelled {
            return;
        }
        let p = &outcome.progress;
        let failed = p.failed > 0;
        let said = Problem::new(if failed {
            "toast-import-done-failed"
        } else {
            "toast-import-done"
        })
        .text("name", name)
        .text("games", p.games)
        .text("duplicates", p.duplicates)
        .text("failed", p.failed);
        if failed {
            self.queue.fail(Notice::Problem(said));
        } else {
            self.queue.done(Notice::Problem(said));
        }
    }

    /// Imports `inputs` into the browser's collection.
    fn import(&mut self, inputs: Vec<PathBuf>) {
        if !self.has_collection() || inputs.is_empty() {
            return;
        }
        if self.collections.import.is_some() {
            self.queue.say(Notice::Message("collection-import-busy"));
            return;
        }
        let Some(target) = self.collections.current().map(|c| c.path.clone()) else {
            return;
        };
        let collections = &mut self.collections;
        collections.browser.open = true;
        collections.last_import = None;
        collections.import = Some(Import {
            collection: target.clone(),
            progress: Default::default(),
            cancelling: false,
        });
        self.service.import(self.ui, target, inputs);
    }

    /// Asks for the browser's list as its filter, sort and page stand.
    fn ask_list(&mut self) {
        let collections = &mut self.collections;
        let browser = &mut collections.browser;
        if !browser.open {
            return;
        }
        browser.asked += 1;
        let filter = match browser.filter.to_core() {
            Ok(filter) => filter,
            Err(problem) => {
                browser.page = None;
                browser.error = Some(problem);
                return;
            }
        };
        let fold = self.settings.get().explorer_fold_mirror;
        let paths: Vec<PathBuf> = match &browser.position {
            Some(_) => collections.open.iter().map(|c| c.path.clone()).collect(),
            None => collections
                .browser
                .collection
                .as_ref()
                .filter(|p| collections.open.iter().any(|c| &c.path == *p))
                .or(collections.open.first().map(|c| &c.path))
                .into_iter()
                .cloned()
                .collect(),
        };
        let browser = &collections.browser;
        let query = crate::services::collections::ListQuery {
            collections: paths,
            filter: filter.headers,
            material: filter.material,
            position: browser.position.clone().map(|p| (p, fold)),
            sort: browser.sort,
            descending: browser.descending,
            offset: browser.offset,
            limit: PAGE_SIZE,
        };
        let id = browser.asked;
        self.service.list(self.ui, id, query);
    }

    /// Asks for another page of the games that reached the explorer's position; the page
    /// shown stays until it comes.
    fn ask_explorer_page(&mut self, from: usize) {
        let Some(asked) = &self.collections.asked else {
            return;
        };
        if asked.games_from == from {
            return;
        }
        let key = ExploreKey {
            games_from: from,
            ..asked.clone()
        };
        self.ask_explorer(key);
    }

    /// Asks the service about the position on the board, for `key`.
    fn ask_explorer(&mut self, key: ExploreKey) {
        self.collections.asked = Some(key.clone());
        let paths = self
            .collections
            .open
            .iter()
            .map(|c| c.path.clone())
            .collect();
        self.service
            .explore(self.ui, key, self.position.clone(), paths);
    }
}

impl Ctx<'_> {
    /// After every action: the explorer asks about the board's position once it changed
    /// (or the collections, or the mirror folding, did).
    pub(super) fn follow_with_explorer(&mut self) {
        let state = &mut *self.state;
        if !state.settings.explorer_open
            || state.collections.open.is_empty()
            || state.editor.is_some()
            || state.puzzles.session.is_some()
        {
            return;
        }
        let key = ExploreKey {
            fen: state.position().to_string(),
            fold: state.settings.explorer_fold_mirror,
            revision: state.collections.revision,
            games_from: 0,
        };
        // The page of games shown stays until the position changes.
        if let Some(asked) = &state.collections.asked
            && asked.same_position(&key)
        {
            return;
        }
        state.collections.answer = None;
        self.collections().ask_explorer(key);
    }

    /// The collections' command over this context.
    pub(super) fn collections(&mut self) -> Manager<'_> {
        Manager {
            collections: &mut self.state.collections,
            settings: SettingsMut {
                settings: &mut self.state.settings,
                changed: &mut self.state.bookkeeping.settings_changed,
            },
            position: &self.state.study.derived.position,
            i18n: &self.services.i18n,
            service: &mut self.services.collections,
            ui: &self.services.ui,
            queue: self.queue,
        }
    }
}
