//! The knowledge reference (知识): the rules restated with diagrams, the 棋例 with worked
//! examples, the terms (术语) and tactics (战术) of the seeds, piece values and the
//! classical maxims — in zh-CN, zh-TW and English — and one search over all of it together
//! with the library's opening and pattern names.
//!
//! The content lives in `assets/knowledge/*.ron`, one file per category, and is compiled
//! in. Every diagram is a FEN with an optional line of ICCS moves; a 棋例 example also
//! carries the verdict its text states, which the tests have the rules core
//! ([`crate::RepetitionJudgement`]) confirm.

use crate::library::openings;
use crate::library::patterns::{self, Names, Text};
use crate::{Conduct, Move, Position};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The category files, in the order the reference shows them.
const SOURCES: [(&str, &str); 5] = [
    ("rules", include_str!("../../assets/knowledge/rules.ron")),
    ("terms", include_str!("../../assets/knowledge/terms.ron")),
    (
        "tactics",
        include_str!("../../assets/knowledge/tactics.ron"),
    ),
    ("values", include_str!("../../assets/knowledge/values.ron")),
    ("maxims", include_str!("../../assets/knowledge/maxims.ron")),
];

/// One category of the reference: rules, terms, tactics, piece values or maxims.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Category {
    /// A short stable name (`rules`, `terms` …), the file's name.
    pub id: String,
    /// Its title.
    pub names: Names,
    /// Its entries, in reading order.
    pub entries: Vec<Entry>,
}

/// One entry: a rule, a term, a tactic, a value rule or a group of maxims.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// A stable name, unique in the whole reference (`rule-horse`, `term-14` …).
    pub id: String,
    /// Its title.
    pub names: Names,
    /// What it says, in our words.
    pub text: Text,
    /// Sayings, for the maxims (the saying as handed down, and what it means).
    #[serde(default)]
    pub items: Vec<Maxim>,
    /// Positions that show it.
    #[serde(default)]
    pub diagrams: Vec<Diagram>,
}

/// A maxim or mnemonic and what it means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Maxim {
    /// The saying: the Chinese as handed down (both scripts) and an English rendering.
    pub saying: Text,
    /// What it means, when the saying does not say it plainly.
    #[serde(default)]
    pub meaning: Option<Text>,
}

/// A position and a line of moves from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagram {
    /// The position.
    pub fen: String,
    /// Moves from it in ICCS; for a 棋例 example, one turn of the repeated cycle.
    #[serde(default)]
    pub line: Vec<String>,
    /// What to look at.
    #[serde(default)]
    pub caption: Option<Text>,
    /// For a 棋例 example: what the rules make of the cycle, as the text states it.
    #[serde(default)]
    pub verdict: Option<Verdict>,
    /// How the line ends, where the text claims it (a mate, no move left …).
    #[serde(default)]
    pub ends: Option<LineEnd>,
}

/// What the last move of a line does, as the text claims it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineEnd {
    /// The side to move at the end is in check.
    Check,
    /// The side to move at the end is checkmated.
    Checkmate,
    /// The side to move at the end is not in check and has no legal move (困毙).
    NoMove,
    /// The last move threatens mate (杀), as the repetition rules define it.
    MateThreat,
}

/// How a repeated cycle is judged: each side's conduct, in the rules core's terms (RON:
/// `PerpetualCheck`, `Allowed`, or `Forbidden(PerpetualChase)` and the other
/// [`ForbiddenKind`](crate::ForbiddenKind)s), and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// What Red's moves amount to.
    pub red: Conduct,
    /// What Black's moves amount to.
    pub black: Conduct,
    /// The result of the cycle.
    pub result: ExpectedResult,
}

/// The result of a judged cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExpectedResult {
    /// Red wins (Black must deviate or lose).
    RedWins,
    /// Black wins (Red must deviate or lose).
    BlackWins,
    /// A draw.
    Draw,
}

impl ExpectedResult {
    /// The name for an outcome.
    pub fn of(outcome: crate::Outcome) -> ExpectedResult {
        match outcome.winner {
            Some(crate::Color::Red) => ExpectedResult::RedWins,
            Some(crate::Color::Black) => ExpectedResult::BlackWins,
            None => ExpectedResult::Draw,
        }
    }
}

