//! How the app writes things for the user: names of pieces, sides, patterns and materials,
//! lines of moves, scores, mates, results, and the text of a problem.

use crate::i18n::{I18n, Language};
use crate::settings::ScoreUnit;
use crate::words::problem::{Problem, ProblemArg};
use chuhe_core::PieceKind;
use chuhe_core::library::patterns::{self, Pattern, PatternId};
use chuhe_core::notation::format_move;
use chuhe_core::play::{GameEnd, PlayedResult};
use chuhe_core::repetition::ForbiddenKind;
use chuhe_core::search::Score;
use chuhe_core::tb::Material;
use chuhe_core::{Color, EndReason, Move, Piece, Position};

/// The pattern's name in `language`.
pub fn name(pattern: &Pattern, language: Language) -> &str {
    match language {
        Language::ZhCn => &pattern.names.zh_cn,
        Language::ZhTw => &pattern.names.zh_tw,
        Language::En => &pattern.names.en,
    }
}

/// The names of `ids` in the user's language, joined.
pub fn names_of(ids: &[PatternId], language: Language) -> String {
    let sep = if language == Language::En {
        ", "
    } else {
        "、"
    };
    ids.iter()
        .filter_map(|&id| patterns::pattern(id))
        .map(|p| name(p, language).to_owned())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A line of moves from `pos` in `notation`, numbered.
pub fn line_text(pos: &Position, line: &[Move], notation: chuhe_core::Notation) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for (i, &m) in line.iter().enumerate() {
        let word = format_move(&p, m, notation);
        words.push(if i % 2 == 0 {
            format!("{}. {word}", i / 2 + 1)
        } else {
            word
        });
        p.play_unchecked(m);
    }
    words.join(" ")
}

/// N in "N 步杀": how many moves the winner makes in a mate `plies` plies away, its mating
/// move included. Every distance to mate the app shows (puzzles, patterns, tablebases,
/// engine lines) is said in these moves.
pub fn mate_moves(plies: u32) -> u32 {
    plies.div_ceil(2)
}

/// "红方 N 步杀": `winner` mates in `moves` of its own moves.
pub fn mate_text(i18n: &I18n, winner: Color, moves: u32) -> String {
    i18n.tr_args(
        "mate-by-side",
        &[
            ("side", side_name(i18n, winner).into()),
            ("moves", moves.into()),
        ],
    )
}

/// An evaluation from Red's point of view in the user's unit: `+1.23` or `+123`, or who
/// mates in how many moves.
pub fn score_text(i18n: &I18n, score: Score, unit: ScoreUnit) -> String {
    match score {
        Score::Cp(cp) => match unit {
            ScoreUnit::Pawns => format!("{:+.2}", f64::from(cp) / 100.0),
            ScoreUnit::Centipawns => format!("{cp:+}"),
        },
        Score::Mate(n) if n > 0 => mate_text(i18n, Color::Red, n.unsigned_abs()),
        Score::Mate(n) if n < 0 => mate_text(i18n, Color::Black, n.unsigned_abs()),
        // Mated already: the side to move has no move, whichever side that is.
        Score::Mate(_) => i18n.tr("score-mated"),
    }
}

/// A material in words of the interface language: 车 对 双士, 車 對 雙士, "rook vs two
/// advisors", where tables and endgame lists would otherwise show the code `KR v KAA`.
pub fn material_name(i18n: &I18n, material: &Material) -> String {
    let side = |color: Color| {
        let kinds = material.pieces(color);
        if kinds.is_empty() {
            return i18n.tr_args(
                "material-bare",
                &[(
                    "general",
                    bare_piece_name(i18n, Piece::new(color, PieceKind::General)).into(),
                )],
            );
        }
        let mut groups: Vec<(PieceKind, usize)> = Vec::new();
        for &kind in kinds {
            match groups.last_mut() {
                Some((last, n)) if *last == kind => *n += 1,
                _ => groups.push((kind, 1)),
            }
        }
        groups
            .into_iter()
            .map(|(kind, count)| {
                i18n.tr_args(
                    "material-piece",
                    &[
                        (
                            "piece",
                            bare_piece_name(i18n, Piece::new(color, kind)).into(),
                        ),
                        ("count", count.into()),
                    ],
                )
            })
            .collect::<Vec<_>>()
            .join(&i18n.tr("material-joiner"))
    };
    i18n.tr_args(
        "material-vs",
        &[
            ("red", side(Color::Red).into()),
            ("black", side(Color::Black).into()),
        ],
    )
}

