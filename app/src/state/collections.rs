//! Game collections (棋谱库) in the app: the collections open, the explorer's answer for
//! the position on the board (the moves played from it, how they scored, the games that
//! reached it), the collection browser's filter, sort and page, and an import under way.
//!
//! Every query runs on the collections service's thread; what it answers lands here, and
//! an answer for a position or a list no longer shown is dropped.

use crate::words::problem::Problem;
use chuhe_core::Position;
use chuhe_core::db::{
    GameFilter, GameInfo, GameSort, ImportProgress, MaterialKey, MoveStats, ResultFilter,
};
use chuhe_core::record::Record;
use std::path::PathBuf;

/// Games a browser page lists.
pub const PAGE_SIZE: u64 = 50;

/// Games listed under the explorer's moves, a page at a time.
pub const POSITION_GAMES: usize = 30;

/// At most this many games are gathered for a search by position or by material, which
/// is then filtered and sorted as a whole.
pub const SEARCH_LIMIT: usize = 5000;

/// A collection the app has open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenCollection {
    /// Its file.
    pub path: PathBuf,
    /// How many games it holds.
    pub games: u64,
}

impl OpenCollection {
    /// Its name as shown: the file's name without the extension.
    pub fn name(&self) -> String {
        collection_name(&self.path)
    }
}

/// A collection's name as shown: its file's name without the extension.
pub fn collection_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// What an explorer answer is for: the position, whether mirrors were folded in, and the
/// set of collections as it was (its revision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploreKey {
    /// The position's FEN.
    pub fen: String,
    /// Whether the left–right mirror counts with it.
    pub fold: bool,
    /// [`CollectionsState::revision`] when asked.
    pub revision: u64,
    /// The first of the games that reached it to list (a page of [`POSITION_GAMES`]).
    pub games_from: usize,
}

impl ExploreKey {
    /// Whether the two are about the same position in the same collections, whichever
    /// page of its games they list.
    pub fn same_position(&self, other: &ExploreKey) -> bool {
        self.fen == other.fen && self.fold == other.fold && self.revision == other.revision
    }
}

/// A game of a collection, and the ply to open it at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    /// The collection it is in.
    pub collection: PathBuf,
    /// Its headers.
    pub info: GameInfo,
    /// The ply after which the position looked for stands (0: the start).
    pub ply: u32,
}

/// What the open collections hold for the position on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExplorerAnswer {
    /// All the games that reached it.
    pub total: MoveStats,
    /// The moves played from it, most played first.
    pub moves: Vec<MoveStats>,
    /// A page of the games that reached it, newest first (a collection's after those of
    /// the collections before it).
    pub games: Vec<ListedGame>,
    /// Where the page starts among all of them.
    pub games_from: usize,
    /// How many games reached it in all.
    pub games_total: u64,
}

/// The browser's filter as the user types it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrowserFilter {
    /// Part of either player's name.
    pub player: String,
    /// Part of the event's name.
    pub event: String,
    /// The first year, as typed.
    pub year_from: String,
    /// The last year, as typed.
    pub year_to: String,
    /// One result only.
    pub result: Option<ResultFilter>,
    /// An ECCO code's beginning.
    pub ecco: String,
    /// A material balance, `车马兵 vs 车士象全`.
    pub material: String,
}

/// A browser filter put into the core's terms.
#[derive(Clone, Debug, PartialEq)]
pub struct CoreFilter {
    /// The header filter.
    pub headers: GameFilter,
    /// The material balance, if one is asked for.
    pub material: Option<MaterialKey>,
}

impl BrowserFilter {
    /// The filter in the core's terms, or the message for the field that does not read
    /// (a year that is not a number, a material balance the core cannot read).
    pub fn to_core(&self) -> Result<CoreFilter, Problem> {
        let year = |text: &str| -> Result<Option<i32>, Problem> {
            let text = text.trim();
            if text.is_empty() {
                return Ok(None);
            }
            text.parse::<i32>()
                .map(Some)
                .map_err(|_| Problem::new("collection-filter-bad-year").text("year", text))
        };
        let material = match self.material.trim() {
            "" => None,
            text => Some(text.parse::<MaterialKey>().map_err(|_| {
                Problem::new("collection-filter-bad-material").text("material", text)
            })?),
        };
        Ok(CoreFilter {
            headers: GameFilter {
                player: self.player.trim().to_owned(),
                event: self.event.trim().to_owned(),
                year_from: year(&self.year_from)?,
                year_to: year(&self.year_to)?,
                result: self.result,
                ecco: self.ecco.trim().to_owned(),
            },
            material,
        })
    }
}

