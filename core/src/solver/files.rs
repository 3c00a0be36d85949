//! Puzzle files to solve in a batch: wukong's JSON mates and FEN lists (one FEN a line, or
//! PGN-style `[FEN "…"]` tags), as `chuhe-engine solve --wukong` and `--fens` read them.

use std::fmt;

/// A position of a puzzle file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name in the file (`id`, or the line number).
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// The mate length the file claims, if it says one.
    pub claimed: Option<u32>,
}

/// Why a puzzle file could not be read: where (byte offset) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleFileError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for PuzzleFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: expected {}", self.offset, self.expected)
    }
}

impl std::error::Error for PuzzleFileError {}

/// Reads a wukong puzzle file: a JSON array of flat objects whose values are strings.
/// `title` "Mate in N move(s)" gives the claim ("?" or anything else: none).
pub fn read_wukong(text: &str) -> Result<Vec<Puzzle>, PuzzleFileError> {
    let mut r = JsonReader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut puzzles = Vec::new();
    r.expect(b'[', "'['")?;
    if r.peek() == Some(b']') {
        return Ok(puzzles);
    }
    loop {
        let start = r.at;
        r.expect(b'{', "'{'")?;
        let (mut id, mut fen, mut title) = (None, None, None);
        if r.peek() != Some(b'}') {
            loop {
                let key = r.string()?;
                r.expect(b':', "':'")?;
                let value = r.string()?;
                match key.as_str() {
                    "id" => id = Some(value),
                    "fen" => fen = Some(value),
                    "title" => title = Some(value),
                    _ => {}
                }
                if r.peek() == Some(b',') {
                    r.at += 1;
                } else {
                    break;
                }
            }
        }
        r.expect(b'}', "'}' or ','")?;
        let fen = fen.ok_or(PuzzleFileError {
            offset: start,
            expected: "a \"fen\" field in the object",
        })?;
        let claimed = title.as_deref().and_then(|t| {
            t.strip_prefix("Mate in ")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        });
        puzzles.push(Puzzle {
            id: id.unwrap_or_else(|| format!("#{}", puzzles.len() + 1)),
            fen,
            claimed,
        });
        if r.peek() == Some(b',') {
            r.at += 1;
        } else {
            break;
        }
    }
    r.expect(b']', "']' or ','")?;
    Ok(puzzles)
}

struct JsonReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl JsonReader<'_> {
    fn peek(&mut self) -> Option<u8> {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, b: u8, what: &'static str) -> Result<(), PuzzleFileError> {
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    fn error(&self, expected: &'static str) -> PuzzleFileError {
        PuzzleFileError {
            offset: self.at,
            expected,
        }
    }

    fn string(&mut self) -> Result<String, PuzzleFileError> {
        self.expect(b'"', "a string")?;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.error("the end of the string"));
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.bytes.get(self.at) else {
                        return Err(self.error("an escape"));
                    };
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'"' | b'\\' | b'/' => out.push(e),
                        b'u' => {
                            let hex = self
                                .bytes
                                .get(self.at..self.at + 4)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.error("four hex digits"))?;
                            self.at += 4;
                            // Surrogate pairs never occur in these files; a lone one is
                            // replaced rather than refused.
                            let c = char::from_u32(hex).unwrap_or('\u{fffd}');
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        _ => return Err(self.error("a valid escape")),
                    }
                }
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("UTF-8 text"))
    }
}

/// Reads a FEN list: each line a FEN, or a `[FEN "…"]` tag; other lines are skipped.
/// A preceding `[EVENT "…"]` or `[FEN_INDEX "…"]` tag names the position.
pub fn read_fen_list(text: &str) -> Vec<Puzzle> {
    let mut puzzles = Vec::new();
    let mut name = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim().trim_start_matches('\u{feff}');
        let tag = |t: &str| {
            line.strip_prefix(t)
                .and_then(|r| r.trim().strip_suffix(']'))
                .map(|v| v.trim().trim_matches('"').to_string())
        };
        if let Some(v) = tag("[FEN_INDEX").or_else(|| tag("[EVENT")) {
            name = Some(v);
        } else if let Some(fen) = tag("[FEN") {
            puzzles.push(Puzzle {
                id: name.take().unwrap_or_else(|| format!("line {}", i + 1)),
                fen,
                claimed: None,
            });
        } else if !line.is_empty() && !line.starts_with('[') && !line.starts_with('#') {
            puzzles.push(Puzzle {
                id: format!("line {}", i + 1),
                fen: line.to_string(),
                claimed: None,
            });
        }
    }
    puzzles
}
