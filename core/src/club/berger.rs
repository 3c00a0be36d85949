//! Berger tables: the round-robin schedule of the official 《循环赛对局秩序表》 (rule 13.1:
//! the player listed first in a round's pair takes Red).

/// One round of a Berger table: pairs of 0-based draw numbers, Red first, board 1 first,
/// and the player who sits out (odd player counts only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BergerRound {
    /// `(red, black)` per board.
    pub pairs: Vec<(usize, usize)>,
    /// The player without an opponent this round.
    pub bye: Option<usize>,
}

/// The Berger table for `n` players (draw numbers `0..n`): `n - 1` rounds for even `n`,
/// `n` rounds for odd `n` (each player sits out once). Fewer than two players: no rounds.
///
/// Built the classic way: with an even count `m` (a dummy "bye" player added for odd `n`),
/// the last player is fixed and the others turn round a circle. In round `r` the player
/// opposite the last one is `p = r·m/2 mod (m−1)`; the others meet in pairs `(p+k, p−k)`
/// (mod `m−1`) with `p+k` on Red; the last player takes Red in every second round. This is
/// the table of the rules' 秩序表 (for six players, round 1 is 1–6 2–5 3–4, round 2 is
/// 6–4 5–3 1–2), and it alternates colours so that each player's Reds and Blacks differ
/// by at most one.
pub fn berger_table(n: usize) -> Vec<BergerRound> {
    if n < 2 {
        return Vec::new();
    }
    let m = if n.is_multiple_of(2) { n } else { n + 1 };
    let last = m - 1;
    let circle = m - 1;
    let mut rounds = Vec::with_capacity(circle);
    for r in 0..circle {
        let p = (r * m / 2) % circle;
        let mut pairs = Vec::with_capacity(m / 2);
        let mut bye = None;
        let mut add = |red: usize, black: usize| {
            if red >= n {
                bye = Some(black);
            } else if black >= n {
                bye = Some(red);
            } else {
                pairs.push((red, black));
            }
        };
        if r.is_multiple_of(2) {
            add(p, last);
        } else {
            add(last, p);
        }
        for k in 1..m / 2 {
            add((p + k) % circle, (p + circle - k) % circle);
        }
        rounds.push(BergerRound { pairs, bye });
    }
    rounds
}
