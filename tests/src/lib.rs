//! Helpers for Chuhe's workspace-level integration tests: locating the shared reference
//! data (`../shared/data` beside the project) and failing loudly when it is missing.

use std::path::PathBuf;

/// The shared reference data directory: `$CHUHE_SHARED_DATA`, or `../shared/data` from the
/// workspace root.
pub fn shared_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CHUHE_SHARED_DATA") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data")
}

/// The path of `relative` inside the shared data, or a panic that says the data is absent.
///
/// Tests that check against reference data must never pass silently without it: on a fresh
/// clone with no `../shared/` beside it, they fail with this message.
pub fn shared_data(relative: &str) -> PathBuf {
    let path = shared_data_dir().join(relative);
    assert!(
        path.exists(),
        "reference data {} is absent: these tests need ../shared/data beside the project \
         (or CHUHE_SHARED_DATA pointing at it)",
        path.display()
    );
    path
}