impl Diagram {
    /// The position and its line, each move checked legal.
    pub fn replay(&self) -> Result<(Position, Vec<Move>), String> {
        crate::library::replay_line(&self.fen, &self.line)
    }

    /// The positions along the line, the start first (as far as the line is legal).
    pub fn positions(&self) -> Vec<Position> {
        let Ok((start, moves)) = self.replay() else {
            return Vec::new();
        };
        let mut out = vec![start];
        for m in moves {
            let next = out[out.len() - 1].play(m).expect("replayed");
            out.push(next);
        }
        out
    }
}

/// The reference text is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnowledgeError {
    /// The category file.
    pub file: String,
    /// Line (1-based) where reading failed, 0 when the problem is not at one place.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for KnowledgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "knowledge/{}, line {}: {}",
                self.file, self.line, self.message
            )
        } else {
            write!(f, "knowledge/{}: {}", self.file, self.message)
        }
    }
}

impl std::error::Error for KnowledgeError {}

/// Reads one category file, checking that every FEN is a legal position and every line is
/// made of legal moves.
pub fn parse(file: &str, text: &str) -> Result<Category, KnowledgeError> {
    let category: Category = ron::from_str(text).map_err(|e| KnowledgeError {
        file: file.to_owned(),
        line: e.span.start.line,
        message: e.code.to_string(),
    })?;
    for entry in &category.entries {
        for (i, diagram) in entry.diagrams.iter().enumerate() {
            diagram.replay().map_err(|message| KnowledgeError {
                file: file.to_owned(),
                line: 0,
                message: format!("{} diagram {}: {message}", entry.id, i + 1),
            })?;
        }
    }
    Ok(category)
}

/// The built-in reference, read once.
pub fn builtin() -> Result<&'static [Category], KnowledgeError> {
    static BUILTIN: OnceLock<Result<Vec<Category>, KnowledgeError>> = OnceLock::new();
    BUILTIN
        .get_or_init(|| {
            SOURCES
                .iter()
                .map(|(file, text)| parse(file, text))
                .collect()
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// The entry with this id, with its category.
pub fn entry(id: &str) -> Option<(&'static Category, &'static Entry)> {
    builtin()
        .ok()?
        .iter()
        .find_map(|c| c.entries.iter().find(|e| e.id == id).map(|e| (c, e)))
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A knowledge entry, by its id.
    Entry(String),
    /// A node of the opening tree, by its id.
    Opening(usize),
    /// One of the 36 checkmate patterns.
    Pattern(patterns::PatternId),
}

/// How well a hit matches: the name exactly, the name begins with the query, the name
/// contains it, or only the text does. Lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    Prefix,
    Name,
    Text,
}

/// Everything in the reference, the opening tree and the pattern library that matches
/// `query` in any of the three languages, best matches first. Every word of the query must
/// match; Chinese matches across the two scripts (a simplified query finds traditional
/// text and the other way round) and English ignores case. An empty query finds nothing.
pub fn search(query: &str) -> Vec<Hit> {
    let words: Vec<String> = query.split_whitespace().map(fold).collect();
    if words.is_empty() {
        return Vec::new();
    }
    let whole = words.join(" ");
    let mut hits: Vec<(Rank, usize, Hit)> = Vec::new();
    for (order, item) in search_index().iter().enumerate() {
        let in_any = |w: &str| item.names.iter().chain(&item.texts).any(|s| s.contains(w));
        if !words.iter().all(|w| in_any(w)) {
            continue;
        }
        let names = &item.names;
        let rank = if names.contains(&whole) {
            Rank::Exact
        } else if names.iter().any(|n| n.starts_with(&whole)) {
            Rank::Prefix
        } else if words
            .iter()
            .all(|w| names.iter().any(|n| n.contains(w.as_str())))
        {
            Rank::Name
        } else {
            Rank::Text
        };
        hits.push((rank, order, item.hit.clone()));
    }
    hits.sort_by_key(|(rank, order, _)| (*rank, *order));
    hits.into_iter().map(|(_, _, hit)| hit).collect()
}

/// One searchable thing, its names and texts already folded.
struct Searchable {
    names: Vec<String>,
    texts: Vec<String>,
    hit: Hit,
}

/// Everything the search looks through, folded once: knowledge entries in reading order,
/// then the opening tree, then the patterns.
fn search_index() -> &'static [Searchable] {
    static INDEX: OnceLock<Vec<Searchable>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = Vec::new();
        let mut add = |names: &[&str], texts: &[&str], hit: Hit| {
            index.push(Searchable {
                names: names.iter().map(|n| fold(n)).collect(),
                texts: texts.iter().map(|t| fold(t)).collect(),
                hit,
            });
        };
        for category in builtin().unwrap_or_default() {
            for entry in &category.entries {
                let names = [&*entry.names.zh_cn, &*entry.names.zh_tw, &*entry.names.en];
                let mut texts = vec![&*entry.text.zh, &*entry.text.zh_tw, &*entry.text.en];
                for item in &entry.items {
                    texts.extend([&*item.saying.zh, &*item.saying.zh_tw, &*item.saying.en]);
                    if let Some(m) = &item.meaning {
                        texts.extend([&*m.zh, &*m.zh_tw, &*m.en]);
                    }
                }
                add(&names, &texts, Hit::Entry(entry.id.clone()));
            }
        }
        if let Ok(book) = openings::builtin() {
            // The root is the tree itself, not an opening.
            for node in book.nodes.iter().skip(1) {
                let n = &node.names;
                let mut names = vec![&*n.zh_cn, &*n.zh_tw, &*n.en];
                if let Some(code) = &node.ecco {
                    names.push(code);
                }
                add(&names, &[], Hit::Opening(node.id));
            }
        }
        if let Ok(library) = patterns::library() {
            for p in library {
                let mut names = vec![&*p.names.zh_cn, &*p.names.zh_tw, &*p.names.en];
                if let Some(a) = &p.alias {
                    names.extend([&*a.zh_cn, &*a.zh_tw, &*a.en]);
                }
                let d = &p.definition;
                add(&names, &[&d.zh, &d.zh_tw, &d.en], Hit::Pattern(p.id));
            }
        }
        index
    })
}

