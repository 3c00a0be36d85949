//! The app's layers, checked from its source text: which module may name which (state is
//! plain data, panels only draw and push actions, commands alone change the state,
//! services do the threads and I/O), and no chain of references that leads from one
//! feature back into another. The crate's own docs (lib.rs) state these rules; this test
//! keeps them true as the code changes.
//!
//! A reference is a path the code names inside the crate: `use crate::a::b`, `crate::a::b`
//! in an expression or type, `super::x` and `self::x` (resolved against the module the
//! text is in, inline `mod tests { .. }` included), the leaves of `use` groups (over several
//! lines too), and later uses of a name that such a `use` imported. A name that a module
//! re-exports (`pub use crate::widgets::View` in panels/mod.rs) is followed to where it is
//! defined, and both the re-exporting module and the defining one count as referred to.
//! Comments and string literals are skipped. A parent's calls into its own child modules
//! (`menu::show()` in panels/mod.rs) are how the module tree is built, not references.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

#[test]
fn each_layer_refers_only_to_the_layers_below_it() {
    let files = read_sources();
    let parsed = Crate::parse(&files);
    // A checker that sees nothing would pass any tree: make sure it saw each layer's imports.
    for layer in [
        "panels", "state", "commands", "services", "actions", "widgets",
    ] {
        let seen = parsed
            .files
            .iter()
            .filter(|f| layer_of(&f.path) == layer)
            .map(|f| f.refs.len())
            .sum::<usize>();
        assert!(
            seen > 0,
            "no references found in {layer}/: the checker reads nothing"
        );
    }
    let violations = parsed.violations();
    assert!(
        violations.is_empty(),
        "{} reference(s) break the app's layering:\n{}",
        violations.len(),
        list(&violations)
    );
}

#[test]
fn no_cycle_of_references_spans_two_features() {
    let files = read_sources();
    let cycles = Crate::parse(&files).cross_feature_cycles();
    assert!(
        cycles.is_empty(),
        "files of different features refer to each other in a cycle:\n{}",
        list(&cycles)
    );
}

#[test]
fn commands_neither_dispatch_nor_touch_files() {
    let found = dispatch_and_io(&read_sources());
    assert!(
        found.is_empty(),
        "commands must push follow-up actions and leave file I/O to the services:\n{}",
        found.join("\n")
    );
}

/// The check above, on made-up command files: it finds each fault, and nothing in
/// comments, strings, other layers or the dispatcher's own file.
#[test]
fn the_dispatch_and_io_check_finds_the_faults_of_made_up_commands() {
    let files = [
        (
            "commands/mod.rs",
            "fn run(&mut self) {}\nfn g(&mut self) { self.run(a); }\n",
        ),
        (
            "commands/play.rs",
            "// self.run(a) and std::fs::write are only named here\n\
             fn f(&mut self) {\n    let _ = \"std::fs::read\";\n    self.push(a);\n    \
             self.run(b);\n    std::fs::remove_file(p);\n}\n",
        ),
        (
            "commands/files.rs",
            "use std::fs;\nfn h() { fs::write(p, t); write_atomically(p, t); File::open(p); }\n",
        ),
        ("services/files.rs", "fn s() { std::fs::write(p, t); }\n"),
    ];
    let files = made_up(&files);
    assert_eq!(
        dispatch_and_io(&files),
        [
            "commands/play.rs:5: self.run (a command calls the dispatcher)",
            "commands/play.rs:6: std::fs (file I/O in a command)",
            "commands/files.rs:1: std::fs (file I/O in a command)",
            "commands/files.rs:2: fs:: (file I/O in a command)",
            "commands/files.rs:2: write_atomically (file I/O in a command)",
            "commands/files.rs:2: File:: (file I/O in a command)",
        ]
    );
}

