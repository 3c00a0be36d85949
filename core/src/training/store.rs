//! The training state on disk and what is read from it: every item's memory and history,
//! the repertoires and endgame positions the user added, the number of new items a day;
//! the daily round, the counts of due items, the streak and the last days' statistics.
//!
//! The state is one RON file in the data directory, written atomically after every graded
//! item, so a round cut short by a crash or a kill keeps each item graded before it.
//! Exporting writes the same file elsewhere; importing merges one in.

use super::schedule::{self, Grade, Memory};
use super::{EndgamePosition, Item, Kind, Repertoire};
use crate::atomic::write_atomically;
use crate::ron_error::{RonError, RonErrorKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// New items a day when the user has not said.
pub const DEFAULT_NEW_PER_DAY: u32 = 10;

/// Seconds in a day.
const DAY: i64 = 86_400;

/// One review of an item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// When (seconds since 1970, UTC).
    pub at: i64,
    /// The grade that counts (the user's, when they overrode the attempt's).
    pub grade: Grade,
    /// The grade the attempt earned.
    pub earned: Grade,
    /// Seconds the attempt took.
    pub seconds: u32,
    /// Wrong moves tried.
    pub mistakes: u32,
    /// Hints taken.
    pub hints: u32,
    /// The memory state before this review (`None`: the first), so a grade can be changed.
    pub before: Option<Memory>,
}

/// What is known of one item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemRecord {
    /// Its kind.
    pub kind: Kind,
    /// Its title when last reviewed.
    pub title: String,
    /// Its memory state now.
    pub memory: Memory,
    /// Every review, oldest first.
    pub history: Vec<Review>,
}

/// Everything training keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrainingData {
    /// New items brought in a day.
    pub new_per_day: u32,
    /// The user's opening repertoires.
    pub repertoires: Vec<Repertoire>,
    /// The endgame positions the user added.
    pub endgames: Vec<EndgamePosition>,
    /// Every item reviewed at least once, by key.
    pub items: BTreeMap<String, ItemRecord>,
}

impl Default for TrainingData {
    fn default() -> TrainingData {
        TrainingData {
            new_per_day: DEFAULT_NEW_PER_DAY,
            repertoires: Vec::new(),
            endgames: Vec::new(),
            items: BTreeMap::new(),
        }
    }
}

/// The moment to work out days from: the time and the user's offset from UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Now {
    /// Seconds since 1970, UTC.
    pub at: i64,
    /// The local time's offset from UTC, in seconds (east positive).
    pub utc_offset: i32,
}

impl Now {
    /// This moment, with the computer's time zone.
    pub fn local() -> Now {
        let now = chrono::Local::now();
        Now {
            at: now.timestamp(),
            utc_offset: now.offset().local_minus_utc(),
        }
    }

    /// The local day of a time, counted from 1970-01-01.
    pub fn day_of(&self, at: i64) -> i64 {
        (at + i64::from(self.utc_offset)).div_euclid(DAY)
    }

    /// Today, as [`Now::day_of`] counts.
    pub fn today(&self) -> i64 {
        self.day_of(self.at)
    }

    /// The first second of tomorrow (local), UTC.
    pub fn end_of_today(&self) -> i64 {
        (self.today() + 1) * DAY - i64::from(self.utc_offset)
    }
}

/// A local day (as [`Now::day_of`] counts) as `YYYY-MM-DD`.
pub fn date_text(day: i64) -> String {
    chrono::DateTime::from_timestamp(day * DAY, 0)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

/// One day's reviews, for the chart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DayStats {
    /// The local day, from 1970-01-01.
    pub day: i64,
    /// Reviews that day.
    pub reviews: u32,
    /// Reviews of items seen before (the ones retention is measured on).
    pub recalls: u32,
    /// Of those, the ones remembered (any grade but Again).
    pub remembered: u32,
}

impl DayStats {
    /// The share of recalls remembered, when there were any.
    pub fn retention(&self) -> Option<f64> {
        (self.recalls > 0).then(|| f64::from(self.remembered) / f64::from(self.recalls))
    }
}

/// Per kind: items due today and new items a round would bring in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts {
    /// Items due by the end of today.
    pub due: usize,
    /// New items today's round would add.
    pub new: usize,
    /// Items of the kind not reviewed yet.
    pub unseen: usize,
}

