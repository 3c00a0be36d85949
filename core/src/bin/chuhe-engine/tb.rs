//! `chuhe-engine tb ...`: statistics, probing and the generation benchmark.
//!
//! - `tb stats MATERIAL [--json]`: counts of every legal position of the table (mirror
//!   images counted separately), win/draw/loss for the side to move, the longest win;
//! - `tb probe FEN [--json]`: the value, the distance to mate in plies and every best move;
//! - `tb bench [MATERIAL...]`: generates the tables (and their smaller tables) in memory
//!   only and prints the time and memory each took;
//! - `tb generate MATERIAL [--mate-only]`: generates the table and its smaller tables into
//!   the cache, saying each stage on standard error, then prints the time and memory it
//!   took; `--mate-only` skips the perpetual-check pass and keeps the tables apart
//!   ([`Tablebases::new_mate_only`]); `tb probe FEN --mate-only` reads them.
//!
//! Tables come from, and are saved to, the cache directory (`CHUHE_TB_DIR` or the user
//! data directory), generated when missing. A material named on the command line (`stats`,
//! `generate`) may have three rooks, horses, cannons and pawns
//! ([`Material::parse_on_request`]); `probe` reads such a table from the cache but never
//! generates one.

use chuhe_core::tb::{Material, MoveValue, SideStats, Tablebases, TbValue, global};
use chuhe_core::{Color, Position};
use std::io::Write;
use std::time::Instant;

const USAGE: &str =
    "usage: chuhe-engine tb stats MATERIAL [--json]   (MATERIAL like \"KR v KAA\", Red first)
       chuhe-engine tb probe FEN [--json]
       chuhe-engine tb bench [MATERIAL...]
       chuhe-engine tb generate MATERIAL [--mate-only]
       chuhe-engine tb probe FEN --mate-only";

