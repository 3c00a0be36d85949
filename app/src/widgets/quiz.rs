//! The class quiz's chart: each move the class gave with its count as a bar, the right
//! ones marked, the time taken; drawn in the teacher's class window and, once revealed,
//! on the projector.

use crate::i18n::I18n;
use crate::theme::{QUIZ_BAR, QUIZ_BAR_RIGHT};
use chuhe_core::notation::Notation;
use chuhe_core::quiz::{Kind, Question};
use egui::{RichText, Sense, Ui, Vec2};

/// One bar of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The move as the teacher writes it.
    pub text: String,
    /// The move.
    pub mv: chuhe_core::Move,
    /// How many gave it.
    pub count: usize,
    /// Whether it is right.
    pub correct: bool,
    /// The mean time those who gave it took, in seconds.
    pub seconds: f64,
}

/// The chart of `question`'s answers, moves written in `notation`.
pub fn bars(question: &Question, notation: Notation) -> Vec<Bar> {
    question
        .tally()
        .into_iter()
        .map(|c| {
            let times: Vec<u64> = question
                .answers
                .iter()
                .filter(|a| a.mv == c.mv)
                .map(|a| a.millis)
                .collect();
            let seconds = if times.is_empty() {
                0.0
            } else {
                times.iter().sum::<u64>() as f64 / times.len() as f64 / 1000.0
            };
            Bar {
                text: chuhe_core::notation::format_move(&question.position, c.mv, notation),
                mv: c.mv,
                count: c.count,
                correct: c.correct,
                seconds,
            }
        })
        .collect()
}

/// What a question asks, in words: 找最佳着法, or mate in N (N not known yet: 几步杀).
pub fn question_text(i18n: &I18n, kind: Kind) -> String {
    match kind {
        Kind::BestMove => i18n.tr("class-quiz-kind-best"),
        Kind::MateIn(0) => i18n.tr("class-quiz-kind-mate-unknown"),
        Kind::MateIn(n) => i18n.tr_args("class-quiz-kind-mate", &[("moves", n.into())]),
    }
}

/// Draws the chart, its text `size` points high (in `colour`, else the theme's); with
/// `clickable`, each move is a button and the one clicked is returned (the teacher marks
/// it right or not).
pub fn chart(
    ui: &mut Ui,
    i18n: &I18n,
    bars: &[Bar],
    size: f32,
    colour: Option<egui::Color32>,
    clickable: bool,
) -> Option<usize> {
    let paint = |text: RichText| match colour {
        Some(c) => text.color(c),
        None => text,
    };
    let most = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let mut clicked = None;
    let width = size * 12.0;
    egui::Grid::new(ui.scope_id().with("quiz chart"))
        .num_columns(4)
        .spacing([size * 0.5, size * 0.3])
        .show(ui, |ui| {
            for (i, bar) in bars.iter().enumerate() {
                let label = if bar.correct {
                    i18n.tr_args(
                        "class-quiz-right-move",
                        &[("move", bar.text.clone().into())],
                    )
                } else {
                    bar.text.clone()
                };
                let text = paint(RichText::new(label).size(size));
                if clickable {
                    if ui.selectable_label(bar.correct, text).clicked() {
                        clicked = Some(i);
                    }
                } else {
                    ui.label(text);
                }
                let (rect, _) =
                    ui.allocate_exact_size(Vec2::new(width, size * 0.9), Sense::hover());
                let filled = rect.width() * bar.count as f32 / most as f32;
                let colour = if bar.correct {
                    QUIZ_BAR_RIGHT
                } else {
                    QUIZ_BAR
                };
                let mut bar_rect = rect;
                bar_rect.set_width(filled.max(2.0));
                ui.painter().rect_filled(bar_rect, size * 0.15, colour);
                ui.label(paint(
                    RichText::new(bar.count.to_string()).size(size).strong(),
                ));
                if bar.count > 0 {
                    ui.label(paint(
                        RichText::new(i18n.tr_args(
                            "class-quiz-seconds",
                            &[("seconds", format!("{:.1}", bar.seconds).into())],
                        ))
                        .size(size * 0.8),
                    ));
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
    clicked
}