/// A piece's character in Chinese, its word alone in English. In running text traditional
/// Chinese writes 車 馬 炮 for both sides (俥 傌 and 砲 are the pieces' own faces).
fn bare_piece_name(i18n: &I18n, piece: Piece) -> String {
    match i18n.language() {
        Language::ZhCn => piece.hanzi().to_string(),
        Language::ZhTw => match piece.kind {
            PieceKind::Rook => "車".to_owned(),
            PieceKind::Horse => "馬".to_owned(),
            PieceKind::Cannon => "炮".to_owned(),
            _ => piece.hanzi_traditional().to_string(),
        },
        Language::En => i18n.tr(kind_id(piece.kind)),
    }
}

/// An ECCO code with its one name, "C00 中炮对屏风马", wherever the app shows a code (the
/// names are the classification's own, in Chinese); the bare code if the table lacks it.
pub fn ecco_label(code: &str) -> String {
    match chuhe_core::library::openings::ecco::name_of(code) {
        Some(name) => format!("{code} {name}"),
        None => code.to_owned(),
    }
}

/// The events the built-in 实战 puzzles were cut from, as their sources name them (in
/// English), with the message that names each in the interface language.
const GAME_EVENTS: [(&str, &str); 15] = [
    ("5 Ram Cup Xiangqi Championship", "puzzle-event-ram-cup"),
    (
        "Asian Xiangqi Individual Championships",
        "puzzle-event-asian-individual",
    ),
    ("BGN World Xiangqi Challenge", "puzzle-event-bgn"),
    ("Canadian National Champion", "puzzle-event-canada"),
    ("China Team Championship", "puzzle-event-china-team"),
    ("Chinese National Champion", "puzzle-event-china-individual"),
    ("Chinese Qiwang Championship", "puzzle-event-qiwang"),
    (
        "Hong Kong Individual Championship",
        "puzzle-event-hk-individual",
    ),
    ("Hong Kong Team Champion", "puzzle-event-hk-team"),
    ("Malaysia Open", "puzzle-event-malaysia-open"),
    (
        "Malaysian Qiwang Championship",
        "puzzle-event-malaysia-qiwang",
    ),
    (
        "Red Bull Cup TV fast game Champion",
        "puzzle-event-red-bull",
    ),
    ("World Xiangqi Champion Tournament", "puzzle-event-world"),
    ("World Xiangqi Championships", "puzzle-event-world"),
    ("Yinli Cup Champion", "puzzle-event-yinli"),
];

/// The title of a built-in 实战 puzzle (cut from a master game) in Chinese, made from its
/// own source: the event and year ("1997 年世界象棋锦标赛"). Its stored title names the
/// players romanised ("LE Thien Vi - BI BingJian"), which the data gives no Chinese for;
/// English keeps that title. `None` for every other puzzle, and in English.
pub fn game_puzzle_title(i18n: &I18n, puzzle: &chuhe_core::puzzle::Puzzle) -> Option<String> {
    if i18n.language() == Language::En || !puzzle.id.starts_with("wukong-") {
        return None;
    }
    // "World Xiangqi Championships 1997 · wukong-xiangqi puzzle_0 (MIT)"
    let event = puzzle.source.split(" · ").next().unwrap_or_default().trim();
    let (name, year) = match event.rsplit_once(' ') {
        Some((name, year)) if year.len() == 4 && year.chars().all(|c| c.is_ascii_digit()) => {
            (name.trim(), Some(year.to_owned()))
        }
        _ => (event, None),
    };
    let id = GAME_EVENTS
        .iter()
        .find(|(english, _)| *english == name)
        .map(|(_, id)| *id);
    Some(match (id, year) {
        (Some(id), Some(year)) => i18n.tr_args(
            "puzzle-game-event-year",
            &[("event", i18n.tr(id).into()), ("year", year.into())],
        ),
        (Some(id), None) => i18n.tr(id),
        (None, Some(year)) => i18n.tr_args("puzzle-game-year", &[("year", year.into())]),
        (None, None) => i18n.tr("puzzle-game"),
    })
}

