//! The built-in library: annotated openings and the 36 named checkmate patterns, as RON in
//! `assets/library/`, compiled into the binary so every program of Chuhe has it.

pub mod openings;
pub mod patterns;

use crate::{Move, Position};

/// A position written as FEN and a line of ICCS moves from it, as the library and the
/// knowledge reference store their diagrams: the start and the moves, each checked legal,
/// or what is wrong with the first bad one.
pub fn replay_line(fen: &str, line: &[String]) -> Result<(Position, Vec<Move>), String> {
    let start: Position = fen.parse().map_err(|e| format!("FEN: {e}"))?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(line.len());
    for (ply, text) in line.iter().enumerate() {
        let m: Move = text
            .parse()
            .map_err(|_| format!("move {} {text:?} is not ICCS", ply + 1))?;
        pos = pos
            .play(m)
            .map_err(|e| format!("move {} {text} is illegal: {e}", ply + 1))?;
        moves.push(m);
    }
    Ok((start, moves))
}
