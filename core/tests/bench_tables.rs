//! The bench's node count does not depend on the endgame tables the cache holds: a user who
//! made tables in the app gets the same count as everyone else, unless they ask for the
//! tables (`--tablebases`), and then the tables do change the search.
//!
//! Its own test binary: the program's tables are process-wide.

use chuhe_core::Position;
use chuhe_core::bench;
use chuhe_core::tb::{self, Material};

fn nodes(depth: u32, tablebases: bool) -> u64 {
    bench::run(depth, tablebases, None, |_, _| Ok::<(), ()>(()))
        .unwrap()
        .nodes
}

#[test]
fn the_bench_counts_the_same_nodes_whatever_tables_the_cache_holds() {
    let dir = std::env::temp_dir().join(format!("chuhe-bench-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    assert!(
        tb::init_global(Some(dir.clone())),
        "the tables were not used yet"
    );
    let depth = 5;
    let without = nodes(depth, false);
    assert_eq!(
        nodes(depth, true),
        without,
        "no table yet: asking changes nothing"
    );

    // The table of the bench's cannon, advisor and bishop against the bare general, and
    // the smaller ones it captures into, generated into the cache as the app does.
    let pos: Position = "5k3/9/9/9/9/9/9/4B4/3C5/3AK4 w - - 0 1".parse().unwrap();
    let material = Material::of(&pos).unwrap();
    tb::global()
        .get_or_generate(&material, &mut |_| true)
        .unwrap();
    assert!(tb::global().probe(&pos).is_some());

    assert_eq!(
        nodes(depth, false),
        without,
        "the same count with a table in the cache"
    );
    assert_ne!(
        nodes(depth, true),
        without,
        "asked, the table changes the search (else this test shows nothing)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
