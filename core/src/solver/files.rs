//! Puzzle files to solve in a batch: wukong's JSON mates and FEN lists (one FEN a line, or
//! PGN-style `[FEN "…"]` tags), as `chuhe-engine solve --wukong` and `--fens` read them.

use serde::Deserialize;

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

/// One object of a wukong file; its other fields (`description` …) are not needed here.
#[derive(Deserialize)]
struct WukongEntry {
    id: Option<String>,
    fen: String,
    title: Option<String>,
}

/// Reads a wukong puzzle file: a JSON array of objects with a `fen`, and optionally an `id`
/// and a `title`, all strings. `title` "Mate in N move(s)" gives the claim ("?" or anything
/// else: none). The error of a file that is not one says where (line and column).
pub fn read_wukong(text: &str) -> Result<Vec<Puzzle>, serde_json::Error> {
    let entries: Vec<WukongEntry> = serde_json::from_str(text)?;
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| Puzzle {
            id: e.id.unwrap_or_else(|| format!("#{}", i + 1)),
            claimed: e.title.as_deref().and_then(|t| {
                t.strip_prefix("Mate in ")?
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            }),
            fen: e.fen,
        })
        .collect())
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
