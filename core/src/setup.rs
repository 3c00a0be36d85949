//! Any arrangement of pieces with a side to move: what an editor produces and a FEN holds.
//! [`Setup::validate`] lists every reason it is not a playable position, each with the points
//! involved, so an editor can mark all of them at once. [`Setup::warnings`] lists the
//! placements no game can reach (a pawn behind its start, an advisor off its five points):
//! composed problems use them, the rules of movement still apply to such pieces, and the
//! position is playable, so they are accepted and only pointed out.

use crate::position::{Position, attackers_of_general};
use crate::{Board, Color, Piece, PieceKind, Square};
use std::fmt;

/// A position as entered: any pieces anywhere, a side to move and the move counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// Whose move it is.
    pub side_to_move: Color,
    /// Plies since the last capture.
    pub halfmove_clock: u32,
    /// The move number (1 at the start).
    pub fullmove_number: u32,
}

impl Setup {
    /// The start position, Red to move.
    pub fn startpos() -> Setup {
        Setup {
            board: Board::startpos(),
            side_to_move: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            side_to_move: Color::Red,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// Checks every rule a playable position must keep and lists all problems found: a
    /// side without a general or with too many pieces of a kind, a general outside its
    /// palace, the generals facing, the side not to move in check. Move generation, the
    /// search and the solver rely on exactly these; anything else may be played.
    pub fn validate(&self) -> Result<(), InvalidSetup> {
        let mut problems = Vec::new();
        let mut generals = [None, None];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let squares = self.board.squares_of(Piece::new(color, kind));
                if kind == PieceKind::General {
                    match squares.len() {
                        0 => problems.push(SetupProblem::MissingGeneral { color }),
                        1 => generals[color.index()] = Some(squares[0]),
                        _ => problems.push(SetupProblem::TooManyGenerals {
                            color,
                            squares: squares.clone(),
                        }),
                    }
                } else if squares.len() > kind.count_in_set() {
                    problems.push(SetupProblem::TooManyPieces {
                        piece: Piece::new(color, kind),
                        squares: squares.clone(),
                    });
                }
            }
        }
        for (square, piece) in self.board.pieces() {
            if piece.kind == PieceKind::General && !can_stand_on(piece, square) {
                problems.push(SetupProblem::UnreachablePoint { piece, square });
            }
        }
        if let [Some(red), Some(black)] = generals {
            let pos = Position::from_setup_unchecked(self);
            if red.file() == black.file() {
                let (lo, hi) = (red.rank().index() + 1, black.rank().index());
                let blocked = (lo..hi).any(|r| {
                    Square::from_coords(red.file().index(), r)
                        .is_some_and(|s| self.board.get(s).is_some())
                });
                if !blocked {
                    problems.push(SetupProblem::GeneralsFacing {
                        squares: [red, black],
                    });
                }
            }
            let waiting = !self.side_to_move;
            let general = generals[waiting.index()].unwrap_or(red);
            let other_general = generals[self.side_to_move.index()].unwrap_or(black);
            let checkers: Vec<Square> =
                attackers_of_general(&pos.cells, general.index(), self.side_to_move)
                    .map(Square::from_index_unchecked)
                    .filter(|&s| s != other_general)
                    .collect();
            if !checkers.is_empty() {
                problems.push(SetupProblem::OpponentInCheck {
                    color: waiting,
                    general,
                    checkers,
                });
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(InvalidSetup { problems })
        }
    }

    /// The placements no game can reach but play can go on from, each an
    /// [`SetupProblem::UnreachablePoint`] of an advisor, elephant or pawn: an advisor off its
    /// five palace points, an elephant off its seven points, a pawn behind its start rank or
    /// beside the pawn files before the river. Composed problems (排局) use such placements;
    /// an editor accepts them with a warning. (A general off its palace is an error instead:
    /// it is in [`Setup::validate`]'s list.)
    pub fn warnings(&self) -> Vec<SetupProblem> {
        self.board
            .pieces()
            .filter(|&(square, piece)| {
                piece.kind != PieceKind::General && !can_stand_on(piece, square)
            })
            .map(|(square, piece)| SetupProblem::UnreachablePoint { piece, square })
            .collect()
    }

    /// The left–right mirror image, same side to move.
    pub fn mirrored(&self) -> Setup {
        Setup {
            board: self.board.mirrored(),
            ..self.clone()
        }
    }

    /// The same position with the colours swapped (board turned round, other side to move).
    pub fn colors_swapped(&self) -> Setup {
        Setup {
            board: self.board.colors_swapped(),
            side_to_move: !self.side_to_move,
            ..self.clone()
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::startpos()
    }
}

/// Whether `piece` may ever stand on `square`: generals and advisors in their palace points,
/// elephants on their seven points, pawns on points ahead of their start that they can reach.
pub fn can_stand_on(piece: Piece, square: Square) -> bool {
    let file = square.file().index();
    let rank = square.rank().relative_to(piece.color);
    match piece.kind {
        PieceKind::General => square.in_palace(piece.color),
        PieceKind::Advisor => square.in_palace(piece.color) && (file + rank) % 2 == 1,
        PieceKind::Elephant => {
            matches!((file, rank), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
        }
        PieceKind::Pawn => match rank {
            0..=2 => false,
            3 | 4 => file.is_multiple_of(2),
            _ => true,
        },
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

/// One reason a [`Setup`] is not a legal position, with the points involved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetupProblem {
    /// A side has no general.
    MissingGeneral {
        /// The side without one.
        color: Color,
    },
    /// A side has more than one general.
    TooManyGenerals {
        /// The side.
        color: Color,
        /// Where its generals stand.
        squares: Vec<Square>,
    },
    /// More pieces of a kind than a set has (2 advisors, elephants, horses, rooks, cannons; 5 pawns).
    TooManyPieces {
        /// The piece.
        piece: Piece,
        /// Where they all stand.
        squares: Vec<Square>,
    },
    /// A piece on a point it can never reach: a general or advisor off its palace points,
    /// an elephant off its seven points, a pawn behind its start or beside the pawn files
    /// before the river. For a general it is an error ([`Setup::validate`]); for the others
    /// a warning ([`Setup::warnings`]).
    UnreachablePoint {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The two generals face each other on an open file (白脸将).
    GeneralsFacing {
        /// Red's and Black's general.
        squares: [Square; 2],
    },
    /// The side not to move is in check: its opponent could capture the general.
    OpponentInCheck {
        /// The side in check.
        color: Color,
        /// Its general.
        general: Square,
        /// The pieces giving check.
        checkers: Vec<Square>,
    },
}

impl SetupProblem {
    /// The points an editor should mark for this problem.
    pub fn squares(&self) -> Vec<Square> {
        match self {
            SetupProblem::MissingGeneral { .. } => Vec::new(),
            SetupProblem::TooManyGenerals { squares, .. }
            | SetupProblem::TooManyPieces { squares, .. } => squares.clone(),
            SetupProblem::UnreachablePoint { square, .. } => vec![*square],
            SetupProblem::GeneralsFacing { squares } => squares.to_vec(),
            SetupProblem::OpponentInCheck {
                general, checkers, ..
            } => {
                let mut v = vec![*general];
                v.extend(checkers);
                v
            }
        }
    }
}

fn list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::MissingGeneral { color } => write!(f, "{color} has no general"),
            SetupProblem::TooManyGenerals { color, squares } => {
                write!(f, "{color} has more than one general ({})", list(squares))
            }
            SetupProblem::TooManyPieces { piece, squares } => write!(
                f,
                "{} {:?}: {} on the board, a set has {} ({})",
                piece.color,
                piece.kind,
                squares.len(),
                piece.kind.count_in_set(),
                list(squares)
            ),
            SetupProblem::UnreachablePoint { piece, square } => {
                write!(
                    f,
                    "{} {:?} can never stand on {square}",
                    piece.color, piece.kind
                )
            }
            SetupProblem::GeneralsFacing { squares } => {
                write!(
                    f,
                    "the generals face each other on an open file ({})",
                    list(squares)
                )
            }
            SetupProblem::OpponentInCheck {
                color,
                general,
                checkers,
            } => {
                write!(
                    f,
                    "{color} is not to move but its general on {general} is in check from {}",
                    list(checkers)
                )
            }
        }
    }
}

/// Every problem that keeps a [`Setup`] from being a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSetup {
    /// All problems found, never empty.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for InvalidSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InvalidSetup {}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn setup(fen: &str) -> Setup {
        fen.parse().unwrap()
    }

