//! FEN: reading any text never panics; what reads prints and reads back the same.
#![no_main]

use chuhe_core::{Position, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(setup) = text.parse::<Setup>() {
        let printed = setup.to_string();
        assert_eq!(printed.parse::<Setup>().as_ref(), Ok(&setup));
        if let Ok(pos) = Position::from_setup(&setup) {
            assert_eq!(pos.to_string(), printed);
            for m in pos.legal_moves().iter() {
                assert!(pos.play(*m).is_ok());
            }
        }
    }
});
