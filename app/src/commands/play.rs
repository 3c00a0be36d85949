use super::Ctx;
use crate::actions::*;
use crate::state::play::*;
use crate::state::{Dialog, Notice};
use crate::words::text::result_text;
use chuhe_core::play::{self, PlayedResult};
use chuhe_core::record::GameResult;
use chuhe_core::record::Record;
use chuhe_core::search::Score;
use chuhe_core::{Color, Move, Position};
use std::time::Instant;

impl Ctx<'_> {
    /// Carries out a play action.
    pub(super) fn play(&mut self, action: PlayAction) {
        match action {
            PlayAction::OpenSetup { against_engine } => {
                let last = self
                    .state
                    .play_setup
                    .clone()
                    .unwrap_or_else(|| PlaySetup::from_choices(&self.state.settings.play));
                self.state.play_setup = Some(PlaySetup {
                    against_engine,
                    ..last
                });
            }
            PlayAction::EditSetup(setup) => self.state.play_setup = Some(setup),
            PlayAction::CloseSetup => self.state.play_setup = None,
            PlayAction::Start(setup) => self.start_match(setup),
            PlayAction::Tick => self.tick(),
            PlayAction::EngineThinking => {
                if let Some(m) = &mut self.state.play {
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
                if let Some(m) = &mut self.state.play
                    && m.draw_offer.is_some()
                    && m.result.is_none()
                {
                    self.finish_match(PlayedResult::agreed());
                }
            }
            PlayAction::DeclineDraw => {
                if let Some(m) = &mut self.state.play {
                    m.draw_offer = None;
                }
            }
            PlayAction::AskResign => {
                if self.state.play.as_ref().is_some_and(|m| m.result.is_none()) {
                    self.state.dialog = Some(Dialog::ConfirmResign);
                }
            }
            PlayAction::AskDrawOffer => {
                if self.state.play.as_ref().is_some_and(|m| m.result.is_none()) {
                    self.state.dialog = Some(Dialog::ConfirmDrawOffer);
                }
            }
            PlayAction::Resign => {
                self.close_confirmation();
                let Some(m) = &self.state.play else { return };
                if m.result.is_some() {
                    return;
                }
                let to_move = side_to_move(&self.state.study.record);
                // Against the engine the person resigns, whoever is to move.
                let loser = match m.players {
                    [Player::Human, Player::Engine(_)] => Color::Red,
                    [Player::Engine(_), Player::Human] => Color::Black,
                    _ => to_move,
                };
                self.finish_match(PlayedResult::resigned(loser));
            }
            PlayAction::Leave => self.state.play = None,
            PlayAction::SetAssist(on) => self.set_assist(on),
        }
    }

    fn start_match(&mut self, setup: PlaySetup) {
        let start: Position = if setup.from_board {
            self.state.position().clone()
        } else {
            Position::startpos()
        };
        if start.legal_moves().is_empty() {
            self.state.notice = Some(Notice::Message("play-no-moves"));
            return;
        }
        if self.state.analysis.analysing && !(setup.assist && setup.against_engine) {
            // The engine should not whisper moves to the player.
            self.push(Action::Engine(EngineAction::ToggleAnalysis));
        }
        let players = setup.players();
        let mut record = Record::new(start);
        let name = |p: Player| match p {
            Player::Human => self.services.i18n.tr("play-you"),
            Player::Engine(level) => self.services.i18n.tr_args(
                "play-engine-name",
                &[("level", i64::from(level.number()).into())],
            ),
        };
        record.set_header("Red", &name(players[0]));
        record.set_header("Black", &name(players[1]));
        record.set_header("Event", &self.services.i18n.tr("play-event"));
        record.set_header("Date", &today());
        let control = setup.time_control();
        if let Some(c) = &control {
            record.set_header("TimeControl", &c.pgn_tag());
        }
        record.set_header("Result", "*");
        let assist = setup.assist && setup.against_engine;
        if assist {
            record.set_header(ASSIST_HEADER, "on");
        }
        // The game is played in a tab of its own: the game studied stays as it is.
        self.open_record(record, None);
        self.state.play_setup = None;
        let choices = setup.choices();
        self.change_settings(|s| s.play = choices);
        let mut game = Match::new(players, control, self.state.study.generation);
        game.assist = assist;
        // The person playing Black sees the board from Black's side, in this game only.
        game.flipped = setup.against_engine && setup.human == Color::Black;
        self.state.play = Some(game);
        self.state.notice = None;
    }

    /// Switches the engine's help on or off in a game against it. Once on, the record
    /// says so for good: switching it off again does not undo the help already had.
    fn set_assist(&mut self, on: bool) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        if !m.against_engine() || m.result.is_some() || m.assist == on {
            return;
        }
        m.assist = on;
        if on {
            self.state.study.record.set_header(ASSIST_HEADER, "on");
            self.state.mark_edited();
        } else if self.state.analysis.analysing {
            self.push(Action::Engine(EngineAction::ToggleAnalysis));
        }
    }

    /// A move was added at the end of the game: the clock is pressed and a pending draw
    /// offer lapses (a move declines it). Whether the rules ended the game is asked in
    /// [`ChuheApp::poll_match`], once per change of the record.
    fn match_moved(&mut self, mover: Color) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        let took = m.thinking_time();
        m.turn_started = Instant::now();
        if m.draw_offer.is_some_and(|c| c != mover) {
            m.draw_offer = None;
        }
        let in_time = m.clock.as_mut().is_none_or(|c| c.moved(mover, took));
        let node = last_node(&self.state.study.record);
        if let Some(clock) = &m.clock {
            let left = clock.remaining(mover);
            let _ = self.state.study.record.set_clock(node, Some(left));
        }
        if !in_time {
            self.finish_match(PlayedResult::time(mover));
        }
    }

    /// Records the result in the game: the `Result` and `Termination` headers and a
    /// comment on the last move in the user's language.
    fn finish_match(&mut self, result: PlayedResult) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        // The side to move's clock stops where it is, its thinking charged.
        let to_move = side_to_move(&self.state.study.record);
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
        let text = result_text(&self.services.i18n, &result);
        let record = &mut self.state.study.record;
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
        self.state.mark_edited();
        self.state.refresh();
    }

    fn take_back(&mut self) {
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        m.draw_offer = None;
        let players = m.players;
        let record = &mut self.state.study.record;
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
            self.state.notice = Some(Notice::Message("play-nothing-to-take-back"));
            return;
        }
        self.state.study.cursor = last_node(&self.state.study.record);
        if let Some(m) = &mut self.state.play {
            m.turn_started = Instant::now();
        }
        self.state.mark_edited();
        self.state.refresh();
    }

    /// The confirmation that led here (if any) is answered.
    fn close_confirmation(&mut self) {
        if matches!(
            self.state.dialog,
            Some(Dialog::ConfirmResign | Dialog::ConfirmDrawOffer)
        ) {
            self.state.dialog = None;
        }
    }

    fn offer_draw(&mut self) {
        let plies = self.state.study.record.main_line().len();
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.result.is_some() {
            return;
        }
        let to_move = side_to_move(&self.state.study.record);
        if m.against_engine() {
            // The engine answers at once, from its last evaluation.
            if play::accepts_draw(m.engine_score, plies) {
                self.finish_match(PlayedResult::agreed());
            } else {
                self.state.notice = Some(Notice::Message("play-draw-declined"));
            }
        } else {
            m.draw_offer = Some(to_move);
        }
    }

    /// Checks the game each frame: another record, the rules' verdict, the clock's flag.
    fn tick(&mut self) {
        let generation = self.state.study.generation;
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.generation != generation {
            // Another record was opened: the game is over as far as the board goes.
            self.state.play = None;
            return;
        }
        if m.result.is_some() {
            return;
        }
        let to_move = side_to_move(&self.state.study.record);
        let edits = self.state.study.edits;
        if m.judged_at != Some(edits) {
            m.judged_at = Some(edits);
            if let Some(outcome) = rules_outcome(&self.state.study.record) {
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
        let on_board = self.state.study.generation;
        let Some(m) = &mut self.state.play else {
            return;
        };
        if m.generation != game || on_board != game {
            return;
        }
        m.thinking = false;
        let Some((mv, score)) = choice else {
            return;
        };
        let end = last_node(&self.state.study.record);
        let to_move = side_to_move(&self.state.study.record);
        m.engine_score = Some(score);
        m.engine_scores.push(score);
        let plies = self.state.study.record.main_line().len() + 1;
        // A level game that goes nowhere: the engine offers a draw with its move, and
        // the person answers (or declines by moving).
        let offer = play::offers_draw(&m.engine_scores, plies);
        let at_end = self.state.study.cursor == end;
        if let Ok(node) = self.state.study.record.add_move(end, mv) {
            if at_end {
                self.state.study.cursor = node;
            }
            self.state.mark_edited();
            self.state.refresh();
            self.match_moved(to_move);
            if let Some(m) = &mut self.state.play
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
