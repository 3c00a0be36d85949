//! The UCI protocol as Xiangqi engines speak it (Pikafish's dialect), for `chuhe-engine`.
//!
//! Supported now: `uci`, `isready`, `ucinewgame`, `position startpos|fen <FEN> [moves …]`,
//! `go perft N`, `d` (print the board and FEN) and `quit`. Moves are ICCS coordinates
//! (`h2e2`). Anything unknown or malformed is answered with an `info string error: …` line
//! and the engine carries on with its previous state.

use crate::perft::divide;
use crate::{Move, Position, Square};
use std::io::{self, BufRead, Write};

/// The engine's protocol state: the current position.
pub struct Uci {
    position: Position,
}

/// What the caller should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A fresh engine at the start position.
    pub fn new() -> Uci {
        Uci {
            position: Position::startpos(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Not UTF-8: say so and go on with the next line.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    writeln!(out, "info string error: input is not UTF-8")?;
                    out.flush()?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let flow = self.handle(&line, out)?;
            out.flush()?;
            if flow == Flow::Quit {
                break;
            }
        }
        Ok(())
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let args: Vec<&str> = words.collect();
        match command {
            "uci" => {
                writeln!(out, "id name Chuhe {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Chuhe developers")?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.position = Position::startpos(),
            "position" => match parse_position(&args) {
                Ok(pos) => self.position = pos,
                Err(e) => writeln!(out, "info string error: {e}")?,
            },
            "go" => match args.as_slice() {
                ["perft", depth] => match depth.parse::<u32>() {
                    Ok(d) => {
                        write_perft(&mut self.position, d, out)?;
                    }
                    Err(_) => writeln!(
                        out,
                        "info string error: perft depth {depth:?} is not a number"
                    )?,
                },
                _ => writeln!(
                    out,
                    "info string error: only 'go perft <depth>' is supported"
                )?,
            },
            "d" => write_board(&self.position, out)?,
            "quit" => return Ok(Flow::Quit),
            other => writeln!(out, "info string error: unknown command {other:?}")?,
        }
        Ok(Flow::Continue)
    }
}

/// Parses the arguments of `position`: `startpos` or `fen <FEN>`, then `moves m1 m2 …`.
pub fn parse_position(args: &[&str]) -> Result<Position, String> {
    let moves_at = args
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(args.len());
    let (spec, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
    let mut pos =
        match spec {
            ["startpos"] => Position::startpos(),
            ["fen", fen @ ..] if !fen.is_empty() => fen
                .join(" ")
                .parse::<Position>()
                .map_err(|e| e.to_string())?,
            _ => return Err(
                "expected 'position startpos' or 'position fen <FEN>', then optionally 'moves …'"
                    .into(),
            ),
        };
    for (i, text) in moves.iter().enumerate() {
        let m: Move = text
            .parse()
            .map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
        pos = pos
            .play(m)
            .map_err(|e| format!("move {} {text:?}: {e}", i + 1))?;
    }
    Ok(pos)
}

/// Writes `go perft` output: one `<move>: <count>` line per root move, a blank line, then
/// `Nodes searched: <total>`. Returns the total.
pub fn write_perft(pos: &mut Position, depth: u32, out: &mut impl Write) -> io::Result<u64> {
    let split = divide(pos, depth);
    let total = if depth == 0 {
        1
    } else {
        split.iter().map(|&(_, n)| n).sum()
    };
    for (m, n) in &split {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    Ok(total)
}

/// Writes the board as text (Black at the top, ICCS coordinates around it), the FEN and
/// the hash key.
pub fn write_board(pos: &Position, out: &mut impl Write) -> io::Result<()> {
    writeln!(out)?;
    for rank in (0..10u8).rev() {
        write!(out, " {rank} ")?;
        for file in 0..9u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = pos.piece_at(sq).map_or('.', |p| p.fen_char());
            write!(out, " {c}")?;
        }
        writeln!(out)?;
        if rank == 5 {
            writeln!(out, "    ~~~~~~~~~~~~~~~~~")?;
        }
    }
    writeln!(out, "    a b c d e f g h i")?;
    writeln!(out)?;
    writeln!(out, "Fen: {pos}")?;
    writeln!(out, "Key: {:016X}", pos.hash())?;
    let checkers = pos.checkers_of(pos.side_to_move());
    let names: Vec<String> = checkers.iter().map(|s| s.to_string()).collect();
    writeln!(out, "Checkers: {}", names.join(" "))?;
    Ok(())
}
