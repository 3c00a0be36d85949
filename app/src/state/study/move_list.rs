//! The move list laid out in rows, as XQStudio and ChessBase show a game: the main line as
//! numbered rows with Red's and Black's moves side by side, each comment on a row of its
//! own under its move, and each variation indented beneath the move it branches from,
//! nested variations deeper still. A collapsed variation shows only its first move.
//!
//! The rows are derived from the record's move tokens; the panel only draws them.

use super::{MoveItem, MoveToken};
use chuhe_core::record::{MoveNumber, NodeId};
use std::collections::BTreeSet;

/// One move as the list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveCell {
    /// The node the move leads to (a click goes there).
    pub node: NodeId,
    /// The move in the chosen notation.
    pub text: String,
    /// Its glyphs (`!`, `?!` …), empty if none.
    pub glyphs: String,
    /// Whether it is the move on the board.
    pub current: bool,
}

impl MoveCell {
    fn new(item: &MoveItem, cursor: NodeId) -> MoveCell {
        MoveCell {
            node: item.node,
            text: item.text.clone(),
            glyphs: item.glyphs.clone(),
            current: item.node == cursor,
        }
    }
}

/// A move of a variation, with its number when the reader needs one: before Red's moves
/// and before the first move of a row.
#[derive(Clone, Debug, PartialEq)]
pub struct VariationMove {
    /// `3.` or `3...`, when shown.
    pub number: Option<MoveNumber>,
    /// The move.
    pub cell: MoveCell,
}

/// The start of a variation: what its ▸/▾ toggle acts on.
#[derive(Clone, Debug, PartialEq)]
pub struct VariationStart {
    /// The variation's first move, which names it.
    pub first: NodeId,
    /// Whether only its first move is shown.
    pub collapsed: bool,
    /// Whether the engine put it in (a review's better line), not a person.
    pub engine: bool,
}

/// One row of the move list.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveRow {
    /// A main-line row: `1. 炮二平五 马８进７`. Red's move is missing when the row starts
    /// with Black (`1. … 马８进７`): the game starts with Black to move, or a comment or a
    /// variation came between the two moves. Black's is missing at the end of the game or
    /// before such a break.
    Moves {
        /// The full-move number.
        number: u32,
        /// Red's move.
        red: Option<MoveCell>,
        /// Black's move.
        black: Option<MoveCell>,
    },
    /// The comment after a move (the root's: before the first move), under it.
    Comment {
        /// The move it is about.
        node: NodeId,
        /// How deep it sits: 0 in the main line, 1 in a variation of it …
        depth: usize,
        /// The comment.
        text: String,
    },
    /// Moves of a variation, drawn as text, indented by their depth.
    Variation {
        /// 1 for a variation of the main line, 2 for one inside that …
        depth: usize,
        /// Set on the row where the variation starts; absent on rows that carry it on
        /// after a comment or a nested variation.
        start: Option<VariationStart>,
        /// The moves.
        moves: Vec<VariationMove>,
    },
}

