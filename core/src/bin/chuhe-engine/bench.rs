//! `chuhe-engine bench [DEPTH] [--tablebases] [--hce]`: one line per bench position, then
//! the time, the total node count and the speed (the last two lines). The search evaluates
//! with the built-in network, as the engine plays, or with the hand-written evaluation
//! with `--hce`. The endgame tables in the cache are asked only with `--tablebases`, so
//! that the node count is the same on every machine.

use chuhe_core::bench::{self, POSITIONS, Totals};
use chuhe_core::search::nnue::{self, Network};
use std::io::{self, Write};
use std::sync::Arc;

pub fn command(args: &[String]) -> Result<(), String> {
    let tablebases = args.iter().any(|a| a == "--tablebases");
    let hce = args.iter().any(|a| a == "--hce");
    let depth = match args.iter().find(|a| !a.starts_with("--")) {
        Some(d) => d
            .parse()
            .map_err(|_| format!("bench depth {d:?} is not a number"))?,
        None => bench::DEFAULT_DEPTH,
    };
    if let Some(other) = args
        .iter()
        .find(|a| a.starts_with("--") && *a != "--tablebases" && *a != "--hce")
    {
        return Err(format!("bench: unknown option {other:?}"));
    }
    let network = (!hce).then(nnue::embedded);
    print(depth, tablebases, network, &mut io::stdout().lock()).map_err(|e| e.to_string())?;
    Ok(())
}

/// Runs the bench to `depth`, evaluating with `network` (the hand-written evaluation
/// without), writing its report to `out`.
fn print(
    depth: u32,
    tablebases: bool,
    network: Option<Arc<Network>>,
    out: &mut impl Write,
) -> io::Result<Totals> {
    let totals = bench::run(depth, tablebases, network, |i, result| {
        let report = &result.report;
        let best = result
            .best_move
            .map_or_else(|| "(none)".to_string(), |m| m.to_string());
        let score = report
            .lines
            .first()
            .map_or_else(String::new, |l| l.score.to_string());
        writeln!(
            out,
            "Position {:2}/{}: bestmove {best} score {score} nodes {}",
            i + 1,
            POSITIONS.len(),
            report.nodes
        )
    })?;
    writeln!(out, "\nTotal time (ms): {}", totals.elapsed.as_millis())?;
    writeln!(out, "Nodes searched: {}", totals.nodes)?;
    writeln!(out, "Nodes/second: {}", totals.nps())?;
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_ends_with_the_node_count_and_the_speed() {
        let mut out = Vec::new();
        let totals = print(3, false, Some(nnue::embedded()), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), POSITIONS.len() + 4, "{text}");
        assert!(lines[0].starts_with("Position  1/36: bestmove "), "{text}");
        assert_eq!(
            lines[lines.len() - 2],
            format!("Nodes searched: {}", totals.nodes)
        );
        assert!(lines[lines.len() - 1].starts_with("Nodes/second: "));
    }
}
