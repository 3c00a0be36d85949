# Chuhe (楚河) — English
language-name = English

menu-file = File
menu-edit = Edit
menu-view = View
menu-engine = Engine
menu-language = Language

file-new = New game
file-open = Open…
file-open-folder = Open folder…
file-previous = Previous file in folder
file-next = Next file in folder
file-save = Save
file-save-as = Save as…
file-copy-fen = Copy FEN
file-copy-pgn = Copy PGN
file-quit = Quit
file-recent = Recent files
file-recent-none = No recent files
file-paste-hint = Ctrl+V pastes a FEN or PGN; files can be dropped on the window
file-untitled = Untitled
filter-games = Game files

edit-undo = Undo
edit-redo = Redo
edit-promote = Promote variation
edit-main-line = Make main line
edit-delete-from = Delete from here
edit-clear-marks = Clear arrows and circles
edit-marks-hint = Right-drag: arrow; right-click: circle. Shift red, Alt blue, Shift+Alt yellow, plain green
comment-label = Comment
comment-hint = Comment on this move

view-flip = Flip board
view-destinations = Show legal destinations
view-board-only = Board only
view-coordinates = Coordinates
view-theme = Board theme
view-notation = Notation
coordinates-chinese = Chinese file numbers
coordinates-iccs = ICCS (a–i, 0–9)
theme-wood = Traditional wood
theme-high-contrast = High contrast
notation-chinese = Chinese (simplified)
notation-chinese-traditional = Chinese (traditional)
notation-wxf = WXF
notation-iccs = ICCS

panel-headers = Game
header-event = Event
header-date = Date
header-site = Site
header-red = Red
header-black = Black
header-result = Result
header-opening = Opening

result-red-wins = Red wins
result-black-wins = Black wins
result-draw = Draw
result-unknown = Unfinished

game-over = Game over: { $reason }. { $winner }.
end-checkmate = checkmate
end-stalemate = no legal move (the stalemated side loses)
end-move-limit = 60-move natural limit without a capture
end-perpetual-check = perpetual check loses
end-perpetual-chase = perpetual chase loses
end-perpetual-mate-threat = perpetual mate threats lose
end-check-and-mate-threat = alternating checks and mate threats lose
end-check-and-chase = alternating checks and chases lose
end-mate-threat-and-chase = alternating mate threats and chases lose
end-check-mate-threat-and-chase = alternating checks, mate threats and chases lose
end-repetition-draw = threefold repetition with no side to blame: draw

illegal-move = Illegal move: { $reason }.
illegal-no-piece = there is no piece there
illegal-not-your-piece = that piece belongs to the other side
illegal-own-piece-on-target = one of your own pieces stands there
illegal-wrong-shape = the piece does not move that way
illegal-leaves-palace = the general and advisors must stay in the palace
illegal-crosses-river = the elephant may not cross the river
illegal-elephant-eye-blocked = the elephant's eye is blocked
illegal-horse-leg-blocked = the horse's leg is blocked
illegal-path-blocked = a piece is in the way
illegal-cannon-needs-screen = a cannon captures only by jumping exactly one piece
illegal-cannon-too-many-screens = a cannon jumps exactly one piece, not more
illegal-pawn-sideways = a pawn moves sideways only after crossing the river
illegal-pawn-backwards = a pawn never moves backwards
illegal-generals-face = the generals would face each other
illegal-still-in-check = your general is in check
illegal-exposes-general = it would expose your general to check

analysis-toggle = Analyse
analysis-start = Analyse (Space)
analysis-stop = Stop analysis (Space)
analysis-lines = Lines
analysis-waiting = The engine is thinking…
analysis-stats = Depth { $depth } · { $nps } nodes/s
engine-hide = Hide engine (H)
engine-show = Show engine (H)
engine-toggle-hidden = Hide or show engine
engine-hidden-note = The engine is hidden: no evaluation, lines or arrows until you show it again.
engine-hash = Hash table
engine-threads = Search threads
engine-review-time = Review time per position
score-mate = Mate { $count }
review-start = Review the whole game
review-cancel = Cancel
review-progress = Reviewing { $done } / { $total }

games-title = Choose a game
games-search = Search (player, event, opening)
games-count = { $count } games
games-unreadable = { $count } games could not be read

dialog-unsaved-quit = This game has unsaved changes. Save them before quitting?
dialog-unsaved-replace = This game has unsaved changes. Open the other one and discard them?
dialog-restore = The last session ended with unsaved changes, which were autosaved. Restore them?
dialog-save = Save
dialog-discard = Discard changes
dialog-cancel = Cancel
dialog-restore-yes = Restore
dialog-restore-no = Discard

notice-copied-fen = Position copied as FEN.
notice-copied-pgn = Game copied as PGN.
notice-edit-failed = That change cannot be made here.
notice-game-over = The game is over: no more moves can be played here.
notice-open-failed = Could not open: { $error }
notice-folder-empty = No game files in that folder.
notice-saved = Saved { $path }
notice-save-failed = Could not save: { $error }
notice-settings-not-saved = Could not save the settings: { $error }
notice-settings-reset = The settings file could not be read and was replaced by the defaults ({ $error }).
notice-autosave-failed = Autosave failed: { $error }
notice-restored = Unsaved work restored.
notice-restore-failed = The autosaved game could not be read.
notice-review-done = Review finished: evaluations, marks and better moves are in the record.

## openings
view-openings = Opening library
openings-title = Opening library
openings-close = Close the opening library
openings-broken = The opening library cannot be read: { $error }
openings-unavailable = The opening library cannot be read.
openings-search-label = Search
openings-search = Search by name (Chinese or English)
openings-which = Which opening is this?
openings-no-match = No opening has that name.
openings-not-found = This position is not in the opening library.
header-recognized = Recognised