impl TrainingData {
    /// Records a review of `item` graded `grade` (the attempt earned `earned`) at `now`:
    /// the new memory state from the scheduler, the review in the history.
    pub fn record(
        &mut self,
        item: &Item,
        earned: Grade,
        grade: Grade,
        attempt: &super::drill::Attempt,
        now: i64,
    ) {
        let before = self.items.get(&item.id).map(|r| r.memory);
        let memory = schedule::review(before.as_ref(), grade, now);
        let review = Review {
            at: now,
            grade,
            earned,
            seconds: attempt.seconds,
            mistakes: attempt.mistakes,
            hints: attempt.hints,
            before,
        };
        let record = self
            .items
            .entry(item.id.clone())
            .or_insert_with(|| ItemRecord {
                kind: item.kind,
                title: item.title.clone(),
                memory,
                history: Vec::new(),
            });
        record.memory = memory;
        record.title = item.title.clone();
        record.history.push(review);
    }

    /// Changes the grade of the item's last review (the user knows better than the
    /// attempt): the memory state is worked out again from the state before it. Returns
    /// whether there was a review to change.
    pub fn regrade_last(&mut self, id: &str, grade: Grade) -> bool {
        let Some(record) = self.items.get_mut(id) else {
            return false;
        };
        let Some(last) = record.history.last_mut() else {
            return false;
        };
        last.grade = grade;
        record.memory = schedule::review(last.before.as_ref(), grade, last.at);
        true
    }

    /// New items started today (first reviewed today).
    pub fn new_today(&self, now: Now) -> usize {
        self.items
            .values()
            .filter(|r| {
                r.history
                    .first()
                    .is_some_and(|f| now.day_of(f.at) == now.today())
            })
            .count()
    }

    /// Today's round from the catalogue: every item due by the end of today, then as many
    /// new items as today's allowance has left, the kinds taken in turn so the round
    /// mixes them. Indices into `catalogue`.
    pub fn round(&self, catalogue: &[Item], now: Now) -> Vec<usize> {
        let end = now.end_of_today();
        let mut due: Vec<(i64, usize)> = catalogue
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let r = self.items.get(&item.id)?;
                (r.memory.due < end).then_some((r.memory.due, i))
            })
            .collect();
        due.sort();
        let allowance = (self.new_per_day as usize).saturating_sub(self.new_today(now));
        let fresh: Vec<usize> = interleave(
            catalogue,
            catalogue
                .iter()
                .enumerate()
                .filter(|(_, item)| !self.items.contains_key(&item.id))
                .map(|(i, _)| i),
        )
        .into_iter()
        .take(allowance)
        .collect();
        interleave(catalogue, due.into_iter().map(|(_, i)| i).chain(fresh))
    }

    /// Per kind, the items due today and the new ones today's round would bring in.
    pub fn counts(&self, catalogue: &[Item], now: Now) -> BTreeMap<Kind, KindCounts> {
        let mut counts: BTreeMap<Kind, KindCounts> = Kind::ALL
            .iter()
            .map(|&k| (k, KindCounts::default()))
            .collect();
        for i in self.round(catalogue, now) {
            let item = &catalogue[i];
            let c = counts.entry(item.kind).or_default();
            if self.items.contains_key(&item.id) {
                c.due += 1;
            } else {
                c.new += 1;
            }
        }
        for item in catalogue {
            if !self.items.contains_key(&item.id) {
                counts.entry(item.kind).or_default().unseen += 1;
            }
        }
        counts
    }

    /// Days in a row with at least one review, up to today (or up to yesterday, while
    /// today has none yet).
    pub fn streak(&self, now: Now) -> u32 {
        let days: std::collections::BTreeSet<i64> = self
            .items
            .values()
            .flat_map(|r| r.history.iter().map(|h| now.day_of(h.at)))
            .collect();
        let mut day = now.today();
        if !days.contains(&day) {
            day -= 1;
        }
        let mut streak = 0;
        while days.contains(&day) {
            streak += 1;
            day -= 1;
        }
        streak
    }

    /// The last `days` days' reviews and retention, oldest first, today last.
    pub fn daily(&self, now: Now, days: usize) -> Vec<DayStats> {
        let today = now.today();
        let first = today - days as i64 + 1;
        let mut stats: Vec<DayStats> = (first..=today)
            .map(|day| DayStats {
                day,
                ..DayStats::default()
            })
            .collect();
        for review in self.items.values().flat_map(|r| &r.history) {
            let day = now.day_of(review.at);
            if day < first || day > today {
                continue;
            }
            let s = &mut stats[(day - first) as usize];
            s.reviews += 1;
            if review.before.is_some() {
                s.recalls += 1;
                if review.grade.passed() {
                    s.remembered += 1;
                }
            }
        }
        stats
    }

    /// Adds or replaces (by id) a repertoire.
    pub fn set_repertoire(&mut self, repertoire: Repertoire) {
        match self.repertoires.iter_mut().find(|r| r.id == repertoire.id) {
            Some(r) => *r = repertoire,
            None => self.repertoires.push(repertoire),
        }
    }

    /// Adds an endgame position (once).
    pub fn add_endgame(&mut self, endgame: EndgamePosition) {
        if !self.endgames.iter().any(|e| e.fen == endgame.fen) {
            self.endgames.push(endgame);
        }
    }

    /// The items of the user's repertoires and endgames.
    pub fn own_items(&self) -> Vec<Item> {
        self.repertoires
            .iter()
            .flat_map(Repertoire::items)
            .chain(self.endgames.iter().filter_map(EndgamePosition::item))
            .collect()
    }

    /// Merges an imported state into this one: repertoires and endgames are added (an
    /// imported repertoire replaces one of the same id), and of an item known to both, the
    /// one reviewed last wins. Returns how many items came in or changed.
    pub fn merge(&mut self, other: TrainingData) -> usize {
        for r in other.repertoires {
            self.set_repertoire(r);
        }
        for e in other.endgames {
            self.add_endgame(e);
        }
        let mut changed = 0;
        for (id, theirs) in other.items {
            let newer = match self.items.get(&id) {
                Some(ours) => theirs.memory.last_review > ours.memory.last_review,
                None => true,
            };
            if newer {
                self.items.insert(id, theirs);
                changed += 1;
            }
        }
        changed
    }

    /// The state as RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::new().depth_limit(4))
            .expect("training data is plain data that RON can always write")
    }

    /// Reads a state from RON, saying where and why when it is not one.
    pub fn from_ron(text: &str) -> Result<TrainingData, TrainingError> {
        ron::from_str(text).map_err(|e| {
            let e = RonError::from(&e);
            TrainingError::Parse {
                line: e.line,
                column: e.column,
                reason: e.kind,
            }
        })
    }
}

