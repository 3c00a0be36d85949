//! A game played on the board, against the engine or hot-seat.

use super::{Queue, SettingsMut};
use crate::actions::*;
use crate::i18n::I18n;
use crate::state::play::*;
use crate::state::study::Study;
use crate::state::{Dialog, Notice};
use crate::words::text::result_text;
use chuhe_core::play::{self, PlayedResult};
use chuhe_core::record::GameResult;
use chuhe_core::record::Record;
use chuhe_core::search::Score;
use chuhe_core::{Color, Move, Position};
use std::time::Instant;

/// What a game in play works on: the game and its setup dialog, its record on the board,
/// its part of the settings, the questions it asks (resign? offer a draw?).
pub(super) struct Playing<'a> {
    pub play: &'a mut Option<Match>,
    pub setup: &'a mut Option<PlaySetup>,
    pub study: &'a mut Study,
    pub settings: SettingsMut<'a>,
    pub dialog: &'a mut Option<Dialog>,
    /// Whether the engine analyses the board.
    pub analysing: bool,
    pub i18n: &'a I18n,
    pub queue: &'a mut Queue,
}

impl Playing<'_> {
    /// Carries out a play action.
    pub(super) fn run(&mut self, action: PlayAction) {
        match action {
            PlayAction::OpenSetup { against_engine } => {
                let last = self
                    .setup
                    .clone()
                    .unwrap_or_else(|| PlaySetup::from_choices(&self.settings.get().play));
                *self.setup = Some(PlaySetup {
                    against_engine,
                    ..last
                });
            }
            PlayAction::EditSetup(setup) => *self.setup = Some(setup),
            PlayAction::CloseSetup => *self.setup = None,
            PlayAction::Start(setup) => self.start_match(setup),
            PlayAction::Begin(setup) => self.begin_match(&setup),
            PlayAction::Tick => self.tick(),
            PlayAction::EngineThinking => {
                if let Some(m) = self.play {
                    m.thinking = true;
                }
            }
            PlayAction::Moved(mover) => self.match_moved(mover),
            PlayAction::EngineMoved(game, choice) => self.engine_moved(game, choice),
            PlayAction::TakeBack => self.take_back(),
            PlayAction::OfferDraw => {
                self.close_confirmation();
                self.offer_draw()
            }
            PlayAction::AcceptDraw => {
                if let Some(m) = self.play
                    && m.draw_offer.is_some()
                    && m.result.is_none()
                {
                    self.finish_match(PlayedResult::agreed());
                }
            }
            PlayAction::DeclineDraw => {
                if let Some(m) = self.play {
                    m.draw_offer = None;
                }
            }
            PlayAction::AskResign => {
                if self.play.as_ref().is_some_and(|m| m.result.is_none()) {
                    *self.dialog = Some(Dialog::ConfirmResign);
                }
            }
            PlayAction::AskDrawOffer => {
                if self.play.as_ref().is_some_and(|m| m.result.is_none()) {
                    *self.dialog = Some(Dialog::ConfirmDrawOffer);
                }
            }
            PlayAction::Resign => {
                self.close_confirmation();
                let Some(m) = self.play else { return };
                if m.result.is_some() {
                    return;
                }
                let to_move = side_to_move(&self.study.record);
                // Against the engine the person resigns, whoever is to move.
                let loser = match m.players {
                    [Player::Human, Player::Engine(_)] => Color::Red,
                    [Player::Engine(_), Player::Human] => Color::Black,
                    _ => to_move,
                };
                self.finish_match(PlayedResult::resigned(loser));
            }
            PlayAction::Leave => *self.play = None,
            PlayAction::SetAssist(on) => self.set_assist(on),
        }
    }

    fn start_match(&mut self, setup: PlaySetup) {
        let start: Position = if setup.from_board {
            self.study.derived.position.clone()
        } else {
            Position::startpos()
        };
        if start.legal_moves().is_empty() {
            self.queue.say(Notice::Message("play-no-moves"));
            return;
        }
        if self.analysing && !(setup.assist && setup.against_engine) {
            // The engine should not whisper moves to the player.
            self.queue
                .push(Action::Engine(EngineAction::ToggleAnalysis));
        }
        let players = setup.players();
        let mut record = Record::new(start);
        let name = |p: Player| match p {
            Player::Human => self.i18n.tr("play-you"),
            Player::Engine(level) => self.i18n.tr_args(
                "play-engine-name",
                &[("level", i64::from(level.number()).into())],
            ),
        };
        record.set_header("Red", &name(players[0]));
        record.set_header("Black", &name(players[1]));
        record.set_header("Event", &self.i18n.tr("play-event"));
        record.set_header("Date", &today());
        if let Some(c) = &setup.time_control() {
            record.set_header("TimeControl", &c.pgn_tag());
        }
        record.set_header("Result", "*");
        if setup.assist && setup.against_engine {
            record.set_header(ASSIST_HEADER, "on");
        }
        // The game is played in a tab of its own: the game studied stays as it is.
        let root = record.root();
        self.queue
            .push(TabAction::Open(OpenGame::new(record, root)).into());
        *self.setup = None;
        let choices = setup.choices();
        self.settings.change(|s| s.play = choices);
        self.queue.push(PlayAction::Begin(setup).into());
    }

    /// The game `setup` describes begins, on the record just opened for it.
    fn begin_match(&mut self, setup: &PlaySetup) {
        let mut game = Match::new(setup.players(), setup.time_control(), self.study.generation);
        game.assist = setup.assist && setup.against_engine;
        // The person playing Black sees the board from Black's side, in this game only.
        game.flipped = setup.against_engine && setup.human == Color::Black;
        *self.play = Some(game);
        self.queue.push(FeedbackAction::Quiet.into());
    }

    /// Switches the engine's help on or off in a game against it. Once on, the record
    /// says so for good: switching it off again does not undo the help already had.
    fn set_assist(&mut self, on: bool) {
        let Some(m) = self.play else {
            return;
        };
        if !m.against_engine() || m.result.is_some() || m.assist == on {
            return;
        }
        m.assist = on;
        if on {
            self.study.record.set_header(ASSIST_HEADER, "on");
            self.study.mark_edited();
        } else if self.analysing {
            self.queue
                .push(Action::Engine(EngineAction::ToggleAnalysis));
        }
    }

    /// A move was added at the end of the game: the clock is pressed and a pending draw
    /// offer lapses (a move declines it). Whether the rules ended the game is asked in
    /// [`ChuheApp::poll_match`], once per change of the record.
    fn match_moved(&mut self, mover: Color) {
        let Some(m) = self.play else {
            return;
        };
        let took = m.thinking_time();
        m.turn_started = Instant::now();
        if m.draw_offer.is_some_and(|c| c != mover) {
            m.draw_offer = None;
        }
        let in_time = m.clock.as_mut().is_none_or(|c| c.moved(mover, took));
        let node = last_node(&self.study.record);
        if let Some(clock) = &m.clock {
            let left = clock.remaining(mover);
            let _ = self.study.record.set_clock(node, Some(left));
        }
        if !in_time {
            self.finish_match(PlayedResult::time(mover));
        }
    }

    /// Records the result in the game: the `Result` and `Termination` headers and a
    /// comment on the last move in the user's language.
    fn finish_match(&mut self, result: PlayedResult) {
        let Some(m) = self.play else {
            return;
        };
        // The side to move's clock stops where it is, its thinking charged.
        let to_move = side_to_move(&self.study.record);
        let thought = m.thinking_time();
        if let Some(clock) = &mut m.clock {
            *clock = clock.reading(to_move, thought);
        }
        m.result = Some(result);
        m.draw_offer = None;
        let tag = match result.winner {
            Some(Color::Red) => GameResult::RedWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
        .as_pgn();
        let text = result_text(self.i18n, &result);
        let record = &mut self.study.record;
        record.set_header("Result", tag);
        record.set_header("Termination", result.termination());
        let end = last_node(record);
        if end != record.root() {
            let comment = record.annotation(end).comment.trim().to_owned();
            let joined = if comment.is_empty() {
                text
            } else {
                format!("{comment} {text}")
            };
            let _ = record.set_comment(end, &joined);
        }
        self.study.mark_edited();
        self.study.refresh(self.settings.get());
    }

    fn take_back(&mut self) {
        let Some(m) = self.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        m.draw_offer = None;
        let players = m.players;
        let record = &mut self.study.record;
        // Back to the last position where a person was to move, one of their moves taken
        // back: against the engine that is the engine's reply and the move before it.
        let mut removed = 0;
        loop {
            let end = last_node(record);
            if end == record.root() {
                break;
            }
            let mover = !side_to_move(record);
            if record.delete_from(end).is_err() {
                break;
            }
            removed += 1;
            if players[mover.index()] == Player::Human {
                break;
            }
        }
        if removed == 0 {
            self.queue.say(Notice::Message("play-nothing-to-take-back"));
            return;
        }
        self.study.cursor = last_node(&self.study.record);
        if let Some(m) = self.play {
            m.turn_started = Instant::now();
        }
        self.study.mark_edited();
        self.study.refresh(self.settings.get());
    }

    /// The confirmation that led here (if any) is answered.
    fn close_confirmation(&mut self) {
        if matches!(
            self.dialog,
            Some(Dialog::ConfirmResign | Dialog::ConfirmDrawOffer)
        ) {
            *self.dialog = None;
        }
    }

    fn offer_draw(&mut self) {
        let plies = self.study.record.main_line().len();
        let Some(m) = self.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        let to_move = side_to_move(&self.study.record);
        if m.against_engine() {
            // The engine answers at once, from its last evaluation.
            if play::accepts_draw(m.engine_score, plies) {
                self.finish_match(PlayedResult::agreed());
            } else {
                self.queue.say(Notice::Message("play-draw-declined"));
            }
        } else {
            m.draw_offer = Some(to_move);
        }
    }

    /// Checks the game each frame: another record, the rules' verdict, the clock's flag.
    fn tick(&mut self) {
        let generation = self.study.generation;
        let Some(m) = self.play else {
            return;
        };
        if m.generation != generation {
            // Another record was opened: the game is over as far as the board goes.
            *self.play = None;
            return;
        }
        if m.result.is_some() {
            return;
        }
        let to_move = side_to_move(&self.study.record);
        let edits = self.study.edits;
        if m.judged_at != Some(edits) {
            m.judged_at = Some(edits);
            if let Some(outcome) = rules_outcome(&self.study.record) {
                self.finish_match(PlayedResult::from_outcome(&outcome));
                return;
            }
        }
        let thought = m.thinking_time();
        if let Some(clock) = &mut m.clock
            && clock.is_out(to_move, thought)
        {
            clock.flag(to_move);
            self.finish_match(PlayedResult::time(to_move));
        }
    }

    /// The engine's move (or none, when it found none) for the game of record generation
    /// `game`, played at the game's end if that game is the one in play on the board.
    fn engine_moved(&mut self, game: u64, choice: Option<(Move, Score)>) {
        let on_board = self.study.generation;
        let Some(m) = self.play else {
            return;
        };
        if m.generation != game || on_board != game {
            return;
        }
        m.thinking = false;
        let Some((mv, score)) = choice else {
            return;
        };
        let end = last_node(&self.study.record);
        let to_move = side_to_move(&self.study.record);
        m.engine_score = Some(score);
        m.engine_scores.push(score);
        let plies = self.study.record.main_line().len() + 1;
        // A level game that goes nowhere: the engine offers a draw with its move, and
        // the person answers (or declines by moving).
        let offer = play::offers_draw(&m.engine_scores, plies);
        let at_end = self.study.cursor == end;
        if let Ok(node) = self.study.record.add_move(end, mv) {
            if at_end {
                self.study.cursor = node;
            }
            self.study.mark_edited();
            self.study.refresh(self.settings.get());
            self.match_moved(to_move);
            if let Some(m) = self.play
                && offer
                && m.result.is_none()
            {
                m.draw_offer = Some(to_move);
                // Declined, it is offered again only after as many level moves.
                m.engine_scores.clear();
            }
        }
    }
}