/// Where a command file calls the dispatcher (`self.run`, `self.apply`) or does file I/O
/// of its own (`std::fs`, `fs::`, `File::`, `write_atomically`), as `file:line: what`.
fn dispatch_and_io(files: &[Source]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        if layer_of(&file.path) != "commands" {
            continue;
        }
        let toks = lex(&file.text);
        let word = |i: usize| ident(toks.get(i));
        for (i, (_, line)) in toks.iter().enumerate() {
            let line = *line;
            let dot = matches!(toks.get(i + 1), Some((Tok::Other('.'), _)));
            if word(i) == Some("self")
                && dot
                && matches!(word(i + 2), Some("run" | "apply"))
                && file.path != "commands/mod.rs"
            {
                found.push(format!(
                    "{}:{line}: self.{} (a command calls the dispatcher)",
                    file.path,
                    word(i + 2).unwrap()
                ));
            }
            let path_sep = matches!(toks.get(i + 1), Some((Tok::PathSep, _)));
            let what = match word(i) {
                Some("std") if path_sep && word(i + 2) == Some("fs") => Some("std::fs"),
                Some("fs") if path_sep && word(i.wrapping_sub(2)) != Some("std") => Some("fs::"),
                Some("File") if path_sep => Some("File::"),
                Some("write_atomically") => Some("write_atomically"),
                _ => None,
            };
            if let Some(what) = what {
                found.push(format!(
                    "{}:{line}: {what} (file I/O in a command)",
                    file.path
                ));
            }
        }
    }
    found
}

/// The checker itself, on a made-up tree with known faults: it must find each of them and
/// nothing else (comments, strings and allowed references are not faults).
#[test]
fn the_checker_finds_the_faults_of_a_made_up_tree() {
    let files = [
        ("lib.rs", "pub mod app;\npub use app::App;\n"),
        ("app.rs", "pub struct App;\n"),
        ("theme.rs", "use crate::widgets::text::Words;\n"),
        (
            "i18n.rs",
            "// crate::state::State is only named in a comment\n\
             const A: &str = \"crate::panels::menu\";\n\
             const B: &str = r#\"crate::commands\"#;\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> crate::theme::Theme { let _ = x; Default::default() }\n",
        ),
        (
            "panels/mod.rs",
            "pub use crate::widgets::View;\nuse crate::services;\n",
        ),
        (
            "panels/board.rs",
            "use super::View;\n\
             use crate::{\n    \
                 state::play::Play,\n    \
                 services::files::{self, matches},\n\
             };\n\
             fn f() { crate::commands::apply(); super::menu::show(); files::list(); }\n\
             mod tests {\n    use super::*;\n    fn g() { super::super::menu::show(); }\n}\n",
        ),
        ("panels/menu.rs", "pub fn show() {}\n"),
        ("widgets/mod.rs", "pub struct View;\n"),
        ("widgets/text.rs", "pub struct Words;\n"),
        ("services/mod.rs", ""),
        ("services/files.rs", "pub fn matches() {}\n"),
        ("commands/mod.rs", "pub fn apply() {}\n"),
        ("commands/play.rs", "use crate::state::play::Play;\n"),
        (
            "state/play.rs",
            "pub struct Play;\nfn f() -> crate::App { crate::commands::play::g() }\n",
        ),
        ("state/a.rs", "use super::b::B;\npub struct A;\n"),
        ("state/b.rs", "pub struct B(crate::state::a::A);\n"),
    ];
    let files = made_up(&files);
    let parsed = Crate::parse(&files);

    let found: BTreeSet<(String, usize, String)> = parsed
        .violations()
        .into_iter()
        .map(|v| (v.file, v.line, v.path))
        .collect();
    let expected: BTreeSet<(String, usize, String)> = [
        ("theme.rs", 1, "crate::widgets::text::Words"),
        ("panels/mod.rs", 2, "crate::services"),
        ("panels/board.rs", 4, "crate::services::files"),
        ("panels/board.rs", 4, "crate::services::files::matches"),
        ("panels/board.rs", 6, "crate::commands::apply"),
        ("panels/board.rs", 6, "super::menu::show"),
        ("panels/board.rs", 6, "files::list"),
        ("panels/board.rs", 9, "super::super::menu::show"),
        ("state/play.rs", 2, "crate::App"),
        ("state/play.rs", 2, "crate::commands::play::g"),
    ]
    .into_iter()
    .map(|(f, l, p)| (f.to_string(), l, p.to_string()))
    .collect();
    assert_eq!(found, expected, "\n{}", list(&parsed.violations()));

    // state/a.rs and state/b.rs (features a and b) refer to each other; commands/play.rs
    // and state/play.rs make a cycle too, but inside one feature, which is allowed.
    let cycles = parsed.cross_feature_cycles();
    assert_eq!(cycles.len(), 1, "\n{}", list(&cycles));
    assert_eq!(cycles[0].files, ["state/a.rs", "state/b.rs"]);
}

// ---------------------------------------------------------------------------------------
// The rules.

