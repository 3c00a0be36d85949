//! Training: the schedule agrees with the FSRS crate's own computation, a repertoire's
//! drill asks every branch, a round cut short keeps what was graded, and the drills of
//! puzzles, patterns and endgames judge moves as their tasks say.

use chrono::{DateTime, Utc};
use chuhe_core::puzzle::pattern_set;
use chuhe_core::tb::{Material, Tablebases};
use chuhe_core::training::drill::{Answer, Attempt, Drill, no_tables};
use chuhe_core::training::schedule::{self, Grade, Memory};
use chuhe_core::training::store::{self, Now, TrainingData, TrainingStore};
use chuhe_core::training::{EndgamePosition, Item, Kind, Repertoire, puzzle_items};
use chuhe_core::{Color, Move, Position};
use rs_fsrs::{Card, FSRS, Parameters, Rating};
use std::path::PathBuf;

const DAY: i64 = 86_400;
/// 2025-03-01 08:00 UTC.
const T0: i64 = 1_740_816_000;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhe-training-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn at(seconds: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(seconds, 0).unwrap()
}

/// A scripted sequence of grades, each given when the item falls due (some a day late,
/// one early): the memory states Chuhe stores equal the crate's own cards, step by step.
#[test]
fn the_schedule_of_a_scripted_sequence_of_grades_is_the_crates() {
    let script = [
        (Grade::Good, 0),
        (Grade::Good, DAY),
        (Grade::Hard, 0),
        (Grade::Again, 2 * DAY),
        (Grade::Good, -3600),
        (Grade::Easy, 0),
        (Grade::Good, 5 * DAY),
        (Grade::Again, 0),
        (Grade::Hard, DAY),
    ];
    let fsrs = FSRS::new(Parameters::default());
    let mut card = Card {
        due: at(T0),
        last_review: at(T0),
        ..Card::default()
    };
    let mut memory: Option<Memory> = None;
    let mut now = T0;
    for (step, &(grade, late)) in script.iter().enumerate() {
        let rating = match grade {
            Grade::Again => Rating::Again,
            Grade::Hard => Rating::Hard,
            Grade::Good => Rating::Good,
            Grade::Easy => Rating::Easy,
        };
        card = fsrs.next(card, at(now), rating).card;
        let ours = schedule::review(memory.as_ref(), grade, now);
        assert_eq!(ours.card(), card, "step {step}: {grade:?}");
        assert_eq!(ours.due, card.due.timestamp(), "step {step}");
        memory = Some(ours);
        now = card.due.timestamp().max(now + 60) + late;
    }
    // The same script through the stored state gives the same last memory.
    let item = Repertoire::from_lines(
        "r",
        "r",
        Color::Red,
        &Position::startpos(),
        vec![vec![mv("h2e2")]],
    )
    .items()
    .remove(0);
    let mut data = TrainingData::default();
    let mut now = T0;
    for &(grade, late) in &script {
        data.record(&item, grade, grade, &Attempt::default(), now);
        let due = data.items[&item.id].memory.due;
        now = due.max(now + 60) + late;
    }
    assert_eq!(data.items[&item.id].memory, memory.unwrap());
    assert_eq!(data.items[&item.id].history.len(), script.len());
}

/// Overriding the grade works the memory out again from the state before the review.
#[test]
fn an_overridden_grade_replaces_the_attempts() {
    let item = puzzle_items("patterns", &pattern_set().unwrap(), Kind::Pattern).remove(0);
    let mut data = TrainingData::default();
    data.record(&item, Grade::Good, Grade::Good, &Attempt::default(), T0);
    let after_good = data.items[&item.id].memory;
    data.record(
        &item,
        Grade::Again,
        Grade::Again,
        &Attempt::default(),
        after_good.due,
    );
    assert!(data.regrade_last(&item.id, Grade::Easy));
    let expected = schedule::review(Some(&after_good), Grade::Easy, after_good.due);
    let record = &data.items[&item.id];
    assert_eq!(record.memory, expected);
    let last = record.history.last().unwrap();
    assert_eq!((last.grade, last.earned), (Grade::Easy, Grade::Again));
    assert!(!data.regrade_last("no-such-item", Grade::Good));
}

