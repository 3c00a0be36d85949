//! The bench behind `chuhe-engine bench`: a fixed set of positions searched
//! single-threaded to a fixed depth. The total node count is the search's signature — a
//! change that should not alter the search must not alter it, and commit messages touching
//! the search quote it — and the speed is a benchmark of the machine and the build.

use crate::Position;
use crate::search::nnue::Network;
use crate::search::{Engine, Event, Limits, Options, SearchResult, SearchRoot};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 11;

/// The bench positions: openings, middlegames (some in check) and endgames.
pub const POSITIONS: [&str; 36] = [
    // The start position and balanced openings after five moves each (master games).
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1b1kabr1/4a4/1cn3nc1/p1p1p2Rp/6p2/4P4/P1P3P1P/1C2C1N2/9/RNBAKAB2 w - - 0 6",
    "r1bakab2/9/nc2c1n2/p1p1p1p1p/7r1/6P2/P1P1P3P/1CN1B1NC1/9/R1BAKA1R1 w - - 0 6",
    "r1bakab1r/9/2n1c1n2/p1p1p3p/6p2/9/PcP1P1P1P/N1C1C1N2/9/R1BAKABR1 w - - 0 6",
    "r2akab1r/3n5/1c1cb1n2/p1p1p3p/6p2/2P6/P3P1P1P/1C2B1N1C/9/RNBAKA1R1 w - - 0 6",
    "2baka2r/r4n3/1cn1b2c1/p3p1p1p/2p6/6P2/P1P1P3P/NC2C1N2/R8/2BAKAB1R w - - 0 6",
    "rnbakabr1/9/2c3n1c/pC2p1p1p/2p6/6P2/P1P1P3P/2NC2N2/9/R1BAKAB1R w - - 0 6",
    "1rbakab1r/9/2n3nc1/p1p1p3p/6p2/2P6/Pc2P1P1P/2N1C1NC1/9/1RBAKAB1R w - - 0 6",
    "r1bakabr1/9/1cn4c1/p1p1p2Rp/5np2/9/P1P1P1P1P/3CC1N2/9/RNBAKAB2 w - - 0 6",
    // Middlegames.
    "2bak2r1/4a4/2n1b2c1/4C1p1p/1cp1R4/9/2P1P1r1P/N1C1B4/9/2BAKA1R1 w - - 7 16",
    "1rbaka2r/6c2/1c2b4/p3n3p/1n7/2R2N3/P3P3P/2N4C1/8R/2BAKAB2 w - - 0 16",
    "1r2kab2/4a4/c1n1b1n1c/p1p4rp/6p2/2P5C/PC2N1P1P/B1N6/3R4R/3AKAB2 w - - 3 16",
    "4kab2/4a4/C1n1b1n1c/1rp1r3p/p3p4/2P6/P3PNp1P/3CB1N2/2R1A4/R3KAB2 w - - 2 16",
    "3akab2/9/b5n2/p1p1pn2p/9/2P6/Pc2P1c1P/N3C2r1/2C1N4/1RBAKAB2 w - - 0 16",
    "3akabr1/4n4/c3b3c/p3p1C1p/3n2P2/2B6/P3P3P/2N2CN2/9/2BAKA2R w - - 3 16",
    "1r1ak1b2/4a4/1cn1b4/p1pRp4/6p2/1RP6/P3P1r1n/2N1C2cN/4A3C/2B1KAB2 w - - 0 16",
    "4kab2/4a4/1n2b2cn/p1p3p2/1r2CR2p/2c1P1P2/P2r4P/R2CB1N2/3NA4/4KAB2 w - - 0 16",
    "3akab2/5r1r1/2n1b2c1/p3p2np/1c7/2R4N1/P3P3P/1CN1C4/5R3/2BAKAB2 w - - 5 16",
    "2bak4/4a4/4b4/1R7/2p3p2/8P/2P1r2r1/N3B3c/4A4/2B1KA1R1 w - - 7 31",
    // In check.
    "1Cb1kab2/4a4/4c4/R7p/9/P1P2np1P/6P2/B1rA5/4A4/3K2B2 b - - 1 31",
    "4kab2/n3a4/C8/7cp/P3p4/2R6/4Pn1NP/3CB4/4A4/1r2KAB2 w - - 1 28",
    "1C1aka3/9/b3b1n2/p1p1p3p/2P6/3N2n2/P2cP1c1P/N1r6/2C1K4/1RBA1AB2 b - - 11 21",
    "2bak2R1/4ar3/4b1n2/4p1p1p/2pc5/6P2/2P1P3P/R2C2N2/4A4/2B1KAB2 b - - 0 18",
    "3ak1b1C/4a4/c1R1b4/p3p4/2p3p2/7N1/P3P4/2r4n1/4A4/2B1KAB2 b - - 1 24",
    "4ka3/4a2r1/2n1b4/p3n3p/2p1N1b2/6N1P/P6c1/B3C1CR1/4A4/1c1AK1B2 w - - 5 23",
    "3aka3/6R2/2n1b1c2/p1C1p4/7np/P6N1/2P1N3P/4CA2B/9/2BAK1rc1 w - - 9 22",
    // Endgames: attacks, tablebase-like wins and the known draws (例和).
    "3k1ab2/4aP3/4b4/3C4p/p1p1p4/9/2P5P/9/4A2R1/2BAK1r2 w - - 0 28",
    "2Pakn3/4a4/1R2b4/p1n1p1p1p/3R5/2pc2P2/4r3P/4C4/4A4/4KAB2 w - - 3 31",
    "4k4/4a4/4ba3/p4n2C/6bP1/5cN2/4C4/2N1B4/4A4/c2A1K3 w - - 3 46",
    "3k5/1N2a1N2/b4a3/3Cn4/2b6/9/2pc5/4B4/4A4/3K5 b - - 41 72",
    "2bakab2/9/9/9/9/9/9/4N4/9/3K5 w - - 0 1",
    "2bakab2/9/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1",
    "4k4/9/4b4/9/2p6/9/4P4/9/4A4/3K5 w - - 0 1",
    "3k5/9/9/9/9/9/4r4/4C4/4A4/3AK1B2 b - - 0 1",
    "4kab2/4a4/9/9/2P6/9/9/4B4/3R5/4K4 w - - 0 1",
    "5k3/9/9/9/9/9/9/4B4/3C5/3AK4 w - - 0 1",
];