/// Runs `tb` with its arguments, printing to `out`.
pub fn command(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let json = args.iter().any(|a| a == "--json");
    let mate_only = args.iter().any(|a| a == "--mate-only");
    let rest: Vec<&str> = args[1.min(args.len())..]
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--json" && *a != "--mate-only")
        .collect();
    let mate_tables;
    let tables: &Tablebases = if mate_only {
        mate_tables = Tablebases::new_mate_only(global().dir().map(|d| d.to_path_buf()));
        &mate_tables
    } else {
        global()
    };
    match args.first().map(String::as_str) {
        Some("stats" | "probe" | "generate") if rest.is_empty() => Err(USAGE.to_owned()),
        Some("stats") => {
            let material =
                Material::parse_on_request(&rest.join(" ")).map_err(|e| format!("{e}"))?;
            let table = tables
                .get_or_generate(&material, &mut |_| true)
                .map_err(|e| e.to_string())?;
            let [red, black] = table.stats();
            if json {
                let side = |s: &SideStats| {
                    format!(
                        "{{\"legal\": {}, \"win\": {}, \"draw\": {}, \"loss\": {}}}",
                        s.legal, s.win, s.draw, s.loss
                    )
                };
                writeln!(
                    out,
                    "{{\"material\": {}, \"red_to_move\": {}, \"black_to_move\": {}, \"max_dtm_plies\": {{\"red_to_move\": {}, \"black_to_move\": {}}}}}",
                    serde_json::Value::String(material.to_string()),
                    side(&red),
                    side(&black),
                    red.max_dtm,
                    black.max_dtm
                )
                .map_err(io)?;
            } else {
                writeln!(out, "{material}").map_err(io)?;
                writeln!(
                    out,
                    "{:<15}{:>14}{:>14}{:>14}{:>14}{:>14}",
                    "", "legal", "win", "draw", "loss", "longest win"
                )
                .map_err(io)?;
                for (name, s) in [("Red to move", red), ("Black to move", black)] {
                    writeln!(
                        out,
                        "{:<15}{:>14}{:>14}{:>14}{:>14}{:>8} plies",
                        name, s.legal, s.win, s.draw, s.loss, s.max_dtm
                    )
                    .map_err(io)?;
                }
                let rule = red.by_rule + black.by_rule;
                if rule > 0 {
                    writeln!(
                        out,
                        "{rule} of the wins and losses are by the perpetual-check rule, not mate"
                    )
                    .map_err(io)?;
                }
            }
            Ok(())
        }
        Some("probe") => {
            let pos: Position = rest.join(" ").parse().map_err(|e| format!("{e}"))?;
            // A cached table first: one made on request is never generated here.
            let analysis = match tables.analyse(&pos) {
                Some(a) => a,
                None => tables
                    .analyse_generating(&pos, &mut |_| true)
                    .map_err(|e| e.to_string())?,
            };
            let dtm = |v: TbValue| v.dtm().map_or("null".to_owned(), |n| n.to_string());
            if json {
                let moves = |it: &mut dyn Iterator<Item = &MoveValue>| {
                    it.map(|m| {
                        format!(
                            "{{\"move\": \"{}\", \"result\": \"{}\", \"dtm_plies\": {}, \"by_rule\": {}}}",
                            m.mv,
                            m.value.wdl(),
                            dtm(m.value),
                            matches!(m.value, TbValue::RuleWin | TbValue::RuleLoss)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
                };
                writeln!(
                    out,
                    "{{\"fen\": {}, \"material\": {}, \"side_to_move\": \"{}\", \"result\": \"{}\", \"dtm_plies\": {}, \"by_rule\": {}, \"best_moves\": [{}], \"moves\": [{}]}}",
                    serde_json::Value::String(pos.to_string()),
                    serde_json::Value::String(Material::of(&pos).map(|m| m.to_string()).unwrap_or_default()),
                    if pos.side_to_move() == Color::Red { "red" } else { "black" },
                    analysis.value.wdl(),
                    dtm(analysis.value),
                    matches!(analysis.value, TbValue::RuleWin | TbValue::RuleLoss),
                    moves(&mut analysis.best_moves()),
                    moves(&mut analysis.moves.iter()),
                )
                .map_err(io)?;
            } else {
                let side = if pos.side_to_move() == Color::Red {
                    "Red"
                } else {
                    "Black"
                };
                writeln!(out, "{side} to move: {}", analysis.value).map_err(io)?;
                let best: Vec<String> = analysis
                    .best_moves()
                    .map(|m| format!("{} ({})", m.mv, m.value))
                    .collect();
                if best.is_empty() {
                    writeln!(out, "no legal move").map_err(io)?;
                } else {
                    writeln!(out, "best: {}", best.join(", ")).map_err(io)?;
                }
            }
            Ok(())
        }
        Some("bench") => {
            let list: Vec<String> = if rest.is_empty() {
                ["KR v K", "KN v KAA", "KP v KAB", "KR v KN"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            } else {
                vec![rest.join(" ")]
                    .into_iter()
                    .flat_map(|s| {
                        s.split(',')
                            .map(|x| x.trim().to_owned())
                            .collect::<Vec<_>>()
                    })
                    .collect()
            };
            for name in list {
                let material: Material = name.parse().map_err(|e| format!("{e}"))?;
                // Memory only: the figures include the smaller tables, never the cache.
                let tbs = Tablebases::new(None);
                let start = Instant::now();
                let mut last = String::new();
                let table = tbs
                    .get_or_generate(&material, &mut |p| {
                        let now = format!("{} {}", p.material, p.stage);
                        if now != last {
                            eprintln!("  {:>8.1} s  {now}", start.elapsed().as_secs_f64());
                            last = now;
                        }
                        true
                    })
                    .map_err(|e| e.to_string())?;
                let secs = start.elapsed().as_secs_f64();
                let [red, black] = table.stats();
                writeln!(
                    out,
                    "{material}: {} placements per side, {} + {} legal, generated with its smaller tables in {secs:.1} s, table {} MiB, peak memory {} MiB; longest win {} / {} plies",
                    table.placements(),
                    red.legal,
                    black.legal,
                    table.memory_bytes() >> 20,
                    peak_memory_mib().map_or("?".to_owned(), |m| m.to_string()),
                    red.max_dtm,
                    black.max_dtm
                )
                .map_err(io)?;
            }
            Ok(())
        }
        Some("generate") => {
            let material =
                Material::parse_on_request(&rest.join(" ")).map_err(|e| format!("{e}"))?;
            let start = Instant::now();
            let mut last = String::new();
            let table = tables
                .get_or_generate(&material, &mut |p| {
                    // A line per stage, and per tenth of a long one.
                    let now = format!(
                        "{} {} {:.0}%",
                        p.material,
                        p.stage,
                        (p.fraction * 10.0).floor() * 10.0
                    );
                    if now != last {
                        eprintln!("  {:>8.1} s  {now}", start.elapsed().as_secs_f64());
                        last = now;
                    }
                    true
                })
                .map_err(|e| e.to_string())?;
            let [red, black] = table.stats();
            writeln!(
                out,
                "{material}: {} placements per side, {} + {} legal, in the cache after {:.1} s, table {} MiB, peak memory {} MiB; longest win {} / {} plies",
                table.placements(),
                red.legal,
                black.legal,
                start.elapsed().as_secs_f64(),
                table.memory_bytes() >> 20,
                peak_memory_mib().map_or("?".to_owned(), |m| m.to_string()),
                red.max_dtm,
                black.max_dtm
            )
            .map_err(io)?;
            Ok(())
        }
        _ => Err(USAGE.to_owned()),
    }
}

/// The process's peak resident memory (Linux), in MiB.
fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
