//! The engine playing a game against the user. It thinks on a background job so the board
//! stays live; its hash table and history carry on from move to move. It works for the
//! game on the board as the state shows it: when the game moves on without it (a
//! take-back, another record, the game's end, its tab left for another) its thinking is
//! cancelled at once, and its move names the game it is for.

use crate::actions::{Action, PlayAction};
use crate::services::jobs::Job;
use crate::state::State;
use crate::state::play::{Player, last_node, search_root, side_to_move};
use chuhe_core::Move;
use chuhe_core::play::{self, Rng};
use chuhe_core::record::NodeId;
use chuhe_core::search::{Engine, Options, Score};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Which position of which game the engine thinks about: the record's generation and the
/// game's last node.
type Stamp = (u64, NodeId);

/// An engine's thinking: the engine comes back with its answer.
type Thinking = Job<(Engine, Option<(Move, Score)>)>;

/// The engine opponent.
#[derive(Default)]
pub struct Opponent {
    thinking: Option<(Stamp, Thinking)>,
    engine: Option<Engine>,
    rng: Option<Rng>,
}

impl Opponent {
    /// Whether the engine is thinking.
    pub fn busy(&self) -> bool {
        self.thinking.is_some()
    }

    /// Each frame while a game is on: a tick for the clock and the rules, the engine's
    /// move when it has chosen one, and its thinking started when it is to move.
    pub fn poll(&mut self, state: &State) -> Vec<Action> {
        let Some(m) = state.play.as_ref().filter(|m| m.result.is_none()) else {
            self.cancel();
            return Vec::new();
        };
        let mut actions = vec![Action::Play(PlayAction::Tick)];
        let record = &state.study.record;
        let to_move = side_to_move(record);
        let Player::Engine(level) = m.player(to_move) else {
            self.cancel();
            return actions;
        };
        if m.generation != state.study.generation {
            self.cancel();
            return actions;
        }
        let stamp = (m.generation, last_node(record));
        if let Some((at, job)) = &mut self.thinking {
            if *at != stamp {
                self.cancel();
            } else if let Some((engine, choice)) = job.poll() {
                self.thinking = None;
                self.engine = Some(engine);
                actions.push(Action::Play(PlayAction::EngineMoved(stamp.0, choice)));
                return actions;
            } else if job.is_finished() {
                // The thread died: think again with a fresh engine.
                self.thinking = None;
            } else {
                return actions;
            }
        }
        let Some(root) = search_root(record) else {
            return actions;
        };
        // The clock as the engine sees it: its thinking so far already taken off.
        let clock = m
            .clock
            .as_ref()
            .map(|c| c.reading(to_move, m.thinking_time()));
        let engine = self.engine.take();
        let mut rng = Rng::new(self.rng.get_or_insert_with(Rng::from_time).next_u64());
        let job = Job::spawn("chuhe play", move |stop: Arc<AtomicBool>| {
            let options = play::engine_options(level, &Options::default());
            let mut engine = match engine {
                Some(mut e) => {
                    e.set_options(options);
                    e
                }
                None => Engine::new(options),
            };
            let limits = play::limits(level, to_move, clock.as_ref());
            engine.start(&root, limits, |_| {});
            // Wait for the search, giving up at once when the game no longer wants it.
            while engine.is_searching() {
                if stop.load(Ordering::Relaxed) {
                    engine.stop();
                    return (engine, None);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            let choice = engine
                .wait()
                .and_then(|result| play::choose_from(&result, level, &mut rng));
            (engine, choice)
        });
        self.thinking = Some((stamp, job));
        actions.push(Action::Play(PlayAction::EngineThinking));
        actions
    }

    /// Stops the engine's thinking, if any (its engine is lost with it: the next move
    /// starts a fresh one, as after a take-back).
    pub fn cancel(&mut self) {
        if let Some((_, mut job)) = self.thinking.take() {
            job.cancel();
        }
    }
}