/// Red's repertoire: 炮二平五, and against either 马8进7 or 马2进3 its own answer. Drilling
/// the repertoire's lines plays each of Black's replies in turn and asks Red's answer to
/// each.
#[test]
fn a_drill_of_a_two_branch_repertoire_asks_both_branches() {
    let start = Position::startpos();
    let mut record = chuhe_core::record::Record::new(start.clone());
    let root = record.root();
    let c = record.add_move(root, mv("h2e2")).unwrap();
    let b1 = record.add_move(c, mv("h9g7")).unwrap();
    record.add_move(b1, mv("h0g2")).unwrap();
    let b2 = record.add_move(c, mv("b9c7")).unwrap();
    record.add_move(b2, mv("b0c2")).unwrap();
    let rep = Repertoire::from_record("mine", "中炮", Color::Red, &record);
    let items = rep.items();
    assert_eq!(items.len(), 2);
    let mut data = TrainingData::default();
    data.set_repertoire(rep);
    let catalogue = data.own_items();
    let now = Now {
        at: T0,
        utc_offset: 8 * 3600,
    };
    let round = data.round(&catalogue, now);
    assert_eq!(round.len(), 2);
    let mut black_replies = Vec::new();
    let mut asked = Vec::new();
    for i in round {
        let mut drill = Drill::new(catalogue[i].clone());
        assert_eq!(drill.user(), Color::Red);
        // Answer as the user would: the line's next move.
        while let Some(answer) = drill.expected(&no_tables) {
            asked.push(answer);
            match drill.try_move(answer, &no_tables) {
                Answer::Right(Some(reply)) => black_replies.push(reply),
                Answer::Done => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(drill.finished);
        data.record(
            &drill.item,
            drill.attempt.grade(),
            drill.attempt.grade(),
            &drill.attempt,
            T0,
        );
    }
    black_replies.sort_by_key(|m| m.to_string());
    assert_eq!(black_replies, vec![mv("b9c7"), mv("h9g7")]);
    assert!(asked.contains(&mv("h0g2")) && asked.contains(&mv("b0c2")));
    assert_eq!(asked.iter().filter(|&&m| m == mv("h2e2")).count(), 2);
    // Playing the other branch's answer in a line is not its move, but no mistake either.
    let mut drill = Drill::new(items[0].clone());
    drill.try_move(mv("h2e2"), &no_tables);
    let reply = *drill.moves.last().unwrap();
    let other = if reply == mv("h9g7") {
        mv("b0c2")
    } else {
        mv("h0g2")
    };
    let answer = drill.try_move(other, &no_tables);
    assert!(matches!(answer, Answer::Wrong | Answer::OtherLine));
}

/// A round graded item by item, the state saved after each grade as the app does, then
/// dropped without any closing save (as a kill would): reading the file back has every
/// item graded before the kill, and the next round brings back only what is still due.
#[test]
fn a_killed_round_keeps_the_graded_items() {
    let dir = temp_dir("kill");
    let store = TrainingStore::new(dir.join("training.ron"));
    let now = Now {
        at: T0,
        utc_offset: 0,
    };
    let patterns = pattern_set().unwrap();
    let catalogue = puzzle_items("patterns", &patterns, Kind::Pattern);
    let graded_ids;
    {
        let mut data = store.load().unwrap();
        data.new_per_day = 5;
        let round = data.round(&catalogue, now);
        assert_eq!(round.len(), 5);
        let mut graded = Vec::new();
        for &i in &round[..3] {
            let item = &catalogue[i];
            data.record(item, Grade::Good, Grade::Good, &Attempt::default(), T0 + 60);
            store.save(&data).unwrap();
            graded.push(item.id.clone());
        }
        graded_ids = graded;
        // The fourth item is half done when the process dies: nothing more is written.
        let mut drill = Drill::new(catalogue[round[3]].clone());
        let first = drill.expected(&no_tables).unwrap();
        drill.try_move(first, &no_tables);
        std::mem::forget(data);
    }
    let back = store.load().unwrap();
    assert_eq!(back.items.len(), 3);
    for id in &graded_ids {
        assert_eq!(back.items[id].history.len(), 1, "{id}");
    }
    // Two new items remain for today's allowance; the graded ones are not due yet (a
    // Good first review comes back in minutes, so they are due today: all five).
    let round = back.round(&catalogue, now);
    let new_left = round
        .iter()
        .filter(|&&i| !back.items.contains_key(&catalogue[i].id))
        .count();
    assert_eq!(new_left, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_training_file_says_where() {
    let dir = temp_dir("bad");
    let path = dir.join("training.ron");
    std::fs::write(&path, "(new_per_day: 5,\n items: {\"x\": (kind: Riddle)})").unwrap();
    match TrainingStore::new(path).load() {
        Err(store::TrainingError::Parse { line, .. }) => assert_eq!(line, 2),
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn export_and_import_merge_the_later_reviews() {
    let dir = temp_dir("export");
    let patterns = pattern_set().unwrap();
    let catalogue = puzzle_items("patterns", &patterns, Kind::Pattern);
    let mut home = TrainingData::default();
    home.record(
        &catalogue[0],
        Grade::Good,
        Grade::Good,
        &Attempt::default(),
        T0,
    );
    home.add_endgame(EndgamePosition {
        fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".into(),
        title: "KR v K".into(),
    });
    let path = dir.join("export.ron");
    store::export(&path, &home).unwrap();
    let mut school = TrainingData::default();
    school.record(
        &catalogue[0],
        Grade::Again,
        Grade::Again,
        &Attempt::default(),
        T0 + DAY,
    );
    school.record(
        &catalogue[1],
        Grade::Hard,
        Grade::Hard,
        &Attempt::default(),
        T0,
    );
    let changed = school.merge(store::import(&path).unwrap());
    // The school's later review of the first item stays; the endgame comes in.
    assert_eq!(changed, 0);
    assert_eq!(
        school.items[&catalogue[0].id].history[0].grade,
        Grade::Again
    );
    assert_eq!(school.endgames.len(), 1);
    let mut fresh = TrainingData::default();
    assert_eq!(fresh.merge(store::import(&path).unwrap()), 1);
    assert_eq!(fresh, home);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_round_mixes_kinds_and_counts_streak_and_retention() {
    let patterns = pattern_set().unwrap();
    let mut catalogue = puzzle_items("patterns", &patterns, Kind::Pattern);
    let rep = Repertoire::from_lines(
        "r",
        "r",
        Color::Red,
        &Position::startpos(),
        vec![vec![mv("h2e2")], vec![mv("b2e2")]],
    );
    catalogue.extend(rep.items());
    let mut data = TrainingData {
        new_per_day: 4,
        ..TrainingData::default()
    };
    let now = Now {
        at: T0 + 3 * DAY,
        utc_offset: 0,
    };
    let round = data.round(&catalogue, now);
    let kinds: Vec<Kind> = round.iter().map(|&i| catalogue[i].kind).collect();
    assert_eq!(
        kinds,
        vec![Kind::Opening, Kind::Pattern, Kind::Opening, Kind::Pattern]
    );
    // Reviews on three days in a row up to yesterday, one of them forgotten.
    let item = catalogue[0].clone();
    for (k, grade) in [Grade::Good, Grade::Again, Grade::Good]
        .into_iter()
        .enumerate()
    {
        data.record(
            &item,
            grade,
            grade,
            &Attempt::default(),
            T0 + k as i64 * DAY,
        );
    }
    assert_eq!(data.streak(now), 3);
    let later = Now {
        at: T0 + 5 * DAY,
        ..now
    };
    assert_eq!(data.streak(later), 0);
    let daily = data.daily(now, 90);
    assert_eq!(daily.len(), 90);
    assert_eq!(daily.last().unwrap().reviews, 0);
    let reviewed: Vec<_> = daily.iter().filter(|d| d.reviews > 0).collect();
    assert_eq!(reviewed.len(), 3);
    assert_eq!(reviewed[0].retention(), None);
    assert_eq!(reviewed[1].retention(), Some(0.0));
    assert_eq!(reviewed[2].retention(), Some(1.0));
    let counts = data.counts(&catalogue, now);
    assert_eq!(counts[&Kind::Opening].new, 2);
    assert_eq!(counts[&Kind::Pattern].unseen, catalogue.len() - 3);
}

/// Every pattern item is solved by following its proved line; a move off it is a mistake.
#[test]
fn pattern_drills_follow_the_proved_line() {
    let patterns = pattern_set().unwrap();
    let items = puzzle_items("patterns", &patterns, Kind::Pattern);
    assert_eq!(items.len(), patterns.puzzles.len());
    for item in &items {
        let mut drill = Drill::new(item.clone());
        let mut steps = 0;
        while let Some(m) = drill.expected(&no_tables) {
            steps += 1;
            assert!(steps < 40, "{}", item.id);
            match drill.try_move(m, &no_tables) {
                Answer::Right(_) => {}
                Answer::Done => break,
                other => panic!("{}: {other:?}", item.id),
            }
        }
        assert!(drill.finished, "{}", item.id);
        assert!(!drill.position.has_legal_move(), "{} ends in mate", item.id);
    }
    let item: &Item = &items[0];
    let mut drill = Drill::new(item.clone());
    let right = drill.expected(&no_tables).unwrap();
    let wrong = *drill
        .position
        .legal_moves()
        .iter()
        .find(|&&m| m != right)
        .unwrap();
    assert_eq!(drill.try_move(wrong, &no_tables), Answer::Wrong);
    assert_eq!(drill.attempt.mistakes, 1);
    assert!(!drill.finished);
}

/// 车 against a bare general, won against the table's best defence: the best moves win
/// with no inexact move; a move that throws the win away is a mistake.
#[test]
fn an_endgame_drill_is_judged_by_the_table() {
    let tables = Tablebases::new(None);
    tables
        .get_or_generate(&"KR v K".parse::<Material>().unwrap(), &mut |_| true)
        .unwrap();
    let lookup = |p: &Position| tables.analyse(p);
    let endgame = EndgamePosition {
        fen: "3k5/4R4/9/9/9/9/9/9/9/5K3 w - - 0 1".into(),
        title: "单车".into(),
    };
    let item = endgame.item().unwrap();
    let missing = Drill::new(item.clone()).try_move(mv("e8e7"), &no_tables);
    assert!(matches!(missing, Answer::NeedTable(_)));
    let mut drill = Drill::new(item.clone());
    let mut steps = 0;
    while !drill.finished {
        steps += 1;
        assert!(steps < 60);
        let m = drill.expected(&lookup).unwrap();
        let answer = drill.try_move(m, &lookup);
        assert!(
            matches!(answer, Answer::Right(_) | Answer::Done),
            "{answer:?}"
        );
    }
    assert!(!drill.position.has_legal_move());
    assert_eq!(drill.attempt.inexact, 0);
    assert_eq!(drill.attempt.mistakes, 0);
    // 车五平六 puts the rook beside the general, which takes it: a draw, a mistake.
    let mut drill = Drill::new(item);
    let here = tables.analyse(&drill.position).unwrap();
    assert!(here.value.is_win());
    let drawing = here.moves.iter().find(|m| m.mv == mv("e8d8")).unwrap();
    assert!(!drawing.value.is_win());
    assert_eq!(drill.try_move(mv("e8d8"), &lookup), Answer::Wrong);
    assert_eq!(drill.position, drill.item.start);
    assert_eq!(drill.attempt.grade(), Grade::Again);
}
