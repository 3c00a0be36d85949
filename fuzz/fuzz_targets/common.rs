//! Shared by the notation targets: a position reached by playing legal moves chosen by
//! the input's first bytes, and the rest of the input as the move text.

use chuhe_core::Position;

/// Splits `data` into a position and a text: byte 0 is the number of plies to play (up to
/// 63), each next byte chooses one legal move.
pub fn position_and_text(data: &[u8]) -> (Position, &str) {
    let mut pos = Position::startpos();
    let plies = data.first().map_or(0, |b| usize::from(b % 64));
    let mut used = 1.min(data.len());
    for &choice in data.iter().skip(1).take(plies) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(choice) % moves.len()]);
        used += 1;
    }
    let text = std::str::from_utf8(&data[used..]).unwrap_or("");
    (pos, text)
}
