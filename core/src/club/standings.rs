//! Places (第15条): points first, then the tie-breaks of rule 15.1 for a round robin —
//! 小分, 胜局, 直胜, 犯规 — or of rule 15.2 for a Swiss — 对手分, 胜局, 犯规. Players level
//! on all of them share the place (无法区分，则名次并列).
//!
//! How each term is read (the rules name them without defining them):
//! - 小分 is the Sonneborn–Berger score, as domain.md says: the points of every opponent
//!   beaten plus half the points of every opponent drawn with, with final points;
//! - 对手分 (Buchholz) is the sum of the points of every opponent met;
//! - 胜局 counts games won, a win by the opponent's absence (`+`) included, since rule 21.4
//!   scores it as a win; it is equally a win in 小分;
//! - 直胜 compares the results of the games among the players still level: each one's
//!   points against the others of that group (for two players, who beat whom). If that
//!   splits the group only in part, the players still level are compared again among
//!   themselves before going on to 犯规;
//! - 犯规 is the number of fouls called (rule 9), the fewer the better; with rule 18.4 in
//!   mind (penalised players go last among equals).

use super::{BYE_POINTS_SWISS, Format, GameResult, PlayerId, Tournament};
use std::collections::HashMap;

/// A tie-break, in the rules' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// 小分 (Sonneborn–Berger).
    SonnebornBerger,
    /// 对手分 (Buchholz).
    Buchholz,
    /// 胜局: wins.
    Wins,
    /// 直胜: results among the tied.
    HeadToHead,
    /// 犯规: fouls, fewer first.
    Fouls,
}

impl TieBreak {
    /// The tie-breaks of a format, in order (15.1 for round robin, 15.2 for Swiss).
    pub const fn order(format: Format) -> &'static [TieBreak] {
        match format {
            Format::RoundRobin => &[
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
                TieBreak::HeadToHead,
                TieBreak::Fouls,
            ],
            Format::Swiss { .. } => &[TieBreak::Buchholz, TieBreak::Wins, TieBreak::Fouls],
        }
    }
}

/// One line of the standings. Points and tie-break scores are halves and quarters, exact
/// in `f64`.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player.
    pub player: PlayerId,
    /// The place, 1 first; level players share one.
    pub rank: usize,
    /// Games with a result (a game neither played counts as played and lost by both).
    pub played: u32,
    /// Wins (with `+`).
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses (with `−`).
    pub losses: u32,
    /// Points.
    pub points: f64,
    /// 小分 (Sonneborn–Berger).
    pub sonneborn_berger: f64,
    /// 对手分 (Buchholz).
    pub buchholz: f64,
    /// Points against the others of the group level with this player when 直胜 was
    /// consulted; `None` when it was not needed.
    pub head_to_head: Option<f64>,
    /// Fouls.
    pub fouls: u32,
    /// Among the first three (冠军、亚军、季军). Only once the last round is complete: before
    /// that the table shows who leads, and nobody has won anything yet.
    pub top_three: bool,
}

/// The standings of `t`, best first.
pub fn standings(t: &Tournament) -> Vec<Standing> {
    let mut lines: HashMap<PlayerId, Standing> = t
        .players
        .iter()
        .map(|&player| {
            (
                player,
                Standing {
                    player,
                    rank: 1,
                    played: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    points: 0.0,
                    sonneborn_berger: 0.0,
                    buchholz: 0.0,
                    head_to_head: None,
                    fouls: 0,
                    top_three: false,
                },
            )
        })
        .collect();
    // Each player's games: (opponent, own points).
    let mut games: HashMap<PlayerId, Vec<(PlayerId, f64, bool)>> = HashMap::new();
    let finished = t.is_finished();
    for round in &t.rounds {
        for p in &round.pairings {
            if let Some(line) = lines.get_mut(&p.red) {
                line.fouls += p.red_fouls;
            }
            if let Some(line) = lines.get_mut(&p.black) {
                line.fouls += p.black_fouls;
            }
            let Some(result) = p.result else { continue };
            let (rp, bp) = result.points();
            for (me, opp, pts) in [(p.red, p.black, rp), (p.black, p.red, bp)] {
                let Some(line) = lines.get_mut(&me) else {
                    continue;
                };
                line.played += 1;
                line.points += pts;
                if pts == 1.0 {
                    line.wins += 1;
                } else if pts == 0.5 {
                    line.draws += 1;
                } else {
                    line.losses += 1;
                }
                let both_absent = result == GameResult::BothForfeit;
                games.entry(me).or_default().push((opp, pts, both_absent));
            }
        }
        if matches!(t.format, Format::Swiss { .. })
            && let Some(line) = round.bye.and_then(|b| lines.get_mut(&b))
        {
            line.points += BYE_POINTS_SWISS;
        }
    }
    let points: HashMap<PlayerId, f64> = lines.iter().map(|(&p, l)| (p, l.points)).collect();
    for (player, line) in lines.iter_mut() {
        for &(opp, pts, both_absent) in games.get(player).map_or(&[][..], Vec::as_slice) {
            let opp_points = points.get(&opp).copied().unwrap_or(0.0);
            line.sonneborn_berger += pts * opp_points;
            if !both_absent {
                line.buchholz += opp_points;
            }
        }
    }

    // Points first (draw order among equals, for a stable listing), then the tie-breaks.
    let mut order: Vec<PlayerId> = t.players.clone();
    order.sort_by(|a, b| points[b].total_cmp(&points[a]));
    let mut classes: Vec<Vec<PlayerId>> = Vec::new();
    for p in order {
        match classes.last_mut() {
            Some(class) if points[&class[0]] == points[&p] => class.push(p),
            _ => classes.push(vec![p]),
        }
    }
    let criteria = TieBreak::order(t.format);
    let mut ranked: Vec<Vec<PlayerId>> = Vec::new();
    for class in classes {
        split(class, criteria, &lines, &games, &mut ranked);
    }
    let mut out = Vec::with_capacity(t.players.len());
    let mut rank = 1;
    for class in ranked {
        for &p in &class {
            if let Some(mut line) = lines.remove(&p) {
                line.rank = rank;
                line.top_three = finished && rank <= 3;
                out.push(line);
            }
        }
        rank += class.len();
    }
    // The head-to-head scores, for players whose tie reached 直胜.
    record_head_to_head(&mut out, criteria, &games);
    out
}

