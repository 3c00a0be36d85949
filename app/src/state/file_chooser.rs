//! Choosing a file or folder: what the choice is for, and the in-app file browser shown
//! when the desktop has no file-dialog portal to answer.

use crate::state::export::ExportOptions;
use std::path::{Path, PathBuf};

/// What happens once the unsaved game is saved from a "save first?" question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterSave {
    /// Nothing: an ordinary 另存为.
    Stay,
    /// Go on with the action held back by the question.
    Continue,
    /// Quit.
    Quit,
}

/// What a chosen path is for: it decides the title, the filter, whether a file or a folder
/// is wanted, whether to ask before replacing, and what is done with the path.
#[derive(Clone, Debug, PartialEq)]
pub enum FilePurpose {
    /// A game file to open.
    OpenGame,
    /// A folder whose game files to step through.
    OpenFolder,
    /// Where to save the game, and what follows.
    SaveGame(AfterSave),
    /// An external engine's program.
    AddEngine,
    /// A PGN file of puzzles to import.
    ImportPuzzles,
    /// Where to write a puzzle set (by index) as PGN.
    ExportPuzzles(usize),
    /// Where to write the board diagram.
    ExportDiagram(ExportOptions),
    /// Where to write the club's pairings and standings as CSV.
    ClubCsv,
    /// Where to write the club's printable page.
    ClubPng,
    /// Where to export the training state.
    ExportTraining,
    /// A training state to import.
    ImportTraining,
    /// Where to make a new game collection.
    NewCollection,
    /// A game collection to open.
    OpenCollection,
    /// A game file to import into a collection.
    ImportGames,
    /// A folder of game files to import into a collection.
    ImportFolder,
    /// Where to write a worksheet (PDF).
    Worksheet(crate::state::worksheet::WorksheetOptions),
    /// A picture of a board to read.
    OpenPicture,
    /// Where to save the class's quiz record as CSV.
    ClassRecord,
    /// A class's quiz record whose scores the club shows.
    OpenClassRecord,
}

/// Whether a purpose opens a file, saves one, or picks a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChooserKind {
    /// An existing file.
    Open,
    /// A file to write (it may exist: then the user is asked).
    Save,
    /// A folder.
    Folder,
}

impl FilePurpose {
    /// Opening, saving or a folder.
    pub fn kind(&self) -> ChooserKind {
        match self {
            FilePurpose::OpenGame
            | FilePurpose::AddEngine
            | FilePurpose::ImportPuzzles
            | FilePurpose::ImportTraining
            | FilePurpose::OpenCollection
            | FilePurpose::ImportGames
            | FilePurpose::OpenPicture
            | FilePurpose::OpenClassRecord => ChooserKind::Open,
            FilePurpose::OpenFolder | FilePurpose::ImportFolder => ChooserKind::Folder,
            FilePurpose::SaveGame(_)
            | FilePurpose::ExportPuzzles(_)
            | FilePurpose::ExportDiagram(_)
            | FilePurpose::ClubCsv
            | FilePurpose::ClubPng
            | FilePurpose::ExportTraining
            | FilePurpose::NewCollection
            | FilePurpose::Worksheet(_)
            | FilePurpose::ClassRecord => ChooserKind::Save,
        }
    }

    /// The extensions of the files offered (lower case, matched in any case; none: every
    /// file). A game's are the game files by name: a `.txt` may hold a game, but most are
    /// not, so it takes "all files".
    pub fn extensions(&self) -> &'static [&'static str] {
        match self {
            FilePurpose::OpenGame | FilePurpose::ImportGames => {
                &chuhe_core::gamefile::GAME_FILE_EXTENSIONS
            }
            FilePurpose::NewCollection | FilePurpose::OpenCollection => {
                &[chuhe_core::db::EXTENSION]
            }
            FilePurpose::SaveGame(_)
            | FilePurpose::ImportPuzzles
            | FilePurpose::ExportPuzzles(_) => &["pgn"],
            FilePurpose::ExportDiagram(_) | FilePurpose::ClubPng => &["png"],
            FilePurpose::ClubCsv | FilePurpose::ClassRecord | FilePurpose::OpenClassRecord => {
                &["csv"]
            }
            FilePurpose::ExportTraining | FilePurpose::ImportTraining => &["ron"],
            FilePurpose::Worksheet(_) => &["pdf"],
            FilePurpose::OpenPicture => &crate::state::picture::EXTENSIONS,
            FilePurpose::OpenFolder | FilePurpose::ImportFolder | FilePurpose::AddEngine => &[],
        }
    }

    /// The translation key of the chooser's title.
    pub fn title_id(&self) -> &'static str {
        match self {
            FilePurpose::OpenGame => "chooser-title-open-game",
            FilePurpose::OpenFolder => "chooser-title-open-folder",
            FilePurpose::SaveGame(_) => "chooser-title-save-game",
            FilePurpose::AddEngine => "chooser-title-add-engine",
            FilePurpose::ImportPuzzles => "chooser-title-import-puzzles",
            FilePurpose::ExportPuzzles(_) => "chooser-title-export-puzzles",
            FilePurpose::ExportDiagram(_) => "chooser-title-export-diagram",
            FilePurpose::ClubCsv | FilePurpose::ClubPng => "chooser-title-export-club",
            FilePurpose::ExportTraining => "chooser-title-export-training",
            FilePurpose::ImportTraining => "chooser-title-import-training",
            FilePurpose::NewCollection => "chooser-title-new-collection",
            FilePurpose::OpenCollection => "chooser-title-open-collection",
            FilePurpose::ImportGames => "chooser-title-import-games",
            FilePurpose::ImportFolder => "chooser-title-import-folder",
            FilePurpose::Worksheet(_) => "chooser-title-worksheet",
            FilePurpose::OpenPicture => "chooser-title-open-picture",
            FilePurpose::ClassRecord => "chooser-title-class-record",
            FilePurpose::OpenClassRecord => "chooser-title-open-class-record",
        }
    }

    /// Whether `name` is a file this purpose offers.
    pub fn offers(&self, name: &str) -> bool {
        let extensions = self.extensions();
        extensions.is_empty()
            || Path::new(name)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }

    /// The file name to save under: `name` as typed, given the purpose's extension when
    /// it has none (a user typing 对局 means 对局.pgn).
    pub fn file_name_for(&self, name: &str) -> String {
        let name = name.trim();
        match self.extensions().first() {
            Some(ext)
                if self.kind() == ChooserKind::Save && Path::new(name).extension().is_none() =>
            {
                format!("{name}.{ext}")
            }
            _ => name.to_owned(),
        }
    }
}

