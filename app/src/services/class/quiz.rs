//! The quiz on the class server: the question the page shows (with the position's legal
//! moves, so the page needs no rules), students' answers, and what Reveal shows.
//!
//! Routes, all needing the join code: `GET /join` gives the page a token that names it
//! (kept by the page, so a reload is still the same student), `GET /quiz` streams the
//! question as Server-Sent Events (`null` when none is open), `POST /answer` takes one
//! answer per token and per name while a question is open.
//!
//! A token is a number and a keyed hash of it: the server keeps no table of tokens, so
//! asking for thousands of them costs nothing, and one not issued here is refused.

use super::font::Fonts;
use super::{BOARD_SIDE, Server, Sharing, live_stream, no_store, rgba};
use crate::actions::{Action, ClassAction};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State as Shared;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chuhe_core::diagram::{self, BoardStyle, Diagram, Ink, Placement, Proportions, svg};
use chuhe_core::quiz::{self, Answer, DrawnAnswer};
use chuhe_core::{Move, Position, Square};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// A legal move as the page offers it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuizMove {
    /// In ICCS, what the page sends back.
    pub iccs: String,
    /// In the teacher's notation.
    pub text: String,
}

/// A move of the chart shown at Reveal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChartBar {
    /// The move in the teacher's notation.
    pub text: String,
    /// How many gave it.
    pub count: usize,
    /// Whether it is right.
    pub correct: bool,
}

/// A line of the score table shown at Reveal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreLine {
    /// The student's name (plain text: the page sets it as text).
    pub name: String,
    /// Right answers so far.
    pub points: u32,
}

/// What Reveal shows the class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Revealed {
    /// The right moves in the teacher's notation.
    pub answer: Vec<String>,
    /// The same in ICCS, for the page to tell a student whether they were right.
    pub moves: Vec<String>,
    /// The question's board with the answer drawn on it, as the app draws it (see
    /// [`revealed_picture`]), shown in place of the question's.
    pub svg: String,
    /// The moves given, with their counts.
    pub chart: Vec<ChartBar>,
    /// The class's scores, best first.
    pub scores: Vec<ScoreLine>,
}

/// The question as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuizShown {
    /// The question's number in the class (answers name it, so a late answer to an
    /// earlier question is not taken for this one).
    pub id: u64,
    /// `best` or `mate`.
    pub kind: &'static str,
    /// For a mate: in how many moves (0 while the solver works).
    pub moves: u32,
    /// Where the position comes from (a puzzle's title), or empty.
    pub title: String,
    /// The position as FEN.
    pub fen: String,
    /// `red` or `black`.
    pub side: &'static str,
    /// The position as an SVG document.
    pub svg: String,
    /// Where each point is on the picture (SVG units), by square name.
    pub points: std::collections::BTreeMap<String, [f32; 2]>,
    /// The legal moves.
    pub legal: Vec<QuizMove>,
    /// How many have answered.
    pub answered: usize,
    /// The answer and chart, once revealed (answers are closed then).
    pub revealed: Option<Revealed>,
    /// The version of the page's second font that has the characters of the question's
    /// texts its own font lacks (empty: none needed); set by the server as it sends it.
    pub font: String,
}

impl QuizShown {
    /// The question on `position`, its moves written by `text`.
    pub fn new(
        id: u64,
        kind: quiz::Kind,
        title: &str,
        position: &Position,
        look: &Look,
        text: &dyn Fn(Move) -> String,
    ) -> QuizShown {
        let place = Placement::board(0.0, 0.0, BOARD_SIDE);
        let points = Square::ALL
            .iter()
            .map(|&square| {
                let at = place.at(diagram::spot(false, square));
                (square.to_string(), [at.x, at.y])
            })
            .collect();
        QuizShown {
            id,
            kind: match kind {
                quiz::Kind::BestMove => "best",
                quiz::Kind::MateIn(_) => "mate",
            },
            moves: match kind {
                quiz::Kind::BestMove => 0,
                quiz::Kind::MateIn(n) => n,
            },
            title: title.to_owned(),
            fen: position.to_string(),
            side: match position.side_to_move() {
                chuhe_core::Color::Red => "red",
                chuhe_core::Color::Black => "black",
            },
            svg: picture(position, look),
            points,
            legal: position
                .legal_moves()
                .iter()
                .map(|&m| QuizMove {
                    iccs: m.to_string(),
                    text: text(m),
                })
                .collect(),
            answered: 0,
            revealed: None,
            font: String::new(),
        }
    }

