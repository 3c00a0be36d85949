//! Several games open at once. The game on the board stays [`State::study`], so the rest
//! of the app reads and edits it as before; the other open games wait in [`Tabs`] and
//! change places with it when the user switches tabs. A game in play belongs to its tab:
//! it waits there, paused, while another tab is on the board.

use super::State;
use super::play::Match;
use super::study::Study;
use chuhe_core::Position;
use chuhe_core::record::tag;

/// The games open beside the one on the board.
#[derive(Default)]
pub struct Tabs {
    /// The other games, in tab order with the active one left out.
    pub others: Vec<Study>,
    /// Where the game on the board stands among all the tabs.
    pub active: usize,
    /// The last record generation handed out. Each record gets its own, across all tabs,
    /// so what was found for one game's nodes (analysis, sounds, a game in play) is never
    /// taken for another's.
    pub last_generation: u64,
}

impl Study {
    /// Whether the game is an empty, untouched one, which a game being opened may take
    /// the place of: no moves, headers or notes, from the usual start, from no file.
    pub fn is_blank(&self) -> bool {
        let record = &self.record;
        !self.dirty
            && self.file.is_none()
            && self.folder.is_none()
            && self.game_list.is_none()
            && record.move_count() == 0
            && record.headers().is_empty()
            && record.annotation(record.root()).is_empty()
            && *record.start() == Position::startpos()
    }
}

impl Study {
    /// What the game is called, for its tab and the question on quitting: its own title
    /// (an XQF's, a CBL's or a web board's 标题), else its two players, else its event,
    /// else its one player, else its file's name; none for a new game that has none.
    /// The players come before the event because the games of one event share it.
    pub fn title(&self) -> Option<String> {
        let headers = self.record.headers();
        let header = |name| headers.get(name).map(str::trim).filter(|v| !v.is_empty());
        let players = match (header(tag::RED), header(tag::BLACK)) {
            (Some(red), Some(black)) => Some(format!("{red} – {black}")),
            _ => None,
        };
        header(TITLE)
            .map(str::to_owned)
            .or(players)
            .or_else(|| header(tag::EVENT).map(str::to_owned))
            .or_else(|| header(tag::RED).or(header(tag::BLACK)).map(str::to_owned))
            .or_else(|| {
                self.file
                    .as_ref()
                    .and_then(|p| p.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
            })
    }
}

/// The header in which the XQF, CBL and DhtmlXQ readers keep a game's title.
pub const TITLE: &str = "Title";

impl State {
    /// How many games are open.
    pub fn tab_count(&self) -> usize {
        self.tabs.others.len() + 1
    }

    /// Every open game in tab order, the one on the board included.
    pub fn all_tabs(&self) -> impl Iterator<Item = &Study> {
        let (before, after) = self.tabs.others.split_at(self.tabs.active);
        before
            .iter()
            .chain(std::iter::once(&self.study))
            .chain(after.iter())
    }

    /// Whether any open game has unsaved changes.
    pub fn any_dirty(&self) -> bool {
        self.all_tabs().any(|s| s.dirty)
    }

    /// A record generation no record has had yet.
    pub fn fresh_generation(&mut self) -> u64 {
        self.tabs.last_generation += 1;
        self.tabs.last_generation
    }

    /// Puts the game of tab `to` on the board; false when it is there already or there is
    /// no such tab.
    pub fn switch_tab(&mut self, to: usize) -> bool {
        let active = self.tabs.active;
        if to == active || to >= self.tab_count() {
            return false;
        }
        // Indices into `others`, which leaves the active tab out.
        let taken = if to < active { to } else { to - 1 };
        let mut incoming = self.tabs.others.remove(taken);
        let coming_back = incoming.paused_play.take();
        let mut outgoing = std::mem::replace(&mut self.study, incoming);
        outgoing.paused_play = self.pause_play();
        self.resume_play(coming_back);
        let put_back = if active < to { active } else { active - 1 };
        self.tabs.others.insert(put_back, outgoing);
        self.tabs.active = to;
        // The notation or language may have changed while the game was away.
        self.refresh();
        true
    }

    /// Opens an empty game in a new tab just after the active one, and puts it on the board.
    pub fn new_tab(&mut self) {
        let mut study = Study::new(&self.settings);
        study.generation = self.fresh_generation();
        let mut outgoing = std::mem::replace(&mut self.study, study);
        outgoing.paused_play = self.pause_play();
        self.tabs.others.insert(self.tabs.active, outgoing);
        self.tabs.active += 1;
    }

    /// The game in play on the board, paused, to go away with its tab.
    fn pause_play(&mut self) -> Option<Match> {
        let mut game = self.play.take()?;
        game.pause();
        Some(game)
    }

