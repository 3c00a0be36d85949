//! Picking up a piece with one click and putting it down with another, the same on every
//! board where a person moves: the study board, solve mode, training and pattern practice.
//! (Dragging is the board controller's, in `widgets::board_input`; a drag ends as a move.)

use chuhe_core::{Move, Position, Square};

/// What a click on a point means, given the piece picked up before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Click {
    /// The picked-up piece was clicked again: it is put back down.
    PutDown,
    /// One of the mover's pieces is picked up (instead of the one picked up before).
    PickUp(Square),
    /// The picked-up piece is to move to the point clicked.
    Move(Move),
    /// Nothing was picked up and nothing can be here: a miss, or a piece of the side not
    /// to move.
    Miss,
}

/// What a click on `square` means on a board showing `position`, with `selected` picked
/// up: a click on the picked-up piece puts it down, one on another of the mover's pieces
/// picks that up instead, and anywhere else tries the move.
pub fn click(position: &Position, selected: Option<Square>, square: Square) -> Click {
    let own = position
        .piece_at(square)
        .is_some_and(|p| p.color == position.side_to_move());
    match selected {
        Some(from) if from == square => Click::PutDown,
        _ if own => Click::PickUp(square),
        Some(from) => Click::Move(Move::new(from, square)),
        None => Click::Miss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_click_picks_up_puts_down_switches_or_moves() {
        let start = Position::startpos();
        // Red's cannon on h2: picked up from nothing, put down by a second click on it.
        assert_eq!(click(&start, None, sq("h2")), Click::PickUp(sq("h2")));
        assert_eq!(click(&start, Some(sq("h2")), sq("h2")), Click::PutDown);
        // Another red piece is picked up instead.
        assert_eq!(
            click(&start, Some(sq("h2")), sq("b2")),
            Click::PickUp(sq("b2"))
        );
        // An empty point or a black piece is where the picked-up piece goes.
        assert_eq!(
            click(&start, Some(sq("h2")), sq("e2")),
            Click::Move(Move::new(sq("h2"), sq("e2")))
        );
        assert_eq!(
            click(&start, Some(sq("h2")), sq("h9")),
            Click::Move(Move::new(sq("h2"), sq("h9")))
        );
        // With nothing picked up, an empty point or the other side's piece is a miss.
        assert_eq!(click(&start, None, sq("e5")), Click::Miss);
        assert_eq!(click(&start, None, sq("h7")), Click::Miss);
    }
}