    /// Every text of the question the page shows.
    fn texts(&self) -> impl Iterator<Item = &str> {
        let legal = self.legal.iter().map(|m| m.text.as_str());
        let revealed = self.revealed.iter().flat_map(|r| {
            let answer = r.answer.iter().map(String::as_str);
            let chart = r.chart.iter().map(|b| b.text.as_str());
            answer
                .chain(chart)
                .chain(r.scores.iter().map(|s| s.name.as_str()))
        });
        std::iter::once(self.title.as_str())
            .chain(legal)
            .chain(revealed)
    }
}

/// How the teacher's board looks, for the question's picture.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// The colours.
    pub theme: crate::theme::ThemeChoice,
    /// Traditional characters on the pieces.
    pub traditional: bool,
}

/// The question's position as the class board draws it: the same board description as
/// the app's diagrams.
fn picture(position: &Position, look: &Look) -> String {
    revealed_picture(position, look, &[])
}

/// The question's board with right moves `drawn` on it, as the app's boards draw them at
/// Reveal: the answer a strong arrow, the others light ones under it.
pub fn revealed_picture(position: &Position, look: &Look, drawn: &[DrawnAnswer]) -> String {
    let theme = look.theme.theme();
    let style = BoardStyle {
        traditional: look.traditional,
        ..BoardStyle::default()
    };
    let mut picture = svg::Svg::new(BOARD_SIDE, BOARD_SIDE);
    let place = Placement::board(0.0, 0.0, BOARD_SIDE);
    let colour = |ink: Ink| Some(rgba(theme.ink(ink)));
    diagram::draw(
        &mut picture,
        place,
        &diagram::board(&style, &Proportions::WOOD),
        colour,
    );
    let pieces = diagram::pieces(
        &Diagram::from_position(position),
        &style,
        &Proportions::WOOD,
        None,
    );
    diagram::draw(&mut picture, place, &pieces, colour);
    for answer in drawn.iter().rev() {
        let (from, to) = (answer.mv.from, answer.mv.to);
        let shape = if answer.main {
            diagram::arrow(false, from, to)
        } else {
            diagram::thin_arrow(false, from, to)
        };
        let ink = rgba(crate::theme::quiz_arrow(answer.main));
        diagram::draw(&mut picture, place, &shape, |_| Some(ink));
    }
    picture.finish()
}

/// The most moves the solver looks for a mate in when the teacher asks "mate in N".
const MATE_SEARCH_MOVES: u32 = 7;

/// How long the solver may look for it.
const MATE_SEARCH_TIME: Duration = Duration::from_secs(5);

/// The engine's nodes for "the best move", shared among all the legal moves (each is
/// searched as deep as the others, so that every move as good as the best is found): a
/// count, so the same position gets the same answer on any machine. 2 to 4 s on this
/// shared machine.
const BEST_MOVE_NODES: u64 = 1_000_000;

/// The work that finds question `index`'s right moves in `position` off the UI thread (to
/// run as background work, which sets its flag when the answer is no longer wanted): for
/// a mate the solver's first moves, for "the best move" every move the engine finds as
/// good as its best. The answer comes back as [`ClassAction::Judged`].
pub fn judge(
    kind: quiz::Kind,
    position: Position,
    index: usize,
) -> impl FnOnce(Arc<AtomicBool>) -> Action + Send + 'static {
    move |stop| {
        let (mate, correct) = match kind {
            quiz::Kind::MateIn(_) => {
                match quiz::mate_answers(&position, MATE_SEARCH_MOVES, MATE_SEARCH_TIME, &stop) {
                    Some((k, moves)) => (Some(k), moves),
                    None => (None, Vec::new()),
                }
            }
            quiz::Kind::BestMove => (None, quiz::best_answers(&position, BEST_MOVE_NODES, &stop)),
        };
        Action::Class(ClassAction::Judged {
            index,
            mate,
            correct,
        })
    }
}

/// An answer the server took, on its way to the app.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrived {
    /// The question it answers.
    pub question: u64,
    /// The answer.
    pub answer: Answer,
}

/// The question open for answers.
struct Open {
    id: u64,
    legal: Vec<Move>,
    asked: Instant,
    /// Tokens and name keys that have answered.
    tokens: HashSet<u64>,
    names: HashSet<String>,
}

