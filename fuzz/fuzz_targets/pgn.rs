//! PGN: any bytes (decoded as a game file would be) read without panicking, and every game
//! that reads is written and read back to the same record, in a notation chosen by the
//! input's length.
#![no_main]

use chuhe_core::notation::Notation;
use chuhe_core::{encoding, pgn};
use libfuzzer_sys::fuzz_target;

const NOTATIONS: [Notation; 6] = [
    Notation::Chinese,
    Notation::ChineseTraditional,
    Notation::Wxf,
    Notation::IccsPgn,
    Notation::Iccs,
    Notation::YiZiSanMa,
];

fuzz_target!(|bytes: &[u8]| {
    let notation = NOTATIONS[bytes.len() % NOTATIONS.len()];
    let text = encoding::decode(bytes).text;
    for game in pgn::read_games(&text).flatten() {
        let mut out = String::new();
        pgn::write_game(&game, notation, &mut out);
        let back = pgn::read_game(&out).expect("a written game reads back");
        assert!(back == game, "round trip changed the game:\n{out}");
    }
});
