//! Puzzles' files and solving: the user's collections and progress on disk, importing
//! PGN, and the solver's work for solve mode, whose answers come back as actions.

use crate::actions::{Action, PuzzleAction};
use crate::services::storage::write_atomically;
use crate::services::work::{Work, WorkKey};
use crate::state::puzzles::*;
use crate::words::problem::Problem;
use crate::words::problems;
use chuhe_core::puzzle::{Puzzle, PuzzleError, PuzzleSet};
use chuhe_core::solver::{Solver, judge};
use std::path::{Path, PathBuf};

/// Starts the solver's work for solve mode; its answer comes back as a puzzle action.
pub fn start(work: &mut Work, request: SolveRequest) {
    match request {
        SolveRequest::Hint {
            position,
            history,
            options,
        } => work.start(WorkKey::PuzzleHint, "chuhe hint", move |stop| {
            let mut solver = Solver::new(18);
            solver.set_stop(stop);
            let hint = solver
                .solve_after(&position, &history, &options)
                .line
                .first()
                .copied();
            Action::Puzzle(PuzzleAction::HintFound(hint))
        }),
        SolveRequest::Judge {
            position,
            history,
            m,
            moves_left,
            options,
        } => work.start(WorkKey::PuzzleJudge, "chuhe judge", move |stop| {
            Action::Puzzle(PuzzleAction::Judged(judge(
                &position, &history, m, moves_left, options, stop,
            )))
        }),
    }
}

/// The user's puzzles: one directory per collection under `root`, one `.ron` per puzzle.
pub fn load_user_sets(root: &Path) -> (Vec<LoadedSet>, Vec<Problem>) {
    let mut sets = Vec::new();
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return (sets, found);
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        files.sort();
        let mut puzzles = Vec::new();
        for file in files {
            match std::fs::read_to_string(&file)
                .map_err(|e| problems::io_error(&e))
                .and_then(|t| Puzzle::from_ron(&t).map_err(|e| problems::puzzle_error(&e)))
            {
                Ok(p) => puzzles.push(p),
                Err(e) => found.push(problems::in_file(&file, e)),
            }
        }
        sets.push(LoadedSet {
            set: PuzzleSet { name, puzzles },
            dir: Some(dir),
        });
    }
    (sets, found)
}

/// A file name for a puzzle id: letters, digits, `-` and `_` kept, the rest `_`.
pub fn file_name(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{name}.ron")
}

/// Saves `puzzle` in the collection directory `dir` (atomically).
pub fn save_puzzle(dir: &Path, puzzle: &Puzzle) -> std::io::Result<PathBuf> {
    let path = dir.join(file_name(&puzzle.id));
    write_atomically(&path, puzzle.to_ron().as_bytes())?;
    Ok(path)
}

/// Reads the progress file (empty when there is none or it cannot be read).
pub fn load_progress(path: &Path) -> Progress {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| ron::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes the progress file atomically.
pub fn save_progress(path: &Path, progress: &Progress) -> std::io::Result<()> {
    let text = ron::ser::to_string_pretty(progress, ron::ser::PrettyConfig::default())
        .map_err(std::io::Error::other)?;
    write_atomically(path, text.as_bytes())
}

/// Imports the puzzles of a PGN file as a collection named after the file, saved under
/// `root`; the problems of games that could not be taken.
pub fn import_pgn(root: &Path, path: &Path) -> std::io::Result<(LoadedSet, Vec<PuzzleError>)> {
    let bytes = std::fs::read(path)?;
    let text = chuhe_core::encoding::decode(&bytes).text.into_owned();
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let (set, errors) = PuzzleSet::from_pgn(&name, &text);
    let dir = root.join(&name);
    for puzzle in &set.puzzles {
        save_puzzle(&dir, puzzle)?;
    }
    Ok((
        LoadedSet {
            set,
            dir: Some(dir),
        },
        errors,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::puzzles::BUILT_IN;

    #[test]
    pub fn the_built_in_sets_read_and_hold_at_least_a_hundred_puzzles() {
        let sets = built_in();
        assert_eq!(sets.len(), BUILT_IN.len() + 1, "every built-in set reads");
        let patterns = sets.last().unwrap();
        assert!(patterns.puzzles.len() >= 72, "{}", patterns.puzzles.len());
        let total: usize = sets.iter().map(|s| s.puzzles.len()).sum();
        assert!(total >= 100, "{total} puzzles");
    }

    #[test]
    pub fn replay_puts_missed_puzzles_first() {
        let set = &built_in()[0];
        let mut progress = Progress::default();
        let missed = &set.puzzles[3];
        let solved = &set.puzzles[0];
        progress.puzzles.insert(
            Progress::key(&set.name, &missed.id),
            PuzzleProgress {
                solved: true,
                missed: true,
                attempts: 2,
            },
        );
        progress.puzzles.insert(
            Progress::key(&set.name, &solved.id),
            PuzzleProgress {
                solved: true,
                missed: false,
                attempts: 1,
            },
        );
        let order = progress.replay_order(&set.name, set);
        assert_eq!(order[0], 3);
        assert_eq!(*order.last().unwrap(), 0);
        assert_eq!(order.len(), set.puzzles.len());
    }
}