/// What a bench run took, all positions together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    /// Nodes searched: the search's signature.
    pub nodes: u64,
    /// Time spent searching (not setting up).
    pub elapsed: Duration,
}

impl Totals {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` on one thread with a 16 MiB table cleared
/// before each, handing `each` the position's index in [`POSITIONS`] and the search's
/// result as it ends, and returns the totals. An error from `each` stops the run there.
/// The endgame tables are asked only with `tablebases`: without, the node count is the
/// same on every machine, whatever its cache holds. With `network`, the search evaluates
/// with it.
pub fn run<E>(
    depth: u32,
    tablebases: bool,
    network: Option<Arc<Network>>,
    mut each: impl FnMut(usize, &SearchResult) -> Result<(), E>,
) -> Result<Totals, E> {
    let mut engine = Engine::new(Options {
        tablebases,
        use_nnue: network.is_some(),
        network,
        ..Options::default()
    });
    let mut totals = Totals {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos: Position = fen.parse().expect("bench positions are legal");
        engine.new_game();
        let start = Instant::now();
        engine.start(&SearchRoot::new(pos), Limits::depth(depth), |_: Event| {});
        let result = engine.wait().expect("the search ran");
        totals.elapsed += start.elapsed();
        totals.nodes += result.report.nodes;
        each(i, &result)?;
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_varied() {
        let positions: Vec<Position> = POSITIONS.iter().map(|f| f.parse().unwrap()).collect();
        assert!(positions.len() >= 30);
        assert!(positions.iter().filter(|p| p.is_check()).count() >= 5);
        let few_pieces = positions
            .iter()
            .filter(|p| p.board().pieces().count() <= 12)
            .count();
        assert!(few_pieces >= 5);
    }

    #[test]
    fn node_count_is_deterministic_with_and_without_a_network() {
        let run_once = |network: Option<Arc<Network>>| {
            let mut nodes = 0;
            let totals = run(3, false, network, |_, result| {
                nodes += result.report.nodes;
                Ok::<(), ()>(())
            })
            .unwrap();
            assert_eq!(totals.nodes, nodes);
            nodes
        };
        let hand_written = run_once(None);
        assert_eq!(run_once(None), hand_written);
        let net = Arc::new(Network::random(7));
        let with_network = run_once(Some(net.clone()));
        assert_eq!(run_once(Some(net)), with_network);
        // A fresh copy of the same weights searches the same tree.
        assert_eq!(run_once(Some(Arc::new(Network::random(7)))), with_network);
        assert_ne!(with_network, hand_written, "the network was not used");
    }
}
