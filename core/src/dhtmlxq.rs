//! DhtmlXQ (also called UBB) game text, the `[DhtmlXQ]…[/DhtmlXQ]` block the web boards of
//! Chinese forums and 东萍 embed. Every field is a tag of its own,
//! `[DhtmlXQ_name]value[/DhtmlXQ_name]`: the start position (`binit`) gives the 32 pieces
//! in a fixed order as two digits each, file 0–8 from Red's left and row 0–9 from Black's
//! side (`99` for a piece not on the board); the moves (`movelist`) are four digits each,
//! from and to. A variation `move_P_S_N` is line `N`, leaving line `P` (0 is the main
//! line) with its ply `S` (counted from 1 at the start); `commentK` is said after ply `K`
//! of the main line (`comment0` before the first move) and `commentN_K` after ply `K` of
//! line `N`.

use crate::record::{GameResult, NodeId, Record, tag};
use crate::{
    Board, Color, IllegalReason, InvalidSetup, Move, Piece, PieceKind, Position, Setup, Square,
};
use std::collections::BTreeMap;
use std::fmt;

/// The pieces in the order `binit` lists them, Red's sixteen then Black's.
const ORDER: [PieceKind; 16] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
    PieceKind::Pawn,
];

/// The header a DhtmlXQ tag maps to, both ways.
const HEADERS: [(&str, &str); 13] = [
    ("title", "Title"),
    ("event", tag::EVENT),
    ("date", tag::DATE),
    ("place", tag::SITE),
    ("round", tag::ROUND),
    ("red", tag::RED),
    ("black", tag::BLACK),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
    ("author", "Annotator"),
    ("remark", "Remark"),
    ("open", tag::OPENING),
    ("ecco", tag::ECCO),
];

/// Why a DhtmlXQ text could not be read: the tag and the byte offset of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DhtmlXqError {
    /// The tag being read (`binit`, `move_0_5_1` …), empty outside any tag.
    pub tag: String,
    /// The byte offset into the text.
    pub offset: usize,
    /// What is wrong.
    pub kind: DhtmlXqErrorKind,
}

/// What is wrong in a DhtmlXQ text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DhtmlXqErrorKind {
    /// There is no `[DhtmlXQ` in the text.
    NoBoard,
    /// A tag's name or value is not closed.
    Unclosed,
    /// The start position is not 32 pairs of digits on the board.
    BadBoard,
    /// The start position is not a playable one.
    BadPosition(InvalidSetup),
    /// A move list is not groups of four digits on the board.
    BadMoves,
    /// A move is not legal in its position.
    IllegalMove {
        /// The move.
        mv: Move,
        /// Why it is illegal.
        reason: IllegalReason,
    },
    /// A variation leaves a line that is not there, or leaves it beyond its end.
    NoParent,
}

impl fmt::Display for DhtmlXqError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DhtmlXQ tag '{}' at byte {}: ", self.tag, self.offset)?;
        match &self.kind {
            DhtmlXqErrorKind::NoBoard => f.write_str("no [DhtmlXQ] block"),
            DhtmlXqErrorKind::Unclosed => f.write_str("the tag is not closed"),
            DhtmlXqErrorKind::BadBoard => f.write_str("the start position is malformed"),
            DhtmlXqErrorKind::BadPosition(e) => {
                write!(f, "the start position is not playable: {e}")
            }
            DhtmlXqErrorKind::BadMoves => {
                f.write_str("the moves are not groups of four digits on the board")
            }
            DhtmlXqErrorKind::IllegalMove { mv, reason } => {
                write!(f, "illegal move {mv}: {reason}")
            }
            DhtmlXqErrorKind::NoParent => f.write_str("the variation leaves no line there"),
        }
    }
}

impl std::error::Error for DhtmlXqError {}

/// One `[DhtmlXQ_name]value[/…]` field: its name, its value and where the value starts.
struct Field<'a> {
    name: &'a str,
    value: &'a str,
    at: usize,
}

