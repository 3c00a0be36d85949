//! The evaluation network's speed in the search: runs the bench (`chuhe-engine bench`'s
//! positions, depth and table size) with the hand-written evaluation, then with a seeded
//! random network on each kernel this processor runs, and prints each run's nodes and
//! nodes per second. Random weights search other trees than a trained network would, so
//! compare the speeds, not the node counts. A benchmark, not a test:
//!
//! ```text
//! cargo run --release -p chuhe-core --example nnue_speed -- [DEPTH] [SEED] [ONLY]
//! ```
//!
//! ONLY (`hand`, `scalar` or `avx2`) runs that one alone, for a profiler.

use chuhe_core::bench;
use chuhe_core::search::nnue::{Kernel, Network};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> u64 {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("{a:?} is not a number");
                std::process::exit(2)
            })
        })
    };
    let depth = number(0, bench::DEFAULT_DEPTH as u64) as u32;
    let seed = number(1, 1);
    let mut runs: Vec<(String, Option<Arc<Network>>)> = vec![("hand-written".into(), None)];
    let mut kernels = vec![Kernel::Scalar];
    if Kernel::avx2_available() {
        kernels.push(Kernel::Avx2);
    }
    for kernel in kernels {
        let net = Network::random(seed).with_kernel(kernel);
        runs.push((format!("network ({kernel:?})"), Some(Arc::new(net))));
    }
    if let Some(only) = args.get(2) {
        runs.retain(|(name, _)| name.to_lowercase().contains(&only.to_lowercase()));
    }
    println!("depth {depth}, random network seed {seed}");
    for (name, network) in runs {
        let totals = bench::run(depth, false, network, |_, _| Ok::<(), ()>(()))
            .unwrap_or_else(|()| unreachable!("the callback never fails"));
        println!(
            "{name:<22} nodes {:>10}  time {:>7} ms  nodes/second {:>9}",
            totals.nodes,
            totals.elapsed.as_millis(),
            totals.nps()
        );
    }
}
