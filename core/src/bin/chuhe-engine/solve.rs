//! `chuhe-engine solve`: the mate prover on the command line.
//!
//! ```text
//! chuhe-engine solve --fen FEN --mate N [--json] [--checks-only | --quiet-moves Q] [--time-limit SECONDS] [--table-bits B]
//! chuhe-engine solve --wukong FILE --mate N [--checks-only | --quiet-moves Q] [--time-limit SECONDS] [--table-bits B]
//! chuhe-engine solve --fens FILE --mate N [--checks-only | --quiet-moves Q] [--time-limit SECONDS] [--table-bits B]
//! chuhe-engine solve (--wukong FILE | --fens FILE) --pns [--time-limit SECONDS]
//! ```
//!
//! One position prints the verdict, the main line in Chinese and ICCS, every winning first
//! move, the duals, nodes and time; `--json` prints one object instead. The batch modes
//! solve every position of a wukong puzzle file (JSON: an array of objects with `id`, `fen`
//! and `title` "Mate in N move(s)") or of a FEN list (one FEN per line, or PGN-style
//! `[FEN "…"]` tags), one line per position, then the distribution of solve times, how
//! many were solved within 1 s, 5 s and the time limit (which bounds each position's
//! solve), the slowest ten, the same counts by each position's CPU time where the system
//! tells it (on a shared machine the wall clock also counts the neighbours' work) and, for
//! wukong, the labels that are wrong. `--pns` runs the
//! proof-number search for mates by consecutive checks on a batch instead (see
//! [`chuhe_core::solver::pns`]).
//!
//! The solver's benchmark figures come from (release build, from the workspace root):
//!
//! ```text
//! chuhe-engine solve --wukong ../shared/data/puzzles/wukong_mates_public.json --mate 3
//! chuhe-engine solve --fens ../shared/data/puzzles/shiqingyaqu551.fen --mate 60 --checks-only --time-limit 60
//! chuhe-engine solve --fens ../shared/data/puzzles/shiqingyaqu551.fen --pns --time-limit 60
//! ```

use chuhe_core::notation::{Notation, format_move};
use chuhe_core::solver::files::{Puzzle, read_fen_list, read_wukong};
use chuhe_core::solver::{
    DEFAULT_TABLE_BITS, MAX_MOVES, Solution, SolveOptions, Solver, Verdict, pns,
};
use chuhe_core::{Move, Position};
use std::io::Write;
use std::time::Duration;

/// The usage lines of the subcommand.
const USAGE: &str =
    "chuhe-engine solve --fen FEN --mate N [--json] [--checks-only | --quiet-moves Q] [--time-limit S] [--table-bits B]
                                       prove the shortest mate within N moves, exactly
       chuhe-engine solve (--wukong FILE | --fens FILE) --mate N [--checks-only | --quiet-moves Q] [--time-limit S]
                                       solve a puzzle file, print the time distribution";

enum Input {
    Fen(String),
    Wukong(String),
    Fens(String),
}

