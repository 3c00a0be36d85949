//! The app's integration tests, one module a feature, linked into one test binary: each
//! binary links the whole of egui and the app, so one binary instead of thirty saves CI
//! minutes of linking and gigabytes of disk.

mod common;

mod analysis_tables;
mod board_window;
mod class;
mod class_browser;
mod class_follow;
mod class_quiz;
mod class_support;
mod club;
mod collections;
mod dhtmlxq;
mod diagram;
mod editor;
mod errors;
mod external_engine;
mod feedback;
mod file_chooser;
mod files;
mod font;
mod knowledge;
mod layering;
mod layout;
mod locales;
mod moves;
mod openings;
mod packaging;
mod patterns;
mod picture;
mod play;
mod presentation;
mod sound;
mod study;
mod tabs;
mod training;
mod window;
mod wording;
mod worksheet;