type Games = HashMap<PlayerId, Vec<(PlayerId, f64, bool)>>;

/// Points `p` scored against the players of `group`.
fn score_among(p: PlayerId, group: &[PlayerId], games: &Games) -> f64 {
    games
        .get(&p)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(|(opp, _, _)| group.contains(opp))
        .fold(0.0, |sum, (_, pts, _)| sum + pts)
}

/// Splits a class of players level on points by `criteria`, appending the resulting
/// classes to `out`, best first.
fn split(
    class: Vec<PlayerId>,
    criteria: &[TieBreak],
    lines: &HashMap<PlayerId, Standing>,
    games: &Games,
    out: &mut Vec<Vec<PlayerId>>,
) {
    let Some((&criterion, rest)) = criteria.split_first() else {
        out.push(class);
        return;
    };
    if class.len() < 2 {
        out.push(class);
        return;
    }
    // Bigger is better; fouls are negated.
    let key = |p: PlayerId| -> f64 {
        let l = &lines[&p];
        match criterion {
            TieBreak::SonnebornBerger => l.sonneborn_berger,
            TieBreak::Buchholz => l.buchholz,
            TieBreak::Wins => f64::from(l.wins),
            TieBreak::HeadToHead => score_among(p, &class, games),
            TieBreak::Fouls => -f64::from(l.fouls),
        }
    };
    let mut keyed: Vec<(f64, PlayerId)> = class.iter().map(|&p| (key(p), p)).collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut parts: Vec<Vec<PlayerId>> = Vec::new();
    let mut last = None;
    for (k, p) in keyed {
        if last == Some(k) {
            parts.last_mut().expect("a part").push(p);
        } else {
            parts.push(vec![p]);
            last = Some(k);
        }
    }
    let whole = parts.len() == 1;
    for part in parts {
        if criterion == TieBreak::HeadToHead && !whole && part.len() >= 2 {
            // Compare those still level among themselves again.
            split(part, criteria, lines, games, out);
        } else {
            split(part, rest, lines, games, out);
        }
    }
}

/// Fills in `head_to_head` for players whose tie went as far as 直胜: their points against
/// the others level with them on points and the tie-breaks before it.
fn record_head_to_head(out: &mut [Standing], criteria: &[TieBreak], games: &Games) {
    let Some(at) = criteria.iter().position(|&c| c == TieBreak::HeadToHead) else {
        return;
    };
    let before = &criteria[..at];
    let level = |a: &Standing, b: &Standing| {
        a.points == b.points
            && before.iter().all(|c| match c {
                TieBreak::SonnebornBerger => a.sonneborn_berger == b.sonneborn_berger,
                TieBreak::Buchholz => a.buchholz == b.buchholz,
                TieBreak::Wins => a.wins == b.wins,
                _ => true,
            })
    };
    let snapshot: Vec<Standing> = out.to_vec();
    for line in out.iter_mut() {
        let group: Vec<PlayerId> = snapshot
            .iter()
            .filter(|o| level(o, line))
            .map(|o| o.player)
            .collect();
        if group.len() >= 2 {
            line.head_to_head = Some(score_among(line.player, &group, games));
        }
    }
}