/// The fields of the text, in order. The closing tag's name is not checked: real files
/// close some tags with another name (`[DhtmlXQ_blacktime][/DhtmlXQ_time]`).
fn fields(text: &str) -> Result<Vec<Field<'_>>, DhtmlXqError> {
    const OPEN: &str = "[DhtmlXQ_";
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(found) = text[pos..].find(OPEN) {
        let name_at = pos + found + OPEN.len();
        let unclosed = |tag: &str, offset| DhtmlXqError {
            tag: tag.to_owned(),
            offset,
            kind: DhtmlXqErrorKind::Unclosed,
        };
        let name_len = text[name_at..]
            .find(']')
            .ok_or_else(|| unclosed("", name_at))?;
        let name = &text[name_at..name_at + name_len];
        let at = name_at + name_len + 1;
        // A value ends at a closing tag; an opening tag met first means this one was
        // never closed (a value cannot hold one: the writer escapes them).
        let value_len = match (text[at..].find("[/DhtmlXQ"), text[at..].find("[DhtmlXQ")) {
            (Some(close), open) if open.is_none_or(|open| close < open) => close,
            _ => return Err(unclosed(name, at)),
        };
        let close = at + value_len;
        let close_end = text[close..]
            .find(']')
            .ok_or_else(|| unclosed(name, close))?;
        out.push(Field {
            name,
            value: &text[at..close],
            at,
        });
        pos = close + close_end + 1;
    }
    Ok(out)
}

fn digit(b: u8) -> Option<u8> {
    b.is_ascii_digit().then(|| b - b'0')
}

/// The point of a DhtmlXQ file digit and row digit.
fn point(x: u8, y: u8) -> Option<Square> {
    if y > 9 {
        return None;
    }
    Square::from_coords(x, 9 - y)
}

fn digits_of(sq: Square) -> [u8; 2] {
    [b'0' + sq.file().index(), b'0' + (9 - sq.rank().index())]
}

fn read_board(value: &str) -> Option<Board> {
    let bytes = value.trim().as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let mut board = Board::empty();
    for (i, pair) in bytes.chunks(2).enumerate() {
        let (x, y) = (digit(pair[0])?, digit(pair[1])?);
        if (x, y) == (9, 9) {
            continue;
        }
        let color = if i < 16 { Color::Red } else { Color::Black };
        let sq = point(x, y)?;
        if board
            .set(sq, Some(Piece::new(color, ORDER[i % 16])))
            .is_some()
        {
            return None;
        }
    }
    Some(board)
}

fn read_moves(value: &str) -> Option<Vec<Move>> {
    let bytes = value.trim().as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    bytes
        .chunks(4)
        .map(|g| {
            let from = point(digit(g[0])?, digit(g[1])?)?;
            let to = point(digit(g[2])?, digit(g[3])?)?;
            Some(Move::new(from, to))
        })
        .collect()
}

/// `move_P_S_N` as (P, S, N); `commentK` as (0, K); `commentN_K` as (N, K).
fn numbers(rest: &str) -> Option<Vec<usize>> {
    rest.split('_').map(|n| n.parse().ok()).collect()
}

/// Comment text as a record holds it: DhtmlXQ writes a line break as `||`. A bar left
/// alone becomes the full-width ｜: beside a line break (`|||`) it could not be told from
/// the break's own bars, and the game would not read back the same once written.
fn comment_text(value: &str) -> String {
    value.replace("||", "\n").replace('|', "｜")
}

