//! `chuhe-engine perft DEPTH [FEN]`: the legal move tree counted move by move, then the
//! total, the time and the speed.

use crate::{USAGE, fen_of};
use chuhe_core::Position;
use chuhe_core::uci::write_perft;
use std::io::{self, Write};
use std::time::Instant;

pub fn command(args: &[String]) -> Result<(), String> {
    let Some(depth) = args.first() else {
        return Err(format!("perft needs a depth\n{USAGE}"));
    };
    let depth: u32 = depth
        .parse()
        .map_err(|_| format!("perft depth {depth:?} is not a number"))?;
    let mut pos = if args.len() > 1 {
        fen_of(&args[1..])?
    } else {
        Position::startpos()
    };
    let out = &mut io::stdout().lock();
    let start = Instant::now();
    let nodes = write_perft(&mut pos, depth, out).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Time: {ms} ms").map_err(|e| e.to_string())?;
    writeln!(out, "Nodes/second: {nps}").map_err(|e| e.to_string())?;
    Ok(())
}
