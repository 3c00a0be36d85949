//! The wxf notation parser: any text in any reachable position reads without panicking;
//! a move it reads is legal, and printed in the notation it reads back the same.
#![no_main]

mod common;

use chuhe_core::notation::{Notation, format_move, parse_move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pos, text) = common::position_and_text(data);
    if let Ok(m) = parse_move(&pos, text, Notation::Wxf) {
        assert!(pos.is_legal(m), "{text:?} read as illegal {m} in {pos}");
        let printed = format_move(&pos, m, Notation::Wxf);
        assert_eq!(
            parse_move(&pos, &printed, Notation::Wxf),
            Ok(m),
            "{printed:?} in {pos}"
        );
    }
});
