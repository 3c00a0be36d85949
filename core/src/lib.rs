//! # chuhe-core
//!
//! The engine core of Chuhe (楚河), a Xiangqi study and analysis application: the board
//! and its rules, FEN, legal move generation, game end by the official rules (including the
//! 棋例 repetition rules and the natural move limit), and perft. It has no GUI dependency;
//! the desktop app and the `chuhe-engine` command-line program are built on it.
//!
//! Coordinates follow ICCS: files `a`–`i` from Red's left, ranks `0`–`9` from Red's side.
//!
//! ```
//! use chuhe_core::{Move, Position};
//! let pos = Position::startpos();
//! let m: Move = "h2e2".parse().unwrap(); // 炮二平五
//! let next = pos.play(m).unwrap();
//! assert_eq!(next.to_string(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```

pub mod analysis;
pub mod atomic;
pub mod bench;
mod board;
pub mod ccbridge;
mod color;
pub mod convert;
pub mod db;
pub mod dhtmlxq;
// The board description every drawing is made from (screen, PNG, PDF).
pub mod diagram;
pub mod encoding;
pub mod external;
pub mod fen;
mod game;
pub mod gamefile;
// The knowledge reference: rules, terms, tactics, values, maxims and one search.
pub mod knowledge;
pub mod library;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
mod piece;
pub mod play;
mod position;
pub mod puzzle;
pub mod quiz;
pub mod record;
// Reading a position from a picture of a board.
pub mod recognize;
pub mod repetition;
pub mod review;
pub mod ron_error;
pub mod search;
mod setup;
pub mod solver;
mod square;
mod tables;
// Endgame tablebases.
pub mod tb;
// Spaced repetition over puzzles, patterns, endgames and opening repertoires.
pub mod training;
pub mod uci;
// Printable worksheets of diagrams with an answer key (PDF).
pub mod worksheet;
pub mod xqf;
mod zobrist;

// Club: the round-robin and Swiss manager of a school club.
pub mod club;

pub use board::Board;
pub use color::Color;
pub use fen::{FenError, FenErrorKind, PositionFenError};
pub use game::{EndReason, Game, Outcome, Rules};
pub use movegen::{IllegalMove, IllegalReason};
pub use moves::{Move, MoveList, ParseMoveError};
pub use notation::{Notation, NotationError};
pub use piece::{Piece, PieceKind};
pub use position::{Position, Undo};
pub use repetition::{Conduct, ForbiddenKind, MoveClass, RepetitionJudgement};
pub use setup::{InvalidSetup, Setup, SetupProblem, can_stand_on};
pub use square::{File, ParseSquareError, Rank, Square};