/// What a file's layer may not name, and why.
fn forbidden(layer: &str) -> (&'static [&'static str], &'static str) {
    const ALL_FEATURES: &[&str] = &[
        "state", "actions", "panels", "commands", "services", "widgets",
    ];
    match layer {
        "panels" => (
            &["commands", "services"],
            "panels only draw from the View and push actions",
        ),
        "state" => (
            &[
                "panels", "commands", "services", "actions", "widgets", "app",
            ],
            "state is plain data",
        ),
        "actions" => (
            &["panels", "commands", "services", "app"],
            "actions are a vocabulary, below what speaks it",
        ),
        "widgets" => (
            &["panels", "commands", "services", "app"],
            "widgets are shared drawing under the panels",
        ),
        "services" => (
            &["panels", "commands"],
            "services report back as actions, never through the UI or the commands",
        ),
        "i18n" | "theme" | "fonts" | "settings" | "words" => {
            (ALL_FEATURES, "foundation modules stand below every feature")
        }
        _ => (&[], ""),
    }
}

/// The feature a file belongs to: its stem within its layer (`state/play.rs` and
/// `panels/play.rs` are both `play`); a layer's mod.rs is `<layer>-root`; a top-level file
/// is its own feature.
fn feature_of(path: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        [file] => file.trim_end_matches(".rs").to_string(),
        [layer, "mod.rs"] => format!("{layer}-root"),
        [_, file, ..] => file.trim_end_matches(".rs").to_string(),
        [] => unreachable!(),
    }
}

/// A file's layer: its top-level directory, or a top-level file's stem.
fn layer_of(path: &str) -> &str {
    let first = path.split('/').next().unwrap_or(path);
    first.strip_suffix(".rs").unwrap_or(first)
}

// ---------------------------------------------------------------------------------------
// Reading the tree.

struct Source {
    /// The path under src/, with `/` separators.
    path: String,
    text: String,
}

/// Source files of a made-up tree, as (path under src/, text).
fn made_up(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

fn read_sources() -> Vec<Source> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<Source>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).unwrap();
                let relative: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(Source {
                    path: relative.join("/"),
                    text: std::fs::read_to_string(&path).unwrap(),
                });
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    assert!(
        out.len() > 20,
        "found only {} files under {}",
        out.len(),
        root.display()
    );
    out
}

/// The module path a file defines (`panels/board.rs` is `panels::board`, `panels/mod.rs`
/// is `panels`, lib.rs and main.rs the crate root).
fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap();
    match last.as_str() {
        "mod.rs" => {}
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        _ => parts.push(last.trim_end_matches(".rs").to_string()),
    }
    parts
}

// ---------------------------------------------------------------------------------------
// Tokens: just enough of Rust's lexical grammar to skip comments, strings and characters.

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other(char),
}