    fn problems(fen: &str) -> Vec<SetupProblem> {
        setup(fen).validate().expect_err(fen).problems
    }

    #[test]
    fn start_position_is_legal() {
        assert_eq!(Setup::startpos().validate(), Ok(()));
    }

    #[test]
    fn missing_and_extra_generals() {
        assert_eq!(
            problems("3k5/9/9/9/9/9/9/9/9/9 w"),
            [SetupProblem::MissingGeneral { color: Color::Red }]
        );
        assert_eq!(
            problems("3k5/9/9/9/9/9/9/9/9/3KK4 w"),
            [SetupProblem::TooManyGenerals {
                color: Color::Red,
                squares: vec![sq("d0"), sq("e0")]
            }]
        );
        let both = problems("9/9/9/9/9/9/9/9/9/9 w");
        assert_eq!(
            both,
            [
                SetupProblem::MissingGeneral { color: Color::Red },
                SetupProblem::MissingGeneral {
                    color: Color::Black
                }
            ]
        );
    }

    #[test]
    fn more_pieces_than_a_set_has() {
        let p = problems("3k5/9/9/9/9/9/9/9/RRR6/4K4 w");
        assert_eq!(
            p,
            [SetupProblem::TooManyPieces {
                piece: Piece::new(Color::Red, Rook),
                squares: vec![sq("a1"), sq("b1"), sq("c1")]
            }]
        );
        let p = problems("3k5/9/9/p1p1p1p1p/p8/9/9/9/9/4K4 w");
        assert!(
            matches!(&p[..], [SetupProblem::TooManyPieces { piece, squares }]
            if piece.kind == Pawn && squares.len() == 6)
        );
        for (fen, kind) in [
            ("3k5/9/9/9/9/9/9/9/9/3AKA3 w", None),
            ("3k5/9/9/9/9/9/9/4A4/9/3AKA3 w", Some(Advisor)),
            ("3k5/9/9/9/9/9/9/9/9/NNN1K4 w", Some(Horse)),
            ("3k5/9/9/9/9/9/9/9/CCC6/4K4 w", Some(Cannon)),
            ("2bk2b2/9/b8/9/9/9/9/9/9/4K4 w", Some(Elephant)),
        ] {
            match kind {
                None => assert_eq!(setup(fen).validate(), Ok(()), "{fen}"),
                Some(kind) => assert!(
                    problems(fen).iter().any(|p| matches!(p, SetupProblem::TooManyPieces { piece, .. } if piece.kind == kind)),
                    "{fen}"
                ),
            }
        }
    }

