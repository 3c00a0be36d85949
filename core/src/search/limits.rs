//! What bounds a search: depth, nodes, time (a clock or a fixed time per move), a mate to
//! find, or nothing (analysis until told to stop).

use crate::Move;
use std::time::Duration;

/// The limits of one search, as UCI's `go` gives them. All `None`/empty means infinite.
///
/// ```
/// use chuhe_core::search::Limits;
/// use std::time::Duration;
/// let l = Limits::depth(8);
/// assert_eq!(l.depth, Some(8));
/// let l = Limits::movetime(Duration::from_millis(100));
/// assert!(!l.is_infinite());
/// assert!(Limits::default().is_infinite());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Time left on each side's clock, by [`Color::index`].
    pub time: [Option<Duration>; 2],
    /// Increment per move for each side.
    pub increment: [Duration; 2],
    /// Moves until the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
    /// Search until stopped, even when a limit above is reached (UCI `infinite`).
    pub infinite: bool,
    /// Pondering: search on the opponent's time; the clock applies only after `ponderhit`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Whether nothing but `stop` ends the search.
    pub fn is_infinite(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.mate.is_none()
                && self.time.iter().all(Option::is_none))
    }
}
