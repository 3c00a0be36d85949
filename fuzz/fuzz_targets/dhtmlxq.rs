//! DhtmlXQ (UBB): any text read without panicking, and a game read is written and reads
//! back to the same record, variations and comments included.
#![no_main]

use chuhe_core::dhtmlxq;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    if let Ok(game) = dhtmlxq::read(text) {
        let out = dhtmlxq::write(&game);
        let back = dhtmlxq::read(&out).expect("a written game reads back");
        assert!(back == game, "round trip changed the game:\n{out}");
    }
});