/// Text made comparable: lower case, traditional characters read as simplified.
pub fn fold(text: &str) -> String {
    let table = script_table();
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| table.get(&c).copied().unwrap_or(c))
        .collect()
}

/// Traditional → simplified for every character the app's own texts write differently in
/// the two scripts. The table is learnt from the content itself: the zh-CN and zh-TW forms
/// of every name and text were written (converted) character for character, so where two
/// forms have the same length, the characters that differ pair up. That covers every word
/// the search can find, without shipping a conversion dictionary.
fn script_table() -> &'static HashMap<char, char> {
    static TABLE: OnceLock<HashMap<char, char>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = HashMap::new();
        let mut learn = |simplified: &str, traditional: &str| {
            if simplified.chars().count() != traditional.chars().count() {
                return;
            }
            for (s, t) in simplified.chars().zip(traditional.chars()) {
                if s != t && !s.is_ascii() && !t.is_ascii() {
                    table.entry(t).or_insert(s);
                }
            }
        };
        for category in builtin().unwrap_or_default() {
            learn(&category.names.zh_cn, &category.names.zh_tw);
            for entry in &category.entries {
                learn(&entry.names.zh_cn, &entry.names.zh_tw);
                learn(&entry.text.zh, &entry.text.zh_tw);
                for item in &entry.items {
                    learn(&item.saying.zh, &item.saying.zh_tw);
                    if let Some(m) = &item.meaning {
                        learn(&m.zh, &m.zh_tw);
                    }
                }
            }
        }
        if let Ok(book) = openings::builtin() {
            for node in &book.nodes {
                learn(&node.names.zh_cn, &node.names.zh_tw);
            }
        }
        if let Ok(library) = patterns::library() {
            for p in library {
                learn(&p.names.zh_cn, &p.names.zh_tw);
                learn(&p.definition.zh, &p.definition.zh_tw);
                if let Some(n) = &p.notes {
                    learn(&n.zh, &n.zh_tw);
                }
            }
        }
        table
    })
}