/// Lays the move list's tokens out in rows, marking the move at `cursor`; the variations
/// named (by their first move) in `collapsed` show only that first move.
pub fn move_rows(
    tokens: &[MoveToken],
    cursor: NodeId,
    collapsed: &BTreeSet<NodeId>,
) -> Vec<MoveRow> {
    let mut rows = Vec::new();
    // Whether the last row may take more moves: false after a comment, a bracket.
    let mut open = false;
    let mut depth = 0;
    // A variation has opened and its first move is awaited.
    let mut starting = false;
    // The depth of the collapsed variation being passed over.
    let mut hidden: Option<usize> = None;
    for token in tokens {
        if let Some(d) = hidden {
            if *token == MoveToken::Close(d) {
                hidden = None;
                depth = d - 1;
                open = false;
            }
            continue;
        }
        match token {
            MoveToken::Open(d) => {
                depth = *d;
                starting = true;
                open = false;
            }
            MoveToken::Close(d) => {
                depth = d - 1;
                open = false;
            }
            MoveToken::Comment(node, text) => {
                rows.push(MoveRow::Comment {
                    node: *node,
                    depth,
                    text: text.clone(),
                });
                open = false;
            }
            MoveToken::Move(item) if starting => {
                starting = false;
                let collapsed = collapsed.contains(&item.node);
                rows.push(MoveRow::Variation {
                    depth,
                    start: Some(VariationStart {
                        first: item.node,
                        collapsed,
                        engine: item.engine,
                    }),
                    moves: vec![VariationMove {
                        number: Some(item.number),
                        cell: MoveCell::new(item, cursor),
                    }],
                });
                open = true;
                if collapsed {
                    hidden = Some(depth);
                }
            }
            MoveToken::Move(item) if depth == 0 => {
                let cell = MoveCell::new(item, cursor);
                let number = item.number.number;
                let red = item.number.color == chuhe_core::Color::Red;
                match rows.last_mut() {
                    Some(MoveRow::Moves {
                        number: n,
                        red: Some(_),
                        black: black @ None,
                    }) if open && !red && *n == number => *black = Some(cell),
                    _ => rows.push(if red {
                        MoveRow::Moves {
                            number,
                            red: Some(cell),
                            black: None,
                        }
                    } else {
                        MoveRow::Moves {
                            number,
                            red: None,
                            black: Some(cell),
                        }
                    }),
                }
                open = true;
            }
            MoveToken::Move(item) => {
                let red = item.number.color == chuhe_core::Color::Red;
                match rows.last_mut() {
                    Some(MoveRow::Variation { moves, .. }) if open => moves.push(VariationMove {
                        number: red.then_some(item.number),
                        cell: MoveCell::new(item, cursor),
                    }),
                    _ => rows.push(MoveRow::Variation {
                        depth,
                        start: None,
                        moves: vec![VariationMove {
                            number: Some(item.number),
                            cell: MoveCell::new(item, cursor),
                        }],
                    }),
                }
                open = true;
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use crate::state::study::move_tokens;
    use chuhe_core::record::{Nag, Record};
    use chuhe_core::{Move, Position};

    /// Adds the moves of `line` (ICCS) after `at`; the last node.
    fn add(record: &mut Record, mut at: NodeId, line: &str) -> NodeId {
        for m in line.split_whitespace() {
            at = record.add_move(at, m.parse::<Move>().unwrap()).unwrap();
        }
        at
    }

    /// The rows in words: `1. 炮二平五 马８进７`, comments in braces, variations as
    /// `>` per depth, `+`/`-` for an open or collapsed start, `E` for the engine's, the
    /// current move in brackets.
    fn words(record: &Record, cursor: NodeId, collapsed: &BTreeSet<NodeId>) -> Vec<String> {
        let tokens = move_tokens(record, &Settings::default());
        let cell = |c: &MoveCell| {
            let text = format!("{}{}", c.text, c.glyphs);
            if c.current { format!("[{text}]") } else { text }
        };
        move_rows(&tokens, cursor, collapsed)
            .iter()
            .map(|row| match row {
                MoveRow::Moves { number, red, black } => format!(
                    "{number}. {} {}",
                    red.as_ref().map_or("…".into(), cell),
                    black.as_ref().map_or(String::new(), cell)
                )
                .trim_end()
                .to_owned(),
                MoveRow::Comment { depth, text, .. } => format!("{}{{{text}}}", ">".repeat(*depth)),
                MoveRow::Variation {
                    depth,
                    start,
                    moves,
                } => {
                    let mark = match start {
                        Some(s) if s.collapsed => "-",
                        Some(_) => "+",
                        None => "",
                    };
                    let engine = if start.as_ref().is_some_and(|s| s.engine) {
                        "E"
                    } else {
                        ""
                    };
                    let moves: Vec<String> = moves
                        .iter()
                        .map(|m| match m.number {
                            Some(n) => format!("{n} {}", cell(&m.cell)),
                            None => cell(&m.cell),
                        })
                        .collect();
                    format!("{}{mark}{engine} {}", ">".repeat(*depth), moves.join(" "))
                }
            })
            .collect()
    }

    /// Whether the study's list shows the variation starting at `first` collapsed.
    fn shown_collapsed(study: &crate::state::study::Study, first: NodeId) -> bool {
        study.derived.rows.iter().any(|row| {
            matches!(row, MoveRow::Variation { start: Some(s), .. } if s.first == first && s.collapsed)
        })
    }

    #[test]
    fn the_board_opens_the_variation_it_moves_into_and_another_game_opens_all() {
        let settings = Settings::default();
        let mut study = crate::state::study::Study::new(&settings);
        let mut record = Record::default();
        let root = record.root();
        add(&mut record, root, "h2e2 h9g7");
        let first = add(&mut record, root, "b2e2");
        let inside = add(&mut record, first, "h9g7");
        study.replace_record(record.clone(), None, &settings);
        study.collapsed.insert(first);
        study.refresh(&settings);
        assert!(shown_collapsed(&study, first));
        // On the first move the variation can stay closed: that move is shown.
        study.cursor = first;
        study.refresh(&settings);
        assert!(shown_collapsed(&study, first));
        study.cursor = inside;
        study.refresh(&settings);
        assert!(!shown_collapsed(&study, first));
        assert!(study.collapsed.is_empty());
        // Node ids of one game mean nothing in another.
        study.collapsed.insert(first);
        study.replace_record(record, None, &settings);
        assert!(!shown_collapsed(&study, first));
    }

    #[test]
    fn the_main_line_pairs_red_and_black_on_numbered_rows() {
        let mut record = Record::default();
        let root = record.root();
        let last = add(&mut record, root, "h2e2 h9g7 h0g2");
        assert_eq!(
            words(&record, last, &BTreeSet::new()),
            ["1. 炮二平五 马８进７", "2. [马二进三]"]
        );
    }

    #[test]
    fn a_game_starting_with_black_to_move_begins_with_an_ellipsis() {
        let start: Position =
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
                .parse()
                .unwrap();
        let mut record = Record::new(start);
        let root = record.root();
        add(&mut record, root, "h7e7 h2e2");
        assert_eq!(
            words(&record, record.root(), &BTreeSet::new()),
            ["1. … 炮８平５", "2. 炮二平五"]
        );
    }

    #[test]
    fn comments_and_variations_sit_under_their_move_and_break_the_row() {
        let mut record = Record::default();
        let root = record.root();
        record.set_comment(root, "开局").unwrap();
        let first = add(&mut record, root, "h2e2");
        record.set_comment(first, "当头炮").unwrap();
        let reply = add(&mut record, first, "h9g7");
        add(&mut record, reply, "h0g2 i9h9");
        // A variation of Black's reply with a nested one and a comment inside.
        let v = add(&mut record, first, "h7e7 h0g2");
        record.set_comment(v, "顺炮").unwrap();
        add(&mut record, v, "h9g7 i0h0");
        let nested = add(&mut record, v, "b9c7");
        assert_eq!(
            words(&record, nested, &BTreeSet::new()),
            [
                "{开局}",
                "1. 炮二平五",
                "{当头炮}",
                "1. … 马８进７",
                ">+ 1... 炮８平５ 2. 马二进三",
                ">{顺炮}",
                "> 2... 马８进７",
                ">>+ 2... [马２进３]",
                "> 3. 车一平二",
                "2. 马二进三 车９平８",
            ]
        );
    }

    #[test]
    fn a_collapsed_variation_shows_only_its_first_move_and_the_engines_are_marked() {
        let mut record = Record::default();
        let root = record.root();
        let first = add(&mut record, root, "h2e2 h9g7");
        let v = add(&mut record, root, "b2e2");
        add(&mut record, v, "h9g7 b0c2");
        add(&mut record, v, "b9c7");
        record.toggle_nag(v, Nag::ENGINE_LINE).unwrap();
        let open = words(&record, first, &BTreeSet::new());
        assert_eq!(
            open,
            [
                "1. 炮二平五",
                ">+E 1. 炮八平五 马８进７",
                ">>+ 1... 马２进３",
                "> 2. 马八进七",
                "1. … [马８进７]",
            ]
        );
        let collapsed = words(&record, first, &BTreeSet::from([v]));
        assert_eq!(
            collapsed,
            ["1. 炮二平五", ">-E 1. 炮八平五", "1. … [马８进７]"]
        );
    }
}
