//! The opening tree: named positions from the start, each with its names in zh-CN, zh-TW
//! and English, its ECCO code where one applies, and a note in Chinese and English
//! (`assets/library/openings.ron`). Recognition finds the deepest named position a game
//! passes through, by position, so move orders that transpose are recognised alike; the
//! ECCO code of a whole game comes from [`ecco`].
//!
//! In the file each node gives the moves that lead to it from its parent, in Chinese
//! notation (`"炮二平五 马8进7"`), so a node may stand several plies below its parent and
//! every position in the tree has a name.

pub mod ecco;

use crate::notation::{Notation, format_move, parse_move};
use crate::{Move, Position};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The tree as the file writes it.
const OPENINGS_RON: &str = include_str!("../../../assets/library/openings.ron");

/// The first letter of the pinyin of every character of the library's names.
const PINYIN_RON: &str = include_str!("../../../assets/library/pinyin.ron");

/// The pinyin initials table (`assets/library/pinyin.ron`), read once; empty if the file
/// were malformed, which a test rules out.
pub fn pinyin_table() -> &'static HashMap<char, char> {
    static TABLE: OnceLock<HashMap<char, char>> = OnceLock::new();
    TABLE.get_or_init(|| ron::from_str(PINYIN_RON).unwrap_or_default())
}

/// The pinyin initials of the Chinese characters of `text` (屏风马: `pfm`); other
/// characters are left out.
pub fn pinyin_initials(text: &str) -> String {
    let table = pinyin_table();
    text.chars()
        .filter_map(|c| table.get(&c).copied())
        .collect()
}

/// A name in the three languages of the app.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// Simplified Chinese.
    pub zh_cn: String,
    /// Traditional Chinese.
    pub zh_tw: String,
    /// English.
    pub en: String,
}

impl Names {
    /// The name in the language with this code (`zh-CN`, `zh-TW`, anything else: English).
    pub fn get(&self, lang: &str) -> &str {
        match lang {
            "zh-CN" => &self.zh_cn,
            "zh-TW" => &self.zh_tw,
            _ => &self.en,
        }
    }

    /// Whether one of the three names contains `query` (case folded).
    pub fn contains(&self, query: &str) -> bool {
        [&self.zh_cn, &self.zh_tw, &self.en]
            .iter()
            .any(|n| n.to_lowercase().contains(query))
    }
}

/// A note in simplified Chinese, traditional Chinese and English.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Chinese (simplified).
    pub zh: String,
    /// Chinese (traditional, as written in Taiwan).
    pub zh_tw: String,
    /// English.
    pub en: String,
}

impl Note {
    /// The note for the language with this code (`zh-TW`: traditional; any other `zh`:
    /// simplified; anything else: English).
    pub fn get(&self, lang: &str) -> &str {
        match lang {
            "zh-TW" => &self.zh_tw,
            l if l.starts_with("zh") => &self.zh,
            _ => &self.en,
        }
    }
}

/// One node as the file writes it.
#[derive(Clone, Debug, Deserialize)]
struct SourceNode {
    /// The moves from the parent, in Chinese notation, separated by spaces.
    moves: String,
    names: Names,
    #[serde(default)]
    ecco: Option<String>,
    note: Note,
    #[serde(default)]
    children: Vec<SourceNode>,
}

/// A named position of the tree.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningNode {
    /// Its index in [`OpeningBook::nodes`].
    pub id: usize,
    /// The node above it (none for the root, the start position).
    pub parent: Option<usize>,
    /// The nodes below it, in the file's order.
    pub children: Vec<usize>,
    /// Every move from the start position, in ICCS (`h2e2`).
    #[serde(serialize_with = "iccs_list")]
    pub moves: Vec<Move>,
    /// How many of the last `moves` lead here from the parent.
    pub own_moves: usize,
    /// The same moves in Chinese notation.
    pub moves_chinese: Vec<String>,
    /// The position here, as FEN.
    pub fen: String,
    /// Its names.
    pub names: Names,
    /// Its ECCO code, when one applies.
    pub ecco: Option<String>,
    /// Its note.
    pub note: Note,
    #[serde(skip)]
    hash: u64,
    #[serde(skip)]
    mirror_hash: u64,
}

