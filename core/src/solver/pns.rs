//! Proof-number search for mates by consecutive checks (连将杀), the classic tool for long
//! composed mates where depth-first iterative deepening drowns in its own repetitions.
//!
//! The tree is kept in memory (no transpositions, so every node has one path and the
//! repetition rule is exact: a child repeating a position of its path is a failure for the
//! attacker). The attacker's children are its checking moves; the defender's, all its
//! replies. A node is proved when the defender has no legal move (将死 or 困毙). The proof
//! shows that a mate exists and how long the proof tree is ([`PnsResult::mate_in`]); it
//! need not be the shortest mate, which [`super::Solver`] can then look for up to that
//! length.

use crate::{Move, MoveList, Position};
use std::time::{Duration, Instant};

const INF: u32 = u32::MAX / 4;

struct Node {
    pn: u32,
    dn: u32,
    parent: u32,
    first_child: u32,
    children: u16,
    expanded: bool,
    mv: Move,
}

/// What the proof-number search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PnsResult {
    /// The length in attacker moves of the proof found (the attacker choosing its quickest
    /// proved move, the defender its longest proved reply): a mate in at most this many,
    /// not necessarily the shortest. `None`: not proved.
    pub mate_in: Option<u32>,
    /// Whether the search showed that no mate by consecutive checks exists.
    pub disproved: bool,
    /// The first move of the proof.
    pub first_move: Option<Move>,
    /// Tree nodes created.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Searches for a mate by consecutive checks from `pos` (the side to move attacking),
/// until proved, disproved, `time_limit` passed or `max_nodes` tree nodes made.
pub fn prove_checks_only(pos: &Position, time_limit: Duration, max_nodes: usize) -> PnsResult {
    let start = Instant::now();
    let root_move = Move::new(crate::Square::ALL[0], crate::Square::ALL[0]);
    let mut tree = vec![Node {
        pn: 1,
        dn: 1,
        parent: u32::MAX,
        first_child: 0,
        children: 0,
        expanded: false,
        mv: root_move,
    }];
    let mut moves = MoveList::new();
    let mut replies = MoveList::new();
    let mut iterations = 0u64;
    while tree[0].pn != 0 && tree[0].dn != 0 && tree.len() < max_nodes {
        iterations += 1;
        if iterations.is_multiple_of(256) && start.elapsed() >= time_limit {
            break;
        }
        // Descend to the most proving node, keeping the position and the path.
        let mut p = pos.clone();
        let mut path = vec![p.hash()];
        let mut n = 0usize;
        let mut attacker = true;
        while tree[n].expanded {
            let first = tree[n].first_child as usize;
            let count = tree[n].children as usize;
            let best = (first..first + count)
                .min_by_key(|&c| if attacker { tree[c].pn } else { tree[c].dn })
                .unwrap_or(first);
            p.play_unchecked(tree[best].mv);
            path.push(p.hash());
            n = best;
            attacker = !attacker;
        }
        // Expand it.
        p.legal_moves_into(&mut moves);
        let first_child = tree.len() as u32;
        let mut children = 0u16;
        for &m in moves.iter() {
            let undo = p.play_unchecked(m);
            if attacker && !p.is_check() {
                p.unplay(m, undo);
                continue;
            }
            let (pn, dn) = if path.contains(&p.hash()) {
                // A repetition, by either side, is a failure for the attacker.
                (INF, 0)
            } else if attacker {
                // A defender node: proved if it has no reply; else harder the more it has.
                p.legal_moves_into(&mut replies);
                if replies.is_empty() {
                    (0, INF)
                } else {
                    (replies.len() as u32, 1)
                }
            } else {
                // An attacker node: lost if it has no check.
                p.legal_moves_into(&mut replies);
                let mut checks = 0;
                for &r in replies.iter() {
                    let u = p.play_unchecked(r);
                    checks += p.is_check() as u32;
                    p.unplay(r, u);
                }
                if checks == 0 { (INF, 0) } else { (1, checks) }
            };
            p.unplay(m, undo);
            tree.push(Node {
                pn,
                dn,
                parent: n as u32,
                first_child: 0,
                children: 0,
                expanded: false,
                mv: m,
            });
            children += 1;
        }
        tree[n].first_child = first_child;
        tree[n].children = children;
        tree[n].expanded = true;
        // Update the numbers up to the root.
        let mut node = n;
        let mut is_or = attacker;
        loop {
            let first = tree[node].first_child as usize;
            let count = tree[node].children as usize;
            let kids = &tree[first..first + count];
            let (pn, dn) = if is_or {
                (
                    kids.iter().map(|k| k.pn).min().unwrap_or(INF),
                    kids.iter()
                        .map(|k| k.dn)
                        .fold(0u32, |a, b| a.saturating_add(b).min(INF)),
                )
            } else {
                (
                    kids.iter()
                        .map(|k| k.pn)
                        .fold(0u32, |a, b| a.saturating_add(b).min(INF)),
                    kids.iter().map(|k| k.dn).min().unwrap_or(INF),
                )
            };
            tree[node].pn = pn;
            tree[node].dn = dn;
            if node == 0 {
                break;
            }
            node = tree[node].parent as usize;
            is_or = !is_or;
        }
    }
    let proved = tree[0].pn == 0;
    PnsResult {
        mate_in: proved.then(|| proof_length(&tree, 0, true)),
        disproved: tree[0].dn == 0,
        first_move: proved
            .then(|| {
                let first = tree[0].first_child as usize;
                (first..first + tree[0].children as usize)
                    .filter(|&c| tree[c].pn == 0)
                    .min_by_key(|&c| proof_length(&tree, c, false))
                    .map(|c| tree[c].mv)
            })
            .flatten(),
        nodes: tree.len() as u64,
        elapsed: start.elapsed(),
    }
}

/// The length in attacker moves of the proof below the proved node `n` (attacker to move
/// if `attacker`): the quickest proved move, against the longest reply.
fn proof_length(tree: &[Node], n: usize, attacker: bool) -> u32 {
    let first = tree[n].first_child as usize;
    let kids = first..first + tree[n].children as usize;
    if attacker {
        kids.filter(|&c| tree[c].pn == 0)
            .map(|c| 1 + proof_length(tree, c, false))
            .min()
            .unwrap_or(INF)
    } else if !tree[n].expanded {
        // A proved defender leaf: it has no legal move.
        0
    } else {
        kids.map(|c| proof_length(tree, c, true)).max().unwrap_or(0)
    }
}