/// Reads the first DhtmlXQ block of `text` into a record: the start position, the main
/// line and every variation, the comments and the headers it knows.
pub fn read(text: &str) -> Result<Record, DhtmlXqError> {
    let Some(block_at) = text.find("[DhtmlXQ") else {
        return Err(DhtmlXqError {
            tag: String::new(),
            offset: 0,
            kind: DhtmlXqErrorKind::NoBoard,
        });
    };
    // Only the first block: a page may hold several boards, and the next block's `[DhtmlXQ]`
    // is where this one's fields stop.
    let block = &text[block_at..];
    let end = block
        .find("[/DhtmlXQ]")
        .map_or(block.len(), |e| e + "[/DhtmlXQ]".len());
    let all = fields(&block[..end]).map_err(|e| DhtmlXqError {
        offset: e.offset + block_at,
        ..e
    })?;
    let fail = |f: &Field<'_>, kind| DhtmlXqError {
        tag: f.name.to_owned(),
        offset: f.at + block_at,
        kind,
    };
    let mut board = Board::startpos();
    let mut main = Vec::new();
    let mut variations = BTreeMap::new();
    let mut comments = Vec::new();
    let mut headers = Vec::new();
    for f in &all {
        if f.name == "binit" {
            board = read_board(f.value).ok_or_else(|| fail(f, DhtmlXqErrorKind::BadBoard))?;
        } else if f.name == "movelist" {
            main = read_moves(f.value).ok_or_else(|| fail(f, DhtmlXqErrorKind::BadMoves))?;
        } else if let Some(rest) = f.name.strip_prefix("move_") {
            let moves = read_moves(f.value).ok_or_else(|| fail(f, DhtmlXqErrorKind::BadMoves))?;
            match numbers(rest).as_deref() {
                Some(&[parent, ply, line]) if line > 0 && ply > 0 => {
                    variations.insert(line, (parent, ply, moves, f));
                }
                _ => return Err(fail(f, DhtmlXqErrorKind::NoParent)),
            }
        } else if let Some(rest) = f.name.strip_prefix("comment") {
            match numbers(rest).as_deref() {
                Some(&[ply]) => comments.push((0, ply, f)),
                Some(&[line, ply]) => comments.push((line, ply, f)),
                // Other comment-like tags are not the game's.
                _ => {}
            }
        } else if f.name == "result" {
            let result = match f.value.trim() {
                "红胜" | "红先胜" | "紅勝" | "紅先勝" | "1-0" => GameResult::RedWins,
                "黑胜" | "红先负" | "黑勝" | "紅先負" | "0-1" => GameResult::BlackWins,
                "和棋" | "和" | "红先和" | "紅先和" | "1/2-1/2" => GameResult::Draw,
                _ => GameResult::Unknown,
            };
            headers.push((tag::RESULT, result.as_pgn().to_owned()));
        } else if let Some((_, header)) = HEADERS.iter().find(|(name, _)| *name == f.name)
            && !f.value.trim().is_empty()
        {
            headers.push((header, f.value.trim().to_owned()));
        }
    }
    // DhtmlXQ does not say who moves first: the first move's piece does.
    let side = main
        .first()
        .and_then(|m| board.get(m.from))
        .map_or(Color::Red, |p| p.color);
    let setup = Setup {
        board,
        side_to_move: side,
        halfmove_clock: 0,
        fullmove_number: 1,
    };
    let start = Position::from_setup(&setup).map_err(|e| {
        let at = all.iter().find(|f| f.name == "binit");
        DhtmlXqError {
            tag: "binit".to_owned(),
            offset: at.map_or(block_at, |f| f.at + block_at),
            kind: DhtmlXqErrorKind::BadPosition(e),
        }
    })?;
    let mut record = Record::new(start.clone());
    // In the order the writer gives them (the known tags in their order, the result
    // last), whatever the order in the text: the same game reads the same either way.
    let rank = |name: &str| {
        HEADERS
            .iter()
            .position(|(_, h)| *h == name)
            .unwrap_or(HEADERS.len())
    };
    headers.sort_by_key(|(name, _)| rank(name));
    for (name, value) in headers {
        record.headers_mut().set(name, &value);
    }
    // Each line's path from the root: the node at every ply, its parent's before it.
    let mut paths: BTreeMap<usize, (Vec<NodeId>, Vec<Position>)> = BTreeMap::new();
    let main_field = all.iter().find(|f| f.name == "movelist");
    let root = record.root();
    let (path, positions) =
        play_line(
            &mut record,
            vec![root],
            vec![start],
            &main,
            |kind| match main_field {
                Some(f) => fail(f, kind),
                None => DhtmlXqError {
                    tag: "movelist".to_owned(),
                    offset: block_at,
                    kind,
                },
            },
        )?;
    paths.insert(0, (path, positions));
    for (line, (parent, ply, moves, f)) in variations {
        let Some((path, positions)) = paths.get(&parent).filter(|(p, _)| ply <= p.len()) else {
            return Err(fail(f, DhtmlXqErrorKind::NoParent));
        };
        let (path, positions) = (path[..ply].to_vec(), positions[..ply].to_vec());
        let line_paths = play_line(&mut record, path, positions, &moves, |kind| fail(f, kind))?;
        paths.insert(line, line_paths);
    }
    for (line, ply, f) in comments {
        if let Some(&node) = paths.get(&line).and_then(|(p, _)| p.get(ply)) {
            record.annotation_mut(node).comment = comment_text(f.value);
        }
    }
    record.clear_history();
    Ok(record)
}