/// The name of a piece in the interface language: its character in Chinese, a word (and
/// the character) in English.
pub fn piece_name(i18n: &I18n, piece: Piece) -> String {
    match i18n.language() {
        Language::ZhCn => piece.hanzi().to_string(),
        Language::ZhTw => piece.hanzi_traditional().to_string(),
        Language::En => format!("{} ({})", i18n.tr(kind_id(piece.kind)), piece.hanzi()),
    }
}

/// "Red" or "Black" in the interface language.
pub fn side_name(i18n: &I18n, color: Color) -> String {
    i18n.tr(match color {
        Color::Red => "editor-side-red",
        Color::Black => "editor-side-black",
    })
}

/// A problem (with a file) in the user's language, its inner messages put into words
/// first.
pub fn problem_text(i18n: &I18n, problem: &Problem) -> String {
    let args: Vec<crate::i18n::Arg<'_>> = problem
        .args
        .iter()
        .map(|(name, value)| {
            let value = match value {
                ProblemArg::Text(text) => text.clone(),
                ProblemArg::Problem(inner) => problem_text(i18n, inner),
            };
            (*name, value.into())
        })
        .collect();
    i18n.tr_args(problem.id, &args)
}

/// The message id of a reason a move is illegal.
pub fn illegal_id(reason: chuhe_core::IllegalReason) -> &'static str {
    use chuhe_core::IllegalReason::*;
    match reason {
        NoPiece => "illegal-no-piece",
        NotYourPiece => "illegal-not-your-piece",
        OwnPieceOnTarget => "illegal-own-piece-on-target",
        WrongShape => "illegal-wrong-shape",
        LeavesPalace => "illegal-leaves-palace",
        CrossesRiver => "illegal-crosses-river",
        ElephantEyeBlocked => "illegal-elephant-eye-blocked",
        HorseLegBlocked => "illegal-horse-leg-blocked",
        PathBlocked => "illegal-path-blocked",
        CannonNeedsScreen => "illegal-cannon-needs-screen",
        CannonTooManyScreens => "illegal-cannon-too-many-screens",
        PawnSidewaysBeforeRiver => "illegal-pawn-sideways",
        PawnBackwards => "illegal-pawn-backwards",
        GeneralsWouldFace => "illegal-generals-face",
        StillInCheck => "illegal-still-in-check",
        ExposesGeneral => "illegal-exposes-general",
    }
}

/// The message id of an end reason.
pub fn reason_id(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "end-checkmate",
        EndReason::Stalemate => "end-stalemate",
        EndReason::MoveLimit => "end-move-limit",
        EndReason::PerpetualCheck => "end-perpetual-check",
        EndReason::RepetitionDraw => "end-repetition-draw",
        EndReason::ForbiddenRepetition { kind } => match kind {
            ForbiddenKind::PerpetualMateThreat => "end-perpetual-mate-threat",
            ForbiddenKind::PerpetualChase => "end-perpetual-chase",
            ForbiddenKind::CheckAndMateThreat => "end-check-and-mate-threat",
            ForbiddenKind::CheckAndChase => "end-check-and-chase",
            ForbiddenKind::MateThreatAndChase => "end-mate-threat-and-chase",
            ForbiddenKind::CheckMateThreatAndChase => "end-check-mate-threat-and-chase",
        },
    }
}

/// The result in words: who won and why, or a draw and why.
pub fn result_text(i18n: &I18n, result: &PlayedResult) -> String {
    let reason = match result.end {
        GameEnd::Rules(reason) => i18n.tr(reason_id(reason)),
        GameEnd::Resigned => i18n.tr("play-end-resigned"),
        GameEnd::Time => i18n.tr("play-end-time"),
        GameEnd::Agreed => i18n.tr("play-end-agreed"),
    };
    let winner = match result.winner {
        Some(Color::Red) => i18n.tr("result-red-wins"),
        Some(Color::Black) => i18n.tr("result-black-wins"),
        None => i18n.tr("result-draw"),
    };
    i18n.tr_args(
        "game-over",
        &[("winner", winner.into()), ("reason", reason.into())],
    )
}