/// The quiz's side of the server: the question shown, the question open, the answers on
/// their way to the app.
pub struct Desk {
    shown: watch::Sender<Option<Arc<QuizShown>>>,
    open: Mutex<Option<Open>>,
    arrived: Mutex<mpsc::Sender<Arrived>>,
    inbox: Mutex<mpsc::Receiver<Arrived>>,
    /// The key tokens are signed with, random for each class.
    key: std::collections::hash_map::RandomState,
    issued: AtomicU64,
    /// Pages following the question.
    watching: Arc<AtomicUsize>,
    /// The page's fonts, told of each question's texts.
    fonts: Arc<Fonts>,
}

impl Desk {
    /// The desk of a server whose pages' fonts are `fonts`.
    pub(super) fn new(fonts: Arc<Fonts>) -> Desk {
        let (arrived, inbox) = mpsc::channel();
        Desk {
            shown: watch::channel(None).0,
            open: Mutex::new(None),
            arrived: Mutex::new(arrived),
            inbox: Mutex::new(inbox),
            key: std::collections::hash_map::RandomState::new(),
            issued: AtomicU64::new(0),
            watching: Arc::new(AtomicUsize::new(0)),
            fonts,
        }
    }

    /// Shows `question` and opens it for answers (an earlier one is closed).
    pub fn ask(&self, mut question: QuizShown, legal: Vec<Move>) {
        question.font = self.fonts.cover(question.texts());
        *self.lock_open() = Some(Open {
            id: question.id,
            legal,
            asked: Instant::now(),
            tokens: HashSet::new(),
            names: HashSet::new(),
        });
        self.shown.send_replace(Some(Arc::new(question)));
    }

    /// Changes the question shown (its count is the server's own and stays).
    pub fn update(&self, mut question: QuizShown) {
        let answered = self
            .shown
            .borrow()
            .as_ref()
            .filter(|q| q.id == question.id)
            .map_or(0, |q| q.answered);
        question.answered = answered;
        question.font = self.fonts.cover(question.texts());
        if question.revealed.is_some() {
            // Revealed: the answer is out, so no more answers.
            self.lock_open().take();
        }
        self.shown.send_replace(Some(Arc::new(question)));
    }

    /// Takes the question away.
    pub fn close(&self) {
        self.lock_open().take();
        self.shown.send_replace(None);
    }

    /// The answers that arrived since the last look.
    pub fn arrived(&self) -> Vec<Arrived> {
        let inbox = self.inbox.lock().unwrap_or_else(|e| e.into_inner());
        inbox.try_iter().collect()
    }

    /// The question as `/state` reports it.
    pub fn state_json(&self) -> serde_json::Value {
        match &*self.shown.borrow() {
            None => serde_json::Value::Null,
            Some(q) => serde_json::json!({
                "id": q.id,
                "kind": q.kind,
                "moves": q.moves,
                "fen": q.fen,
                "answered": q.answered,
                "open": q.revealed.is_none(),
                "answer": q.revealed.as_ref().map(|r| &r.answer),
            }),
        }
    }

    fn lock_open(&self) -> std::sync::MutexGuard<'_, Option<Open>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sign(&self, n: u64) -> u64 {
        let mut hasher = self.key.build_hasher();
        hasher.write_u64(n);
        hasher.finish()
    }

    /// A new token.
    fn issue(&self) -> String {
        let n = self.issued.fetch_add(1, Ordering::Relaxed);
        format!("{n:x}-{:016x}", self.sign(n))
    }

    /// The number a token stands for, if this server issued it.
    fn check(&self, token: &str) -> Option<u64> {
        let (n, mac) = token.split_once('-')?;
        let n = u64::from_str_radix(n, 16).ok()?;
        (u64::from_str_radix(mac, 16).ok()? == self.sign(n)).then_some(n)
    }

    /// Takes an answer, or says why not.
    fn take(&self, sent: Sent) -> Result<(), (StatusCode, &'static str)> {
        let token = self
            .check(&sent.token)
            .ok_or((StatusCode::UNAUTHORIZED, "unknown page: join first\n"))?;
        let name = quiz::clean_name(&sent.name).map_err(|e| {
            (
                StatusCode::BAD_REQUEST,
                match e {
                    quiz::NameError::Empty => "a name is needed\n",
                    quiz::NameError::TooLong => "the name is too long\n",
                    quiz::NameError::Control(_) => "the name has a control character\n",
                },
            )
        })?;
        let mut open = self.lock_open();
        let open = open
            .as_mut()
            .filter(|o| o.id == sent.question)
            .ok_or((StatusCode::FORBIDDEN, "no question is open\n"))?;
        let mv = sent
            .mv
            .parse::<Move>()
            .ok()
            .filter(|m| open.legal.contains(m))
            .ok_or((StatusCode::BAD_REQUEST, "not a legal move\n"))?;
        let key = quiz::name_key(&name);
        if open.tokens.contains(&token) || open.names.contains(&key) {
            return Err((StatusCode::CONFLICT, "already answered\n"));
        }
        // As many answers as the class has places: tokens cost nothing to get, so a script
        // could otherwise fill the teacher's record with made-up names.
        if open.names.len() >= super::MAX_STUDENTS {
            return Err((StatusCode::SERVICE_UNAVAILABLE, "the class is full\n"));
        }
        open.tokens.insert(token);
        open.names.insert(key);
        let millis = u64::try_from(open.asked.elapsed().as_millis()).unwrap_or(u64::MAX);
        let arrived = Arrived {
            question: open.id,
            answer: Answer { name, mv, millis },
        };
        let _ = self
            .arrived
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(arrived);
        self.shown.send_modify(|q| {
            if let Some(q) = q {
                Arc::make_mut(q).answered += 1;
            }
        });
        Ok(())
    }
}