fn iccs_list<S: serde::Serializer>(moves: &[Move], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(moves.iter().map(Move::to_string))
}

impl OpeningNode {
    /// Plies from the start position.
    pub fn depth(&self) -> usize {
        self.moves.len()
    }
}

/// Why the opening file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file is not the RON the book expects.
    Syntax(String),
    /// A move of a node cannot be read or is illegal where it stands.
    BadMove {
        /// The English names from the root down to the node.
        path: String,
        /// The move's text.
        text: String,
        /// Why.
        reason: String,
    },
    /// A node has no moves of its own (only the root may).
    NoMoves {
        /// The English names from the root down to the node.
        path: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Syntax(e) => write!(f, "the opening file is malformed: {e}"),
            BookError::BadMove { path, text, reason } => {
                write!(f, "opening {path}: move {text:?}: {reason}")
            }
            BookError::NoMoves { path } => write!(f, "opening {path}: no moves from its parent"),
        }
    }
}

impl std::error::Error for BookError {}

/// The opening tree, flattened, with an index by position.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    /// Every node; the root (the start position) first, parents before children.
    pub nodes: Vec<OpeningNode>,
    /// Node ids by position hash.
    by_hash: HashMap<u64, Vec<usize>>,
    /// Node ids by the hash of their mirror image (a game opened on the other wing).
    by_mirror_hash: HashMap<u64, Vec<usize>>,
    /// Traditional characters of the tree's texts to their simplified forms, so that a
    /// search in either script (or a mix) finds names written in the other.
    fold: HashMap<char, char>,
}

/// What recognition found: the deepest named position a game passed through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognition {
    /// The node.
    pub node: usize,
    /// After how many plies of the game it stood there.
    pub ply: usize,
    /// Whether the game reached its mirror image (opened on the other wing).
    pub mirrored: bool,
}

fn mirror_hash(pos: &Position) -> u64 {
    Position::from_setup(&pos.to_setup().mirrored()).map_or(0, |p| p.hash())
}

impl OpeningBook {
    /// Reads a tree from RON text.
    pub fn from_ron(text: &str) -> Result<OpeningBook, BookError> {
        let root: SourceNode = ron::from_str(text).map_err(|e| BookError::Syntax(e.to_string()))?;
        let mut book = OpeningBook {
            nodes: Vec::new(),
            by_hash: HashMap::new(),
            by_mirror_hash: HashMap::new(),
            fold: HashMap::new(),
        };
        book.add(&root, None, &Position::startpos(), &[], &[], "")?;
        // The traditional texts are the simplified ones character for character where
        // they are as long: their differing characters make the folding table.
        for node in &book.nodes {
            for (simplified, traditional) in [
                (&node.names.zh_cn, &node.names.zh_tw),
                (&node.note.zh, &node.note.zh_tw),
            ] {
                if simplified.chars().count() == traditional.chars().count() {
                    for (s, t) in simplified.chars().zip(traditional.chars()) {
                        if s != t {
                            book.fold.entry(t).or_insert(s);
                        }
                    }
                }
            }
        }
        for node in &book.nodes {
            book.by_hash.entry(node.hash).or_default().push(node.id);
            book.by_mirror_hash
                .entry(node.mirror_hash)
                .or_default()
                .push(node.id);
        }
        Ok(book)
    }

