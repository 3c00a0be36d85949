//! XQF: any bytes read without panicking, strictly and leniently, and the two agree: the
//! strict reader fails with the lenient reader's first problem, or both give the same game.
#![no_main]

use chuhe_core::xqf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let strict = xqf::read(bytes);
    match xqf::read_lenient(bytes) {
        Ok((record, problems)) => match strict {
            Ok(strict) => assert!(problems.is_empty() && strict == record),
            Err(e) => assert_eq!(problems.first(), Some(&e)),
        },
        Err(e) => assert_eq!(strict.err(), Some(e)),
    }
});