/// What the commands ask the file-chooser service for.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRequest {
    /// What the path is for.
    pub purpose: FilePurpose,
    /// The name offered for saving.
    pub file_name: Option<String>,
    /// The folder to start in.
    pub folder: Option<PathBuf>,
    /// The filter's name, in the user's language.
    pub filter_name: String,
    /// The name of the filter that shows every file, in the user's language.
    pub all_files_name: String,
    /// The title, in the user's language.
    pub title: String,
}

/// One line of the browser's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserEntry {
    /// The file or folder name.
    pub name: String,
    /// Whether it is a folder.
    pub is_folder: bool,
}

/// The in-app file browser, while it is open.
#[derive(Clone, Debug, PartialEq)]
pub struct FileBrowser {
    /// What the chosen path is for.
    pub purpose: FilePurpose,
    /// The folder shown.
    pub folder: PathBuf,
    /// The path bar's text (the folder, or what the user is typing there).
    pub path_text: String,
    /// The folder's sub-folders, then the files the purpose offers (or all), by name.
    pub entries: Vec<BrowserEntry>,
    /// Whether every file is listed, not only the purpose's.
    pub all_files: bool,
    /// Why the last step failed (a folder unreadable, a file missing), if it did.
    pub error: Option<crate::state::Notice>,
    /// The file name field: typed for saving, the clicked file for opening.
    pub file_name: String,
    /// The file that exists already, while the user is asked whether to replace it.
    pub replace: Option<PathBuf>,
}

impl FileBrowser {
    /// A browser for `purpose` in `folder`, not yet listed.
    pub fn new(purpose: FilePurpose, folder: PathBuf, file_name: String) -> FileBrowser {
        FileBrowser {
            purpose,
            path_text: folder.display().to_string(),
            folder,
            entries: Vec::new(),
            all_files: false,
            error: None,
            file_name,
            replace: None,
        }
    }

    /// The path the confirm button would choose now, if any.
    pub fn chosen_path(&self) -> Option<PathBuf> {
        match self.purpose.kind() {
            ChooserKind::Folder => Some(self.folder.clone()),
            ChooserKind::Open | ChooserKind::Save => {
                let name = self.purpose.file_name_for(&self.file_name);
                (!name.is_empty()).then(|| self.folder.join(name))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_name_gets_the_purposes_extension_when_it_has_none() {
        let purpose = FilePurpose::SaveGame(AfterSave::Stay);
        assert_eq!(purpose.file_name_for("对局"), "对局.pgn");
        assert_eq!(purpose.file_name_for("game.PGN"), "game.PGN");
        // Opening takes the name as it is.
        assert_eq!(FilePurpose::OpenGame.file_name_for("notes"), "notes");
    }

    #[test]
    fn only_the_purposes_files_are_offered() {
        assert!(FilePurpose::OpenGame.offers("a.XQF"));
        assert!(!FilePurpose::OpenGame.offers("a.png"));
        assert!(FilePurpose::ClubPng.offers("page.png"));
        assert!(FilePurpose::AddEngine.offers("pikafish"));
        assert!(FilePurpose::OpenGame.offers("對局.DhtmlXQ"));
        assert!(
            !FilePurpose::OpenGame.offers("README.TXT"),
            "a text file is no game by its name"
        );
    }

    #[test]
    fn a_folder_chooser_chooses_the_folder_shown() {
        let browser = FileBrowser::new(FilePurpose::OpenFolder, "/games".into(), String::new());
        assert_eq!(browser.chosen_path(), Some(PathBuf::from("/games")));
        let saving = FileBrowser::new(FilePurpose::ClubCsv, "/out".into(), " 俱乐部 ".to_owned());
        assert_eq!(saving.chosen_path(), Some(PathBuf::from("/out/俱乐部.csv")));
    }
}