/// Plays `moves` on from the end of `path`, adding each as a child: the line's path and
/// positions, longer by the moves.
fn play_line(
    record: &mut Record,
    mut path: Vec<NodeId>,
    mut positions: Vec<Position>,
    moves: &[Move],
    fail: impl Fn(DhtmlXqErrorKind) -> DhtmlXqError,
) -> Result<(Vec<NodeId>, Vec<Position>), DhtmlXqError> {
    for &mv in moves {
        let (Some(&at), Some(pos)) = (path.last(), positions.last()) else {
            return Err(fail(DhtmlXqErrorKind::NoParent));
        };
        if let Err(e) = pos.check_move(mv) {
            return Err(fail(DhtmlXqErrorKind::IllegalMove {
                mv,
                reason: e.reason,
            }));
        }
        let mut after = pos.clone();
        after.play_unchecked(mv);
        path.push(record.push_child(at, mv));
        positions.push(after);
    }
    Ok((path, positions))
}

/// The record as a DhtmlXQ block: its headers, start position, main line, every variation
/// and every comment. A comment shown before a move is written ahead of the comment after
/// it, DhtmlXQ having only the one.
pub fn write(record: &Record) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    let field = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[DhtmlXQ_{name}]{value}[/DhtmlXQ_{name}]\n"));
    };
    for (name, header) in HEADERS {
        if let Some(value) = record.headers().get(header) {
            field(&mut out, name, &escape(value));
        }
    }
    // Only a result the record states: a record without one reads back without one.
    if record.headers().get(tag::RESULT).is_some() {
        let result = match record.headers().result() {
            GameResult::RedWins => "红胜",
            GameResult::BlackWins => "黑胜",
            GameResult::Draw => "和棋",
            GameResult::Unknown => "未知",
        };
        field(&mut out, "result", result);
    }
    field(&mut out, "binit", &binit(&record.start().board()));
    // Lines in the order a reader needs them: each one after the line it leaves.
    struct Line {
        parent: usize,
        first_ply: usize,
        nodes: Vec<NodeId>,
    }
    let root = record.root();
    let mut lines = vec![Line {
        parent: 0,
        first_ply: 1,
        nodes: record.line_after(root),
    }];
    let mut i = 0;
    while i < lines.len() {
        let mut found = Vec::new();
        for (k, &node) in lines[i].nodes.iter().enumerate() {
            // A line's first move is an alternative itself: its siblings belong to the
            // line its parent continues in.
            if i > 0 && k == 0 {
                continue;
            }
            let Some(parent) = record.parent(node) else {
                continue;
            };
            for alt in record.children(parent).skip(1) {
                let mut nodes = vec![alt];
                nodes.extend(record.line_after(alt));
                found.push(Line {
                    parent: i,
                    first_ply: lines[i].first_ply + k,
                    nodes,
                });
            }
        }
        lines.extend(found);
        i += 1;
    }
    for (n, line) in lines.iter().enumerate() {
        let moves: String = line
            .nodes
            .iter()
            .filter_map(|&id| record.move_at(id))
            .map(|m| {
                let [a, b] = digits_of(m.from);
                let [c, d] = digits_of(m.to);
                String::from_utf8(vec![a, b, c, d]).unwrap_or_default()
            })
            .collect();
        if n == 0 {
            field(&mut out, "movelist", &moves);
        } else {
            field(
                &mut out,
                &format!("move_{}_{}_{}", line.parent, line.first_ply, n),
                &moves,
            );
        }
    }
    let comment = |id: NodeId| {
        let a = record.annotation(id);
        let text = match (a.comment_before.is_empty(), a.comment.is_empty()) {
            (true, _) => a.comment.clone(),
            (false, true) => a.comment_before.clone(),
            (false, false) => format!("{}\n{}", a.comment_before, a.comment),
        };
        escape(&text).replace('\n', "||")
    };
    let root_comment = comment(root);
    if !root_comment.is_empty() {
        field(&mut out, "comment0", &root_comment);
    }
    for (n, line) in lines.iter().enumerate() {
        for (k, &id) in line.nodes.iter().enumerate() {
            let text = comment(id);
            if text.is_empty() {
                continue;
            }
            let ply = line.first_ply + k;
            let name = if n == 0 {
                format!("comment{ply}")
            } else {
                format!("comment{n}_{ply}")
            };
            field(&mut out, &name, &text);
        }
    }
    out.push_str("[/DhtmlXQ]\n");
    out
}