struct Args {
    input: Input,
    opts: SolveOptions,
    json: bool,
    table_bits: u32,
    pns: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut input = None;
    let mut mate = None;
    let mut json = false;
    let mut quiet_moves = None;
    let mut time_limit = None;
    let mut table_bits = DEFAULT_TABLE_BITS;
    let mut pns = false;
    let mut i = 0;
    let value = |i: usize, name: &str| {
        args.get(i + 1)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))
    };
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                // A FEN has spaces; take the words up to the next option.
                let words: Vec<&str> = args[i + 1..]
                    .iter()
                    .take_while(|a| !a.starts_with("--"))
                    .map(String::as_str)
                    .collect();
                if words.is_empty() {
                    return Err("--fen needs a FEN".into());
                }
                i += words.len();
                input = Some(Input::Fen(words.join(" ")));
            }
            "--wukong" => {
                input = Some(Input::Wukong(value(i, "--wukong")?));
                i += 1;
            }
            "--fens" => {
                input = Some(Input::Fens(value(i, "--fens")?));
                i += 1;
            }
            "--mate" => {
                let v = value(i, "--mate")?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--mate {v:?} is not a number"))?;
                if n == 0 || n > MAX_MOVES {
                    return Err(format!("--mate must be 1 to {}", MAX_MOVES));
                }
                mate = Some(n);
                i += 1;
            }
            "--time-limit" => {
                let v = value(i, "--time-limit")?;
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("--time-limit {v:?} is not a positive number"))?;
                time_limit = Some(Duration::from_secs_f64(s));
                i += 1;
            }
            "--table-bits" => {
                let v = value(i, "--table-bits")?;
                table_bits = v
                    .parse()
                    .ok()
                    .filter(|b| (10..=30).contains(b))
                    .ok_or_else(|| format!("--table-bits {v:?} is not a number from 10 to 30"))?;
                i += 1;
            }
            "--json" => json = true,
            "--pns" => pns = true,
            "--checks-only" => quiet_moves = Some(0),
            "--quiet-moves" => {
                let v = value(i, "--quiet-moves")?;
                quiet_moves = Some(
                    v.parse()
                        .map_err(|_| format!("--quiet-moves {v:?} is not a number"))?,
                );
                i += 1;
            }
            other => return Err(format!("solve: unknown argument {other:?}\nusage: {USAGE}")),
        }
        i += 1;
    }
    let input =
        input.ok_or_else(|| format!("solve needs --fen, --wukong or --fens\nusage: {USAGE}"))?;
    // The proof-number search has no depth bound.
    let max_moves = mate
        .or(pns.then_some(MAX_MOVES))
        .ok_or_else(|| format!("solve needs --mate N\nusage: {USAGE}"))?;
    Ok(Args {
        input,
        opts: SolveOptions {
            max_moves,
            quiet_moves,
            time_limit,
        },
        json,
        table_bits,
        pns,
    })
}

/// Runs `chuhe-engine solve` with `args` (the words after `solve`), writing to `out`.
pub fn command(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let args = parse_args(args)?;
    let io = |e: std::io::Error| e.to_string();
    match &args.input {
        Input::Fen(_) if args.pns => Err("--pns works on a batch (--wukong or --fens)".into()),
        Input::Fen(fen) => {
            let pos: Position = fen.parse().map_err(|e| format!("--fen {fen:?}: {e}"))?;
            warn_composed("", &pos);
            let solution = Solver::new(args.table_bits).solve(&pos, &args.opts);
            let text = if args.json {
                to_json(&pos.to_string(), &solution) + "\n"
            } else {
                to_text(&pos, &args.opts, &solution)
            };
            out.write_all(text.as_bytes()).map_err(io)
        }
        Input::Wukong(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let puzzles = read_wukong(&text).map_err(|e| format!("{path}: {e}"))?;
            if args.pns {
                pns_batch(&puzzles, &args.opts, out).map_err(io)
            } else {
                batch(&puzzles, &args.opts, args.table_bits, out).map_err(io)
            }
        }
        Input::Fens(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            if args.pns {
                pns_batch(&read_fen_list(&text), &args.opts, out).map_err(io)
            } else {
                batch(&read_fen_list(&text), &args.opts, args.table_bits, out).map_err(io)
            }
        }
    }
}

/// Placements no game reaches are a composer's right: they are solved, and said on stderr
/// only, so the report (and the JSON object) on stdout keeps its form. `id` names the
/// puzzle of a batch (empty for a single FEN).
fn warn_composed(id: &str, pos: &Position) {
    let id = if id.is_empty() {
        String::new()
    } else {
        format!("{id}: ")
    };
    for warning in pos.to_setup().warnings() {
        eprintln!("warning: {id}{warning} (accepted as a composed position)");
    }
}

