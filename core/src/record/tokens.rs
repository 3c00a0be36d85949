//! A record's moves as a move list shows them: a flow of moves, comments and brackets in
//! PGN order, each node's main continuation first, then its variations in brackets (nested
//! as deep as they go), then the rest of the line. A move list only has to put each token
//! into words ([`Token::Move`] carries the position the move is played in, for notation).

use super::{MoveNumber, NodeId, Record};
use crate::{Move, Position};

/// One item of a record's move list (see [`Record::tokens`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A move.
    Move {
        /// The node the move leads to.
        node: NodeId,
        /// The move.
        mv: Move,
        /// The position it is played in (for its notation).
        before: Position,
        /// Its number (shown before Red's moves and at the start of a line).
        number: MoveNumber,
        /// How many brackets deep it is: 0 on the main line, 1 in a variation of it …
        depth: usize,
        /// Whether it lies on the main line.
        main_line: bool,
    },
    /// `(`: a variation starts, at this depth (1 for a variation of the main line).
    Open(usize),
    /// `)`: the variation at this depth ends.
    Close(usize),
    /// The comment after this node's move (or, for the root, before the first move); only
    /// nodes whose comment is not empty have one.
    Comment(NodeId),
}

impl Record {
    /// The move list in PGN order: the root's comment, if any, then each move followed by
    /// its comment, each node's main continuation before its variations, which are
    /// bracketed by [`Token::Open`] and [`Token::Close`].
    pub fn tokens(&self) -> impl Iterator<Item = Token> + '_ {
        let mut tokens = Vec::new();
        let root = self.root();
        if !self.annotation(root).comment.is_empty() {
            tokens.push(Token::Comment(root));
        }
        self.line_tokens(root, self.start().clone(), 0, &mut tokens);
        tokens.into_iter()
    }

    /// The tokens of the line continuing from `parent` (at `position`), `depth` brackets
    /// deep.
    fn line_tokens(
        &self,
        mut parent: NodeId,
        mut position: Position,
        depth: usize,
        tokens: &mut Vec<Token>,
    ) {
        loop {
            let mut children = self.children(parent);
            let Some(main) = children.next() else {
                return;
            };
            let after_main = self.move_token(main, &position, depth, depth == 0, tokens);
            for variation in children {
                tokens.push(Token::Open(depth + 1));
                let after = self.move_token(variation, &position, depth + 1, false, tokens);
                self.line_tokens(variation, after, depth + 1, tokens);
                tokens.push(Token::Close(depth + 1));
            }
            parent = main;
            position = after_main;
        }
    }

    /// Pushes the move of `node` (played in `position`) and its comment; returns the
    /// position after it.
    fn move_token(
        &self,
        node: NodeId,
        position: &Position,
        depth: usize,
        main_line: bool,
        tokens: &mut Vec<Token>,
    ) -> Position {
        let mut after = position.clone();
        let Some(mv) = self.move_at(node) else {
            return after;
        };
        tokens.push(Token::Move {
            node,
            mv,
            before: position.clone(),
            number: MoveNumber::before(position),
            depth,
            main_line,
        });
        if !self.annotation(node).comment.is_empty() {
            tokens.push(Token::Comment(node));
        }
        after.play_unchecked(mv);
        after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, format_move};
    use crate::pgn;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    /// Adds the moves of `line` after `at`; the last node.
    fn add(record: &mut Record, mut at: NodeId, line: &str) -> NodeId {
        for m in line.split_whitespace() {
            at = record.add_move(at, mv(m)).unwrap();
        }
        at
    }

    /// A record with variations three deep, comments on moves of every depth and on the
    /// root, and a variation of the very first move.
    fn nested() -> Record {
        let mut record = Record::default();
        let root = record.root();
        record.set_comment(root, "开局").unwrap();
        let a = add(&mut record, root, "h2e2");
        let b = add(&mut record, a, "h9g7");
        add(&mut record, b, "h0g2 i9h9 i0h0");
        // Variations of the first move and of Black's reply.
        let v1 = add(&mut record, root, "b2e2 b9c7");
        record.set_comment(v1, "过宫炮").unwrap();
        let v2 = add(&mut record, a, "h7e7");
        let v2b = add(&mut record, v2, "h0g2");
        add(&mut record, v2b, "h9g7");
        // A variation inside the variation, and one inside that.
        let v3 = add(&mut record, v2, "b0c2");
        record.set_comment(v3, "屏风马").unwrap();
        add(&mut record, v3, "b9c7");
        add(&mut record, v3, "h9g7 c3c4");
        add(&mut record, v3, "b7b3");
        // A second variation of the same move.
        add(&mut record, a, "b9c7 h0g2");
        record.set_comment(b, "马８进７").unwrap();
        record
    }

    /// The move list as text: moves in ICCS, comments in braces, brackets.
    fn words_of_tokens(record: &Record) -> Vec<String> {
        record
            .tokens()
            .map(|t| match t {
                Token::Move { mv, before, .. } => format_move(&before, mv, Notation::Iccs),
                Token::Open(_) => "(".into(),
                Token::Close(_) => ")".into(),
                Token::Comment(node) => format!("{{{}}}", record.annotation(node).comment),
            })
            .collect()
    }

    /// The PGN writer's movetext as the same words: move numbers and the result left out.
    fn words_of_pgn(record: &Record) -> Vec<String> {
        let mut text = String::new();
        pgn::write_game(record, Notation::Iccs, &mut text);
        let movetext: String = text
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        let spaced = movetext.replace('(', " ( ").replace(')', " ) ");
        spaced
            .split_whitespace()
            .filter(|w| {
                let number = w.trim_end_matches('.');
                !(w.ends_with('.') && number.chars().all(|c| c.is_ascii_digit())) && *w != "*"
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_tokens_follow_the_pgn_writers_order() {
        let record = nested();
        let tokens = words_of_tokens(&record);
        assert_eq!(tokens, words_of_pgn(&record));
        assert_eq!(tokens[0], "{开局}");
        assert_eq!(tokens[1], "h2e2");
        assert_eq!(tokens[2], "(");
    }

    #[test]
    fn brackets_nest_and_carry_their_depth() {
        let record = nested();
        let mut depth = 0;
        let mut deepest = 0;
        for token in record.tokens() {
            match token {
                Token::Open(d) => {
                    depth += 1;
                    assert_eq!(d, depth);
                    deepest = deepest.max(d);
                }
                Token::Close(d) => {
                    assert_eq!(d, depth);
                    depth -= 1;
                }
                Token::Move {
                    node,
                    mv,
                    before,
                    number,
                    depth: d,
                    main_line,
                } => {
                    assert_eq!(d, depth);
                    assert_eq!(main_line, depth == 0);
                    assert_eq!(main_line, record.is_main_line(node));
                    assert_eq!(Some(mv), record.move_at(node));
                    assert_eq!(
                        Some(&before),
                        record
                            .parent(node)
                            .and_then(|p| record.position_at(p))
                            .as_ref()
                    );
                    assert_eq!(Some(number), record.move_number(node));
                }
                Token::Comment(node) => assert!(!record.annotation(node).comment.is_empty()),
            }
        }
        assert_eq!(depth, 0);
        assert_eq!(deepest, 3);
        // Every move once.
        let moves = record
            .tokens()
            .filter(|t| matches!(t, Token::Move { .. }))
            .count();
        assert_eq!(moves, record.move_count());
    }

    #[test]
    fn a_record_without_moves_or_comments_has_no_tokens() {
        assert_eq!(Record::default().tokens().count(), 0);
        let mut record = Record::default();
        record.set_comment(record.root(), "只有注释").unwrap();
        assert_eq!(
            record.tokens().collect::<Vec<_>>(),
            [Token::Comment(record.root())]
        );
    }
}
