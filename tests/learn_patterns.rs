//! `omega learn-patterns`: the table it prints names the players of its games, and games of
//! different numbers of players are refused (each number has its own table).

use std::path::PathBuf;
use std::process::Command;

const OMEGA: &str = env!("CARGO_BIN_EXE_omega");

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("omega-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const FOUR_PLAYERS: &str = "boardsize 4\nplayers 4\nclear_board\n\
    play white a1 b1 c1 d1\nplay black a2 b2 c2 d2\n";
const TWO_PLAYERS: &str = "boardsize 4\nplayers 2\nclear_board\nplay white a1 b1\n";

#[test]
fn the_table_names_the_players_of_its_games() {
    let dir = scratch("four");
    let game = dir.join("a.gtp");
    std::fs::write(&game, FOUR_PLAYERS).unwrap();
    let out = Command::new(OMEGA)
        .arg("learn-patterns")
        .arg(&game)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let source = String::from_utf8(out.stdout).unwrap();
    assert!(
        source.starts_with(
            "//! Pattern gammas learnt by `omega learn-patterns` (1 games of 4 players, 8 stones)."
        ),
        "{source}"
    );
    assert!(source.contains("pub const GAMMAS: [(u16, f32, f32); 430]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_of_different_numbers_of_players_are_refused() {
    let dir = scratch("mixed");
    let (four, two) = (dir.join("a.gtp"), dir.join("b.gtp"));
    std::fs::write(&four, FOUR_PLAYERS).unwrap();
    std::fs::write(&two, TWO_PLAYERS).unwrap();
    let out = Command::new(OMEGA)
        .arg("learn-patterns")
        .args([&four, &two])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no table is printed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a game of 2 players among games of 4"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The size-class lines of a printed table.
fn size_gammas(source: &str) -> Vec<&str> {
    let (_, sizes) = source
        .split_once("pub const SIZE_GAMMAS")
        .expect("a size table");
    sizes.lines().filter(|l| l.starts_with("    (")).collect()
}

#[test]
fn the_patterns_only_fit_leaves_the_size_classes_at_one() {
    let dir = scratch("sizes");
    let game = dir.join("a.gtp");
    std::fs::write(&game, FOUR_PLAYERS).unwrap();
    let table = |patterns_only: bool| {
        let mut command = Command::new(OMEGA);
        command.arg("learn-patterns");
        if patterns_only {
            command.arg("--patterns-only");
        }
        let out = command.arg(&game).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let (alone, joint) = (table(true), table(false));
    assert_eq!(size_gammas(&alone).len(), 16);
    assert!(
        size_gammas(&alone)
            .iter()
            .all(|l| l.trim() == "(1.0000, 1.0000),"),
        "{alone}"
    );
    assert!(
        size_gammas(&joint)
            .iter()
            .any(|l| l.trim() != "(1.0000, 1.0000),"),
        "the joint fit moves some size class: {joint}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