/// The solution as text: verdict, line (Chinese and ICCS), first moves, duals, nodes, time.
fn to_text(pos: &Position, opts: &SolveOptions, s: &Solution) -> String {
    let mut t = format!("fen: {pos}\n");
    let within = match opts.quiet_moves {
        None => opts.max_moves.to_string(),
        Some(0) => format!("{} (checks only)", opts.max_moves),
        Some(q) => format!("{} (at most {q} quiet moves)", opts.max_moves),
    };
    match s.verdict {
        Verdict::Mate(k) => t += &format!("mate in {k}\n"),
        Verdict::NoMate => t += &format!("no mate within {within}\n"),
        Verdict::Unknown { searched } => {
            t += &format!("unknown: time limit reached; no mate within {searched}\n")
        }
    }
    if !s.line.is_empty() {
        let mut p = pos.clone();
        let mut chinese = Vec::new();
        for (i, &m) in s.line.iter().enumerate() {
            let word = format_move(&p, m, Notation::Chinese);
            chinese.push(if i % 2 == 0 {
                format!("{}. {word}", i / 2 + 1)
            } else {
                word
            });
            p.play_unchecked(m);
        }
        t += &format!("line: {}\n", chinese.join(" "));
        t += &format!("line (ICCS): {}\n", iccs_list(&s.line).join(" "));
        if !s.line_complete {
            t += "line incomplete: the time limit stopped its read-out after the proof\n";
        }
        let firsts: Vec<String> = s
            .first_moves
            .iter()
            .map(|&m| format!("{m} {}", format_move(pos, m, Notation::Chinese)))
            .collect();
        let cooked = if s.is_cooked() { " (cooked)" } else { "" };
        t += &format!("first moves{cooked}: {}\n", firsts.join(", "));
        if !s.cooks_complete {
            t += "cooks incomplete: the time limit stopped the search for other winning moves\n";
        }
        let mut p = pos.clone();
        for (i, &m) in s.line.iter().enumerate() {
            if i % 2 == 0
                && let Some(duals) = s.duals.get(i / 2)
                && !duals.is_empty()
            {
                t += &format!(
                    "duals at move {}: {}\n",
                    i / 2 + 1,
                    iccs_list(duals).join(" ")
                );
            }
            p.play_unchecked(m);
        }
    }
    t += &format!("nodes: {}\ntime: {} ms\n", s.nodes, s.elapsed.as_millis());
    t
}

