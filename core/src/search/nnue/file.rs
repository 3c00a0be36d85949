//! The weights file: what a trainer writes and `EvalFile` loads.
//!
//! All numbers little-endian:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHENNU` |
//! | 8 | 4 | format version, u32 (1) |
//! | 12 | 4 | inputs, u32 ([`INPUTS`] = 7,560) |
//! | 16 | 4 | hidden, u32 ([`HIDDEN`] = 256) |
//! | 20 | 2·inputs·hidden | first-layer weights, i16, input by input (each input's `hidden` weights together), scaled by QA |
//! | … | 2·hidden | first-layer biases, i16, scaled by QA |
//! | … | 4·hidden | output weights, i16, within ±128: first the `hidden` for the side to move's accumulator, then the other side's, scaled by QB |
//! | … | 4 | output bias, i32, scaled by QA·QB |
//! | end − 8 | 8 | checksum: FNV-1a 64 of every byte before it, u64 |
//!
//! Reading checks each part in that order and says which failed, where and why.

use super::features::INPUTS;
use super::simd::Row;
use super::{Accumulator, HIDDEN, Network};
use std::fmt;
use std::path::{Path, PathBuf};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"CHUHENNU";
/// The format this build reads and writes.
pub const VERSION: u32 = 1;
/// The largest output weight magnitude (see [`super::simd::Kernel`]'s output).
pub const OUTPUT_WEIGHT_LIMIT: i16 = 128;

const HEADER: usize = 20;
const L1_WEIGHTS: usize = 2 * INPUTS * HIDDEN;
const L1_BIAS: usize = 2 * HIDDEN;
const OUT_WEIGHTS: usize = 2 * 2 * HIDDEN;
const OUT_BIAS: usize = 4;
const CHECKSUM: usize = 8;
/// The size of a file of this build's shape.
pub const FILE_SIZE: usize = HEADER + L1_WEIGHTS + L1_BIAS + OUT_WEIGHTS + OUT_BIAS + CHECKSUM;

/// Why a network could not be read (or built).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NnueError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The file does not start with [`MAGIC`]: not a Chuhe network.
    BadMagic {
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// A format version this build does not know.
    UnknownVersion {
        /// The version found (at byte 8).
        found: u32,
    },
    /// A network of another shape than this build's.
    WrongShape {
        /// Inputs and hidden size in the file (bytes 12 and 16).
        inputs: u32,
        /// Hidden size in the file.
        hidden: u32,
    },
    /// The data ends inside `part`.
    Truncated {
        /// The part the data ends in.
        part: &'static str,
        /// Where the data ends (its length).
        offset: usize,
        /// The length a whole file has.
        needed: usize,
    },
    /// Bytes after the checksum.
    TrailingBytes {
        /// Where the extra bytes start.
        offset: usize,
        /// How many there are.
        extra: usize,
    },
    /// The checksum does not match the bytes: the file is damaged.
    ChecksumMismatch {
        /// Where the checksum is.
        offset: usize,
        /// The checksum the file holds.
        stored: u64,
        /// The checksum of the bytes before it.
        computed: u64,
    },
    /// An output weight beyond ±[`OUTPUT_WEIGHT_LIMIT`], which the output layer's
    /// arithmetic does not allow.
    OutputWeightOutOfRange {
        /// Which output weight (0..2·hidden).
        index: usize,
        /// Where it is (or would be) in the file.
        offset: usize,
        /// Its value.
        value: i16,
    },
    /// A part given to [`Network::from_parts`] has the wrong number of values.
    WrongLength {
        /// The part.
        part: &'static str,
        /// Values given.
        found: usize,
        /// Values expected.
        expected: usize,
    },
}

impl fmt::Display for NnueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NnueError::Io { path, message } => {
                write!(f, "cannot read the network {}: {message}", path.display())
            }
            NnueError::BadMagic { found } => write!(
                f,
                "not a Chuhe network: the file starts with {found:02x?}, not {:?}",
                std::str::from_utf8(&MAGIC).unwrap_or_default()
            ),
            NnueError::UnknownVersion { found } => write!(
                f,
                "network format version {found} (at byte 8) is unknown; this build reads version {VERSION}"
            ),
            NnueError::WrongShape { inputs, hidden } => write!(
                f,
                "the network has {inputs} inputs and {hidden} hidden units (bytes 12–19); this build needs {INPUTS} and {HIDDEN}"
            ),
            NnueError::Truncated {
                part,
                offset,
                needed,
            } => write!(
                f,
                "the network file ends at byte {offset}, inside the {part}; a whole file has {needed} bytes"
            ),
            NnueError::TrailingBytes { offset, extra } => write!(
                f,
                "{extra} unexpected bytes after the checksum, from byte {offset}"
            ),
            NnueError::ChecksumMismatch {
                offset,
                stored,
                computed,
            } => write!(
                f,
                "the network file is damaged: the checksum at byte {offset} is {stored:016x}, the bytes before it give {computed:016x}"
            ),
            NnueError::OutputWeightOutOfRange {
                index,
                offset,
                value,
            } => write!(
                f,
                "output weight {index} (byte {offset}) is {value}, beyond ±{OUTPUT_WEIGHT_LIMIT}"
            ),
            NnueError::WrongLength {
                part,
                found,
                expected,
            } => write!(f, "the {part} have {found} values, not {expected}"),
        }
    }
}

