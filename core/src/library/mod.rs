//! The built-in library: annotated openings and the 36 named checkmate patterns, as RON in
//! `assets/library/`, compiled into the binary so every program of Chuhe has it.

pub mod openings;
pub mod patterns;