fn iccs_list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The `--json` object: `fen`, `mate_in` (number or null), `first_moves` and `line`
/// (arrays of ICCS), `nodes`, `ms`; and `"cooks_complete": false` when the time limit
/// stopped the search for other winning moves, `"line_complete": false` when it stopped
/// the line's read-out (each absent otherwise, so the contract holds).
fn to_json(fen: &str, s: &Solution) -> String {
    let array = |moves: &[Move]| {
        let items: Vec<String> = moves.iter().map(|m| json_string(&m.to_string())).collect();
        format!("[{}]", items.join(","))
    };
    let mate_in = s
        .mate_in()
        .map_or_else(|| "null".to_string(), |k| k.to_string());
    let cooks = if s.cooks_complete {
        ""
    } else {
        ",\"cooks_complete\":false"
    };
    let line = if s.line_complete {
        ""
    } else {
        ",\"line_complete\":false"
    };
    format!(
        "{{\"fen\":{},\"mate_in\":{mate_in},\"first_moves\":{},\"line\":{},\"nodes\":{},\"ms\":{}{cooks}{line}}}",
        json_string(fen),
        array(&s.first_moves),
        array(&s.line),
        s.nodes,
        s.elapsed.as_millis()
    )
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The tree-node limit of `--pns` (about 24 bytes each).
const PNS_MAX_NODES: usize = 40_000_000;

/// `--fens FILE --pns`: proof-number search for mates by consecutive checks, each position
/// until proved, disproved, or the time limit (60 s if none is given).
fn pns_batch(puzzles: &[Puzzle], opts: &SolveOptions, out: &mut dyn Write) -> std::io::Result<()> {
    let limit = opts.time_limit.unwrap_or(Duration::from_secs(60));
    let (mut proved, mut disproved, mut open) = (0, 0, 0);
    let mut wall = Vec::new();
    for p in puzzles {
        let Ok(pos) = p.fen.parse::<Position>() else {
            writeln!(out, "{}\tbad FEN", p.id)?;
            continue;
        };
        warn_composed(&p.id, &pos);
        let r = pns::prove_checks_only(&pos, limit, PNS_MAX_NODES);
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        let verdict = match (r.mate_in, r.disproved) {
            (Some(k), _) => {
                proved += 1;
                wall.push(ms);
                format!("mate in at most {k}")
            }
            (None, true) => {
                disproved += 1;
                "no mate by checks".to_string()
            }
            (None, false) => {
                open += 1;
                "unknown".to_string()
            }
        };
        let first = r.first_move.map_or(String::new(), |m| m.to_string());
        writeln!(
            out,
            "{}\t{verdict}\t{ms:.2} ms\t{} nodes\t{first}",
            p.id, r.nodes
        )?;
    }
    writeln!(
        out,
        "positions: {}; proved: {proved}; no mate by checks: {disproved}; unknown: {open}",
        puzzles.len()
    )?;
    if !wall.is_empty() {
        writeln!(out, "wall ms, proved: {}", distribution(&mut wall))?;
    }
    Ok(())
}

/// Median, p90, p99, max, how many over 100 ms, and the total of `times` (sorted here).
fn distribution(times: &mut [f64]) -> String {
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}; over 100 ms: {} of {}; total {:.0}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0),
        times.iter().filter(|&&t| t > 100.0).count(),
        times.len(),
        times.iter().sum::<f64>()
    )
}

/// One position of a batch, for the summary.
struct Outcome<'a> {
    id: &'a str,
    verdict: String,
    /// Wall-clock seconds of the whole solve, read-out included (what the limit bounds).
    secs: f64,
    /// This thread's CPU seconds for it, where the system tells: on a shared machine the
    /// wall clock also counts the neighbours' work.
    cpu_secs: Option<f64>,
    mate: bool,
    /// Whether the read-out after the proof (the line, every winning first move and the
    /// duals) finished: a composer's proof is the whole answer, so a mate whose read-out
    /// the limit cut is not counted solved.
    complete: bool,
}

/// How many positions a mate was proved in, with its whole read-out, within 1 s, 5 s
/// (those below the limit) and the time limit (without one: in all), and how many were
/// not solved, `bad_fen` of them because their FEN could not be read and, said apart,
/// those whose mate was proved but whose read-out the limit cut.
fn solved_within(outcomes: &[Outcome], limit: Option<Duration>, bad_fen: usize) -> String {
    solved_within_by(outcomes, limit, bad_fen, |o| o.secs)
}

/// [`solved_within`] with each position's time as `secs` gives it (a mate proved is
/// counted within the limit whatever that says: the wall clock bounds the solve).
fn solved_within_by(
    outcomes: &[Outcome],
    limit: Option<Duration>,
    bad_fen: usize,
    secs: impl Fn(&Outcome) -> f64,
) -> String {
    let solved_one = |o: &&Outcome| o.mate && o.complete;
    let within = |s: f64| {
        outcomes
            .iter()
            .filter(solved_one)
            .filter(|o| secs(o) <= s)
            .count()
    };
    let limit = limit.map(|l| l.as_secs_f64());
    let mut parts: Vec<String> = [1.0, 5.0]
        .into_iter()
        .filter(|&secs| limit.is_none_or(|l| secs < l))
        .map(|secs| format!("within {secs} s: {}", within(secs)))
        .collect();
    let solved = outcomes.iter().filter(solved_one).count();
    parts.push(match limit {
        Some(l) => format!("within the limit ({l} s): {solved}"),
        None => format!("in all: {solved}"),
    });
    let cut = outcomes.iter().filter(|o| o.mate && !o.complete).count();
    let cut = if cut > 0 {
        format!(" ({cut} of them proved, the read-out cut by the limit)")
    } else {
        String::new()
    };
    format!(
        "solved {}; not solved: {}{cut}",
        parts.join("; "),
        outcomes.len() - solved + bad_fen
    )
}

