//! Swiss pairing (积分编排制, rule 11.4): players of equal score meet, nobody meets the
//! same opponent twice, colours are kept balanced, and the bye goes to the lowest-placed
//! player who has not had one.
//!
//! The rules name the system but leave the pairing procedure to the organisers; this is a
//! small version of the usual one (after FIDE's Dutch system, without its refinements):
//! - players are ranked by score, then draw number;
//! - with an odd count the bye goes to the lowest-ranked player without a bye so far (the
//!   next one up if the others could then not be paired at all);
//! - the top unpaired player meets, of the players he has not met, the nearest in score;
//!   within his score group one from the bottom half (top half against bottom half),
//!   preferring an opponent the colours suit, then the one half a group below him; a depth-first search backs up when a choice
//!   leaves someone without a possible opponent;
//! - colours: the player with more Blacks takes Red; with equal counts, the one who had
//!   Black last; no player may end more than two games of one colour ahead of the other or
//!   take the same colour three times running, unless there is no pairing otherwise.

use std::collections::HashSet;

/// What the pairing needs to know of a player.
#[derive(Clone, Debug, Default)]
pub struct SwissEntrant {
    /// The score so far.
    pub score: f64,
    /// Draw numbers of the players already met (a forfeited game counts as met).
    pub opponents: HashSet<usize>,
    /// The colours played so far, oldest first (`true` for Red).
    pub colours: Vec<bool>,
    /// Whether the player has had a bye.
    pub had_bye: bool,
}

impl SwissEntrant {
    fn colour_diff(&self) -> i32 {
        self.colours
            .iter()
            .map(|&red| if red { 1 } else { -1 })
            .sum()
    }
}

/// One round's pairing: `(red, black)` per board, board 1 first, and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    /// `(red, black)` by draw number.
    pub pairs: Vec<(usize, usize)>,
    /// Who sits out.
    pub bye: Option<usize>,
}

/// How many search steps a pairing may take before it gives up (per bye candidate and
/// colour strictness): far more than any club-sized field needs.
const BUDGET: usize = 200_000;

/// Pairs the next round for `entrants` (indexed by draw number). `None` when no pairing
/// without repeated games exists (too many rounds for the field).
pub fn pair_round(entrants: &[SwissEntrant]) -> Option<SwissRound> {
    let n = entrants.len();
    if n < 2 {
        return None;
    }
    let mut ranked: Vec<usize> = (0..n).collect();
    ranked.sort_by(|&a, &b| {
        entrants[b]
            .score
            .total_cmp(&entrants[a].score)
            .then(a.cmp(&b))
    });
    // Bye candidates: lowest ranked first, only those without a bye yet.
    let bye_candidates: Vec<Option<usize>> = if n % 2 == 1 {
        ranked
            .iter()
            .rev()
            .copied()
            .filter(|&p| !entrants[p].had_bye)
            .map(Some)
            .collect()
    } else {
        vec![None]
    };
    for strict in [true, false] {
        for &bye in &bye_candidates {
            let rest: Vec<usize> = ranked.iter().copied().filter(|&p| Some(p) != bye).collect();
            let mut search = Search {
                entrants,
                strict,
                budget: BUDGET,
                pairs: Vec::new(),
            };
            if search.pair(rest) {
                return Some(SwissRound {
                    pairs: search.pairs,
                    bye,
                });
            }
        }
    }
    None
}

/// An opponent for the top unpaired player: score gap, whether from the top half of his
/// group, whether the colours do not suit, distance from half a group down, rank among the
/// unpaired, and `(red, black)`. Sorted, the best comes first.
type Candidate = (f64, bool, bool, usize, usize, (usize, usize));

struct Search<'a> {
    entrants: &'a [SwissEntrant],
    strict: bool,
    budget: usize,
    pairs: Vec<(usize, usize)>,
}

impl Search<'_> {
    /// Pairs `rest` (in ranking order) completely, or backs out leaving `pairs` as it was.
    fn pair(&mut self, rest: Vec<usize>) -> bool {
        let Some((&a, others)) = rest.split_first() else {
            return true;
        };
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let ea = &self.entrants[a];
        // a's score group among the unpaired, a first: its ideal opponent is half a group
        // further down.
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&p| self.entrants[p].score == ea.score)
            .collect();
        let half = group.len() / 2;
        let board = self.pairs.len();
        let mut candidates: Vec<Candidate> = Vec::new();
        for (i, &b) in others.iter().enumerate() {
            if ea.opponents.contains(&b) {
                continue;
            }
            let (red, black, suits) = self.colours(a, b, board);
            if self.strict
                && !(allowed(&self.entrants[red], true) && allowed(&self.entrants[black], false))
            {
                continue;
            }
            let gap = (ea.score - self.entrants[b].score).abs();
            let at = group.iter().position(|&p| p == b);
            // The bottom half of the group first; within it, colours that suit both,
            // then the nearest to half a group down.
            let top_half = at.is_some_and(|g| g < half);
            let place = at.map_or(usize::MAX, |g| g.abs_diff(half));
            candidates.push((gap, top_half, !suits, place, i, (red, black)));
        }
        candidates.sort_by(|x, y| {
            x.0.total_cmp(&y.0)
                .then(x.1.cmp(&y.1))
                .then(x.2.cmp(&y.2))
                .then(x.3.cmp(&y.3))
                .then(x.4.cmp(&y.4))
        });
        for (_, _, _, _, _, (red, black)) in candidates {
            let b = if red == a { black } else { red };
            let remaining: Vec<usize> = others.iter().copied().filter(|&p| p != b).collect();
            self.pairs.push((red, black));
            if self.pair(remaining) {
                return true;
            }
            self.pairs.pop();
            if self.budget == 0 {
                return false;
            }
        }
        false
    }

    /// Who of `a` (ranked higher) and `b` takes Red on `board`, and whether both get the
    /// colour they are due.
    fn colours(&self, a: usize, b: usize, board: usize) -> (usize, usize, bool) {
        let (ea, eb) = (&self.entrants[a], &self.entrants[b]);
        let (da, db) = (ea.colour_diff(), eb.colour_diff());
        let a_red = if da != db {
            da < db
        } else {
            match (ea.colours.last(), eb.colours.last()) {
                (Some(&la), Some(&lb)) if la != lb => !la,
                (Some(&la), _) => !la,
                // Round one: the higher-ranked takes Red on odd boards (1, 3, …).
                _ => board.is_multiple_of(2),
            }
        };
        let (red, black) = if a_red { (a, b) } else { (b, a) };
        let suits =
            due(&self.entrants[red]) != Some(false) && due(&self.entrants[black]) != Some(true);
        (red, black, suits)
    }
}

/// The colour a player is due (`Some(true)` for Red): the one he has had less of, or, when
/// even, the opposite of his last; `None` before his first game.
fn due(e: &SwissEntrant) -> Option<bool> {
    match e.colour_diff() {
        d if d < 0 => Some(true),
        d if d > 0 => Some(false),
        _ => e.colours.last().map(|&last| !last),
    }
}

/// Whether `e` may take `red`: at most two games of one colour ahead, never three the same
/// running.
fn allowed(e: &SwissEntrant, red: bool) -> bool {
    let diff = e.colour_diff() + if red { 1 } else { -1 };
    let n = e.colours.len();
    let three = n >= 2 && e.colours[n - 1] == red && e.colours[n - 2] == red;
    diff.abs() <= 2 && !three
}
