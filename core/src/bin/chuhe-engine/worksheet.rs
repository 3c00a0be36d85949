//! `chuhe-engine worksheet`: a printable PDF worksheet from files of positions.
//!
//! ```text
//! chuhe-engine worksheet INPUT... -o OUT.pdf [--per-page N] [--title TEXT] [--no-answers]
//! ```
//!
//! Each INPUT is a FEN list (one FEN a line, optionally a tab and a title), a puzzle RON
//! file or a PGN file (see [`chuhe_core::worksheet::input`]). A position's goal and answer
//! come from the file when it gives them, else from the mate solver; the positions it
//! cannot solve are named on standard error and printed without an answer.

use chuhe_core::worksheet::input::read_path;
use chuhe_core::worksheet::{
    Layout, SolveLimits, Words, Worksheet, is_per_page, pdf, solve_missing,
};
use std::path::PathBuf;

/// The usage line of the subcommand.
const USAGE: &str =
    "chuhe-engine worksheet INPUT... -o OUT.pdf [--per-page N] [--title TEXT] [--no-answers]";

struct Args {
    inputs: Vec<PathBuf>,
    output: PathBuf,
    per_page: usize,
    title: String,
    answers: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut inputs = Vec::new();
    let mut output = None;
    let mut per_page = Layout::default().per_page;
    let mut title = None;
    let mut answers = true;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let mut value = |name: &str| {
            words
                .next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\nusage: {USAGE}"))
        };
        match arg.as_str() {
            "-o" | "--output" => output = Some(PathBuf::from(value("-o")?)),
            "--per-page" => {
                let v = value("--per-page")?;
                per_page = v
                    .parse()
                    .ok()
                    .filter(|&n| is_per_page(n))
                    .ok_or_else(|| format!("--per-page {v:?} is not 1, 2, 4, 6, 9 or 12"))?;
            }
            "--title" => title = Some(value("--title")?),
            "--no-answers" => answers = false,
            other if other.starts_with('-') && other.len() > 1 => {
                return Err(format!(
                    "worksheet: unknown option {other:?}\nusage: {USAGE}"
                ));
            }
            input => inputs.push(PathBuf::from(input)),
        }
    }
    if inputs.is_empty() {
        return Err(format!(
            "worksheet needs at least one INPUT\nusage: {USAGE}"
        ));
    }
    let output = output.ok_or_else(|| format!("worksheet needs -o OUT.pdf\nusage: {USAGE}"))?;
    Ok(Args {
        inputs,
        output,
        per_page,
        title: title.unwrap_or_else(|| "象棋习题".to_owned()),
        answers,
    })
}

pub fn command(args: &[String]) -> Result<(), String> {
    let args = parse_args(args)?;
    let mut entries = Vec::new();
    for path in &args.inputs {
        let read = read_path(path).map_err(|e| e.to_string())?;
        for skipped in read.skipped {
            eprintln!("{}: skipped {skipped}", path.display());
        }
        entries.extend(read.entries);
    }
    if args.answers {
        let unsolved = solve_missing(&mut entries, SolveLimits::default());
        for i in unsolved {
            let entry = &entries[i];
            eprintln!(
                "not solved: #{} {}{}",
                i + 1,
                entry.position,
                if entry.title.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", entry.title)
                }
            );
        }
    }
    let sheet = Worksheet {
        title: args.title,
        class: String::new(),
        date: String::new(),
        entries,
    };
    let layout = Layout {
        per_page: args.per_page,
        answers: args.answers,
        ..Layout::default()
    };
    pdf::save(&args.output, &sheet, &layout, &Words::chinese())
        .map_err(|e| format!("{}: {e}", args.output.display()))
}
