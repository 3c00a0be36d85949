//! Everything the user can do, as one [`Action`] type, and the one place that carries it
//! out ([`ChuheApp::apply`]). Clicks, drags, keys, menus and the tests all produce actions,
//! so they share one path, and every record edit goes through the record's undo history.

use crate::app::ChuheApp;
use crate::board::Coordinates;
use crate::engine::EngineWorker;
use crate::files::{self, LoadError, Loaded};
use crate::i18n::Language;
use crate::review::{self, Judgement, Review};
use crate::settings::MoveNotation;
use crate::sound::Sound;
use crate::state::{Dialog, Folder, Notice, ReviewProgress};
use crate::theme::ThemeChoice;
use chuhe_core::record::{Arrow, Circle, Evaluation, Nag, NodeId, Record, Score};
use chuhe_core::search::Options;
use chuhe_core::{Move, Square};
use std::path::PathBuf;
use std::time::Duration;

/// One thing the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A click on a point: pick up a piece, or move the picked-up piece there.
    ClickPoint(Square),
    /// A move by drag (or from elsewhere): played after the cursor, or refused with the
    /// reason.
    PlayMove(Move),
    /// Put the picked-up piece back.
    Deselect,
    /// Draw or remove an arrow on the current move.
    ToggleArrow(Arrow),
    /// Circle or uncircle a point on the current move.
    ToggleCircle(Circle),
    /// Remove the current move's arrows and circles.
    ClearMarks,

    /// Go to a move (the root for the start).
    GoTo(NodeId),
    /// ← One move back.
    Back,
    /// → One move on, along the main continuation.
    Forward,
    /// Home: the start position.
    Start,
    /// End: the end of the current line.
    End,
    /// ↑ The previous alternative to the current move.
    PreviousVariation,
    /// ↓ The next alternative to the current move.
    NextVariation,

    /// Delete the move and everything after it.
    DeleteFrom(NodeId),
    /// Move a variation one place up.
    PromoteVariation(NodeId),
    /// Make the line through the move the main line.
    MakeMainLine(NodeId),
    /// Set the comment after a move (on the root: before the first move).
    SetComment(NodeId, String),
    /// Add or remove a glyph.
    ToggleNag(NodeId, Nag),
    /// Set a header (an empty value removes it).
    SetHeader(String, String),
    /// Take back the last edit.
    Undo,
    /// Make again the last edit taken back.
    Redo,
    /// Play an engine line from a node into the record as a variation.
    PlayLine(NodeId, Vec<Move>),

    /// Turn the board round.
    Flip,
    /// Label the points in another style.
    SetCoordinates(Coordinates),
    /// Show or hide the selected piece's legal destinations.
    ToggleDestinations,
    /// Turn the sounds of play on or off.
    ToggleSounds,
    /// Change the board and pieces.
    SetTheme(ThemeChoice),
    /// Change the notation of moves.
    SetNotation(MoveNotation),
    /// Change the interface language.
    SetLanguage(Language),
    /// Only the board, or the whole window.
    ToggleBoardOnly,
    /// Presentation mode (F5): full screen, the board as large as it goes, high contrast,
    /// large coordinates, engine hidden; the move list on F11.
    TogglePresentation,
    /// Leave presentation mode (Esc).
    EndPresentation,
    /// The side panel was resized to this width.
    SetSidePanelWidth(f32),

    /// Start or stop analysing the position on the board.
    ToggleAnalysis,
    /// Hide or show everything the engine says.
    ToggleEngineHidden,
    /// Show this many engine lines (1–5).
    SetMultiPv(usize),
    /// Change the engine's settings: hash size, threads, review time, the external
    /// engines and which one analyses.
    SetEngineSettings(crate::settings::EngineSettings),
    /// Choose an external engine's program to add.
    AddEngineDialog,
    /// Add an external engine and analyse with it.
    AddEngine(PathBuf),
    /// Start the chosen engine again (after it failed).
    RestartEngine,
    /// Review the whole main line.
    StartReview,
    /// Stop a review, keeping nothing of it.
    CancelReview,

    /// A new game from the start position.
    New,
    /// Choose a file to open.
    OpenDialog,
    /// Choose a folder whose game files to step through.
    OpenFolderDialog,
    /// Open a file.
    Open(PathBuf),
    /// Open the first game file of a folder, to step through the others.
    OpenFolder(PathBuf),
    /// Open the game at this index of the game list.
    ChooseGame(usize),
    /// Close the game list without choosing.
    CloseGameList,
    /// The previous game file of the folder.
    PreviousFile,
    /// The next game file of the folder.
    NextFile,
    /// Save to the record's file (asks for one if it has none).
    Save,
    /// Choose a file to save to.
    SaveAsDialog,
    /// Open a FEN or PGN text (pasted).
    Paste(String),
    /// Copy the position as FEN.
    CopyFen,
    /// Copy the game as PGN.
    CopyPgn,

    /// Something in the checkmate-pattern browser.
    Patterns(crate::panels::patterns::PatternAction),

    /// The user asked to close the window.
    RequestQuit,
    /// Save, then quit.
    SaveAndQuit,
    /// Quit without saving.
    DiscardAndQuit,
    /// Go on with an action that replaces unsaved work (the user agreed).
    DiscardAndContinue,
    /// Close a dialog without doing anything.
    CloseDialog,
    /// Bring back the autosaved game (`true`) or throw it away.
    RestoreAutosave(bool),

    /// Something done in the position editor.
    Editor(crate::editor::EditorAction),
    /// Something done with puzzles.
    Puzzle(crate::puzzles::PuzzleAction),
    /// Something done in a game being played (against the engine or hot-seat).
    Play(crate::play::PlayAction),
    /// Opens or closes the audience window (a second window for the projector).
    ToggleAudience,
    /// In presentation mode, shows or hides the list of the moves revealed so far.
    TogglePresentationMoves,
    /// Puts a puzzle's solution in a new game and presents it to a class, the position
    /// first, the solution revealed one move at a time.
    PresentPuzzle {
        /// The set's index.
        set: usize,
        /// The puzzle's index in it.
        index: usize,
    },
    /// Opens (with the options) or closes (`None`) the diagram export dialog.
    ExportDialog(Option<crate::export::ExportOptions>),
    /// Asks where to save the diagram, then exports it.
    ExportPngDialog(crate::export::ExportOptions),
    /// Exports the board as a PNG diagram to the path.
    ExportPng(PathBuf, crate::export::ExportOptions),
    /// Show or hide the opening browser.
    ToggleOpenings,
    /// Search the opening tree by name.
    SearchOpenings(String),
    /// Put an opening's line on the board, with its notes, as a new game.
    ShowOpening(usize),
    /// Choose, in the browser, the named opening the moves up to the cursor reached.
    WhichOpening,

    // Knowledge reference (issue 10).
    /// Something in the knowledge reference, or the board-lines overlay.
    Knowledge(crate::panels::knowledge::KnowledgeAction),
    // Club (issue 10).
    /// Something done in the club manager.
    Club(crate::club::ClubAction),
    /// Something done with the endgame tables.
    Tablebase(crate::tablebase::TbAction),
}

