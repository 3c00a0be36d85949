//! The built-in library: annotated openings (and the named checkmate patterns), as RON in
//! `assets/library/`, compiled into the binary so every program of Chuhe has it.

pub mod openings;