impl std::error::Error for NnueError {}

/// FNV-1a, 64 bits: a simple checksum that catches damaged files (not tampering).
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The part of the file holding byte `offset`.
fn part_at(offset: usize) -> &'static str {
    let parts = [
        (HEADER, "header"),
        (L1_WEIGHTS, "first-layer weights"),
        (L1_BIAS, "first-layer biases"),
        (OUT_WEIGHTS, "output weights"),
        (OUT_BIAS, "output bias"),
        (CHECKSUM, "checksum"),
    ];
    let mut end = 0;
    for (size, name) in parts {
        end += size;
        if offset < end {
            return name;
        }
    }
    "checksum"
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn i16s(bytes: &[u8]) -> impl Iterator<Item = i16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
}

impl Network {
    /// Reads a network from the bytes of a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NnueError> {
        let truncated = |offset: usize| NnueError::Truncated {
            part: part_at(offset),
            offset,
            needed: FILE_SIZE,
        };
        if bytes.len() < MAGIC.len() {
            return Err(truncated(bytes.len()));
        }
        if bytes[..MAGIC.len()] != MAGIC {
            return Err(NnueError::BadMagic {
                found: bytes[..MAGIC.len()].to_vec(),
            });
        }
        if bytes.len() < HEADER {
            return Err(truncated(bytes.len()));
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(NnueError::UnknownVersion { found: version });
        }
        let (inputs, hidden) = (u32_at(bytes, 12), u32_at(bytes, 16));
        if (inputs as usize, hidden as usize) != (INPUTS, HIDDEN) {
            return Err(NnueError::WrongShape { inputs, hidden });
        }
        if bytes.len() < FILE_SIZE {
            return Err(truncated(bytes.len()));
        }
        if bytes.len() > FILE_SIZE {
            return Err(NnueError::TrailingBytes {
                offset: FILE_SIZE,
                extra: bytes.len() - FILE_SIZE,
            });
        }
        let sum_at = FILE_SIZE - CHECKSUM;
        let mut stored = [0; 8];
        stored.copy_from_slice(&bytes[sum_at..]);
        let stored = u64::from_le_bytes(stored);
        let computed = fnv1a64(&bytes[..sum_at]);
        if stored != computed {
            return Err(NnueError::ChecksumMismatch {
                offset: sum_at,
                stored,
                computed,
            });
        }
        let mut at = HEADER;
        let mut take = |n: usize| {
            let part = &bytes[at..at + n];
            at += n;
            part
        };
        let l1_weights: Vec<i16> = i16s(take(L1_WEIGHTS)).collect();
        let l1_bias: Vec<i16> = i16s(take(L1_BIAS)).collect();
        let out_weights: Vec<i16> = i16s(take(OUT_WEIGHTS)).collect();
        let b = take(OUT_BIAS);
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        Network::from_parts(&l1_weights, &l1_bias, &out_weights, out_bias)
    }

    /// Reads a network from the weights file at `path`.
    pub fn load(path: &Path) -> Result<Network, NnueError> {
        let bytes = std::fs::read(path).map_err(|e| NnueError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// The network as a weights file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let rows = self
            .l1_weights
            .iter()
            .chain(std::iter::once(&self.l1_bias.0))
            .chain(self.out_weights.iter());
        for row in rows {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the network as a weights file to `out`.
    pub fn write(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.to_bytes())
    }

    /// Writes the network to `path` atomically (the old file or the new, never a mix).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::atomic::write_atomically(path, &self.to_bytes())
    }

    /// A network from its parts, as a trainer holds them (quantised; see the module's
    /// table for the order): `INPUTS · HIDDEN` first-layer weights input by input,
    /// `HIDDEN` biases, `2 · HIDDEN` output weights (side to move's half first) within
    /// ±[`OUTPUT_WEIGHT_LIMIT`], and the output bias.
    pub fn from_parts(
        l1_weights: &[i16],
        l1_bias: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Result<Network, NnueError> {
        let check = |part: &'static str, found: usize, expected: usize| {
            if found == expected {
                Ok(())
            } else {
                Err(NnueError::WrongLength {
                    part,
                    found,
                    expected,
                })
            }
        };
        check("first-layer weights", l1_weights.len(), INPUTS * HIDDEN)?;
        check("first-layer biases", l1_bias.len(), HIDDEN)?;
        check("output weights", out_weights.len(), 2 * HIDDEN)?;
        if let Some((index, &value)) = out_weights
            .iter()
            .enumerate()
            .find(|&(_, w)| w.unsigned_abs() > OUTPUT_WEIGHT_LIMIT as u16)
        {
            return Err(NnueError::OutputWeightOutOfRange {
                index,
                offset: HEADER + L1_WEIGHTS + L1_BIAS + 2 * index,
                value,
            });
        }
        let row = |values: &[i16]| -> Row {
            let mut r = [0; HIDDEN];
            r.copy_from_slice(values);
            r
        };
        let l1_weights: Box<[Row]> = l1_weights.chunks_exact(HIDDEN).map(row).collect();
        let out = [row(&out_weights[..HIDDEN]), row(&out_weights[HIDDEN..])];
        Ok(Network {
            l1_weights,
            l1_bias: Accumulator(row(l1_bias)),
            out_weights: Box::new(out),
            out_bias,
            kernel: super::Kernel::detect(),
        })
    }
}
