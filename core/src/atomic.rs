//! Writing a file so that it is either the old one or the new one, never a mix: the
//! bytes go to a temporary file in the same directory, flushed to disk, then renamed over
//! the target (a rename within one directory is atomic). Every file Chuhe writes — games,
//! settings, puzzles, clubs, diagrams, converted collections, endgame tables — goes
//! through here.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically, creating its directory if needed. On failure the
/// temporary file is removed and `path` is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |w| w.write_all(bytes))
}

/// Writes to `path` atomically what `write` writes (buffered), creating the directory if
/// needed: for a file too big to assemble in memory first, such as an endgame table. On
/// failure (of `write` too) the temporary file is removed and `path` is untouched.
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    // Hidden, and unique to this process, so two running copies never share it.
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = dir.join(temp_name);
    let written = (|| {
        let mut file = BufWriter::new(std::fs::File::create(&temp)?);
        write(&mut file)?;
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        // The temporary file is only litter once the write failed.
        let _ = std::fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_is_left() {
        let dir = std::env::temp_dir().join(format!("chuhe-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub").join("game.pgn");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let entries = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1);
        // A directory where the file should be: the write fails, nothing is left behind.
        let blocked = dir.join("blocked");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        assert!(write_atomically(&blocked, b"data").is_err());
        let litter = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count();
        assert_eq!(litter, 0);
        // A writer that fails part-way leaves the old file and no temporary file.
        let failed = write_atomically_with(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let entries = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(entries, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
