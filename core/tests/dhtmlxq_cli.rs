//! `chuhe-engine convert` reads a DhtmlXQ (UBB) file, variations and comments included.

use std::process::Command;

#[test]
fn convert_reads_a_dhtmlxq_file_into_pgn() {
    let dir = std::env::temp_dir().join(format!("chuhe-dhtmlxq-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(
        &file,
        "[DhtmlXQ]\n[DhtmlXQ_red]甲方[/DhtmlXQ_red]\n\
         [DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_move_0_3_1]2625[/DhtmlXQ_move_0_3_1]\n\
         [DhtmlXQ_comment1_3]变着[/DhtmlXQ_comment1_3]\n[/DhtmlXQ]\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chuhe-engine"))
        .args(["convert", "--notation", "iccs"])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[Red \"甲方\"]"), "{text}");
    let moves = text.split_once("\n\n").map_or("", |(_, m)| m);
    let moves: String = moves.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(moves.contains("H2-E2 H9-G7"), "{moves}");
    assert!(moves.contains("H0-G2"), "{moves}");
    assert!(moves.contains("(2. C3-C4 {变着})"), "{moves}");
}