    /// Puts the tab's paused game (if any) back in play, its tab on the board.
    fn resume_play(&mut self, game: Option<Match>) {
        self.play = game.map(|mut game| {
            game.resume();
            game
        });
    }

    /// Closes the tab on the board: the next tab (or, for the last, the previous) takes
    /// the board. Closing the only tab leaves an empty game.
    pub fn close_active_tab(&mut self) {
        let active = self.tabs.active;
        let mut next = if active < self.tabs.others.len() {
            self.tabs.others.remove(active)
        } else if let Some(previous) = self.tabs.others.pop() {
            self.tabs.active -= 1;
            previous
        } else {
            let mut study = Study::new(&self.settings);
            study.generation = self.fresh_generation();
            study
        };
        // The closed tab's game in play goes with it.
        let coming_back = next.paused_play.take();
        self.resume_play(coming_back);
        self.study = next;
        self.refresh();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use chuhe_core::record::Record;

    /// A state with tabs whose games carry the headers `names`, the active one `active`.
    fn tabs(names: &[&str], active: usize) -> State {
        let mut state = State::new(Settings::default());
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                state.new_tab();
            }
            let mut record = Record::default();
            record.set_header("Event", name);
            state.replace_record(record, None);
        }
        assert!(state.switch_tab(active) || active == names.len() - 1);
        state
    }

    fn order(state: &State) -> Vec<String> {
        state
            .all_tabs()
            .map(|s| s.record.headers().get("Event").unwrap_or("").to_owned())
            .collect()
    }

    fn on_board(state: &State) -> &str {
        state.study.record.headers().get("Event").unwrap_or("")
    }

    #[test]
    fn switching_keeps_the_order_and_puts_the_chosen_game_on_the_board() {
        let mut state = tabs(&["a", "b", "c", "d"], 1);
        assert_eq!(on_board(&state), "b");
        for to in [3, 0, 2, 2, 1] {
            state.switch_tab(to);
            assert_eq!(order(&state), ["a", "b", "c", "d"]);
            assert_eq!(state.tabs.active, to);
            assert_eq!(on_board(&state), ["a", "b", "c", "d"][to]);
        }
        assert!(!state.switch_tab(4), "there is no fifth tab");
    }

    #[test]
    fn closing_gives_the_board_to_the_next_tab_and_the_last_leaves_an_empty_game() {
        let mut state = tabs(&["a", "b", "c"], 1);
        state.close_active_tab();
        assert_eq!(order(&state), ["a", "c"]);
        assert_eq!(on_board(&state), "c");
        state.close_active_tab();
        assert_eq!(on_board(&state), "a");
        state.close_active_tab();
        assert_eq!(state.tab_count(), 1);
        assert!(state.study.is_blank());
    }

    #[test]
    fn every_record_has_its_own_generation_across_tabs() {
        let state = tabs(&["a", "b", "c"], 0);
        let mut generations: Vec<u64> = state.all_tabs().map(|s| s.generation).collect();
        generations.sort();
        generations.dedup();
        assert_eq!(generations.len(), 3);
    }

    #[test]
    fn a_game_is_called_by_its_title_its_players_its_event_or_its_file() {
        let mut study = Study::new(&Settings::default());
        assert_eq!(study.title(), None);
        study.file = Some("/games/001.xqf".into());
        assert_eq!(study.title().as_deref(), Some("001.xqf"));
        study.record.set_header("Red", "胡荣华");
        assert_eq!(study.title().as_deref(), Some("胡荣华"));
        study.record.set_header("Event", "全国赛");
        assert_eq!(study.title().as_deref(), Some("全国赛"));
        study.record.set_header("Black", " 杨官璘 ");
        assert_eq!(study.title().as_deref(), Some("胡荣华 – 杨官璘"));
        study.record.set_header("Title", "七星聚会");
        assert_eq!(study.title().as_deref(), Some("七星聚会"));
        study.record.set_header("Title", "  ");
        assert_eq!(study.title().as_deref(), Some("胡荣华 – 杨官璘"));
    }

    #[test]
    fn only_an_empty_untouched_game_is_blank() {
        let mut state = State::new(Settings::default());
        assert!(state.study.is_blank());
        state.mark_edited();
        assert!(!state.study.is_blank());
        let mut record = Record::default();
        record
            .add_move(record.root(), "h2e2".parse().unwrap())
            .unwrap();
        state.replace_record(record, None);
        assert!(!state.study.is_blank(), "a game with moves");
        let puzzle = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1".parse().unwrap();
        state.replace_record(Record::new(puzzle), None);
        assert!(!state.study.is_blank(), "a position of its own");
    }
}
