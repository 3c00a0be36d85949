//! Words for the user, below the state: how moves, scores, pieces, results and names are
//! written ([`text`]), the problems the app reports with where and why ([`problem`]), and
//! every error of the core put in those words ([`problems`]). Plain functions over the
//! core's types and the translations; nothing here knows the state, the panels or the
//! commands.

pub mod problem;
pub mod problems;
pub mod text;