    fn unreachable(fen: &str) -> Vec<Square> {
        let setup = setup(fen);
        let mut problems = setup.validate().err().map_or(Vec::new(), |e| e.problems);
        problems.extend(setup.warnings());
        problems
            .into_iter()
            .filter_map(|p| match p {
                SetupProblem::UnreachablePoint { square, .. } => Some(square),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn pieces_on_points_they_can_never_reach() {
        // A general outside the palace.
        assert_eq!(unreachable("3k5/9/9/9/9/9/9/9/9/6K2 w"), [sq("g0")]);
        assert_eq!(unreachable("9/9/9/3k5/9/9/9/9/9/4K4 w"), [sq("d6")]);
        // Advisors in the palace but off its diagonal points, and outside it.
        assert_eq!(
            unreachable("3k5/9/9/9/9/9/9/3A5/9/4K4 w"),
            Vec::<Square>::new()
        );
        assert_eq!(unreachable("3k5/9/9/9/9/9/9/9/3A5/4K4 w"), [sq("d1")]);
        assert_eq!(unreachable("3k5/9/9/9/9/9/9/9/9/2A1K4 w"), [sq("c0")]);
        assert_eq!(
            unreachable("3k5/4a4/9/9/9/9/9/9/9/4K4 w"),
            Vec::<Square>::new()
        );
        assert_eq!(unreachable("3k5/3a5/9/9/9/9/9/9/9/4K4 w"), [sq("d8")]);
        // Elephants off their seven points, including across the river.
        assert_eq!(
            unreachable("3k5/9/9/9/9/2B6/9/9/9/4K4 w"),
            Vec::<Square>::new()
        );
        assert_eq!(unreachable("3k5/9/9/9/2B6/9/9/9/9/4K4 w"), [sq("c5")]);
        assert_eq!(unreachable("3k5/9/9/9/9/9/9/9/1B7/4K4 w"), [sq("b1")]);
        assert_eq!(unreachable("3k5/9/9/9/9/2b6/9/9/9/4K4 w"), [sq("c4")]);
        // Pawns behind their start rank, or beside the pawn files before the river.
        assert_eq!(unreachable("3k5/9/9/9/9/9/9/P8/9/4K4 w"), [sq("a2")]);
        assert_eq!(unreachable("3k5/9/9/9/9/9/1P7/9/9/4K4 w"), [sq("b3")]);
        assert_eq!(unreachable("3k5/9/9/9/9/1P7/9/9/9/4K4 w"), [sq("b4")]);
        assert_eq!(
            unreachable("3k5/9/9/9/1P7/9/9/9/9/4K4 w"),
            Vec::<Square>::new()
        );
        assert_eq!(unreachable("3k5/9/p8/9/9/9/9/9/9/4K4 w"), [sq("a7")]);
        assert_eq!(unreachable("3k5/9/9/1p7/9/9/9/9/9/4K4 w"), [sq("b6")]);
        assert_eq!(
            unreachable("3k5/9/9/9/9/1p7/9/9/9/4K4 w"),
            Vec::<Square>::new()
        );
    }

    #[test]
    fn unreachable_placements_are_warnings_and_a_general_off_its_palace_an_error() {
        // An advisor off its diagonal, an elephant across the river, a pawn on its own back
        // rank: playable, each pointed out once.
        let composed = setup("3k5/9/9/9/2B6/9/9/9/3A5/P3K4 w");
        assert_eq!(composed.validate(), Ok(()));
        assert_eq!(
            composed.warnings(),
            [
                SetupProblem::UnreachablePoint {
                    piece: Piece::new(Color::Red, Pawn),
                    square: sq("a0")
                },
                SetupProblem::UnreachablePoint {
                    piece: Piece::new(Color::Red, Advisor),
                    square: sq("d1")
                },
                SetupProblem::UnreachablePoint {
                    piece: Piece::new(Color::Red, Elephant),
                    square: sq("c5")
                },
            ]
        );
        assert!(Position::from_setup(&composed).is_ok());
        // A general off its palace is refused, and is not a warning.
        let general_out = setup("3k5/9/9/9/9/9/9/9/9/6K2 w");
        assert_eq!(
            general_out.validate().unwrap_err().problems,
            [SetupProblem::UnreachablePoint {
                piece: Piece::new(Color::Red, General),
                square: sq("g0")
            }]
        );
        assert_eq!(general_out.warnings(), []);
        assert_eq!(Setup::startpos().warnings(), []);
    }

    #[test]
    fn generals_facing_on_an_open_file() {
        assert_eq!(
            problems("4k4/9/9/9/9/9/9/9/9/4K4 b"),
            [SetupProblem::GeneralsFacing {
                squares: [sq("e0"), sq("e9")]
            }]
        );
        assert_eq!(setup("4k4/9/9/9/4p4/9/9/9/9/4K4 w").validate(), Ok(()));
    }

    #[test]
    fn side_not_to_move_in_check() {
        let fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 w";
        assert_eq!(
            problems(fen),
            [SetupProblem::OpponentInCheck {
                color: Color::Black,
                general: sq("e9"),
                checkers: vec![sq("e1")]
            }]
        );
        // The same with Black to move is a legal position with Black in check.
        assert_eq!(setup("4k4/9/9/9/9/9/9/9/4R4/3K5 b").validate(), Ok(()));
        // Cannon, horse and pawn checks are found too.
        let checkers = |fen| match &problems(fen)[..] {
            [SetupProblem::OpponentInCheck { checkers, .. }] => checkers.clone(),
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(checkers("3k5/9/2N6/9/9/9/9/3C5/9/4K4 w"), [sq("c7")]);
        assert_eq!(checkers("3k5/9/9/9/3P5/9/9/3C5/9/4K4 w"), [sq("d2")]);
        assert_eq!(
            problems("3k5/3P5/9/9/9/9/9/9/9/4K4 w"),
            [SetupProblem::OpponentInCheck {
                color: Color::Black,
                general: sq("d9"),
                checkers: vec![sq("d8")]
            }]
        );
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        // Two Red generals (one off the palace), a Red pawn behind its start, Black in check
        // from a rook while Red is to move.
        let p = problems("3k5/9/9/9/9/9/9/P8/3R5/4K3K w");
        assert!(
            p.iter()
                .any(|p| matches!(p, SetupProblem::TooManyGenerals { .. }))
        );
        assert!(p.iter().any(
            |p| matches!(p, SetupProblem::UnreachablePoint { square, .. } if *square == sq("i0"))
        ));
        // The pawn is a warning, not one of the problems.
        assert!(!p.iter().any(
            |p| matches!(p, SetupProblem::UnreachablePoint { square, .. } if *square == sq("a2"))
        ));
        let p = problems("3k5/9/9/9/9/9/9/P8/3R5/4K4 w");
        assert_eq!(
            p.len(),
            1,
            "the pawn behind its start is only a warning: {p:?}"
        );
        assert!(p.iter().any(|p| matches!(p, SetupProblem::OpponentInCheck { checkers, .. } if checkers == &vec![sq("d1")])));
        for problem in &p {
            assert!(!problem.squares().is_empty());
            assert!(!problem.to_string().is_empty());
        }
    }
}
