//! The club manager driven like a teacher does: create a club of six, start the group's
//! round robin, enter the first round's results by clicking, watch the standings change,
//! attach a game and open it again, export the printable page as CSV and PNG.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::ClubAction;
use chuhe::actions::*;
use chuhe_core::club::{ClubStore, GameResult, GradeGroup};
use common::{open_in, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

const NAMES: [&str; 6] = ["王小明", "李华", "张伟", "刘洋", "陈静", "杨帆"];

fn click(harness: &mut Harness<'_, ChuheApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run();
}

fn type_into(harness: &mut Harness<'_, ChuheApp>, field: &str, text: &str) {
    harness.get_by_label(field).click();
    harness.run();
    harness.get_by_label(field).type_text(text);
    harness.run();
}

/// Clicks the `index`-th widget labelled `label` (the result buttons repeat on each board).
fn click_nth(harness: &mut Harness<'_, ChuheApp>, label: &str, index: usize) {
    harness
        .get_all_by_label(label)
        .nth(index)
        .unwrap_or_else(|| panic!("no {label} number {index}"))
        .click();
    harness.run();
}

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

#[test]
fn a_club_of_six_plays_a_round_and_prints_its_standings() {
    let dir = temp_dir("club", "six");
    let mut harness = open_in(&dir);
    click(&mut harness, "俱乐部");
    click(&mut harness, "俱乐部比赛…");
    type_into(&mut harness, "新俱乐部", "三年级象棋社");
    click(&mut harness, "创建俱乐部");
    for name in NAMES {
        type_into(&mut harness, "棋手姓名", name);
        click(&mut harness, "添加棋手");
    }
    let club = &harness.state().state.club.current.as_ref().unwrap().club;
    assert_eq!(club.name, "三年级象棋社");
    let names: Vec<&str> = club.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, NAMES);
    assert!(club.players.iter().all(|p| p.group == GradeGroup::Low));

    click(&mut harness, "开始比赛");
    let club = harness.state().state.club.current.clone().unwrap();
    let t = club
        .club
        .tournament(GradeGroup::Low)
        .expect("the tournament");
    assert_eq!(t.rounds.len(), 5);
    assert_eq!(t.rounds[0].pairings.len(), 3);
    // Round 1 is on screen: the first board's players are shown.
    let first = &t.rounds[0].pairings[0];
    harness
        .get_all_by_label(club.club.name_of(first.red))
        .next()
        .unwrap();
    // Nobody is marked before a result is in.
    assert_eq!(harness.query_all_by_label("冠军").count(), 0);

    // Board 1 Red wins, board 2 a draw, board 3 Black wins.
    click_nth(&mut harness, "1-0", 0);
    click_nth(&mut harness, "½-½", 1);
    click_nth(&mut harness, "0-1", 2);
    let open = harness.state().state.club.current.clone().unwrap();
    let t = open.club.tournament(GradeGroup::Low).unwrap();
    let results: Vec<Option<GameResult>> = t.rounds[0].pairings.iter().map(|p| p.result).collect();
    assert_eq!(
        results,
        [
            Some(GameResult::RedWins),
            Some(GameResult::Draw),
            Some(GameResult::BlackWins)
        ]
    );
    // Every result is on disk already.
    let saved = ClubStore::load(&open.path).unwrap();
    assert_eq!(saved, open.club);

    // The standings: the two winners share first place, the two who drew share third,
    // the losers are fifth. Four rounds are still to play: no champion (冠军) yet.
    let p = &t.rounds[0].pairings;
    let winners = [p[0].red, p[2].black];
    assert_eq!(harness.query_all_by_label("冠军").count(), 0);
    assert_eq!(harness.query_all_by_label("季军").count(), 0);
    let standings = t.standings();
    for line in &standings {
        let expected = if winners.contains(&line.player) {
            (1, 1.0)
        } else if [p[1].red, p[1].black].contains(&line.player) {
            (3, 0.5)
        } else {
            (5, 0.0)
        };
        assert_eq!((line.rank, line.points), expected);
    }

    // A game on the board attached to board 1, then opened from the table.
    apply(
        &mut harness,
        Action::File(FileAction::Paste("1. h2e2 h9g7 2. h0g2 i9h9 *".to_owned())),
    );
    click_nth(&mut harness, "附加棋局", 0);
    let open = harness.state().state.club.current.clone().unwrap();
    let pgn = open.club.tournament(GradeGroup::Low).unwrap().rounds[0].pairings[0]
        .game
        .clone()
        .expect("attached");
    assert!(pgn.contains(&format!("[Red \"{}\"]", open.club.name_of(first.red))));
    assert!(pgn.contains("[Result \"1-0\"]"));
    apply(&mut harness, Action::File(FileAction::New));
    assert_eq!(harness.state().state.study.record.move_count(), 0);
    click_nth(&mut harness, "打开棋谱", 0);
    let record = &harness.state().state.study.record;
    assert_eq!(record.move_count(), 4);
    assert_eq!(
        record.headers().get("Red"),
        Some(open.club.name_of(first.red))
    );

    // The other four rounds played out (Red wins every game): now the table has its
    // champion, on screen and on the page.
    for round in 1..5 {
        for board in 0..3 {
            apply(
                &mut harness,
                Action::Club(ClubAction::SetResult {
                    round,
                    board,
                    result: Some(GameResult::RedWins),
                }),
            );
        }
    }
    let open = harness.state().state.club.current.clone().unwrap();
    let t = open.club.tournament(GradeGroup::Low).unwrap();
    assert!(t.is_finished());
    let champions: Vec<_> = t.standings().into_iter().filter(|l| l.rank == 1).collect();
    assert!(!champions.is_empty());
    assert_eq!(harness.query_all_by_label("冠军").count(), champions.len());

    // The printable page (the file dialog's answer given directly).
    let csv_path = dir.join("page.csv");
    let png_path = dir.join("page.png");
    apply(
        &mut harness,
        Action::Club(ClubAction::ExportCsv(csv_path.clone())),
    );
    apply(
        &mut harness,
        Action::Club(ClubAction::ExportPng(png_path.clone())),
    );
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    assert!(csv.starts_with('\u{feff}'));
    assert!(csv.contains("三年级象棋社 — 低年级组"));
    assert!(csv.contains("名次,姓名,积分,小分,胜局,直胜,犯规,奖项"));
    for name in NAMES {
        assert!(csv.contains(name), "{name} in the CSV");
    }
    assert!(csv.contains("第 5 轮"));
    assert!(csv.contains("（第15.1条）"));
    let winner = open.club.name_of(champions[0].player);
    assert!(
        csv.lines()
            .any(|l| l.starts_with(&format!("1,{winner},")) && l.ends_with(",冠军")),
        "{csv}"
    );
    let png = image::open(&png_path).unwrap().to_rgba8();
    assert_eq!(png.width(), 1600);
    assert!(png.height() > 800, "{}", png.height());
    let dark = png
        .pixels()
        .filter(|p| p.0[0] < 100 && p.0[1] < 100)
        .count();
    let red = png
        .pixels()
        .filter(|p| p.0[0] > 120 && p.0[1] < 80 && p.0[2] < 80)
        .count();
    let gold = png.pixels().filter(|p| p.0 == [255, 236, 179, 255]).count();
    // Text in black and the Red players' names in red, the top three shaded.
    assert!(dark > 5_000, "{dark} dark pixels");
    assert!(red > 500, "{red} red pixels");
    assert!(gold > 10_000, "{gold} shaded pixels");
    // The title's ink is at the top.
    let title_ink = (80..140)
        .flat_map(|y| (80..600).map(move |x| (x, y)))
        .filter(|&(x, y)| png.get_pixel(x, y).0[0] < 100)
        .count();
    assert!(title_ink > 300, "{title_ink}");
}

