//! CCBridge (象棋桥): any bytes read as a record, a library and the XML form without
//! panicking, and every game read is written as PGN and reads back to the same record.
#![no_main]

use chuhe_core::notation::Notation;
use chuhe_core::record::Record;
use chuhe_core::{ccbridge, pgn};
use libfuzzer_sys::fuzz_target;

fn round_trip(game: &Record) {
    let mut out = String::new();
    pgn::write_game(game, Notation::Iccs, &mut out);
    let back = pgn::read_game(&out).expect("a written game reads back");
    assert!(back == *game, "round trip changed the game:\n{out}");
}

fuzz_target!(|bytes: &[u8]| {
    if let Ok(game) = ccbridge::read_record(bytes) {
        round_trip(&game);
    }
    if let Ok(library) = ccbridge::read_library(bytes) {
        for game in library.games.iter().flatten() {
            round_trip(game);
        }
    }
    if let Ok(game) = ccbridge::read_cbf(bytes) {
        round_trip(&game);
    }
});