fn kind_id(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "editor-piece-general",
        PieceKind::Advisor => "editor-piece-advisor",
        PieceKind::Elephant => "editor-piece-elephant",
        PieceKind::Horse => "editor-piece-horse",
        PieceKind::Rook => "editor-piece-rook",
        PieceKind::Cannon => "editor-piece-cannon",
        PieceKind::Pawn => "editor-piece-pawn",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ecco_code_has_one_name_in_the_browser_and_the_classifier() {
        use chuhe_core::library::openings::{builtin, ecco};
        let book = builtin().unwrap();
        let start = Position::startpos();
        let mut checked = 0;
        for node in &book.nodes {
            let Some(code) = &node.ecco else { continue };
            let found = ecco::classify(&start, &node.moves).expect("a coded line is classified");
            assert_eq!(
                ecco_label(code),
                format!("{} {}", found.code, found.name()),
                "{}",
                node.names.zh_cn
            );
            checked += 1;
        }
        assert!(checked > 100, "{checked} coded positions");
        // The table's own entries name themselves the same way.
        let table = ecco::builtin().unwrap();
        for entry in &table.entries {
            assert_eq!(
                ecco_label(&entry.code),
                format!("{} {}", entry.code, entry.name())
            );
        }
    }

    #[test]
    fn materials_are_named_in_the_interface_language() {
        let zh = I18n::new(Language::ZhCn);
        let tw = I18n::new(Language::ZhTw);
        let en = I18n::new(Language::En);
        let m = |code: &str| {
            code.parse::<Material>()
                .unwrap_or_else(|e| panic!("{code}: {e}"))
        };
        assert_eq!(material_name(&zh, &m("KR v KAA")), "车 对 双士");
        assert_eq!(material_name(&tw, &m("KR v KAA")), "車 對 雙士");
        assert_eq!(material_name(&en, &m("KR v KAA")), "rook vs two advisors");
        assert_eq!(material_name(&zh, &m("KR v K")), "车 对 单将");
        assert_eq!(material_name(&en, &m("K v KR")), "bare general vs rook");
        let mixed = m("KNP v KB");
        assert_eq!(material_name(&zh, &mixed), "马兵 对 象");
        assert_eq!(material_name(&en, &mixed), "horse and pawn vs elephant");
        assert_eq!(material_name(&tw, &m("KPP v KA")), "雙兵 對 士");
    }

    #[test]
    fn distances_are_the_winners_moves_and_scores_follow_the_unit() {
        // A mate in 1, 3, 19 plies is the winner's 1, 2, 10 moves; a loss in 2 plies
        // (the loser moves, then is mated) is one move of the winner.
        assert_eq!(
            [1, 2, 3, 19, 20].map(mate_moves),
            [1, 1, 2, 10, 10],
            "plies to moves"
        );
        let zh = I18n::new(Language::ZhCn);
        let en = I18n::new(Language::En);
        let tw = I18n::new(Language::ZhTw);
        assert_eq!(score_text(&zh, Score::Cp(123), ScoreUnit::Pawns), "+1.23");
        assert_eq!(score_text(&zh, Score::Cp(-5), ScoreUnit::Pawns), "-0.05");
        assert_eq!(
            score_text(&zh, Score::Cp(123), ScoreUnit::Centipawns),
            "+123"
        );
        assert_eq!(score_text(&zh, Score::Cp(-5), ScoreUnit::Centipawns), "-5");
        assert_eq!(
            score_text(&zh, Score::Mate(3), ScoreUnit::Pawns),
            "红方 3 步杀"
        );
        assert_eq!(
            score_text(&zh, Score::Mate(-2), ScoreUnit::Centipawns),
            "黑方 2 步杀"
        );
        assert_eq!(
            score_text(&tw, Score::Mate(-2), ScoreUnit::Pawns),
            "黑方 2 步殺"
        );
        assert_eq!(
            score_text(&en, Score::Mate(4), ScoreUnit::Pawns),
            "Red mates in 4"
        );
    }
}
