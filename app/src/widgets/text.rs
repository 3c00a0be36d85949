//! The words the panels draw that depend on the state: a notice, an open game's title and
//! the presentation's caption. The formatting itself (moves, scores, names, results) is in
//! [`crate::words::text`], below the state, and is re-exported here for the panels.

pub use crate::words::text::*;

use crate::i18n::I18n;
use crate::state::Notice;

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

/// An open game's whole title: what the game calls itself (see
/// [`crate::state::study::Study::title`]), or else "untitled".
pub fn game_title(i18n: &I18n, study: &crate::state::study::Study) -> String {
    study.title().unwrap_or_else(|| i18n.tr("file-untitled"))
}

/// The caption over the presented board: the move on the board with its number and side,
/// then whose move it is (第 12 回合 红方 炮二平五 — 黑方走棋); at the start only the latter.
pub fn presentation_caption(app: &crate::widgets::View) -> String {
    let state = &app.state;
    let i18n = &app.i18n;
    let side_name = |side: chuhe_core::Color| {
        i18n.tr(match side {
            chuhe_core::Color::Red => "caption-side-red",
            chuhe_core::Color::Black => "caption-side-black",
        })
    };
    let next = side_name(state.position().side_to_move());
    let record = &state.study.record;
    let cursor = state.study.cursor;
    let played = record
        .move_at(cursor)
        .zip(record.parent(cursor).and_then(|p| record.position_at(p)));
    let Some((mv, before)) = played else {
        return i18n.tr_args("presentation-caption-start", &[("next", next.into())]);
    };
    let start = record.start();
    // Black's first move of a game set up with Black to move still counts as move one.
    let plies_before = record.moves_to(cursor).len() - 1
        + usize::from(start.side_to_move() == chuhe_core::Color::Black);
    let number = start.fullmove_number() as usize + plies_before / 2;
    let text = chuhe_core::notation::format_move(&before, mv, state.settings.notation.notation());
    i18n.tr_args(
        "presentation-caption",
        &[
            ("number", number.into()),
            ("side", side_name(before.side_to_move()).into()),
            ("move", text.into()),
            ("next", next.into()),
        ],
    )
}