impl Action {
    /// Whether the action replaces the record, so unsaved changes would be lost. (Choosing
    /// from a game list is not asked about: opening the list already was.)
    /// Whether it only moves through the game (the keys of a presentation clicker).
    pub fn steps(&self) -> bool {
        matches!(
            self,
            Action::Back
                | Action::Forward
                | Action::Start
                | Action::End
                | Action::PreviousVariation
                | Action::NextVariation
        )
    }

    fn replaces_record(&self) -> bool {
        matches!(
            self,
            Action::New
                | Action::Open(_)
                | Action::OpenFolder(_)
                | Action::PreviousFile
                | Action::NextFile
                | Action::Paste(_)
                | Action::ShowOpening(_)
                | Action::Play(crate::play::PlayAction::Start(_))
                | Action::PresentPuzzle { .. }
                | Action::Knowledge(crate::panels::knowledge::KnowledgeAction::ToBoard)
        )
    }
}

impl ChuheApp {
    /// Carries out `action`: the one place where the state changes.
    pub fn apply(&mut self, ctx: &egui::Context, action: Action) {
        // While the editor is open, undo, redo and paste are about the arrangement.
        let action = match action {
            Action::Undo if self.state.editor.is_some() => {
                Action::Editor(crate::editor::EditorAction::Undo)
            }
            Action::Redo if self.state.editor.is_some() => {
                Action::Editor(crate::editor::EditorAction::Redo)
            }
            Action::Paste(text) if self.state.editor.is_some() => {
                Action::Editor(crate::editor::EditorAction::ApplyFen(text))
            }
            other => other,
        };
        // The editor and solve mode take the board: keys that would step through or edit
        // the game behind them, unseen, do nothing there.
        let board_taken = self.state.editor.is_some() || self.state.puzzles.session.is_some();
        if board_taken
            && (action.steps()
                || matches!(
                    action,
                    Action::DeleteFrom(_)
                        | Action::PromoteVariation(_)
                        | Action::Undo
                        | Action::Redo
                        | Action::ClickPoint(_)
                        | Action::PlayMove(_)
                ))
        {
            return;
        }
        if action.replaces_record() && self.state.dirty {
            self.state.dialog = Some(Dialog::UnsavedOnReplace(Box::new(action)));
            return;
        }
        if action.replaces_record() || matches!(action, Action::ChooseGame(_)) {
            // A review's results belong to the record it started on.
            self.apply(ctx, Action::CancelReview);
        }
        let cursor = self.state.cursor;
        match action {
            Action::ClickPoint(square) => self.click_point(square),
            Action::PlayMove(m) => self.play_move(m),
            Action::Deselect => self.state.selected = None,
            Action::ToggleArrow(arrow) => self.edit(|r| r.toggle_arrow(cursor, arrow).map(|_| ())),
            Action::ToggleCircle(circle) => {
                self.edit(|r| r.toggle_circle(cursor, circle).map(|_| ()))
            }
            Action::ClearMarks => self.edit(|r| r.clear_marks(cursor).map(|_| ())),

            Action::GoTo(node) => self.go_to(node),
            Action::Back => {
                if let Some(parent) = self.state.record.parent(cursor) {
                    self.go_to(parent);
                }
            }
            Action::Forward => {
                if let Some(next) = self.state.record.main_child(cursor) {
                    self.go_to(next);
                }
            }
            Action::Start => self.go_to(self.state.record.root()),
            Action::End => self.go_to(self.state.record.line_end(cursor)),
            Action::PreviousVariation => {
                if let Some(other) = self.state.record.previous_sibling(cursor) {
                    self.go_to(other);
                }
            }
            Action::NextVariation => {
                if let Some(other) = self.state.record.next_sibling(cursor) {
                    self.go_to(other);
                }
            }

            Action::DeleteFrom(node) => {
                if let Ok(parent) = self.state.record.delete_from(node) {
                    if !self.state.record.is_live(self.state.cursor) {
                        self.state.cursor = parent;
                    }
                    self.edited();
                }
            }
            Action::PromoteVariation(node) => self.edit(|r| r.promote_variation(node).map(|_| ())),
            Action::MakeMainLine(node) => self.edit(|r| r.make_main_line(node).map(|_| ())),
            Action::SetComment(node, text) => self.edit(|r| r.set_comment(node, &text).map(|_| ())),
            Action::ToggleNag(node, nag) => self.edit(|r| r.toggle_nag(node, nag).map(|_| ())),
            Action::SetHeader(name, value) => {
                let changed = if value.trim().is_empty() {
                    self.state.record.remove_header(&name)
                } else {
                    self.state.record.set_header(&name, &value)
                };
                if changed {
                    self.edited();
                }
            }
            Action::Undo => {
                if self.state.record.undo() {
                    self.edited();
                }
            }
            Action::Redo => {
                if self.state.record.redo() {
                    self.edited();
                }
            }
            Action::PlayLine(node, moves) => self.play_line(node, &moves),

            Action::ToggleOpenings => self.state.openings.open = !self.state.openings.open,
            Action::SearchOpenings(query) => self.state.openings.query = query,
            Action::ShowOpening(id) => self.show_opening(id),
            Action::WhichOpening => {
                self.state.openings.open = true;
                match self.state.derived.opening {
                    Some(found) => {
                        self.state.openings.selected = Some(found.node);
                        self.state.openings.reveal += 1;
                    }
                    None => self.state.notice = Some(Notice::Message("openings-not-found")),
                }
            }
            Action::Tablebase(a) => self.apply_tablebase(a, ctx),

            Action::Flip => self.change_settings(|s| s.flipped = !s.flipped),
            Action::SetCoordinates(c) => self.change_settings(|s| s.coordinates = c),
            Action::ToggleDestinations => {
                self.change_settings(|s| s.show_destinations = !s.show_destinations)
            }
            Action::ToggleSounds => self.change_settings(|s| s.mute = !s.mute),
            Action::SetTheme(theme) => {
                self.change_settings(|s| s.theme = theme);
                self.apply_visuals(ctx);
            }
            Action::SetNotation(n) => {
                self.change_settings(|s| s.notation = n);
                self.state.refresh();
            }
            Action::SetLanguage(language) => {
                self.i18n.set_language(language);
                // Chinese moves follow the script of the interface.
                self.change_settings(|s| {
                    s.language = language;
                    s.notation = match (language, s.notation) {
                        (Language::ZhTw, MoveNotation::Chinese) => MoveNotation::ChineseTraditional,
                        (Language::ZhCn, MoveNotation::ChineseTraditional) => MoveNotation::Chinese,
                        (_, notation) => notation,
                    };
                });
                self.state.refresh();
            }
            Action::TogglePresentation => {
                if self.state.presentation.is_some() {
                    self.end_presentation(ctx);
                } else {
                    self.start_presentation(ctx);
                }
            }
            Action::EndPresentation => self.end_presentation(ctx),
            Action::ToggleBoardOnly => {
                self.change_settings(|s| s.layout.board_only = !s.layout.board_only)
            }

            Action::SetSidePanelWidth(width) => {
                self.change_settings(|s| s.layout.side_panel_width = width)
            }
            Action::ToggleAnalysis => self.toggle_analysis(),
            Action::ToggleEngineHidden => self.state.engine_hidden = !self.state.engine_hidden,
            Action::SetMultiPv(lines) => {
                let lines = lines.clamp(1, 5);
                self.change_settings(|s| s.engine.multipv = lines);
                self.engine_options_changed();
            }
            Action::SetEngineSettings(engine) => {
                let engine_changed = engine.active() != self.state.settings.engine.active();
                self.change_settings(|s| s.engine = engine);
                self.engine_options_changed();
                if engine_changed {
                    self.engine_choice_changed();
                }
            }
            Action::AddEngineDialog => {
                if let Some(path) = rfd::FileDialog::new().pick_file() {
                    self.apply(ctx, Action::AddEngine(path));
                }
            }
            Action::AddEngine(path) => {
                let engine = crate::settings::ExternalEngine::from_path(path);
                self.change_settings(|s| {
                    s.engine.external.push(engine);
                    s.engine.active_external = Some(s.engine.external.len() - 1);
                });
                self.engine_choice_changed();
            }
            Action::RestartEngine => self.engine_choice_changed(),
            Action::StartReview => self.start_review(),
            Action::CancelReview => {
                if let Some(mut review) = self.review.take() {
                    review.cancel();
                }
                self.review_results.clear();
                self.state.review = None;
            }

            Action::New => {
                self.state.replace_record(Record::default(), None);
                self.state.folder = None;
            }
            Action::OpenDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter(self.i18n.tr("filter-games"), &files::GAME_EXTENSIONS)
                    .pick_file();
                if let Some(path) = picked {
                    self.apply(ctx, Action::Open(path));
                }
            }
            Action::OpenFolderDialog => {
                if let Some(dir) = rfd::FileDialog::new().pick_folder() {
                    self.apply(ctx, Action::OpenFolder(dir));
                }
            }
            Action::Open(path) => self.open(&path),
            Action::OpenFolder(dir) => self.open_folder(&dir),
            Action::ChooseGame(index) => {
                if let Some(list) = self.state.game_list.take()
                    && let Some(entry) = list.games.into_iter().nth(index)
                {
                    self.state.replace_record(entry.record, list.path);
                }
            }
            Action::CloseGameList => self.state.game_list = None,
            Action::PreviousFile => self.step_file(-1),
            Action::NextFile => self.step_file(1),
            Action::Save => match self.state.file.clone() {
                Some(path) if is_pgn(&path) => self.save_to(&path),
                _ => self.apply(ctx, Action::SaveAsDialog),
            },
            Action::SaveAsDialog => {
                let picked = rfd::FileDialog::new()
                    .add_filter("PGN", &["pgn"])
                    .set_file_name("game.pgn")
                    .save_file();
                if let Some(path) = picked {
                    self.save_to(&path);
                }
            }
            Action::Paste(text) => match files::load_text(&text) {
                Ok(loaded) => self.loaded(loaded, None),
                Err(e) => self.load_failed(&e),
            },
            Action::CopyFen => {
                ctx.copy_text(self.state.position().to_string());
                self.state.notice = Some(Notice::Message("notice-copied-fen"));
            }
            Action::CopyPgn => {
                let notation = self.state.settings.notation.notation();
                ctx.copy_text(files::to_pgn(&self.state.record, notation));
                self.state.notice = Some(Notice::Message("notice-copied-pgn"));
            }

            Action::RequestQuit => {
                if self.state.dirty {
                    self.state.dialog = Some(Dialog::UnsavedOnQuit);
                } else {
                    self.quit(ctx);
                }
            }
            Action::SaveAndQuit => {
                self.state.dialog = None;
                self.apply(ctx, Action::Save);
                if !self.state.dirty {
                    self.quit(ctx);
                }
            }
            Action::DiscardAndQuit => {
                self.state.dirty = false;
                self.quit(ctx);
            }
            Action::DiscardAndContinue => {
                if let Some(Dialog::UnsavedOnReplace(next)) = self.state.dialog.take() {
                    self.state.dirty = false;
                    self.apply(ctx, *next);
                }
            }
            Action::CloseDialog => self.state.dialog = None,
            Action::Patterns(action) => crate::panels::patterns::apply(self, action),
            Action::Knowledge(action) => {
                // A window opened by a key shows without waiting for the next input.
                ctx.request_repaint();
                crate::panels::knowledge::apply(self, action)
            }
            Action::RestoreAutosave(restore) => {
                self.state.dialog = None;
                self.restore_autosave(restore);
            }
            Action::Editor(action) => self.apply_editor(ctx, action),
            Action::Puzzle(action) => self.apply_puzzle(action),
            Action::Play(action) => self.apply_play(ctx, action),
            Action::ExportDialog(options) => self.state.export_dialog = options,
            Action::ToggleAudience => self.state.audience = !self.state.audience,
            Action::TogglePresentationMoves => {
                if let Some(p) = &mut self.state.presentation {
                    p.show_moves = !p.show_moves;
                }
            }
            Action::PresentPuzzle { set, index } => {
                let Some(puzzle) = self
                    .state
                    .puzzles
                    .sets
                    .get(set)
                    .and_then(|s| s.set.puzzles.get(index))
                else {
                    return;
                };
                let record = puzzle.to_record();
                self.state.puzzles.browser_open = false;
                self.state.replace_record(record, None);
                self.state.folder = None;
                // The solver's side at the bottom, as in solve mode.
                let black = self.state.record.start().side_to_move() == chuhe_core::Color::Black;
                if self.state.settings.flipped != black {
                    self.apply(ctx, Action::Flip);
                }
                if self.state.presentation.is_none() {
                    self.start_presentation(ctx);
                }
                if let Some(p) = &mut self.state.presentation {
                    p.show_moves = true;
                }
            }
            Action::ExportPngDialog(options) => {
                self.state.export_dialog = None;
                let picked = rfd::FileDialog::new()
                    .add_filter("PNG", &["png"])
                    .set_file_name("diagram.png")
                    .save_file();
                if let Some(path) = picked {
                    self.apply(ctx, Action::ExportPng(path, options));
                }
            }
            Action::ExportPng(path, options) => self.export_png(path, options),
            // Club (issue 10).
            Action::Club(action) => self.apply_club(ctx, action),
        }
        self.after_change();
    }

    /// A first click picks up one of the mover's pieces; a second click on another of
    /// them picks that up instead, anywhere else it tries the move.
    fn click_point(&mut self, square: Square) {
        let position = self.state.position();
        let own = position
            .piece_at(square)
            .is_some_and(|p| p.color == position.side_to_move());
        match self.state.selected {
            Some(from) if from == square => self.state.selected = None,
            _ if own => {
                self.state.selected = Some(square);
                self.state.notice = None;
            }
            Some(from) => self.play_move(Move::new(from, square)),
            None => {
                if let Err(illegal) = position.check_move(Move::new(square, square)) {
                    // Only a click on a piece says why it cannot move: an empty point
                    // is just a miss.
                    if position.piece_at(square).is_some() {
                        self.state.notice = Some(Notice::Illegal(illegal.reason));
                    }
                }
            }
        }
    }

    /// Plays `m` after the cursor (a new variation if the cursor has a continuation that
    /// differs), or says why it is illegal.
    fn play_move(&mut self, m: Move) {
        self.state.selected = None;
        if !self.match_allows_move() {
            return;
        }
        if self.state.derived.outcome.is_some() {
            self.state.notice = Some(Notice::Message("notice-game-over"));
            return;
        }
        if let Err(illegal) = self.state.position().check_move(m) {
            self.state.notice = Some(Notice::Illegal(illegal.reason));
            return;
        }
        let cursor = self.state.cursor;
        let had = self
            .state
            .record
            .children(cursor)
            .any(|c| self.state.record.move_at(c) == Some(m));
        match self.state.record.add_move(cursor, m) {
            Ok(node) => {
                self.state.cursor = node;
                self.state.notice = None;
                if !had {
                    self.edited();
                } else {
                    self.state.refresh();
                }
                if self.state.play.is_some() {
                    let mover = !self.state.position().side_to_move();
                    self.match_moved(mover);
                }
            }
            Err(_) => self.state.notice = Some(Notice::Message("notice-edit-failed")),
        }
    }

    /// A new game holding the opening's line, each named position on the way commented
    /// with its name and note in the user's language, the cursor at its end.
    fn show_opening(&mut self, id: usize) {
        let Ok(book) = chuhe_core::library::openings::builtin() else {
            self.state.notice = Some(Notice::Message("openings-unavailable"));
            return;
        };
        let Some(node) = book.node(id) else { return };
        let lang = self.i18n.language().tag();
        let mut record = Record::default();
        let mut at = record.root();
        for &m in &node.moves {
            match record.add_move(at, m) {
                Ok(next) => at = next,
                Err(_) => return,
            }
        }
        let line = record.main_line();
        // The root's note describes the library, not the game: only named moves are
        // annotated.
        for step in book.path(id).into_iter().skip(1) {
            let named = &book.nodes[step];
            let colon = if lang.starts_with("zh") { "：" } else { ": " };
            let text = format!("{}{colon}{}", named.names.get(lang), named.note.get(lang));
            let _ = record.set_comment(line[named.depth() - 1], &text);
        }
        chuhe_core::library::openings::write_headers(&mut record);
        self.state.replace_record(record, None);
        self.state.cursor = at;
        self.state.refresh();
        self.state.folder = None;
        self.state.openings.selected = Some(id);
    }

    fn play_line(&mut self, node: NodeId, moves: &[Move]) {
        let mut at = node;
        let mut first = None;
        for &m in moves {
            match self.state.record.add_move(at, m) {
                Ok(next) => {
                    first.get_or_insert(next);
                    at = next;
                }
                Err(_) => break,
            }
        }
        if let Some(first) = first {
            self.state.cursor = first;
            self.edited();
        }
    }

    fn go_to(&mut self, node: NodeId) {
        if self.state.record.is_live(node) {
            self.state.cursor = node;
            self.state.selected = None;
            self.state.refresh();
        }
    }

    /// Makes an undoable edit of the record.
    fn edit(
        &mut self,
        edit: impl FnOnce(&mut Record) -> Result<(), chuhe_core::record::EditError>,
    ) {
        match edit(&mut self.state.record) {
            Ok(()) => self.edited(),
            Err(_) => self.state.notice = Some(Notice::Message("notice-edit-failed")),
        }
    }

    fn edited(&mut self) {
        self.state.mark_edited();
        self.state.refresh();
    }

    fn change_settings(&mut self, change: impl FnOnce(&mut crate::settings::Settings)) {
        change(&mut self.state.settings);
        self.settings_changed = true;
    }

    /// The engine options the settings ask for.
    fn engine_options(&self) -> Options {
        let engine = &self.state.settings.engine;
        Options {
            hash_mb: engine.hash_mb,
            threads: engine.threads,
            multipv: engine.multipv,
            ..Options::default()
        }
    }

    fn engine_options_changed(&mut self) {
        if let Some(analysis) = &self.analysis {
            analysis.set_options(self.engine_options());
        }
    }

    /// The external engine chosen in the settings, or its options, changed: the worker
    /// starts it (or the built-in engine) and analyses on with it.
    fn engine_choice_changed(&mut self) {
        self.state.engine_status = None;
        self.state.engine = None;
        self.analysed = None;
        if let Some(analysis) = &self.analysis {
            let external = self.state.settings.engine.active().map(|e| e.config());
            analysis.use_engine(external);
        }
    }

    fn toggle_analysis(&mut self) {
        self.state.analysing = !self.state.analysing;
        self.analysed = None;
        if self.state.analysing {
            let failed = matches!(
                self.state.engine_status,
                Some(crate::engine::EngineStatus::Failed(_))
            );
            if failed {
                // Turning analysis on again is how the user retries an engine that failed.
                self.engine_choice_changed();
            }
            let options = self.engine_options();
            let external = self.state.settings.engine.active().map(|e| e.config());
            self.analysis
                .get_or_insert_with(|| EngineWorker::spawn(options, external));
        } else if let Some(analysis) = &self.analysis {
            analysis.stop();
        }
    }

    /// Keeps the analysis on the position shown.
    fn follow_with_analysis(&mut self) {
        let target = (self.state.generation, self.state.cursor);
        if !self.state.analysing || self.analysed == Some(target) {
            return;
        }
        let Some(analysis) = &self.analysis else {
            return;
        };
        let record = &self.state.record;
        let game = crate::engine::Game {
            start: record.start().clone(),
            moves: record.moves_to(self.state.cursor),
        };
        analysis.analyse(target, game);
        self.analysed = Some(target);
    }

    fn start_review(&mut self) {
        if self.review.is_some() {
            return;
        }
        let record = &self.state.record;
        let moves = record.main_line_moves();
        let engine = &self.state.settings.engine;
        let review = Review::start(
            record.start().clone(),
            moves,
            Options {
                hash_mb: engine.hash_mb,
                threads: engine.threads,
                ..Options::default()
            },
            Duration::from_millis(engine.review_ms),
        );
        self.state.review = Some(ReviewProgress {
            done: 0,
            total: review.total,
        });
        self.review_results.clear();
        self.review = Some(review);
    }

    /// Takes in what the review found; when it has covered every position, writes the
    /// evaluations, the judgements and the engine's better moves into the record.
    pub(crate) fn poll_review(&mut self) {
        let Some(review) = &self.review else {
            return;
        };
        self.review_results.extend(review.poll());
        let total = review.total;
        if let Some(progress) = &mut self.state.review {
            progress.done = self.review_results.len();
        }
        if self.review_results.len() < total {
            return;
        }
        self.review = None;
        self.state.review = None;
        let results = std::mem::take(&mut self.review_results);
        let main_line = self.state.record.main_line();
        for (i, &node) in main_line.iter().enumerate() {
            let (Some(before), Some(after)) = (results.get(i), results.get(i + 1)) else {
                break;
            };
            let eval = Evaluation {
                score: record_score(after.score_red),
                depth: Some(after.depth),
            };
            let _ = self.state.record.set_eval(node, Some(eval));
            let Some(number) = self.state.record.move_number(node) else {
                continue;
            };
            let Some(judgement) = review::judge(before.score_red, after.score_red, number.color)
            else {
                continue;
            };
            let nag = match judgement {
                Judgement::Inaccuracy => Nag::DUBIOUS,
                Judgement::Mistake => Nag::MISTAKE,
                Judgement::Blunder => Nag::BLUNDER,
            };
            let assessed = self
                .state
                .record
                .annotation(node)
                .nags
                .iter()
                .any(|n| n.is_move_assessment());
            if !assessed {
                let _ = self.state.record.toggle_nag(node, nag);
            }
            // The engine's better move, as a variation of the move played.
            if let Some(parent) = self.state.record.parent(node)
                && before.line.first().copied() != self.state.record.move_at(node)
            {
                let mut at = parent;
                for &m in before.line.iter().take(6) {
                    match self.state.record.add_move(at, m) {
                        Ok(next) => at = next,
                        Err(_) => break,
                    }
                }
            }
        }
        self.state.notice = Some(Notice::Message("notice-review-done"));
        self.edited();
    }

    fn open(&mut self, path: &std::path::Path) {
        match files::load_file(path) {
            Ok(loaded) => {
                self.change_settings(|s| s.remember_file(path));
                self.loaded(loaded, Some(path.to_owned()));
            }
            Err(e) => self.load_failed(&e),
        }
    }

    fn loaded(&mut self, loaded: Loaded, path: Option<PathBuf>) {
        match loaded {
            Loaded::One(record) => {
                self.state.replace_record(record, path);
                self.state.notice = None;
            }
            Loaded::Many(mut list) => {
                list.path = path;
                self.state.game_list = Some(list);
            }
        }
    }

    fn load_failed(&mut self, error: &LoadError) {
        self.state.notice = Some(Notice::WithArg(
            "notice-open-failed",
            "error",
            error.to_string(),
        ));
    }

    fn open_folder(&mut self, dir: &std::path::Path) {
        match files::game_files_in(dir) {
            Ok(files) if !files.is_empty() => {
                let first = files[0].clone();
                self.state.folder = Some(Folder { files, current: 0 });
                self.open(&first);
            }
            Ok(_) => self.state.notice = Some(Notice::Message("notice-folder-empty")),
            Err(e) => self.load_failed(&LoadError::Io(e)),
        }
    }

    fn step_file(&mut self, step: isize) {
        let Some(folder) = &mut self.state.folder else {
            return;
        };
        let next = folder.current as isize + step;
        if next < 0 || next >= folder.files.len() as isize {
            return;
        }
        folder.current = next as usize;
        let path = folder.files[folder.current].clone();
        self.open(&path);
    }

    fn save_to(&mut self, path: &std::path::Path) {
        let notation = self.state.settings.notation.notation();
        // The file says which opening the game is (ECCO, Opening, Variation headers).
        if chuhe_core::library::openings::write_headers(&mut self.state.record) {
            self.state.refresh();
        }
        match files::save_pgn(path, &self.state.record, notation) {
            Ok(()) => {
                self.state.file = Some(path.to_owned());
                self.state.dirty = false;
                self.change_settings(|s| s.remember_file(path));
                self.remove_autosave();
                self.state.notice = Some(Notice::WithArg(
                    "notice-saved",
                    "path",
                    path.display().to_string(),
                ));
            }
            Err(e) => {
                self.state.notice = Some(Notice::WithArg(
                    "notice-save-failed",
                    "error",
                    e.to_string(),
                ))
            }
        }
    }

    fn start_presentation(&mut self, ctx: &egui::Context) {
        let settings = &mut self.state.settings;
        self.state.presentation = Some(crate::state::Presentation {
            theme: settings.theme,
            board_only: settings.layout.board_only,
            engine_hidden: self.state.engine_hidden,
            show_moves: false,
        });
        // Not through change_settings: these are the projector's, not the user's choices.
        settings.theme = ThemeChoice::HighContrast;
        settings.layout.board_only = true;
        self.state.engine_hidden = true;
        self.apply_visuals(ctx);
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(true));
    }

    fn end_presentation(&mut self, ctx: &egui::Context) {
        let Some(before) = self.state.presentation.take() else {
            return;
        };
        self.state.settings.theme = before.theme;
        self.state.settings.layout.board_only = before.board_only;
        self.state.engine_hidden = before.engine_hidden;
        self.apply_visuals(ctx);
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(false));
    }

    /// A move made on the board or stepped to (one move on from where the board was) is
    /// heard: a tap, a capture's knock, a check's tone, or the end of the game.
    fn sound_of_play(&mut self) {
        let now = (self.state.generation, self.state.cursor);
        let before = std::mem::replace(&mut self.sound_cursor, now);
        if before == now
            || before.0 != now.0
            || self.state.record.parent(now.1) != Some(before.1)
            || self.state.settings.mute
        {
            return;
        }
        let record = &self.state.record;
        let (Some(m), Some(earlier)) = (record.move_at(now.1), record.position_at(before.1)) else {
            return;
        };
        let position = self.state.position();
        let sound = if self.state.derived.outcome.is_some() || position.legal_moves().is_empty() {
            Sound::GameEnd
        } else if position.is_check() {
            Sound::Check
        } else if earlier.piece_at(m.to).is_some() {
            Sound::Capture
        } else {
            Sound::Move
        };
        self.state.last_sound = Some(sound);
        self.sounds.play(sound);
    }

    fn quit(&mut self, ctx: &egui::Context) {
        if !self.state.dirty {
            self.remove_autosave();
        }
        self.allowed_to_close = true;
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }

    /// After every action: the analysis follows the board, the settings are saved.
    fn after_change(&mut self) {
        self.follow_with_analysis();
        self.sound_of_play();
        if self.settings_changed {
            self.settings_changed = false;
            if let Err(e) = self.storage.save_settings(&self.state.settings_to_save()) {
                self.state.notice = Some(Notice::WithArg(
                    "notice-settings-not-saved",
                    "error",
                    e.to_string(),
                ));
            }
        }
    }
}

fn is_pgn(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// The engine's score in the record's terms (both from Red's point of view).
pub fn record_score(score: chuhe_core::search::Score) -> Score {
    match score {
        chuhe_core::search::Score::Cp(cp) => Score::Centipawns(cp),
        chuhe_core::search::Score::Mate(n) => Score::Mate(n),
    }
}
