//! The cache file of a table.
//!
//! Layout (little-endian): the magic `CHUHE-TB`, a format version (u32), the material's
//! signature (u16 length, UTF-8), the placements per side to move (u64), an FNV-1a 64-bit
//! checksum (u64) of everything before it and of the values, then the values: one byte per
//! placement, Red to move then Black to move. The file is written atomically (a temporary
//! name, then a rename, as every file Chuhe writes), so a reader never sees half a file; a
//! short, altered or foreign file fails the checks in [`read`] and is generated again by
//! the caller.

use super::Table;
use super::index::Layout;
use super::material::Material;
use crate::atomic::write_atomically_with;
use std::fmt;
use std::fs;
use std::io::{self, BufReader, Read};
use std::path::Path;

const MAGIC: &[u8; 8] = b"CHUHE-TB";
const VERSION: u32 = 1;

/// Why a cache file was not used.
#[derive(Debug)]
pub enum CacheError {
    /// No cache directory is known.
    NoDirectory,
    /// The file could not be read.
    Io(io::Error),
    /// The file is not a table of this material and format, or is damaged.
    Corrupt(&'static str),
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::NoDirectory => f.write_str("no directory for the tables"),
            CacheError::Io(e) => write!(f, "cannot read the table: {e}"),
            CacheError::Corrupt(why) => write!(f, "damaged table file: {why}"),
        }
    }
}

impl std::error::Error for CacheError {}

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }
}

fn header(material: &Material, size: usize) -> Vec<u8> {
    let name = material.to_string();
    let mut h = Vec::new();
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&(name.len() as u16).to_le_bytes());
    h.extend_from_slice(name.as_bytes());
    h.extend_from_slice(&(size as u64).to_le_bytes());
    h
}

/// Writes `table` to `path` atomically (through [`write_atomically_with`]).
pub(crate) fn write(path: &Path, table: &Table) -> io::Result<()> {
    let head = header(&table.material, table.layout.size);
    let mut sum = Fnv::new();
    sum.update(&head);
    sum.update(&table.values[0]);
    sum.update(&table.values[1]);
    write_atomically_with(path, |w| {
        w.write_all(&head)?;
        w.write_all(&sum.0.to_le_bytes())?;
        w.write_all(&table.values[0])?;
        w.write_all(&table.values[1])
    })
}

/// Reads and checks the table of `material` from `path`.
pub(crate) fn read(path: &Path, material: &Material) -> Result<Table, CacheError> {
    let file = fs::File::open(path).map_err(CacheError::Io)?;
    let len = file.metadata().map_err(CacheError::Io)?.len();
    let layout = Layout::new(material);
    let head = header(material, layout.size);
    let expected = head.len() as u64 + 8 + 2 * layout.size as u64;
    if len < expected {
        return Err(CacheError::Corrupt("the file is shorter than the table"));
    }
    if len > expected {
        return Err(CacheError::Corrupt("the file is longer than the table"));
    }
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut got = vec![0u8; head.len()];
    r.read_exact(&mut got).map_err(CacheError::Io)?;
    if got[..8] != MAGIC[..] {
        return Err(CacheError::Corrupt("not a Chuhe table file"));
    }
    if got != head {
        return Err(CacheError::Corrupt(
            "another format version, material or size",
        ));
    }
    let mut stored = [0u8; 8];
    r.read_exact(&mut stored).map_err(CacheError::Io)?;
    let mut values = [vec![0u8; layout.size], vec![0u8; layout.size]];
    r.read_exact(&mut values[0]).map_err(CacheError::Io)?;
    r.read_exact(&mut values[1]).map_err(CacheError::Io)?;
    let mut sum = Fnv::new();
    sum.update(&head);
    sum.update(&values[0]);
    sum.update(&values[1]);
    if sum.0 != u64::from_le_bytes(stored) {
        return Err(CacheError::Corrupt("the checksum does not match"));
    }
    Ok(Table {
        material: material.clone(),
        layout,
        values,
    })
}