fn lex(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted string from its opening quote at i; returns the index after it.
    let skip_string = |mut i: usize, line: &mut usize| {
        i += 1;
        while i < c.len() && c[i] != '"' {
            if c[i] == '\\' {
                i += 1;
            }
            if at(i) == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i + 1
    };
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 1;
            i += 2;
            while i < c.len() && depth > 0 {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(i, &mut line);
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character: '\n', '\'', '\u{..}'.
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or label: its name follows as an identifier.
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::PathSep, line));
            i += 2;
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let hashes = c[i..].iter().take_while(|&&h| h == '#').count();
            if matches!(word.as_str(), "r" | "br" | "cr") && at(i + hashes) == '"' {
                // A raw string: ends at a quote followed by as many hashes.
                i += hashes + 1;
                loop {
                    if i >= c.len() {
                        break;
                    }
                    if c[i] == '"' && c[i + 1..].iter().take_while(|&&h| h == '#').count() >= hashes
                    {
                        i += hashes + 1;
                        break;
                    }
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                i = skip_string(i, &mut line);
            } else if word == "r" && hashes == 1 {
                // A raw identifier, r#type: the name is read on the next turn.
                i += 1;
            } else {
                out.push((Tok::Ident(word), line));
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else {
            out.push((
                match ch {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    ',' => Tok::Comma,
                    ';' => Tok::Semi,
                    '*' => Tok::Star,
                    other => Tok::Other(other),
                },
                line,
            ));
            i += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// References.

/// One path the code names, as written and as a path from the crate root.
#[derive(Clone, Debug)]
struct Reference {
    line: usize,
    written: String,
    absolute: Vec<String>,
}

/// One leaf of a `use` tree.
struct UseLeaf {
    segments: Vec<String>,
    line: usize,
    /// The name it brings in (none for a glob or `as _`).
    name: Option<String>,
}

fn ident(tok: Option<&(Tok, usize)>) -> Option<&str> {
    match tok {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// Reads a use tree from `i`, with the segments of the enclosing groups in `prefix`.
fn use_tree(toks: &[(Tok, usize)], i: &mut usize, prefix: &[String], out: &mut Vec<UseLeaf>) {
    let mut segments = prefix.to_vec();
    if matches!(toks.get(*i), Some((Tok::PathSep, _))) {
        // `use ::name`: another crate.
        segments.push("::".into());
        *i += 1;
    }
    loop {
        match toks.get(*i) {
            Some((Tok::Ident(name), line)) => {
                let line = *line;
                segments.push(name.clone());
                *i += 1;
                if matches!(toks.get(*i), Some((Tok::PathSep, _))) {
                    *i += 1;
                    continue;
                }
                if segments.last().is_some_and(|s| s == "self") {
                    segments.pop();
                }
                let mut name = segments.last().cloned();
                if ident(toks.get(*i)) == Some("as") {
                    name = ident(toks.get(*i + 1)).map(str::to_string);
                    *i += 2;
                }
                let name = name.filter(|n| n != "_");
                out.push(UseLeaf {
                    segments,
                    line,
                    name,
                });
                return;
            }
            Some((Tok::Star, line)) => {
                out.push(UseLeaf {
                    segments,
                    line: *line,
                    name: None,
                });
                *i += 1;
                return;
            }
            Some((Tok::Open, _)) => {
                *i += 1;
                loop {
                    let before = *i;
                    match toks.get(*i) {
                        Some((Tok::Close, _)) => {
                            *i += 1;
                            return;
                        }
                        None => return,
                        _ => use_tree(toks, i, &segments, out),
                    }
                    if matches!(toks.get(*i), Some((Tok::Comma, _))) {
                        *i += 1;
                    }
                    if *i == before {
                        return;
                    }
                }
            }
            _ => return,
        }
    }
}

/// Names brought into a module by `use`: (module, name) → path from the crate root, and
/// whether naming it is a reference (not for a parent's own child module).
type Imports = BTreeMap<(Vec<String>, String), (Vec<String>, bool)>;

/// What parsing one file gives.
struct Parsed {
    refs: Vec<Reference>,
    imports: Imports,
    /// Inline modules (`mod tests { .. }`) the file defines.
    inline_modules: Vec<Vec<String>>,
}

/// The references in one file whose module is `module`; `modules` are all the crate's
/// modules (to tell a parent's own child module, `board::f()` in panels/mod.rs).
fn parse_file(module: &[String], text: &str, modules: &BTreeSet<Vec<String>>) -> Parsed {
    let toks = lex(text);
    let mut parsed = Parsed {
        refs: Vec::new(),
        imports: BTreeMap::new(),
        inline_modules: Vec::new(),
    };
    // The inline modules open at this point, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let after_path_sep = i > 0 && matches!(toks[i - 1].0, Tok::PathSep | Tok::Other('.'));
        match &toks[i].0 {
            Tok::Open => depth += 1,
            Tok::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some(name), Some((Tok::Open, _))) =
                    (ident(toks.get(i + 1)), toks.get(i + 2))
                {
                    inline.push((name.to_string(), depth + 1));
                    let mut inner = here.clone();
                    inner.push(name.to_string());
                    parsed.inline_modules.push(inner);
                    i += 2;
                    continue;
                }
            }
            Tok::Ident(w) if w == "use" && !after_path_sep => {
                let mut leaves = Vec::new();
                i += 1;
                use_tree(&toks, &mut i, &[], &mut leaves);
                for leaf in leaves {
                    let resolved = absolute(&here, &leaf.segments, &parsed.imports, modules);
                    let Some((absolute, is_reference)) = resolved else {
                        continue;
                    };
                    if let Some(name) = leaf.name {
                        parsed
                            .imports
                            .insert((here.clone(), name), (absolute.clone(), is_reference));
                    }
                    if is_reference {
                        parsed.refs.push(Reference {
                            line: leaf.line,
                            written: leaf.segments.join("::"),
                            absolute,
                        });
                    }
                }
                continue;
            }
            Tok::Ident(_) if !after_path_sep => {
                // A path: ident (:: ident)*, up to `::<`, `::{` or the end.
                let line = toks[i].1;
                let mut segments = Vec::new();
                let mut j = i;
                while let Some(name) = ident(toks.get(j)) {
                    segments.push(name.to_string());
                    if matches!(toks.get(j + 1), Some((Tok::PathSep, _)))
                        && ident(toks.get(j + 2)).is_some()
                    {
                        j += 2;
                    } else {
                        break;
                    }
                }
                if segments.len() > 1
                    && let Some((absolute, true)) =
                        absolute(&here, &segments, &parsed.imports, modules)
                {
                    parsed.refs.push(Reference {
                        line,
                        written: segments.join("::"),
                        absolute,
                    });
                }
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    parsed
}

/// A path written in module `here` as a path from the crate root, and whether it counts as
/// a reference (a parent naming its own child module does not). None for other crates'
/// paths and local names.
fn absolute(
    here: &[String],
    segments: &[String],
    imports: &Imports,
    modules: &BTreeSet<Vec<String>>,
) -> Option<(Vec<String>, bool)> {
    let first = segments.first()?;
    match first.as_str() {
        "crate" => Some((segments[1..].to_vec(), true)),
        "self" => Some((here.iter().chain(&segments[1..]).cloned().collect(), true)),
        "super" => {
            let ups = segments.iter().take_while(|s| *s == "super").count();
            let base = here.len().checked_sub(ups)?;
            Some((
                here[..base]
                    .iter()
                    .chain(&segments[ups..])
                    .cloned()
                    .collect(),
                true,
            ))
        }
        name => {
            if let Some((target, is_reference)) = imports.get(&(here.to_vec(), name.to_string())) {
                let path = target.iter().chain(&segments[1..]).cloned().collect();
                return Some((path, *is_reference));
            }
            let mut child = here.to_vec();
            child.push(name.to_string());
            if modules.contains(&child) {
                return Some((here.iter().chain(segments).cloned().collect(), false));
            }
            None
        }
    }
}

// ---------------------------------------------------------------------------------------
// The crate as a whole.

struct File {
    path: String,
    module: Vec<String>,
    refs: Vec<Reference>,
}

struct Crate {
    files: Vec<File>,
    /// Each module (files' and inline ones) → the index of the file defining it.
    modules: BTreeMap<Vec<String>, usize>,
    /// Every `use` import in the crate: (module, name) → path from the crate root.
    imports: BTreeMap<(Vec<String>, String), Vec<String>>,
}

/// A reference that breaks a rule.
#[derive(Debug)]
struct Violation {
    file: String,
    line: usize,
    path: String,
    resolved: String,
    rule: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.path)?;
        if self.resolved != self.path {
            write!(f, " (= {})", self.resolved)?;
        }
        write!(f, ": {}", self.rule)
    }
}

/// Files of different features that refer to each other, through one another.
#[derive(Debug)]
struct Cycle {
    files: Vec<String>,
    /// The references between them: file:line → file.
    edges: Vec<String>,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let features: BTreeSet<String> = self.files.iter().map(|f| feature_of(f)).collect();
        writeln!(
            f,
            "features {}: {}",
            features.into_iter().collect::<Vec<_>>().join(", "),
            self.files.join(", ")
        )?;
        for edge in &self.edges {
            writeln!(f, "    {edge}")?;
        }
        Ok(())
    }
}

fn list<T: fmt::Display>(items: &[T]) -> String {
    items.iter().map(|i| format!("  {i}\n")).collect()
}

impl Crate {
    fn parse(sources: &[Source]) -> Crate {
        let file_modules: BTreeSet<Vec<String>> = sources
            .iter()
            .filter(|s| s.path != "main.rs")
            .map(|s| module_of(&s.path))
            .collect();
        let mut crate_ = Crate {
            files: Vec::new(),
            modules: BTreeMap::new(),
            imports: BTreeMap::new(),
        };
        for (index, source) in sources.iter().enumerate() {
            let module = module_of(&source.path);
            let parsed = parse_file(&module, &source.text, &file_modules);
            // main.rs is the binary's own crate root: it names the library as `chuhe::`.
            if source.path != "main.rs" {
                crate_.modules.insert(module.clone(), index);
                for inline in parsed.inline_modules {
                    crate_.modules.insert(inline, index);
                }
                crate_
                    .imports
                    .extend(parsed.imports.into_iter().map(|(k, (v, _))| (k, v)));
            }
            crate_.files.push(File {
                path: source.path.clone(),
                module,
                refs: parsed.refs,
            });
        }
        crate_
    }

    /// The paths a reference goes through: as written, then through each re-export to the
    /// definition; each with the file of the module it lands in.
    fn chain(&self, absolute: &[String]) -> Vec<(Vec<String>, usize)> {
        let mut out = Vec::new();
        let mut path = absolute.to_vec();
        for _ in 0..16 {
            let Some(k) = (0..=path.len())
                .rev()
                .find(|k| self.modules.contains_key(&path[..*k]))
            else {
                break;
            };
            out.push((path.clone(), self.modules[&path[..k]]));
            let Some(target) = path
                .get(k)
                .and_then(|name| self.imports.get(&(path[..k].to_vec(), name.clone())))
            else {
                break;
            };
            path = target.iter().chain(&path[k + 1..]).cloned().collect();
        }
        out
    }

    fn violations(&self) -> Vec<Violation> {
        let mut out = Vec::new();
        for file in &self.files {
            let layer = layer_of(&file.path);
            let (banned, why) = forbidden(layer);
            let mut seen = BTreeSet::new();
            for reference in &file.refs {
                for (path, _) in self.chain(&reference.absolute) {
                    let Some(top) = path.first() else { continue };
                    let is_module = self.modules.contains_key(&path[..1]);
                    let rule = if is_module && banned.contains(&top.as_str()) {
                        Some(format!("{layer} may not refer to {top} ({why})"))
                    } else if layer == "panels"
                        && file.path != "panels/mod.rs"
                        && top == "panels"
                        && path.len() > 1
                        && self.files.iter().any(|f| f.module == path[..2])
                        && !file.module.starts_with(&path[..2])
                    {
                        Some(format!(
                            "a panel may not refer to another panel ({}); shared drawing \
                             belongs in widgets/",
                            path[1]
                        ))
                    } else {
                        None
                    };
                    if let Some(rule) = rule
                        && seen.insert((reference.line, reference.written.clone()))
                    {
                        out.push(Violation {
                            file: file.path.clone(),
                            line: reference.line,
                            path: reference.written.clone(),
                            resolved: format!("crate::{}", path.join("::")),
                            rule,
                        });
                    }
                }
            }
        }
        out
    }

    /// The file-level graph's strongly connected components that hold more than one
    /// feature (Tarjan's algorithm).
    fn cross_feature_cycles(&self) -> Vec<Cycle> {
        let n = self.files.len();
        // file → (file it refers to, line)
        let mut edges: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); n];
        for (from, file) in self.files.iter().enumerate() {
            for reference in &file.refs {
                for (_, to) in self.chain(&reference.absolute) {
                    if to != from {
                        edges[from].entry(to).or_insert(reference.line);
                    }
                }
            }
        }

        struct Tarjan<'a> {
            edges: &'a [BTreeMap<usize, usize>],
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on_stack: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            components: Vec<Vec<usize>>,
        }
        impl Tarjan<'_> {
            fn visit(&mut self, v: usize) {
                self.index[v] = Some(self.next);
                self.low[v] = self.next;
                self.next += 1;
                self.stack.push(v);
                self.on_stack[v] = true;
                for &w in self.edges[v].keys() {
                    match self.index[w] {
                        None => {
                            self.visit(w);
                            self.low[v] = self.low[v].min(self.low[w]);
                        }
                        Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                        Some(_) => {}
                    }
                }
                if Some(self.low[v]) == self.index[v] {
                    let mut component = Vec::new();
                    loop {
                        let w = self.stack.pop().unwrap();
                        self.on_stack[w] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    self.components.push(component);
                }
            }
        }
        let mut tarjan = Tarjan {
            edges: &edges,
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            next: 0,
            components: Vec::new(),
        };
        for v in 0..n {
            if tarjan.index[v].is_none() {
                tarjan.visit(v);
            }
        }

        let mut out = Vec::new();
        for mut component in tarjan.components {
            let features: BTreeSet<String> = component
                .iter()
                .map(|&f| feature_of(&self.files[f].path))
                .collect();
            if features.len() < 2 {
                continue;
            }
            component.sort_by(|&a, &b| self.files[a].path.cmp(&self.files[b].path));
            let mut cycle_edges = Vec::new();
            for &from in &component {
                for (&to, &line) in &edges[from] {
                    if component.contains(&to) {
                        cycle_edges.push(format!(
                            "{}:{} → {}",
                            self.files[from].path, line, self.files[to].path
                        ));
                    }
                }
            }
            out.push(Cycle {
                files: component
                    .iter()
                    .map(|&f| self.files[f].path.clone())
                    .collect(),
                edges: cycle_edges,
            });
        }
        out.sort_by(|a, b| a.files.cmp(&b.files));
        out
    }
}
