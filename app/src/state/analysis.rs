//! The engine's analysis of the board, what the engine said of itself, and the progress of
//! a whole-game review.

use chuhe_core::Position;
use chuhe_core::analysis::Update;
use chuhe_core::external::{EngineInfo, ExternalError, ExternalWarning};
use chuhe_core::record::NodeId;

/// The analysis feature's state.
#[derive(Clone, Debug, Default)]
pub struct AnalysisState {
    /// Whether the engine analyses the position on the board.
    pub analysing: bool,
    /// Whether eval, lines and arrows are hidden (for self-study and classes).
    pub engine_hidden: bool,
    /// The latest analysis.
    pub engine: Option<EngineView>,
    /// What the analysing engine last said of itself (its name, a failure, a warning).
    pub engine_status: Option<EngineStatus>,
    /// The external engine's last unreadable line, shown until the engine changes.
    pub engine_warning: Option<ExternalWarning>,
    /// A whole-game review under way.
    pub review: Option<ReviewProgress>,
}

/// The latest analysis and the record node it is about.
#[derive(Clone, Debug)]
pub struct EngineView {
    /// The analysed node.
    pub node: NodeId,
    /// The position there.
    pub position: Position,
    /// What the engine last said.
    pub update: Update,
    /// For each line of the update, the checkmate patterns its forced mate ends in (empty
    /// when it is no mate for the side to move or shows none): worked out once per
    /// update, not on every frame that draws it.
    pub mate_patterns: Vec<Vec<chuhe_core::library::patterns::PatternId>>,
}

/// How far a whole-game review has come.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewProgress {
    /// Positions analysed.
    pub done: usize,
    /// Positions to analyse.
    pub total: usize,
}

/// What the UI hears about the engine itself.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineStatus {
    /// The built-in engine analyses.
    Builtin,
    /// An external engine started; what it said of itself.
    External(EngineInfo),
    /// An external engine failed (or never started); it analyses no more.
    Failed(ExternalError),
    /// An external engine wrote a line that could not be used; it goes on.
    Warning(ExternalWarning),
}

pub use chuhe_core::review::PositionReview;