/// The start position's pieces in `binit` order, `99` for each one not on the board.
fn binit(board: &Board) -> String {
    let mut slots = [[b'9'; 2]; 32];
    let mut used = [false; 32];
    // The extra pieces a composed position may have (a third cannon) have no slot.
    for (sq, piece) in board.pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        if let Some(i) = (0..16).find(|&i| ORDER[i] == piece.kind && !used[base + i]) {
            used[base + i] = true;
            slots[base + i] = digits_of(sq);
        }
    }
    slots.iter().flatten().map(|&b| b as char).collect()
}

/// Text safe inside a field: nothing in it may read as a DhtmlXQ tag.
fn escape(text: &str) -> String {
    text.replace("[/DhtmlXQ", "［/DhtmlXQ")
        .replace("[DhtmlXQ", "［DhtmlXQ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::{self, Damage};
    use std::path::{Path, PathBuf};

    /// The shared reference data (`$CHUHE_SHARED_DATA`, or `../shared/data` beside the
    /// project); its absence fails the test rather than passing it silently.
    fn shared_dir() -> PathBuf {
        std::env::var_os("CHUHE_SHARED_DATA").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
            PathBuf::from,
        )
    }

    /// Every node of the tree, depth first, children in order: its moves from the start
    /// and its comment as DhtmlXQ holds it (the comment before a move ahead of the one
    /// after).
    fn tree(record: &Record) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut stack = vec![record.root()];
        while let Some(id) = stack.pop() {
            let moves: Vec<String> = record
                .moves_to(id)
                .iter()
                .map(ToString::to_string)
                .collect();
            let a = record.annotation(id);
            let comment = [a.comment_before.as_str(), a.comment.as_str()]
                .into_iter()
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            out.push((moves.join(" "), comment));
            let children: Vec<NodeId> = record.children(id).collect();
            stack.extend(children.into_iter().rev());
        }
        out
    }

    fn mapped_headers(record: &Record) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = HEADERS
            .iter()
            .filter_map(|(_, h)| Some((h.to_string(), record.headers().get(h)?.trim().to_owned())))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        out.push(("Result".into(), record.headers().result().as_pgn().into()));
        out
    }

    fn assert_round_trip(record: &Record, what: &str) {
        let text = write(record);
        let back = read(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(tree(&back), tree(record), "{what}");
        assert_eq!(mapped_headers(&back), mapped_headers(record), "{what}");
        assert_eq!(back.start().board(), record.start().board(), "{what}");
        if record.move_count() > 0 {
            assert_eq!(
                back.start().side_to_move(),
                record.start().side_to_move(),
                "{what}"
            );
        }
    }

    #[test]
    fn a_hand_written_game_reads_to_its_tree() {
        // 炮二平五 马８进７ 马二进三, with 马８进７ answered in a variation by 兵七进一
        // instead of 马二进三, and comments on the start, the main line and the variation.
        let text = "some forum text [DhtmlXQ]\n\
            [DhtmlXQ_title]测试[/DhtmlXQ_title]\n\
            [DhtmlXQ_red]许银川[/DhtmlXQ_red]\n\
            [DhtmlXQ_black]吕钦[/DhtmlXQ_black]\n\
            [DhtmlXQ_result]红胜[/DhtmlXQ_result]\n\
            [DhtmlXQ_blacktime][/DhtmlXQ_time]\n\
            [DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\n\
            [DhtmlXQ_move_0_3_1]2625[/DhtmlXQ_move_0_3_1]\n\
            [DhtmlXQ_comment0]开局[/DhtmlXQ_comment0]\n\
            [DhtmlXQ_comment1]中炮||当头炮[/DhtmlXQ_comment1]\n\
            [DhtmlXQ_comment1_3]仙人指路[/DhtmlXQ_comment1_3]\n\
            [/DhtmlXQ] more text";
        let record = read(text).unwrap();
        let expected: Vec<(String, String)> = [
            ("", "开局"),
            ("h2e2", "中炮\n当头炮"),
            ("h2e2 h9g7", ""),
            ("h2e2 h9g7 h0g2", ""),
            ("h2e2 h9g7 c3c4", "仙人指路"),
        ]
        .iter()
        .map(|(m, c)| (m.to_string(), c.to_string()))
        .collect();
        assert_eq!(tree(&record), expected);
        assert_eq!(record.headers().get("Title"), Some("测试"));
        assert_eq!(record.headers().get(tag::RED), Some("许银川"));
        assert_eq!(record.headers().get(tag::BLACK), Some("吕钦"));
        assert_eq!(record.headers().result(), GameResult::RedWins);
        assert_eq!(record.start(), &Position::startpos());
    }

    #[test]
    fn the_shared_ubb_sample_reads_with_its_three_variations_and_comments() {
        let bytes = std::fs::read(shared_dir().join("games/wukong_xqdb/game.ubb"))
            .expect("the shared game.ubb");
        let record = read(&String::from_utf8_lossy(&bytes)).unwrap();
        assert_eq!(record.main_line().len(), 9);
        // Three alternatives to the fifth move, each with its comments at its start and end.
        let fourth = record.main_line()[3];
        assert_eq!(record.children(fourth).count(), 4);
        let firsts: Vec<NodeId> = record.children(fourth).skip(1).collect();
        for (i, &first) in firsts.iter().enumerate() {
            assert_eq!(
                record.annotation(first).comment,
                format!("variation {}", i + 1)
            );
            let end = *record.line_after(first).last().unwrap();
            assert_eq!(
                record.annotation(end).comment,
                format!("end of variation {}", i + 1)
            );
        }
        assert_eq!(
            record.annotation(record.main_line()[4]).comment,
            "Here branching occurrs"
        );
        assert_round_trip(&record, "game.ubb");
    }

    #[test]
    fn every_sample_game_round_trips_through_dhtmlxq() {
        let mut count = 0;
        let mut variations = 0;
        for dir in ["formats/xqf_eleeye", "formats/walker8088_cchess_testdata"] {
            let dir = shared_dir().join(dir);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    p.extension().is_some_and(|e| {
                        e.eq_ignore_ascii_case("pgn") || e.eq_ignore_ascii_case("xqf")
                    })
                })
                .collect();
            files.sort();
            for path in files {
                let bytes = std::fs::read(&path).unwrap();
                for record in gamefile::games(&bytes, Some(&path), Damage::Keep)
                    .into_iter()
                    .flatten()
                {
                    assert_round_trip(&record, &path.display().to_string());
                    count += 1;
                    variations += record.line_count().saturating_sub(1);
                }
            }
        }
        assert!(count >= 20, "only {count} sample games");
        assert!(variations >= 300, "only {variations} variations");
    }

    #[test]
    fn truncated_or_garbled_text_is_refused_without_panicking() {
        let sample = write(
            &read(
                "[DhtmlXQ][DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\
             [DhtmlXQ_move_0_3_1]2625[/DhtmlXQ_move_0_3_1]\
             [DhtmlXQ_comment1_3]注[/DhtmlXQ_comment1_3][/DhtmlXQ]",
            )
            .unwrap(),
        );
        for end in 0..=sample.len() {
            if sample.is_char_boundary(end) {
                let _ = read(&sample[..end]);
            }
        }
        let mut state = 12345u32;
        let bytes = sample.as_bytes();
        for _ in 0..2000 {
            let mut garbled = bytes.to_vec();
            for _ in 0..3 {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let at = (state >> 8) as usize % garbled.len();
                garbled[at] = b"0123456789[]_/Dx"[(state >> 4) as usize % 16];
            }
            let _ = read(&String::from_utf8_lossy(&garbled));
        }
    }

    #[test]
    fn a_game_without_a_result_reads_back_without_one() {
        // Found by fuzzing: an unclosed board with no tags but its own.
        let record = read("[DhtmlXQ]\n\u{19}DhtmlXQ_ver]ww").unwrap();
        assert_eq!(record.headers().get(tag::RESULT), None);
        let text = write(&record);
        assert!(!text.contains("DhtmlXQ_result"), "{text}");
        assert_eq!(read(&text).unwrap(), record);
        // A stated result, even an unknown one, is kept.
        let mut known = record.clone();
        known.headers_mut().set(tag::RESULT, "*");
        assert_eq!(read(&write(&known)).unwrap(), known);
    }

    #[test]
    fn a_field_left_open_before_the_next_is_refused() {
        // Found by fuzzing: the date's closing tag garbled, so that the place's tags would
        // have become the date's text (and written back escaped, another text).
        let text =
            "[DhtmlXQ][DhtmlXQ_date][/DhdtaQm_lXte]\n[DhtmlXQ_place]x[/DhtmlXQ_place][/DhtmlXQ]";
        let e = read(text).unwrap_err();
        assert_eq!(
            (e.tag.as_str(), e.kind.clone()),
            ("date", DhtmlXqErrorKind::Unclosed)
        );
        assert_eq!(e.offset, text.find("[/Dhdta").unwrap());
        // Any text the writer would escape ends a value the same way.
        let text = "[DhtmlXQ][DhtmlXQ_comment1]a [DhtmlXQo b[/DhtmlXQ_comment1][/DhtmlXQ]";
        assert_eq!(read(text).unwrap_err().kind, DhtmlXqErrorKind::Unclosed);
    }

    #[test]
    fn a_bar_beside_a_line_break_reads_back_the_same() {
        // Found by fuzzing: `|||` is a line break and a bar, in an order the writer cannot
        // keep; a lone bar is read as ｜.
        let text = "[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_comment1]a|||b|c||[/DhtmlXQ_comment1][/DhtmlXQ]";
        let record = read(text).unwrap();
        let first = record.main_line()[0];
        assert_eq!(record.annotation(first).comment, "a\n｜b｜c\n");
        assert_eq!(read(&write(&record)).unwrap(), record);
    }

    #[test]
    fn the_same_tags_in_another_order_read_the_same() {
        // Found by fuzzing: the result before the title.
        let a = read("[DhtmlXQ][DhtmlXQ_result]和棋[/DhtmlXQ_result][DhtmlXQ_title]t[/DhtmlXQ_title][DhtmlXQ_red]r[/DhtmlXQ_red][/DhtmlXQ]").unwrap();
        let b = read("[DhtmlXQ][DhtmlXQ_red]r[/DhtmlXQ_red][DhtmlXQ_title]t[/DhtmlXQ_title][DhtmlXQ_result]和棋[/DhtmlXQ_result][/DhtmlXQ]").unwrap();
        assert_eq!(a, b);
        assert_eq!(read(&write(&a)).unwrap(), a);
    }

    #[test]
    fn errors_name_the_tag_and_where_it_is() {
        let text = "[DhtmlXQ][DhtmlXQ_movelist]77477047[/DhtmlXQ_movelist][/DhtmlXQ]";
        let e = read(text).unwrap_err();
        assert_eq!(e.tag, "movelist");
        assert_eq!(e.offset, text.find("7747").unwrap());
        assert!(
            matches!(e.kind, DhtmlXqErrorKind::IllegalMove { .. }),
            "{e}"
        );
        let e = read("[DhtmlXQ][DhtmlXQ_binit]0919[/DhtmlXQ_binit]").unwrap_err();
        assert_eq!(
            (e.tag.as_str(), e.kind),
            ("binit", DhtmlXqErrorKind::BadBoard)
        );
        let e = read("[DhtmlXQ][DhtmlXQ_movelist]7747").unwrap_err();
        assert_eq!(
            (e.tag.as_str(), e.kind),
            ("movelist", DhtmlXqErrorKind::Unclosed)
        );
        let e = read("[DhtmlXQ][DhtmlXQ_move_0_9_1]2625[/DhtmlXQ_move_0_9_1]").unwrap_err();
        assert_eq!(
            (e.tag.as_str(), e.kind),
            ("move_0_9_1", DhtmlXqErrorKind::NoParent)
        );
        assert_eq!(read("1. e4").unwrap_err().kind, DhtmlXqErrorKind::NoBoard);
    }
}
