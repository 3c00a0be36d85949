//! Reading a move in whichever notation it is written: any text in any reachable position
//! reads without panicking, and a move read is legal and in the notation named.
#![no_main]

mod common;

use chuhe_core::notation::{format_move, parse_any, parse_move};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (pos, text) = common::position_and_text(data);
    if let Ok((m, n)) = parse_any(&pos, text) {
        assert!(pos.is_legal(m), "{text:?} read as illegal {m} in {pos}");
        assert_eq!(parse_move(&pos, text, n), Ok(m));
        let printed = format_move(&pos, m, n);
        assert_eq!(parse_move(&pos, &printed, n), Ok(m), "{printed:?} in {pos}");
    }
});