/// An answer as the page sends it.
#[derive(Deserialize)]
struct Sent {
    token: String,
    name: String,
    question: u64,
    #[serde(rename = "move")]
    mv: String,
}

/// The quiz's routes, behind the join code like the others.
pub(super) fn routes() -> Router<Sharing> {
    Router::new()
        .route("/join", get(join))
        .route("/quiz", get(events))
        .route("/answer", post(answer))
}

async fn join(Shared(shared): Shared<Sharing>) -> Response {
    let body = serde_json::json!({ "token": shared.quiz.issue() }).to_string();
    let mut response = ([(header::CONTENT_TYPE, "application/json")], body).into_response();
    no_store(&mut response);
    response
}

async fn answer(Shared(shared): Shared<Sharing>, body: Bytes) -> Response {
    let Ok(sent) = serde_json::from_slice::<Sent>(&body) else {
        return (StatusCode::BAD_REQUEST, "an answer is a JSON object\n").into_response();
    };
    match shared.quiz.take(sent) {
        Ok(()) => {
            if let Some(ui) = &shared.ui {
                ui.request_repaint();
            }
            (StatusCode::OK, "answer taken\n").into_response()
        }
        Err(refused) => refused.into_response(),
    }
}

/// A page following the question: counted while its stream is open.
struct Watcher(Arc<AtomicUsize>);

impl Drop for Watcher {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The question now, then each change; `null` when none is open. The streams are capped
/// as the board's are, each page holding one of each.
async fn events(Shared(shared): Shared<Sharing>) -> Response {
    let server: &Server = &shared;
    let watching = &server.quiz.watching;
    if watching
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < super::MAX_STUDENTS).then_some(n + 1)
        })
        .is_err()
    {
        return (StatusCode::SERVICE_UNAVAILABLE, "the class is full\n").into_response();
    }
    let watcher = Watcher(watching.clone());
    let shown = server.quiz.shown.subscribe();
    live_stream(server, shown, "quiz", watcher, |shown| {
        serde_json::to_string(&shown.as_deref()).unwrap_or_default()
    })
}

impl super::Class {
    /// The quiz's desk while a class is on.
    pub fn desk(&self) -> Option<&Desk> {
        self.server.as_ref().map(|s| &*s.quiz)
    }

    /// The answers that arrived, as actions.
    pub fn answers(&mut self) -> Vec<Action> {
        self.desk().map_or_else(Vec::new, |desk| {
            desk.arrived()
                .into_iter()
                .map(|a| Action::Class(ClassAction::Answered(a.question, a.answer)))
                .collect()
        })
    }
}

/// The words the quiz adds to the page, by message id.
pub(super) const PAGE_WORDS: [&str; 17] = [
    "class-page-quiz-best",
    "class-page-quiz-mate-before",
    "class-page-quiz-mate-after",
    "class-page-quiz-mate-unknown",
    "class-page-quiz-name",
    "class-page-quiz-pick",
    "class-page-quiz-your-move",
    "class-page-quiz-send",
    "class-page-quiz-sent",
    "class-page-quiz-already",
    "class-page-quiz-closed",
    "class-page-quiz-bad-name",
    "class-page-quiz-answer",
    "class-page-quiz-answered",
    "class-page-quiz-scores",
    "class-page-quiz-right",
    "class-page-quiz-wrong",
];

/// The quiz's part of the student page: its styles, elements and script, put in at the
/// page's end (the script reads the page's words, language and code).
pub(super) const PAGE: &str = include_str!("quiz.html");

#[cfg(test)]
mod tests;
