//! Words shared by the panels: names of pieces, sides, patterns, lines of moves, notices.

use crate::i18n::{I18n, Language};
use crate::state::Notice;
use crate::state::problem::{Problem, ProblemArg};
use chuhe_core::PieceKind;
use chuhe_core::library::patterns::{self, Pattern, PatternId};
use chuhe_core::notation::format_move;
use chuhe_core::play::{GameEnd, PlayedResult};
use chuhe_core::repetition::ForbiddenKind;
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

/// A notice in the user's language.
pub fn notice_text(i18n: &I18n, notice: &Notice) -> String {
    match notice {
        Notice::Illegal(reason) => i18n.tr_args(
            "illegal-move",
            &[("reason", i18n.tr(illegal_id(*reason)).into())],
        ),
        Notice::Message(id) => i18n.tr(id),
        Notice::WithArg(id, name, value) => i18n.tr_args(id, &[(name, value.clone().into())]),
        Notice::Problem(problem) => problem_text(i18n, problem),
    }
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
