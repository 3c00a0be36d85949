//! A generator of test collections: random legal games that open with a line of the
//! built-in opening tree and go on with random moves to a realistic length, with players,
//! events, dates and results, all from a seed. For benchmarks and tests of the database at
//! scale, where no real collection of that size can be shipped.

use crate::library::openings;
use crate::play::Rng;
use crate::record::Record;
use crate::{Color, MoveList, Position};

/// What to generate.
#[derive(Clone, Debug)]
pub struct GeneratorOptions {
    /// The seed: the same seed gives the same games.
    pub seed: u64,
    /// How many games.
    pub games: usize,
    /// How many different players take part.
    pub players: usize,
}

impl Default for GeneratorOptions {
    fn default() -> GeneratorOptions {
        GeneratorOptions {
            seed: 1,
            games: 1000,
            players: 400,
        }
    }
}

const SURNAMES: [&str; 24] = [
    "王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "胡", "朱", "高", "林",
    "何", "郭", "马", "罗", "梁", "宋", "郑", "谢",
];
const GIVEN: [&str; 24] = [
    "天", "明", "国", "华", "建", "伟", "强", "军", "平", "东", "海", "峰", "磊", "洪", "斌", "涛",
    "鑫", "浩", "嘉", "志", "远", "庆", "荣", "德",
];
const EVENTS: [&str; 8] = [
    "全国象棋个人赛",
    "全国象棋团体赛",
    "象棋甲级联赛",
    "五羊杯象棋冠军邀请赛",
    "亚洲象棋锦标赛",
    "世界象棋锦标赛",
    "全国象棋大师冠军赛",
    "象棋等级赛",
];

/// `options.games` random games, made one at a time as the iterator is read.
pub fn random_games(options: &GeneratorOptions) -> impl Iterator<Item = Record> + use<> {
    let mut rng = Rng::new(options.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5);
    let players: Vec<String> = (0..options.players.max(2))
        .map(|i| {
            let s = SURNAMES[i % SURNAMES.len()];
            let a = GIVEN[(i / SURNAMES.len()) % GIVEN.len()];
            let b = GIVEN[(i * 7 + i / 5) % GIVEN.len()];
            if i < SURNAMES.len() * GIVEN.len() {
                format!("{s}{a}{b}")
            } else {
                format!("{s}{a}{b}{}", i / (SURNAMES.len() * GIVEN.len()))
            }
        })
        .collect();
    let lines: Vec<Vec<crate::Move>> = openings::builtin()
        .map(|book| {
            book.nodes
                .iter()
                .filter(|n| n.children.is_empty() && !n.moves.is_empty())
                .map(|n| n.moves.clone())
                .collect()
        })
        .unwrap_or_default();
    (0..options.games).map(move |_| one_game(&mut rng, &players, &lines))
}

fn one_game(rng: &mut Rng, players: &[String], lines: &[Vec<crate::Move>]) -> Record {
    // Lengths as over-the-board games have them: about 80 plies on average (as in the
    // CCPD master games), mostly 40 to 120.
    let length = 16 + (0..4).map(|_| rng.below(33)).sum::<u64>() as usize;
    let mut pos = Position::startpos();
    let mut record = Record::new(pos.clone());
    let mut node = record.root();
    let mut list = MoveList::new();
    let opening: &[crate::Move] = if lines.is_empty() {
        &[]
    } else {
        let line = &lines[rng.below(lines.len() as u64) as usize];
        // Often the game leaves the book early.
        &line[..line
            .len()
            .min(4 + rng.below(line.len() as u64 + 1) as usize)]
    };
    let mut mated = None;
    for ply in 0..length {
        let m = match opening.get(ply) {
            Some(&m) if pos.is_legal(m) => m,
            _ => {
                pos.legal_moves_into(&mut list);
                if list.is_empty() {
                    mated = Some(pos.side_to_move());
                    break;
                }
                list[rng.below(list.len() as u64) as usize]
            }
        };
        pos.play_unchecked(m);
        node = record.push_child(node, m);
    }
    let result = match mated {
        Some(Color::Red) => "0-1",
        Some(Color::Black) => "1-0",
        None => match rng.below(100) {
            0..38 => "1-0",
            38..70 => "1/2-1/2",
            _ => "0-1",
        },
    };
    let red = rng.below(players.len() as u64) as usize;
    let mut black = rng.below(players.len() as u64 - 1) as usize;
    if black >= red {
        black += 1;
    }
    let year = 1960 + rng.below(66);
    let event = EVENTS[rng.below(EVENTS.len() as u64) as usize];
    let headers = record.headers_mut();
    headers.set("Red", &players[red]);
    headers.set("Black", &players[black]);
    headers.set("Event", &format!("{year}年{event}"));
    headers.set(
        "Date",
        &format!("{year}.{:02}.{:02}", 1 + rng.below(12), 1 + rng.below(28)),
    );
    headers.set("Round", &(1 + rng.below(11)).to_string());
    headers.set("Result", result);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_legal_games() {
        let options = GeneratorOptions {
            seed: 7,
            games: 30,
            players: 10,
        };
        let a: Vec<Record> = random_games(&options).collect();
        let b: Vec<Record> = random_games(&options).collect();
        assert_eq!(a.len(), 30);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.main_line_moves(), y.main_line_moves());
            assert_eq!(x.headers().get("Red"), y.headers().get("Red"));
            let mut pos = x.start().clone();
            for m in x.main_line_moves() {
                assert!(pos.is_legal(m), "{m} is not legal in {pos}");
                pos.play_unchecked(m);
            }
            assert_ne!(x.headers().get("Red"), x.headers().get("Black"));
        }
        let lengths: Vec<usize> = a.iter().map(|r| r.main_line_moves().len()).collect();
        assert!(lengths.iter().any(|&l| l != lengths[0]));
    }
}
