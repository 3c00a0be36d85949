//! The class quiz driven like a teacher does: ask the board's position from the class
//! window, students answer over HTTP, the answers arrive in the chart, Reveal puts the
//! answer on the projector, the next question keeps the scores, the record saves as CSV
//! and opens in the club's players list; and a puzzle set sent as a round.

use crate::class_support::{question as question_now, *};
use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::*;
use chuhe::state::file_chooser::FilePurpose;
use chuhe_core::quiz::Question;
use common::{open_in, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::PathBuf;

/// Two rooks, Red to move: mate in one on the back rank.
const MATE_IN_ONE: &str = "3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1";

/// The app in a test folder of its own named `name`, with `fen` on its board if given and
/// a class open: the folder, the harness, the class's port and code.
fn class_on(name: &str, fen: Option<&str>) -> (PathBuf, Harness<'static, ChuheApp>, u16, String) {
    let dir = temp_dir("class-quiz", name);
    let mut harness = open_in(&dir);
    if let Some(fen) = fen {
        apply(
            &mut harness,
            Action::File(FileAction::Paste(fen.to_owned())),
        );
    }
    let (port, code) = open_class(&mut harness);
    (dir, harness, port, code)
}

/// Asks the class with the button `button` and waits for the right moves: the question.
fn ask(harness: &mut Harness<'_, ChuheApp>, button: &str) -> Question {
    click(harness, button);
    // The solver or the engine finds the right moves in the background.
    wait_judged(harness);
    question_now(harness)
}

/// The in-app file browser, if it is open.
fn file_browser(
    harness: &Harness<'_, ChuheApp>,
) -> Option<chuhe::state::file_chooser::FileBrowser> {
    harness.state().state.file_browser.clone()
}

/// A legal move of `question` that is not one of its right ones.
fn wrong_move(question: &Question) -> chuhe_core::Move {
    let legal = question.position.legal_moves();
    let mut moves = legal.iter().copied();
    moves.find(|m| !question.correct.contains(m)).unwrap()
}

#[test]
fn a_question_asked_gets_answers_in_the_chart_and_reveal_shows_them_to_the_class() {
    let (_dir, mut harness, port, code) = class_on("ask", Some(MATE_IN_ONE));
    assert_eq!(quiz(port, &code), serde_json::Value::Null);
    let question = ask(&mut harness, "几步杀");
    harness.get_by_label("1步杀");
    let asked = quiz(port, &code);
    assert_eq!(asked["kind"], "mate");
    assert_eq!(asked["moves"], 1);
    assert_eq!(asked["open"], true);
    let right = question.correct[0];
    let wrong = wrong_move(&question);
    assert_eq!(answer(port, &code, "小明", 1, &right.to_string()), 200);
    assert_eq!(answer(port, &code, "小红", 1, &wrong.to_string()), 200);
    assert_eq!(answer(port, &code, "小明", 1, &wrong.to_string()), 409);
    wait_for(&mut harness, |app| {
        app.state.class.quiz.question().unwrap().answers.len() == 2
    });
    // The chart: each move with its count, the right one marked.
    let text =
        |m| chuhe_core::notation::format_move(&question.position, m, chuhe_core::Notation::Chinese);
    harness.get_by_label(&format!("{}（正解）", text(right)));
    harness.get_by_label(&text(wrong));
    // Answers from scripts: no one follows the board, so the count stands alone.
    harness.get_by_label("已作答 2 人");
    apply(&mut harness, PresentationAction::ToggleAudience.into());
    // The projector asks the question while the class answers.
    harness.get_by_label("1步杀 · 已作答 2 人");
    click(&mut harness, "揭晓");
    let revealed = quiz(port, &code);
    assert_eq!(revealed["open"], false);
    let solution: Vec<String> = question.correct.iter().map(|&m| text(m)).collect();
    assert_eq!(revealed["answer"], serde_json::json!(solution));
    // Answers are closed once the answer is out.
    assert_eq!(answer(port, &code, "小刚", 1, &right.to_string()), 403);
    // The projector shows the answer and the chart.
    harness.get_by_label(&format!("答案：{}", solution.join(" ")));
    // The next question keeps the scores.
    apply(&mut harness, PresentationAction::ToggleAudience.into());
    click(&mut harness, "下一题");
    assert_eq!(quiz(port, &code), serde_json::Value::Null);
    let standings = quiz_state(&harness).record.standings();
    let table: Vec<(&str, u32)> = standings
        .iter()
        .map(|s| (s.name.as_str(), s.points))
        .collect();
    assert_eq!(table, [("小明", 1), ("小红", 0)]);
    harness.get_by_label("全班得分");
    harness.get_by_label("小明");
    click(&mut harness, "下课");
}

/// Red mates in four, and not sooner, after any of the advisor's four steps.
const MATE_IN_FOUR: &str = "4k4/4a4/9/9/9/9/9/p3R3p/4A4/4K4 w - - 0 1";

#[test]
fn the_best_move_is_any_move_as_good_as_the_engines_and_the_teacher_still_decides() {
    let (_dir, mut harness, port, code) = class_on("equal", Some(MATE_IN_FOUR));
    let question = ask(&mut harness, "找最佳着法");
    let steps: Vec<chuhe_core::Move> = ["e1d0", "e1d2", "e1f0", "e1f2"]
        .map(|m| m.parse().unwrap())
        .into();
    for step in &steps {
        assert!(question.correct.contains(step), "{:?}", question.correct);
    }
    assert_eq!(answer(port, &code, "甲", 1, "e1d0"), 200);
    assert_eq!(answer(port, &code, "乙", 1, "e1f2"), 200);
    assert_eq!(answer(port, &code, "丙", 1, "e2e5"), 200);
    wait_for(&mut harness, |app| {
        app.state.class.quiz.question().unwrap().answers.len() == 3
    });
    assert_eq!(question_now(&harness).right(), 2);
    // The teacher's word goes: one step unmarked, only the other answer is right.
    apply(&mut harness, ClassAction::ToggleCorrect(steps[0]).into());
    assert_eq!(question_now(&harness).right(), 1);
}

#[test]
fn the_teacher_sets_the_answer_and_the_record_opens_in_the_club() {
    let (dir, mut harness, port, code) = class_on("record", Some(MATE_IN_ONE));
    let question = ask(&mut harness, "几步杀");
    let other = wrong_move(&question);
    assert_eq!(answer(port, &code, "Wang Li", 1, &other.to_string()), 200);
    wait_for(&mut harness, |app| {
        !app.state.class.quiz.question().unwrap().answers.is_empty()
    });
    let text =
        chuhe_core::notation::format_move(&question.position, other, chuhe_core::Notation::Chinese);
    // A click on the move marks it right: the answer given is now right.
    click(&mut harness, &text);
    harness.get_by_label(&format!("{text}（正解）"));
    assert_eq!(quiz_state(&harness).record.standings()[0].points, 1);
    // Any legal move may be set right from the list, answered or not.
    let king: chuhe_core::Move = "e0e1".parse().unwrap();
    assert!(!question.correct.contains(&king));
    click(&mut harness, "设定答案…");
    let king_text =
        chuhe_core::notation::format_move(&question.position, king, chuhe_core::Notation::Chinese);
    click(&mut harness, &king_text);
    assert!(question_now(&harness).is_correct(king));
    // The window's button asks where to save, offering a name.
    click(&mut harness, "保存课堂记录…");
    let browser = file_browser(&harness).expect("asked where");
    assert_eq!(
        browser.purpose,
        FilePurpose::Own(chuhe::state::class::RECORD_FILE)
    );
    assert_eq!(browser.file_name, "课堂记录.csv");
    click(&mut harness, "取消");
    // Saved as CSV through the storage service.
    let path = dir.join("class.csv");
    apply(&mut harness, ClassAction::SaveRecord(path.clone()).into());
    let csv = std::fs::read_to_string(&path).unwrap();
    assert!(csv.starts_with("type,question,task,fen,name,move"), "{csv}");
    assert!(
        csv.contains(&format!("answer,1,,,Wang Li,{text},{other},")),
        "{csv}"
    );
    assert!(csv.contains("score,,,,Wang Li,"), "{csv}");
    click(&mut harness, "下课");
    // The club's players list shows the class's points beside the same name.
    apply(&mut harness, ClubAction::Toggle.into());
    let draft = harness.state().state.club.draft.clone();
    apply(
        &mut harness,
        ClubAction::EditDraft(chuhe::state::club::Draft {
            club_name: "周六班".into(),
            ..draft
        })
        .into(),
    );
    apply(&mut harness, ClubAction::NewClub.into());
    for name in ["wang  li", "Zhao"] {
        let draft = harness.state().state.club.draft.clone();
        apply(
            &mut harness,
            ClubAction::EditDraft(chuhe::state::club::Draft {
                player_name: name.into(),
                ..draft
            })
            .into(),
        );
        apply(&mut harness, ClubAction::AddPlayer.into());
    }
    click(&mut harness, "课堂成绩…");
    let browser = file_browser(&harness).expect("asked which");
    assert_eq!(
        browser.purpose,
        FilePurpose::Own(chuhe::state::club::CLASS_RECORD_FILE)
    );
    click(&mut harness, "取消");
    apply(&mut harness, ClubAction::OpenClassRecord(path).into());
    harness.get_by_label("课堂 1 分（答 1 题）");
    harness.get_by_label_contains("1 名与名单对上");
}

#[test]
fn a_puzzle_set_goes_to_the_class_as_a_round() {
    let (_dir, mut harness, port, code) = class_on("round", None);
    apply(&mut harness, PuzzleAction::ToggleBrowser.into());
    let patterns = harness
        .state()
        .state
        .puzzles
        .sets
        .iter()
        .position(|s| s.set.puzzles.iter().any(|p| p.id.starts_with("pattern-")))
        .expect("the 36 patterns are a set");
    apply(&mut harness, PuzzleAction::ShowSet(patterns).into());
    click(&mut harness, "发给课堂");
    let state = &harness.state().state;
    let set = &state.puzzles.sets[state.puzzles.browser_set].set;
    assert!(set.puzzles[0].id.starts_with("pattern-"));
    let (first, second) = (set.puzzles[0].clone(), set.puzzles[1].clone());
    let count = set.puzzles.len();
    // The set's own solution is the answer: no solver runs.
    let quiz_state = &state.class.quiz;
    assert!(!quiz_state.open.as_ref().unwrap().judging);
    assert_eq!(
        quiz_state.question().unwrap().correct,
        first.solution.iter().map(|n| n.mv).collect::<Vec<_>>()
    );
    let asked = quiz(port, &code);
    assert_eq!(asked["fen"], first.position.to_string());
    assert_eq!(asked["kind"], "mate");
    harness.get_by_label_contains(&format!("第 1/{count} 题"));
    // The puzzle list has a 下一题 of its own: put it away.
    apply(&mut harness, PuzzleAction::ToggleBrowser.into());
    click(&mut harness, "下一题");
    assert_eq!(quiz(port, &code)["fen"], second.position.to_string());
    assert_eq!(quiz(port, &code)["id"], 2);
    click(&mut harness, "结束提问");
    assert_eq!(quiz(port, &code), serde_json::Value::Null);
    assert!(harness.state().state.class.quiz.round.is_none());
}

#[test]
fn the_training_items_go_to_the_class_as_a_round() {
    let (_dir, mut harness, port, code) = class_on("training", None);
    apply(&mut harness, TrainAction::ToggleHome.into());
    click(&mut harness, "发给课堂");
    let state = &harness.state().state;
    let training = &state.training;
    let round = state.class.quiz.round.as_ref().expect("a round");
    let due = if training.queue.is_empty() {
        training.catalogue.len()
    } else {
        training.queue.len()
    };
    assert!(due > 0);
    assert_eq!(round.items.len(), due);
    let first = &round.items[0];
    // A puzzle's item: its position, its tree's first moves the answer.
    let item = training
        .catalogue
        .iter()
        .find(|i| i.title == first.title && i.start == first.position)
        .expect("the item asked");
    let chuhe_core::training::Task::Tree(tree) = &item.task else {
        panic!("a built-in item is a tree");
    };
    assert_eq!(first.correct, tree.iter().map(|n| n.mv).collect::<Vec<_>>());
    assert_eq!(quiz(port, &code)["fen"], first.position.to_string());
    assert!(!state.class.quiz.open.as_ref().unwrap().judging);
}

#[test]
fn the_revealed_board_draws_the_answer_strong_and_a_few_right_moves_light() {
    use chuhe::theme::{QUIZ_ANSWER_ARROW, QUIZ_OTHER_ARROW};
    let (_dir, mut harness, port, code) = class_on("arrows", None);
    let question = ask(&mut harness, "找最佳着法");
    // The teacher's own right moves, the first of them the answer.
    for &mv in &question.correct {
        apply(&mut harness, ClassAction::ToggleCorrect(mv).into());
    }
    for mv in ["b2e2", "h0g2", "c3c4", "b0c2", "g3g4"] {
        apply(
            &mut harness,
            ClassAction::ToggleCorrect(mv.parse().unwrap()).into(),
        );
    }
    // Seven moves given: four right ones (the answer itself by no one) and three wrong,
    // the wrong 炮二平五 the most given of all.
    let given = [
        ("h2e2", 3),
        ("h0g2", 2),
        ("b0c2", 1),
        ("c3c4", 2),
        ("g3g4", 1),
        ("i0i1", 1),
        ("a3a4", 1),
    ];
    let mut n = 0;
    for (mv, count) in given {
        for _ in 0..count {
            n += 1;
            assert_eq!(answer(port, &code, &format!("学生{n}"), 1, mv), 200);
        }
    }
    wait_for(&mut harness, |app| {
        app.state.class.quiz.question().unwrap().answers.len() == n
    });
    let theme = harness.state().state.settings.theme.theme();
    // The board's arrows from the quiz, as (move, thin), in the order painted.
    let quiz_arrows = |harness: &Harness<'_, ChuheApp>| -> Vec<(String, bool)> {
        chuhe::widgets::board::study_marks(&harness.state().state, &theme)
            .arrows
            .iter()
            .filter(|a| [QUIZ_ANSWER_ARROW, QUIZ_OTHER_ARROW].contains(&a.color))
            .map(|a| (format!("{}{}", a.from, a.to), a.thin))
            .collect()
    };
    assert!(quiz_arrows(&harness).is_empty(), "nothing before Reveal");
    click(&mut harness, "揭晓");
    // The answer last, on top, strong; then the right moves given most, light (ties in
    // the order given), at most four arrows in all: 兵三进一, given once like 马八进七 but
    // later, is left out, and so is every wrong move.
    assert_eq!(
        quiz_arrows(&harness),
        [
            ("b0c2".to_owned(), true),
            ("c3c4".to_owned(), true),
            ("h0g2".to_owned(), true),
            ("b2e2".to_owned(), false),
        ]
    );
    let strong: Vec<_> = chuhe::widgets::board::study_marks(&harness.state().state, &theme)
        .arrows
        .into_iter()
        .filter(|a| !a.thin)
        .collect();
    assert_eq!(strong.len(), 1, "one strong arrow: {strong:?}");
    assert_eq!(strong[0].color, QUIZ_ANSWER_ARROW);
    // The students' page gets the board drawn the same way: one strong head in the
    // answer's green, three light ones.
    let shown = Follower::join(port, &code, "/quiz").next("quiz");
    let svg = shown["revealed"]["svg"].as_str().unwrap().to_owned();
    let fills = |colour: egui::Color32| {
        let [r, g, b, _] = colour.to_srgba_unmultiplied();
        svg.matches(&format!("fill=\"#{r:02x}{g:02x}{b:02x}\""))
            .count()
    };
    assert_eq!((fills(QUIZ_ANSWER_ARROW), fills(QUIZ_OTHER_ARROW)), (1, 3));
}