/// The CPU time this thread has used, in nanoseconds, where Linux reports it: the machine
/// a benchmark runs on may be shared, and wall-clock time then measures the neighbours.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Solves every puzzle, one line each (the time shown is CPU time where known), then the
/// summary.
fn batch(
    puzzles: &[Puzzle],
    opts: &SolveOptions,
    table_bits: u32,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut solver = Solver::new(table_bits);
    // Wall-clock and, where the system tells, CPU milliseconds per position: all of them,
    // and those proved mates.
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let mut wall_mates = Vec::new();
    let mut cpu_mates = Vec::new();
    let mut by_length = vec![0usize; opts.max_moves as usize + 1];
    let (mut no_mate, mut unknown, mut bad_fen) = (0, 0, 0);
    let mut wrong = Vec::new();
    let mut nodes = 0u64;
    let mut outcomes = Vec::new();
    for p in puzzles {
        let pos: Position = match p.fen.parse() {
            Ok(pos) => pos,
            Err(e) => {
                writeln!(out, "{}\tbad FEN: {e}", p.id)?;
                bad_fen += 1;
                continue;
            }
        };
        warn_composed(&p.id, &pos);
        let cpu_start = thread_cpu_ns();
        let s = solver.solve(&pos, opts);
        let cpu_ms = thread_cpu_ns()
            .zip(cpu_start)
            .map(|(end, start)| end.saturating_sub(start) as f64 / 1e6);
        let ms = s.elapsed.as_secs_f64() * 1000.0;
        wall.push(ms);
        cpu.extend(cpu_ms);
        if s.mate_in().is_some() {
            wall_mates.push(ms);
            cpu_mates.extend(cpu_ms);
        }
        nodes += s.nodes;
        let verdict = match s.verdict {
            Verdict::Mate(k) => {
                by_length[k as usize] += 1;
                format!("mate {k}")
            }
            Verdict::NoMate => {
                no_mate += 1;
                format!("none<={}", opts.max_moves)
            }
            Verdict::Unknown { searched } => {
                unknown += 1;
                format!("unknown>{searched}")
            }
        };
        let claim = p.claimed.map_or("?".to_string(), |c| c.to_string());
        // A claim is wrong when the proved shortest mate differs, or when no mate exists
        // within a bound at least as long as the claim.
        let is_wrong = match (p.claimed, s.verdict) {
            (Some(c), Verdict::Mate(k)) => c != k,
            (Some(c), Verdict::NoMate) => c <= opts.max_moves,
            (Some(c), Verdict::Unknown { searched }) => c <= searched,
            (None, _) => false,
        };
        if is_wrong {
            wrong.push(format!("{} claimed {claim}, {verdict}", p.id));
        }
        outcomes.push(Outcome {
            id: &p.id,
            verdict: verdict.clone(),
            secs: s.elapsed.as_secs_f64(),
            cpu_secs: cpu_ms.map(|ms| ms / 1000.0),
            mate: s.mate_in().is_some(),
            complete: s.line_complete && s.cooks_complete,
        });
        // The line or the duals were cut by the limit: the line is marked as not whole.
        let more = if s.line_complete && s.cooks_complete {
            ""
        } else {
            " …"
        };
        writeln!(
            out,
            "{}\tclaimed {claim}\t{verdict}\t{:.2} ms\t{} nodes\t{}{more}",
            p.id,
            cpu_ms.unwrap_or(ms),
            s.nodes,
            iccs_list(&s.line).join(" ")
        )?;
    }
    writeln!(out, "positions: {}", puzzles.len())?;
    for (k, &n) in by_length.iter().enumerate().skip(1) {
        if n > 0 {
            writeln!(out, "mate in {k}: {n}")?;
        }
    }
    writeln!(
        out,
        "no mate within {}: {no_mate}; time limit reached: {unknown}; bad FEN: {bad_fen}",
        opts.max_moves
    )?;
    writeln!(out, "nodes: {nodes}")?;
    writeln!(
        out,
        "{}",
        solved_within(&outcomes, opts.time_limit, bad_fen)
    )?;
    outcomes.sort_by(|a, b| b.secs.total_cmp(&a.secs));
    writeln!(out, "slowest ten:")?;
    for o in outcomes.iter().take(10) {
        writeln!(out, "  {}\t{}\t{:.0} ms", o.id, o.verdict, o.secs * 1000.0)?;
    }
    if outcomes.iter().all(|o| o.cpu_secs.is_some()) {
        let cpu = solved_within_by(&outcomes, opts.time_limit, bad_fen, |o| {
            o.cpu_secs.unwrap_or(o.secs)
        });
        writeln!(out, "by CPU time: {cpu}")?;
    }
    for (what, times) in [
        ("wall ms, all", &mut wall),
        ("wall ms, mates", &mut wall_mates),
        ("cpu ms, all", &mut cpu),
        ("cpu ms, mates", &mut cpu_mates),
    ] {
        if !times.is_empty() {
            writeln!(out, "{what}: {}", distribution(times))?;
        }
    }
    writeln!(out, "wrong labels: {}", wrong.len())?;
    for w in &wrong {
        writeln!(out, "  {w}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn solve(p: &Position, n: u32) -> (Solver, Solution) {
        let mut solver = Solver::new(18);
        let s = solver.solve(p, &SolveOptions::mate_in(n));
        (solver, s)
    }

    #[test]
    fn json_output_has_the_contracted_shape() {
        let p = pos("4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1");
        let (_, s) = solve(&p, 3);
        let v: serde_json::Value = serde_json::from_str(&to_json(&p.to_string(), &s)).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = vec!["fen", "mate_in", "first_moves", "line", "nodes", "ms"];
        expected.sort();
        let mut keys_sorted = keys.clone();
        keys_sorted.sort();
        assert_eq!(keys_sorted, expected);
        assert_eq!(v["fen"], p.to_string());
        assert_eq!(v["mate_in"], 2);
        assert_eq!(v["first_moves"], serde_json::json!(["h1e1"]));
        assert_eq!(v["line"], serde_json::json!(["h1e1", "e9f9", "e1e8"]));
        assert_eq!(v["nodes"].as_u64(), Some(s.nodes));
        assert!(v["ms"].is_u64());

        let q = pos("4k4/4a4/4b4/9/9/9/9/9/7R1/3K5 w - - 0 1");
        let (_, s) = solve(&q, 2);
        let v: serde_json::Value = serde_json::from_str(&to_json(&q.to_string(), &s)).unwrap();
        assert!(v["mate_in"].is_null());
        assert_eq!(v["first_moves"], serde_json::json!([]));
        assert_eq!(v["line"], serde_json::json!([]));
        assert!(v.get("cooks_complete").is_none());
        assert!(v.get("line_complete").is_none());

        // When the time limit cut the cooks' read-out, the object says so.
        let (_, mut s) = solve(&p, 3);
        s.cooks_complete = false;
        let v: serde_json::Value = serde_json::from_str(&to_json(&p.to_string(), &s)).unwrap();
        assert_eq!(v["cooks_complete"], false);
        assert_eq!(v["line"], serde_json::json!(["h1e1", "e9f9", "e1e8"]));

        let odd = "a\"b\\c\nd\u{1}e 楚";
        let back: String = serde_json::from_str(&json_string(odd)).unwrap();
        assert_eq!(back, odd);
    }

    #[test]
    fn a_time_limit_after_the_proof_gives_the_first_move_and_says_the_line_is_cut() {
        let p = pos("4k4/4a4/9/9/9/9/9/9/7R1/3K5 w - - 0 1");
        let (_, full) = solve(&p, 3);
        assert!(full.line_complete);
        assert!(!to_text(&p, &SolveOptions::mate_in(3), &full).contains("incomplete"));
        // The node limit stops the solve as the clock would, at the same point every run:
        // the smallest that lets the proof finish leaves the read-out no time.
        let stopped = |limit| {
            let mut solver = Solver::new(18);
            solver.set_node_limit(Some(limit));
            solver.solve(&p, &SolveOptions::mate_in(3))
        };
        let limit = (0..=full.nodes)
            .find(|&n| stopped(n).mate_in().is_some())
            .unwrap();
        let s = stopped(limit);
        assert!(!s.line_complete);
        let v: serde_json::Value = serde_json::from_str(&to_json(&p.to_string(), &s)).unwrap();
        assert_eq!(v["mate_in"], 2);
        assert_eq!(v["first_moves"], serde_json::json!(["h1e1"]));
        assert_eq!(v["line"][0], "h1e1");
        assert!(v["line"].as_array().unwrap().len() < 3);
        assert_eq!(v["line_complete"], false);
        assert_eq!(v["cooks_complete"], false);
        let text = to_text(&p, &SolveOptions::mate_in(3), &s);
        assert!(text.contains("mate in 2\n"), "{text}");
        assert!(text.contains("first moves: h1e1 车二平五\n"), "{text}");
        assert!(text.contains("line incomplete: "), "{text}");
    }

    #[test]
    fn the_batch_summary_counts_the_solved_by_time() {
        let outcome = |secs, mate| Outcome {
            id: "",
            verdict: String::new(),
            secs,
            cpu_secs: None,
            mate,
            complete: true,
        };
        let outcomes = [
            outcome(0.5, true),
            outcome(1.0, true),
            outcome(3.0, true),
            outcome(10.0, true),
            outcome(20.0, false),
            outcome(0.1, false),
        ];
        assert_eq!(
            solved_within(&outcomes, Some(Duration::from_secs(20)), 2),
            "solved within 1 s: 2; within 5 s: 3; within the limit (20 s): 4; not solved: 4"
        );
        // A limit of 2.5 s: the mate at 3 s was proved just as it passed.
        assert_eq!(
            solved_within(&outcomes[..3], Some(Duration::from_secs_f64(2.5)), 0),
            "solved within 1 s: 2; within the limit (2.5 s): 3; not solved: 0"
        );
        assert_eq!(
            solved_within(&outcomes, None, 0),
            "solved within 1 s: 2; within 5 s: 3; in all: 4; not solved: 2"
        );
        // By CPU time: the mates at 3 s and 10 s of the wall clock took 0.8 s and 4 s of a
        // core on a busy machine.
        let cpu = [0.5, 1.0, 0.8, 4.0, 20.0, 0.1];
        let busy: Vec<Outcome> = outcomes
            .into_iter()
            .zip(cpu)
            .map(|(o, c)| Outcome {
                cpu_secs: Some(c),
                ..o
            })
            .collect();
        assert_eq!(
            solved_within_by(&busy, Some(Duration::from_secs(20)), 2, |o| o
                .cpu_secs
                .unwrap()),
            "solved within 1 s: 3; within 5 s: 4; within the limit (20 s): 4; not solved: 4"
        );
    }

    #[test]
    fn a_mate_whose_read_out_was_cut_is_not_counted_solved() {
        let outcome = |secs, complete| Outcome {
            id: "",
            verdict: String::new(),
            secs,
            cpu_secs: None,
            mate: true,
            complete,
        };
        let outcomes = [
            outcome(0.5, true),
            outcome(0.7, false),
            outcome(20.0, false),
        ];
        assert_eq!(
            solved_within(&outcomes, Some(Duration::from_secs(20)), 0),
            "solved within 1 s: 1; within 5 s: 1; within the limit (20 s): 1; \
             not solved: 2 (2 of them proved, the read-out cut by the limit)"
        );
    }
}
