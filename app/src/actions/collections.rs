//! Game collections: the explorer beside the board, the collection browser, imports.

use crate::state::collections::{
    BrowserFilter, ExploreKey, ExplorerAnswer, ImportOutcome, ListedGame, LoadedGame,
};
use crate::words::problem::Problem;
use chuhe_core::Position;
use chuhe_core::db::{GameSort, ImportProgress};
use std::path::PathBuf;

/// What the user asks of the collections, and what the collections service answers.
#[derive(Clone, Debug, PartialEq)]
pub enum CollectionAction {
    /// Show or hide the explorer panel.
    ToggleExplorer,
    /// Count a position's left–right mirror with it, or not.
    SetFoldMirror(bool),
    /// Open or close the collection browser.
    ToggleBrowser,
    /// Choose where to make a new collection.
    NewDialog,
    /// Choose a collection to open.
    OpenDialog,
    /// Make a new collection there (or open the one there).
    Create(PathBuf),
    /// Open the collection there.
    Open(PathBuf),
    /// Reopen the collections open when the app was last closed.
    Restore,
    /// Close a collection.
    Close(PathBuf),
    /// The service opened a collection (with its number of games), or says why not;
    /// `remembered` when it was reopened from the settings.
    Opened {
        /// The collection's file.
        path: PathBuf,
        /// Its games, or why it could not be opened.
        result: Result<u64, Problem>,
        /// Whether it was reopened at start.
        remembered: bool,
    },
    /// Choose a game file to import into the browser's collection.
    ImportFileDialog,
    /// Choose a folder to import into the browser's collection.
    ImportFolderDialog,
    /// Import files or folders (chosen, or dropped on the window).
    Import(Vec<PathBuf>),
    /// Stop the import under way (what was written stays).
    CancelImport,
    /// How far the import has come.
    ImportProgress(ImportProgress),
    /// The import ended.
    Imported(ImportOutcome),
    /// List the games that reached the explorer's position from this one on (a page).
    ExplorerPage(usize),
    /// The service's answer for the explorer.
    Explored(ExploreKey, Result<ExplorerAnswer, Problem>),
    /// List this collection in the browser.
    Show(PathBuf),
    /// The browser's filter changed.
    SetFilter(BrowserFilter),
    /// Sort by this column (a second click on it turns the order round).
    Sort(GameSort),
    /// Show the page starting at this game.
    Page(u64),
    /// Choose a row of the browser (Enter opens it).
    Select(PathBuf, i64),
    /// Open the chosen row's game.
    OpenSelected,
    /// The service's list for the browser: the number asked, and the games in all with
    /// the page, or why not.
    Listed(u64, Result<(u64, Vec<ListedGame>), Problem>),
    /// Open a game of a collection in a new tab, at a ply.
    OpenGame {
        /// The collection.
        collection: PathBuf,
        /// The game's number there.
        id: i64,
        /// The ply to show.
        ply: u32,
    },
    /// The service read the game asked for, or says why not.
    GameLoaded(Result<LoadedGame, Problem>),
    /// 查找此局面: list the games of the open collections that reached a position: the
    /// one a board other than the main one shows, or (`None`) the main board's.
    FindPosition(Option<Position>),
    /// Back from a position's games to the collection's.
    ClearPosition,
    /// 打印习题纸: read the positions of the games listed (the page shown) for the
    /// worksheet dialog.
    Worksheet,
}