    fn add(
        &mut self,
        src: &SourceNode,
        parent: Option<usize>,
        pos: &Position,
        moves: &[Move],
        chinese: &[String],
        path: &str,
    ) -> Result<(), BookError> {
        let path = if path.is_empty() {
            src.names.en.clone()
        } else {
            format!("{path} / {}", src.names.en)
        };
        let mut pos = pos.clone();
        let mut moves = moves.to_vec();
        let mut chinese = chinese.to_vec();
        let mut own = 0;
        for text in src.moves.split_whitespace() {
            let bad = |reason: String| BookError::BadMove {
                path: path.clone(),
                text: text.to_owned(),
                reason,
            };
            let m = parse_move(&pos, text, Notation::Chinese).map_err(|e| bad(e.to_string()))?;
            // Written the book's way, whatever variant the file used.
            chinese.push(format_move(&pos, m, Notation::Chinese));
            pos = pos.play(m).map_err(|e| bad(e.to_string()))?;
            moves.push(m);
            own += 1;
        }
        if own == 0 && parent.is_some() {
            return Err(BookError::NoMoves { path });
        }
        let id = self.nodes.len();
        self.nodes.push(OpeningNode {
            id,
            parent,
            children: Vec::new(),
            moves: moves.clone(),
            own_moves: own,
            moves_chinese: chinese.clone(),
            fen: pos.to_string(),
            names: src.names.clone(),
            ecco: src.ecco.clone().filter(|e| !e.is_empty()),
            note: src.note.clone(),
            hash: pos.hash(),
            mirror_hash: mirror_hash(&pos),
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        for child in &src.children {
            self.add(child, Some(id), &pos, &moves, &chinese, &path)?;
        }
        Ok(())
    }

    /// The root: the start position.
    pub fn root(&self) -> &OpeningNode {
        &self.nodes[0]
    }

    /// The node with this id.
    pub fn node(&self, id: usize) -> Option<&OpeningNode> {
        self.nodes.get(id)
    }

    /// The nodes from the root down to `id`.
    pub fn path(&self, id: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at.and_then(|i| self.nodes.get(i)) {
            path.push(n.id);
            at = n.parent;
        }
        path.reverse();
        path
    }

    /// The deepest node whose position the game from `start` through `moves` passes
    /// through (`None` for a game from a set-up position, or one that leaves the book at
    /// once). Positions are matched, not move orders, so transpositions count; a game
    /// played on the other wing matches the mirror image when nothing matches directly.
    pub fn recognize(&self, start: &Position, moves: &[Move]) -> Option<Recognition> {
        if start.hash() != Position::startpos().hash() {
            return None;
        }
        let mut pos = start.clone();
        let mut best: Option<Recognition> = None;
        let mut best_mirror: Option<Recognition> = None;
        let deeper = |best: &Option<Recognition>, id: usize, this: &OpeningBook| {
            best.is_none_or(|b| this.nodes[id].depth() > this.nodes[b.node].depth())
        };
        for ply in 0..=moves.len() {
            if ply > 0 {
                match pos.play(moves[ply - 1]) {
                    Ok(next) => pos = next,
                    Err(_) => break,
                }
            }
            for &id in self.by_hash.get(&pos.hash()).into_iter().flatten() {
                if deeper(&best, id, self) {
                    best = Some(Recognition {
                        node: id,
                        ply,
                        mirrored: false,
                    });
                }
            }
            for &id in self.by_mirror_hash.get(&pos.hash()).into_iter().flatten() {
                if deeper(&best_mirror, id, self) {
                    best_mirror = Some(Recognition {
                        node: id,
                        ply,
                        mirrored: true,
                    });
                }
            }
        }
        match (best, best_mirror) {
            (Some(b), Some(m)) if self.nodes[m.node].depth() > self.nodes[b.node].depth() => {
                Some(m)
            }
            (Some(b), _) => Some(b),
            (None, m) => m,
        }
    }

    /// Text in lower case with traditional characters turned simplified.
    fn folded(&self, text: &str) -> String {
        text.to_lowercase()
            .chars()
            .map(|c| self.fold.get(&c).copied().unwrap_or(c))
            .collect()
    }

    /// The nodes whose names (in any language, simplified or traditional characters, or a
    /// mix), ECCO code or ECCO names contain every word of `query`, or whose Chinese names'
    /// pinyin initials do (`pfm` for 屏风马), in tree order. An empty query finds nothing.
    pub fn search(&self, query: &str) -> Vec<usize> {
        let words: Vec<String> = query.split_whitespace().map(|w| self.folded(w)).collect();
        if words.is_empty() {
            return Vec::new();
        }
        // The built-in ECCO table names the codes; a book read elsewhere still searches
        // its own names without it.
        let table = ecco::builtin().ok();
        self.nodes
            .iter()
            .filter(|n| {
                let ecco_names = n
                    .ecco
                    .as_deref()
                    .and_then(|c| table?.entry(c))
                    .map(|e| format!("{}\n{}", e.opening, e.variation))
                    .unwrap_or_default();
                let text = self.folded(&format!(
                    "{}\n{}\n{}\n{ecco_names}",
                    n.names.zh_cn, n.names.zh_tw, n.names.en
                ));
                // Pinyin initials of the Chinese names, each name on its own.
                let initials = format!(
                    "{}\n{}",
                    pinyin_initials(&n.names.zh_cn),
                    ecco_names
                        .lines()
                        .map(pinyin_initials)
                        .collect::<Vec<_>>()
                        .join("\n")
                );
                words.iter().all(|w| {
                    text.contains(w.as_str())
                        || n.ecco.as_deref().is_some_and(|e| e.to_lowercase() == *w)
                        || (w.chars().all(|c| c.is_ascii_lowercase())
                            && initials.contains(w.as_str()))
                })
            })
            .map(|n| n.id)
            .collect()
    }
}

/// The built-in tree (`assets/library/openings.ron`), read once.
pub fn builtin() -> Result<&'static OpeningBook, &'static BookError> {
    static BOOK: OnceLock<Result<OpeningBook, BookError>> = OnceLock::new();
    BOOK.get_or_init(|| OpeningBook::from_ron(OPENINGS_RON))
        .as_ref()
}

/// The ECCO code and the deepest named position of a game, for the record's headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOpening {
    /// The ECCO classification.
    pub ecco: Option<ecco::Classification>,
    /// The deepest named position the game passes through.
    pub node: Option<Recognition>,
}

/// Recognises a record's main line with the built-in library.
pub fn recognize_record(record: &crate::record::Record) -> GameOpening {
    let moves = record.main_line_moves();
    GameOpening {
        ecco: ecco::classify(record.start(), &moves),
        node: builtin()
            .ok()
            .and_then(|b| b.recognize(record.start(), &moves)),
    }
}

/// Sets the record's `ECCO`, `Opening` and `Variation` headers from its main line (ECCO's
/// Chinese names), removing them when the game has no ECCO code (a set-up position).
/// Returns whether a header changed.
pub fn write_headers(record: &mut crate::record::Record) -> bool {
    use crate::record::tag;
    let found = recognize_record(record).ecco;
    let mut changed = false;
    match found {
        Some(c) => {
            changed |= record.set_header(tag::ECCO, &c.code);
            changed |= record.set_header(tag::OPENING, &c.opening);
            changed |= if c.variation.is_empty() {
                record.remove_header(tag::VARIATION)
            } else {
                record.set_header(tag::VARIATION, &c.variation)
            };
        }
        None => {
            for name in [tag::ECCO, tag::OPENING, tag::VARIATION] {
                changed |= record.remove_header(name);
            }
        }
    }
    changed
}

/// The whole opening library as JSON: every node with its moves, names, ECCO code and
/// note, and the ECCO table.
pub fn to_json() -> Result<serde_json::Value, String> {
    let book = builtin().map_err(|e| e.to_string())?;
    let table = ecco::builtin()?;
    Ok(serde_json::json!({
        "nodes": book.nodes,
        "ecco": table.entries,
    }))
}
