//! `chuhe-engine eval FEN`: the static evaluation of a position term by term, in
//! centipawns for Red (middlegame and endgame weights, before the phase blends them).

use crate::{USAGE, fen_of};
use chuhe_core::search::eval;
use std::io::{self, Write};

pub fn command(args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        return Err(format!("eval needs a FEN\n{USAGE}"));
    }
    let b = eval::breakdown(&fen_of(args)?);
    let out = &mut io::stdout().lock();
    let mut write = || -> io::Result<()> {
        writeln!(out, "{:<24}{:>8}{:>8}", "term (Red)", "mg", "eg")?;
        for (name, s) in &b.terms {
            writeln!(out, "{name:<24}{:>8}{:>8}", s.0, s.1)?;
        }
        let total = b.total();
        writeln!(out, "{:<24}{:>8}{:>8}", "total", total.0, total.1)?;
        writeln!(
            out,
            "phase {}/{}, endgame scale {}/{}",
            b.phase,
            eval::PHASE_MAX,
            b.scale,
            eval::SCALE_ONE
        )?;
        writeln!(out, "Evaluation (Red): {} cp", b.red)
    };
    write().map_err(|e| e.to_string())
}