#[test]
fn a_damaged_club_file_is_reported_with_where_and_the_others_open() {
    let dir = temp_dir("club", "damaged");
    let clubs = dir.join("clubs");
    let mut club = chuhe_core::club::Club::new("好社");
    club.add_player("甲", GradeGroup::High);
    ClubStore::save(&clubs.join("club-1.ron"), &club).unwrap();
    std::fs::write(
        clubs.join("club-2.ron"),
        "(\n  name: \"坏\",\n  players: [(id: x)],\n)",
    )
    .unwrap();
    let mut harness = open_in(&dir);
    click(&mut harness, "俱乐部");
    click(&mut harness, "俱乐部比赛…");
    harness.get_by_label_contains("第 3 行第");
    // The good club opened (the last readable one).
    let open = harness.state().state.club.current.as_ref().expect("a club");
    assert_eq!(open.club.name, "好社");
}

#[test]
fn a_large_group_plays_swiss_rounds_paired_one_after_another() {
    let dir = temp_dir("club", "swiss");
    let mut club = chuhe_core::club::Club::new("象棋兴趣小组");
    for name in ["甲", "乙", "丙", "丁", "戊", "己", "庚"] {
        club.add_player(name, GradeGroup::Middle);
    }
    ClubStore::save(&dir.join("clubs/club-1.ron"), &club).unwrap();
    let mut harness = open_in(&dir);
    click(&mut harness, "俱乐部");
    click(&mut harness, "俱乐部比赛…");
    click(&mut harness, "中年级组（7）");
    click(&mut harness, "积分编排制");
    click(&mut harness, "开始比赛");
    let t = harness
        .state()
        .state
        .club
        .current
        .as_ref()
        .unwrap()
        .club
        .tournament(GradeGroup::Middle)
        .unwrap()
        .clone();
    assert_eq!(t.format, chuhe_core::club::Format::Swiss { rounds: 5 });
    assert_eq!(t.rounds.len(), 1);
    assert_eq!(t.rounds[0].pairings.len(), 3);
    // Seven players: the lowest-ranked (the last drawn, 庚) sits out round one.
    let bye = t.rounds[0].bye.expect("a bye");
    assert_eq!(club.name_of(bye), "庚");
    harness.get_by_label("轮空：庚");
    harness.get_by_label("对手分");
    // The next round waits for the results; the tournament can still be cancelled.
    assert!(harness.query_by_label("编排下一轮").is_none());
    harness.get_by_label("取消本组比赛");
    for board in 0..3 {
        click_nth(&mut harness, "1-0", board);
    }
    assert!(harness.query_by_label("取消本组比赛").is_none());
    click(&mut harness, "编排下一轮");
    let t = harness
        .state()
        .state
        .club
        .current
        .as_ref()
        .unwrap()
        .club
        .tournament(GradeGroup::Middle)
        .unwrap()
        .clone();
    assert_eq!(t.rounds.len(), 2);
    assert_eq!(
        harness.state().state.club.round,
        1,
        "the new round is shown"
    );
    let first: Vec<(u32, u32)> = t.rounds[0]
        .pairings
        .iter()
        .map(|p| (p.red.min(p.black), p.red.max(p.black)))
        .collect();
    for p in &t.rounds[1].pairings {
        assert!(!first.contains(&(p.red.min(p.black), p.red.max(p.black))));
    }
    assert_ne!(t.rounds[1].bye, Some(bye));
    let saved = ClubStore::load(&dir.join("clubs/club-1.ron")).unwrap();
    assert_eq!(saved.tournament(GradeGroup::Middle).unwrap(), &t);
}