/// Takes the items of `indices` so that kinds alternate (in [`Kind::ALL`]'s order), each
/// kind's items in the order given.
fn interleave(catalogue: &[Item], indices: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut queues: BTreeMap<Kind, std::collections::VecDeque<usize>> = BTreeMap::new();
    for i in indices {
        queues.entry(catalogue[i].kind).or_default().push_back(i);
    }
    let mut out = Vec::new();
    loop {
        let mut any = false;
        for kind in Kind::ALL {
            if let Some(i) = queues.get_mut(&kind).and_then(|q| q.pop_front()) {
                out.push(i);
                any = true;
            }
        }
        if !any {
            return out;
        }
    }
}

/// Why the training state could not be read or written.
#[derive(Debug)]
pub enum TrainingError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not a training state: where and why.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong there.
        reason: RonErrorKind,
    },
}

impl fmt::Display for TrainingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainingError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TrainingError::Parse {
                line,
                column,
                reason,
            } => write!(f, "line {line}, column {column}: {reason}"),
        }
    }
}

impl std::error::Error for TrainingError {}

/// The training file.
#[derive(Clone, Debug)]
pub struct TrainingStore {
    path: PathBuf,
}

impl TrainingStore {
    /// The state kept in `path`.
    pub fn new(path: PathBuf) -> TrainingStore {
        TrainingStore { path }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the state: a fresh one when there is no file yet.
    pub fn load(&self) -> Result<TrainingData, TrainingError> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => TrainingData::from_ron(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TrainingData::default()),
            Err(error) => Err(TrainingError::Io {
                path: self.path.clone(),
                error,
            }),
        }
    }

    /// Writes the state, atomically.
    pub fn save(&self, data: &TrainingData) -> Result<(), TrainingError> {
        export(&self.path, data)
    }
}

/// Writes the state to `path` atomically (the training file, or an export).
pub fn export(path: &Path, data: &TrainingData) -> Result<(), TrainingError> {
    write_atomically(path, data.to_ron().as_bytes()).map_err(|error| TrainingError::Io {
        path: path.to_owned(),
        error,
    })
}

/// Reads an exported state from `path`.
pub fn import(path: &Path) -> Result<TrainingData, TrainingError> {
    let text = std::fs::read_to_string(path).map_err(|error| TrainingError::Io {
        path: path.to_owned(),
        error,
    })?;
    TrainingData::from_ron(&text)
}
