//! DhtmlXQ (UBB) game text in the app: pasted, it opens with its variation and comments;
//! the Edit menu's 复制为 DhtmlXQ puts the game on the clipboard as DhtmlXQ.

use crate::common;

use chuhe::ChuheApp;
use chuhe::actions::{Action, FileAction};
use common::{open_in, temp_dir};
use egui::OutputCommand;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const GAME: &str = "[DhtmlXQ]\n[DhtmlXQ_red]甲方[/DhtmlXQ_red]\n\
    [DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\n\
    [DhtmlXQ_move_0_3_1]2625[/DhtmlXQ_move_0_3_1]\n\
    [DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1]\n\
    [DhtmlXQ_comment1_3]变着[/DhtmlXQ_comment1_3]\n[/DhtmlXQ]";

fn apply(harness: &mut Harness<'_, ChuheApp>, action: Action) {
    let ctx = harness.ctx.clone();
    harness.state_mut().apply(&ctx, action);
    harness.run();
}

/// The texts the app put on the clipboard over a few frames.
fn copied(harness: &mut Harness<'_, ChuheApp>) -> Vec<String> {
    let mut texts = Vec::new();
    for _ in 0..4 {
        harness.step();
        for command in &harness.output().platform_output.commands {
            if let OutputCommand::CopyText(text) = command {
                texts.push(text.clone());
            }
        }
    }
    texts
}

#[test]
fn a_pasted_game_copies_back_as_dhtmlxq_from_the_edit_menu() {
    let dir = temp_dir("dhtmlxq", "copy");
    let mut harness = open_in(&dir);
    apply(
        &mut harness,
        Action::File(FileAction::Paste(GAME.to_owned())),
    );
    let record = harness.state().state.study.record.clone();
    assert_eq!(record.main_line().len(), 3);
    assert_eq!(record.line_count(), 2);
    assert_eq!(record.headers().get("Red"), Some("甲方"));

    harness.get_by_label("编辑").click();
    harness.run();
    harness.get_by_label("复制为 DhtmlXQ").click();
    let texts = copied(&mut harness);
    assert_eq!(texts.len(), 1, "{texts:?}");
    let back = chuhe_core::dhtmlxq::read(&texts[0]).unwrap();
    assert_eq!(back.main_line_moves(), record.main_line_moves());
    assert_eq!(back.line_count(), 2);
    let first = back.main_line()[0];
    assert_eq!(back.annotation(first).comment, "中炮");
    let second = back.main_line()[1];
    let alternative = back.children(second).nth(1).unwrap();
    assert_eq!(back.move_at(alternative).unwrap().to_string(), "c3c4");
    assert_eq!(back.annotation(alternative).comment, "变着");
    assert_eq!(back.headers().get("Red"), Some("甲方"));
    let _ = std::fs::remove_dir_all(&dir);
}