/// The collection browser.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Browser {
    /// Whether its window is open.
    pub open: bool,
    /// The collection listed (none: the first open one).
    pub collection: Option<PathBuf>,
    /// The filter as typed.
    pub filter: BrowserFilter,
    /// The column sorted by.
    pub sort: GameSort,
    /// Whether the sort runs from the largest.
    pub descending: bool,
    /// The first game of the page shown.
    pub offset: u64,
    /// "Find this position": the games of every open collection that reached it (with
    /// the explorer's mirror folding), instead of one collection's games.
    pub position: Option<Position>,
    /// The number of the last list asked for: only its answer is shown.
    pub asked: u64,
    /// The number of the list shown: [`Browser::asked`] once its answer came, until
    /// then an earlier one (the list stays up while the next is made).
    pub shown: u64,
    /// The list shown: the games matching, in all, and the page.
    pub page: Option<(u64, Vec<ListedGame>)>,
    /// Why the list could not be made (a filter that does not read, a failed query).
    pub error: Option<Problem>,
    /// The row chosen (by a click), opened by Enter.
    pub selected: Option<(PathBuf, i64)>,
}

/// An import under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The collection imported into.
    pub collection: PathBuf,
    /// How far it has come.
    pub progress: ImportProgress,
    /// Whether the user asked to stop it.
    pub cancelling: bool,
}

/// What the last import did.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportOutcome {
    /// The collection imported into.
    pub collection: PathBuf,
    /// The totals.
    pub progress: ImportProgress,
    /// Whether it was stopped before the end.
    pub cancelled: bool,
    /// Every file or game that could not be imported, with why.
    pub failures: Vec<Problem>,
    /// Why the import failed as a whole (the collection could not be written).
    pub error: Option<Problem>,
}

/// A game read from a collection, to open in a tab at a ply.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// The collection.
    pub collection: PathBuf,
    /// The game's number there.
    pub id: i64,
    /// The ply to show.
    pub ply: u32,
    /// The game.
    pub record: Box<Record>,
}

impl PartialEq for LoadedGame {
    fn eq(&self, other: &LoadedGame) -> bool {
        self.collection == other.collection && self.id == other.id && self.ply == other.ply
    }
}

/// The collections feature's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CollectionsState {
    /// The collections open, in the order opened.
    pub open: Vec<OpenCollection>,
    /// Counts the changes to the open collections (opened, closed, imported into), so
    /// that an answer about an older set is not taken for the present one.
    pub revision: u64,
    /// What the explorer last asked about.
    pub asked: Option<ExploreKey>,
    /// The explorer's answer for [`CollectionsState::asked`], once it came.
    pub answer: Option<Result<ExplorerAnswer, Problem>>,
    /// The collection browser.
    pub browser: Browser,
    /// An import under way.
    pub import: Option<Import>,
    /// What the last import did.
    pub last_import: Option<ImportOutcome>,
    /// Collections asked to be made and not opened yet (their making is confirmed).
    pub creating: Vec<PathBuf>,
}

impl CollectionsState {
    /// The collection the browser lists and imports go into: the one chosen, else the
    /// first open one.
    pub fn current(&self) -> Option<&OpenCollection> {
        self.browser
            .collection
            .as_ref()
            .and_then(|p| self.open.iter().find(|c| &c.path == p))
            .or_else(|| self.open.first())
    }

    /// Whether `path` is open.
    pub fn is_open(&self, path: &std::path::Path) -> bool {
        self.open.iter().any(|c| c.path == path)
    }
}

/// A share of a total as a whole percentage (0 when there is no total).
pub fn percent(part: u64, whole: u64) -> u32 {
    if whole == 0 {
        0
    } else {
        ((part as f64 * 100.0 / whole as f64).round()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_reads_years_and_material_or_says_which_field_is_wrong() {
        let filter = BrowserFilter {
            player: " 许银川 ".into(),
            year_from: "1990".into(),
            material: "车马兵 vs 车士象全".into(),
            ..Default::default()
        };
        let core = filter.to_core().unwrap();
        assert_eq!(core.headers.player, "许银川");
        assert_eq!(core.headers.year_from, Some(1990));
        assert_eq!(core.headers.year_to, None);
        assert!(core.material.is_some());
        let bad_year = BrowserFilter {
            year_to: "90年".into(),
            ..Default::default()
        };
        assert_eq!(
            bad_year.to_core().unwrap_err().id,
            "collection-filter-bad-year"
        );
        let bad_material = BrowserFilter {
            material: "车马 and more".into(),
            ..Default::default()
        };
        assert_eq!(
            bad_material.to_core().unwrap_err().id,
            "collection-filter-bad-material"
        );
    }

    #[test]
    fn percentages_round_and_survive_an_empty_total() {
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(0, 0), 0);
    }
}
