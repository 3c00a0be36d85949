//! The iccs notation parser: any text in any reachable position reads without panicking;
//! a move it reads is legal, and printed in the notation it reads back the same.
#![no_main]

mod common;

use chuhe_core::notation::{Notation, format_move, parse_move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pos, text) = common::position_and_text(data);
    if let Ok(m) = parse_move(&pos, text, Notation::Iccs) {
        assert!(pos.is_legal(m), "{text:?} read as illegal {m} in {pos}");
        let printed = format_move(&pos, m, Notation::Iccs);
        assert_eq!(
            parse_move(&pos, &printed, Notation::Iccs),
            Ok(m),
            "{printed:?} in {pos}"
        );
    }
});
