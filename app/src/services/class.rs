//! The class: an HTTP server on the room's network that lets students follow the teacher's
//! board in their browsers. It runs on a thread of its own (one tokio runtime); the app
//! publishes a snapshot of the board whenever the board changes, and the server only ever
//! reads that snapshot: no request can reach the app's state, its files or anything else.
//!
//! Routes, all GET and all needing the join code (`?code=1234`): `/` the student page
//! (HTML, script and styles in one document, nothing fetched from elsewhere), `/events`
//! the live board as Server-Sent Events, `/state` the board as JSON for scripts, `/font`
//! the page's font. Every event stream also carries a `ping` event each heartbeat it is
//! otherwise quiet, which is how a page tells a live stream from a lost one.

use crate::actions::{Action, ClassAction};
use crate::i18n::{I18n, Language};
use crate::state::State;
use axum::Router;
use axum::extract::{ConnectInfo, Request, State as Shared};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use chuhe_core::diagram::{self, BoardStyle, Diagram, Ink, Placement, Proportions, svg};
use chuhe_core::notation::format_move;
use chuhe_core::record::NodeId;
use futures_util::StreamExt as _;
use serde::Serialize;
use std::collections::HashMap;
use std::future::IntoFuture;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

mod font;
mod interfaces;
mod limits;
use axum::serve::ListenerExt;
pub use interfaces::{Interface, interfaces};
use limits::Door;
pub use limits::Limits;

/// The most students following at once; the next is told the class is full.
pub const MAX_STUDENTS: usize = 200;

/// The most wrong join codes an address may send in [`WRONG_CODE_WINDOW`]; after that it
/// is turned away until the window has passed, so the 10 000 codes cannot be tried.
pub const MAX_WRONG_CODES: u32 = 10;

/// How long wrong codes are counted against an address.
pub const WRONG_CODE_WINDOW: Duration = Duration::from_secs(60);

/// The largest request body accepted (no route reads one; a page never sends one).
pub const MAX_BODY: u64 = 1024;

/// The port a class opens on unless the teacher sets another.
pub const DEFAULT_PORT: u16 = 8080;

/// How big the board picture is drawn, in SVG units (the page scales it).
const BOARD_SIDE: f32 = 560.0;

/// One move of the line shown to the class.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassMove {
    /// The move in ICCS (`h2e2`).
    pub iccs: String,
    /// The move in the teacher's notation.
    pub text: String,
    /// The comment after it.
    pub comment: String,
}

/// What the class sees: the board on the teacher's screen, as the app publishes it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassBoard {
    /// The position, as FEN.
    pub fen: String,
    /// The line through the board's position: the moves to it, then on to its end (in a
    /// presentation only the moves to it: the rest is revealed a step at a time).
    pub line: Vec<ClassMove>,
    /// How many of `line`'s moves lead to the board's position.
    pub ply: usize,
    /// The move that led here, in ICCS.
    pub last_move: Option<String>,
    /// `red` or `black`: whose move it is.
    pub side: &'static str,
    /// The comment on the start position (before the first move).
    pub intro: String,
    /// The board as an SVG document: pieces, last move, arrows and circles.
    pub svg: String,
    /// The version of the page's second font that has the characters of the board's texts
    /// its own font lacks (empty: none needed); set by the server as it sends the board.
    pub font: String,
}

/// The board as `GET /state` reports it to scripts.
#[derive(Serialize)]
struct StateReply<'a> {
    fen: &'a str,
    moves: Vec<&'a str>,
    last_move: Option<&'a str>,
    quiz: serde_json::Value,
}

impl ClassBoard {
    fn state_json(&self, quiz: serde_json::Value) -> String {
        let reply = StateReply {
            fen: &self.fen,
            moves: self.line[..self.ply.min(self.line.len())]
                .iter()
                .map(|m| m.iccs.as_str())
                .collect(),
            last_move: self.last_move.as_deref(),
            quiz,
        };
        serde_json::to_string(&reply).unwrap_or_default()
    }

    fn event_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Every text of the board the page shows.
    fn texts(&self) -> impl Iterator<Item = &str> {
        let moves = self.line.iter().flat_map(|m| [m.text.as_str(), &m.comment]);
        std::iter::once(self.intro.as_str()).chain(moves)
    }
}

/// What of the state the class's board is made from: when it is unchanged, so is the
/// board, and nothing need be drawn or sent.
#[derive(Clone, Debug, PartialEq)]
struct BoardKey {
    generation: u64,
    edits: u64,
    cursor: NodeId,
    notation: crate::settings::MoveNotation,
    traditional: bool,
    theme: crate::theme::ThemeChoice,
    presenting: bool,
}

impl BoardKey {
    fn of(state: &State) -> BoardKey {
        BoardKey {
            generation: state.study.generation,
            edits: state.study.edits,
            cursor: state.study.cursor,
            notation: state.settings.notation,
            traditional: state.settings.language == Language::ZhTw,
            theme: state.settings.theme,
            presenting: state.presentation.is_some(),
        }
    }
}

/// The board on the teacher's screen as the class sees it.
pub fn board_of(state: &State) -> ClassBoard {
    let study = &state.study;
    let record = &study.record;
    let notation = state.settings.notation.notation();
    let path = record.path(study.cursor);
    let ply = path.len();
    let mut nodes = path;
    // A presentation shows the class the moves as the teacher steps to them, as the
    // projector does: a puzzle's solution or the game's next move is not given away.
    if state.presentation.is_none() {
        nodes.extend(record.line_after(study.cursor));
    }
    let mut position = record.start().clone();
    let mut line = Vec::with_capacity(nodes.len());
    for &node in &nodes {
        let Some(mv) = record.move_at(node) else {
            continue;
        };
        let text = format_move(&position, mv, notation);
        match position.play(mv) {
            Ok(next) => position = next,
            Err(_) => break,
        }
        line.push(ClassMove {
            iccs: mv.to_string(),
            text,
            comment: record.annotation(node).comment.clone(),
        });
    }
    let here = &study.derived.position;
    let last = record.move_at(study.cursor);
    let annotation = record.annotation(study.cursor);
    let theme = state.settings.theme.theme();
    let style = BoardStyle {
        traditional: state.settings.language == Language::ZhTw,
        ..BoardStyle::default()
    };
    let mut picture = svg::Svg::new(BOARD_SIDE, BOARD_SIDE);
    let place = Placement::board(0.0, 0.0, BOARD_SIDE);
    let colour = |ink: Ink| Some(rgba(theme.ink(ink)));
    let mut below = diagram::board(&style, &Proportions::WOOD);
    if let Some(m) = last {
        for square in [m.from, m.to] {
            below.extend(diagram::point_frame(false, square));
        }
    }
    diagram::draw(&mut picture, place, &below, colour);
    for circle in &annotation.circles {
        let ring = [diagram::Element::Disc {
            centre: diagram::spot(false, circle.at),
            radius: 0.44,
            fill: None,
            outline: Some((0.08, Ink::Arrow)),
        }];
        let mark = rgba(theme.mark(circle.color));
        diagram::draw(&mut picture, place, &ring, |_| Some(mark));
    }
    let pieces = diagram::pieces(
        &Diagram::from_position(here),
        &style,
        &Proportions::WOOD,
        None,
    );
    diagram::draw(&mut picture, place, &pieces, colour);
    for arrow in &annotation.arrows {
        let shape = diagram::arrow(false, arrow.from, arrow.to);
        let [r, g, b, _] = rgba(theme.mark(arrow.color));
        // See-through, as on the teacher's board, so the pieces under it still show.
        diagram::draw(&mut picture, place, &shape, |_| Some([r, g, b, 200]));
    }
    ClassBoard {
        fen: here.to_string(),
        line,
        ply,
        last_move: last.map(|m| m.to_string()),
        side: match here.side_to_move() {
            chuhe_core::Color::Red => "red",
            chuhe_core::Color::Black => "black",
        },
        intro: record.annotation(record.root()).comment.clone(),
        svg: picture.finish(),
        font: String::new(),
    }
}

/// A theme colour for the page's SVG. A colour brighter than its own cover (the last
/// move's frame: egui adds it to what lies under it) has no SVG opacity that draws it, and
/// unmultiplied it turns pale (a faint cyan on the wood): it is drawn solid in its own hue.
fn rgba(colour: egui::Color32) -> svg::Rgba {
    let [r, g, b, a] = colour.to_array();
    if r.max(g).max(b) > a {
        [r, g, b, 255]
    } else {
        colour.to_srgba_unmultiplied()
    }
}

/// The app's side of the class: the server while a class is on, and what it last sent.
#[derive(Default)]
pub struct Class {
    server: Option<ClassServer>,
    sent: Option<BoardKey>,
    students: usize,
}

impl Class {
    /// Opens a class on `bind`:`port` (port 0: any free one) with join code `code`.
    pub fn start(
        &mut self,
        bind: IpAddr,
        port: u16,
        code: &str,
        i18n: &I18n,
        ui: egui::Context,
    ) -> std::io::Result<SocketAddr> {
        self.stop();
        let server = ClassServer::start(SocketAddr::new(bind, port), code, i18n, Some(ui))?;
        let address = server.address();
        // The board goes out with the first look at the state, right after this action.
        self.sent = None;
        self.students = 0;
        self.server = Some(server);
        Ok(address)
    }

    /// Ends the class and every student's connection.
    pub fn stop(&mut self) {
        self.server = None;
        self.sent = None;
    }

    /// Whether a class is on.
    pub fn running(&self) -> bool {
        self.server.is_some()
    }

    /// Sends the board to the class if it changed since it was last sent: a cheap
    /// comparison each time, the drawing only when something changed.
    pub fn follow(&mut self, state: &State) {
        let Some(server) = &self.server else {
            return;
        };
        let key = BoardKey::of(state);
        if self.sent.as_ref() != Some(&key) {
            server.publish(board_of(state));
            self.sent = Some(key);
        }
    }

    /// How many students joined or left since the last look, as an action.
    pub fn poll(&mut self) -> Option<Action> {
        let now = self.server.as_ref()?.students();
        (now != self.students).then(|| {
            self.students = now;
            Action::Class(ClassAction::Students(now))
        })
    }
}

/// The addresses students can reach a server bound to `bind` at: the address itself, or
/// for all interfaces the machine's address on its network (the one its route out
/// leaves from, found without sending anything) and then loopback.
pub fn addresses(bind: IpAddr) -> Vec<IpAddr> {
    if !bind.is_unspecified() {
        return vec![bind];
    }
    let mut found = Vec::new();
    // Connecting a UDP socket only picks the route; no packet leaves.
    if let Ok(socket) = std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        && socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).is_ok()
        && let Ok(local) = socket.local_addr()
        && !local.ip().is_unspecified()
        && !local.ip().is_loopback()
    {
        found.push(local.ip());
    }
    // Then the machine's other addresses the server hears on: a second network card, a
    // VPN, an access point the laptop itself provides.
    for interface in interfaces() {
        if interface.ip.is_ipv4() && !interface.ip.is_loopback() && !found.contains(&interface.ip) {
            found.push(interface.ip);
        }
    }
    found.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
    found
}

/// A running class server: its thread, the board it shows, its students.
pub struct ClassServer {
    address: SocketAddr,
    board: watch::Sender<Arc<ClassBoard>>,
    students: Arc<AtomicUsize>,
    quiz: Arc<quiz::Desk>,
    fonts: Arc<font::Fonts>,
    stalls: Arc<AtomicU64>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// What every request handler shares.
struct Server {
    code: String,
    board: watch::Receiver<Arc<ClassBoard>>,
    students: Arc<AtomicUsize>,
    wrong: Mutex<HashMap<IpAddr, (Instant, u32)>>,
    page: Html<String>,
    ui: Option<egui::Context>,
    quiz: Arc<quiz::Desk>,
    fonts: Arc<font::Fonts>,
    /// How long a stream may be quiet before it sends a ping.
    heartbeat: Duration,
    /// How many times [`ClassServer::stall_streams`] was called.
    stalls: Arc<AtomicU64>,
}

type Sharing = Arc<Server>;

impl ClassServer {
    /// Binds `address` (port 0: any free port) and serves the class with join code `code`
    /// on a thread of its own; `ui` is asked to repaint when students come and go.
    pub fn start(
        address: SocketAddr,
        code: &str,
        i18n: &I18n,
        ui: Option<egui::Context>,
    ) -> std::io::Result<ClassServer> {
        ClassServer::start_with(address, code, i18n, ui, Limits::default())
    }

    /// [`ClassServer::start`] with the clients' time and size limits given.
    pub fn start_with(
        address: SocketAddr,
        code: &str,
        i18n: &I18n,
        ui: Option<egui::Context>,
        limits: Limits,
    ) -> std::io::Result<ClassServer> {
        let listener = TcpListener::bind(address)?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let (board, receiver) = watch::channel(Arc::new(ClassBoard::default()));
        let students = Arc::new(AtomicUsize::new(0));
        let page = page(i18n);
        let fonts = Arc::new(font::Fonts::new(&page));
        let desk = Arc::new(quiz::Desk::new(fonts.clone()));
        let stalls = Arc::new(AtomicU64::new(0));
        let shared = Arc::new(Server {
            code: code.to_owned(),
            board: receiver,
            students: students.clone(),
            wrong: Mutex::new(HashMap::new()),
            page: Html(page),
            ui,
            quiz: desk.clone(),
            fonts: fonts.clone(),
            heartbeat: limits.heartbeat,
            stalls: stalls.clone(),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        let listener = {
            let _inside = runtime.enter();
            // The peer's address stays the connection's info through `tap_io`.
            Door::new(tokio::net::TcpListener::from_std(listener)?, limits).tap_io(|_| ())
        };
        let thread = std::thread::Builder::new()
            .name("class server".into())
            .spawn(move || {
                let app = router(shared).into_make_service_with_connect_info::<SocketAddr>();
                runtime.block_on(async move {
                    let serve = std::pin::pin!(axum::serve(listener, app).into_future());
                    // Stopping drops the server and, with the runtime, every connection.
                    let _ = futures_util::future::select(serve, stopped).await;
                });
                runtime.shutdown_background();
            })?;
        Ok(ClassServer {
            address,
            board,
            students,
            quiz: desk,
            fonts,
            stalls,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Where the server listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Shows `board` to the class: every page gets it, a page that is behind gets only
    /// the newest, with the version of the font its texts need.
    pub fn publish(&self, mut board: ClassBoard) {
        board.font = self.fonts.cover(board.texts());
        self.board.send_replace(Arc::new(board));
    }

    /// How many students follow the board now.
    pub fn students(&self) -> usize {
        self.students.load(Ordering::Relaxed)
    }

    /// Makes every event stream open now send nothing more, pings included, while its
    /// connection stays open: the server as a page sees it when the network between them
    /// stalls without breaking. Streams opened afterwards flow as usual. For tests of the
    /// page's watchdog; no request can reach it.
    pub fn stall_streams(&self) {
        self.stalls.fetch_add(1, Ordering::AcqRel);
    }
}

impl Drop for ClassServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn router(shared: Sharing) -> Router {
    Router::new()
        .route("/", get(student_page))
        .route("/state", get(state_reply))
        .route("/events", get(events))
        .route("/font", get(font::page_font))
        .merge(quiz::routes())
        .route_layer(middleware::from_fn_with_state(shared.clone(), admit))
        .fallback(|| async { StatusCode::NOT_FOUND })
        .layer(middleware::from_fn(cap_body))
        .with_state(shared)
}

/// Turns away a request whose body is over [`MAX_BODY`] (or of a length not given).
async fn cap_body(request: Request, next: Next) -> Response {
    let length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .map(|v| v.to_str().ok().and_then(|v| v.parse::<u64>().ok()));
    let chunked = request.headers().contains_key(header::TRANSFER_ENCODING);
    match length {
        Some(None) => return StatusCode::BAD_REQUEST.into_response(),
        Some(Some(n)) if n > MAX_BODY => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
        _ if chunked => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
        _ => {}
    }
    next.run(request).await
}

/// Lets a request in with the right join code; counts wrong codes per address and turns
/// an address away once it has sent too many.
async fn admit(
    Shared(shared): Shared<Sharing>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let ip = peer.ip();
    let now = Instant::now();
    {
        let mut wrong = shared.wrong.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(since, count)) = wrong.get(&ip) {
            if now.duration_since(since) >= WRONG_CODE_WINDOW {
                wrong.remove(&ip);
            } else if count >= MAX_WRONG_CODES {
                return (StatusCode::TOO_MANY_REQUESTS, "too many wrong codes\n").into_response();
            }
        }
        let given = request.uri().query().and_then(code_in);
        if given != Some(shared.code.as_str()) {
            // Old entries go before the table could grow with many addresses.
            if wrong.len() > 10_000 {
                wrong.retain(|_, (since, _)| now.duration_since(*since) < WRONG_CODE_WINDOW);
            }
            wrong.entry(ip).or_insert((now, 0)).1 += 1;
            return (StatusCode::UNAUTHORIZED, "join code needed\n").into_response();
        }
    }
    next.run(request).await
}

/// The `code` parameter of a query string.
fn code_in(query: &str) -> Option<&str> {
    query.split('&').find_map(|pair| pair.strip_prefix("code="))
}

async fn student_page(Shared(shared): Shared<Sharing>) -> Response {
    let mut response = shared.page.clone().into_response();
    no_store(&mut response);
    response
}

async fn state_reply(Shared(shared): Shared<Sharing>) -> Response {
    let json = shared.board.borrow().state_json(shared.quiz.state_json());
    let mut response = ([(header::CONTENT_TYPE, "application/json")], json).into_response();
    no_store(&mut response);
    response
}

fn no_store(response: &mut Response) {
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-store, no-cache"),
    );
}

/// A student following the board: counted while the stream is open.
struct Student {
    students: Arc<AtomicUsize>,
    ui: Option<egui::Context>,
}

impl Student {
    /// A place in the class, if one is free.
    fn join(shared: &Server) -> Option<Student> {
        shared
            .students
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_STUDENTS).then_some(n + 1)
            })
            .ok()?;
        if let Some(ui) = &shared.ui {
            ui.request_repaint();
        }
        Some(Student {
            students: shared.students.clone(),
            ui: shared.ui.clone(),
        })
    }
}

impl Drop for Student {
    fn drop(&mut self) {
        self.students.fetch_sub(1, Ordering::AcqRel);
        if let Some(ui) = &self.ui {
            ui.request_repaint();
        }
    }
}

/// The live board: the board now, then each change. A page that falls behind skips to
/// the newest board (the channel holds only that), so a slow reader costs only itself.
async fn events(Shared(shared): Shared<Sharing>) -> Response {
    let Some(student) = Student::join(&shared) else {
        return (StatusCode::SERVICE_UNAVAILABLE, "the class is full\n").into_response();
    };
    let board = shared.board.clone();
    live_stream(&shared, board, "board", student, |b| b.event_json())
}

/// The shortest heartbeat streams keep: none at all would send pings without end.
const SHORTEST_HEARTBEAT: Duration = Duration::from_millis(50);

/// A page's event stream: what `source` holds now, then each change, as events named
/// `name` whose data `data` writes; and `ping` events, whose data is the heartbeat in
/// milliseconds (`{"every":15000}`), one first and one whenever nothing else was sent for
/// a heartbeat. A browser's event source shows a page no comment, so a keep-alive comment
/// cannot tell the page that its stream still flows; a ping can, and a page that hears
/// nothing for a few heartbeats knows to say it is offline and open the stream again.
/// `guard` (the page's place) is held while the stream is open.
fn live_stream<T, G>(
    shared: &Server,
    mut source: watch::Receiver<T>,
    name: &'static str,
    guard: G,
    data: fn(&T) -> String,
) -> Response
where
    T: Send + Sync + 'static,
    G: Send + 'static,
{
    source.mark_changed();
    let every = shared.heartbeat.max(SHORTEST_HEARTBEAT);
    let ping = move || {
        let millis = every.as_millis();
        Event::default()
            .event("ping")
            .data(format!("{{\"every\":{millis}}}"))
    };
    let stalls = shared.stalls.clone();
    let opened = stalls.load(Ordering::Acquire);
    let changes = futures_util::stream::unfold((source, guard), move |(mut source, guard)| {
        let stalled = stalls.load(Ordering::Acquire) != opened;
        async move {
            if stalled {
                std::future::pending::<()>().await;
            }
            let event = match tokio::time::timeout(every, source.changed()).await {
                Ok(Ok(())) => Event::default()
                    .event(name)
                    .data(data(&source.borrow_and_update())),
                // The server is stopping.
                Ok(Err(_)) => return None,
                Err(_) => ping(),
            };
            Some((event, (source, guard)))
        }
    });
    let stream = futures_util::stream::once(std::future::ready(ping()))
        .chain(changes)
        .map(Ok::<_, std::convert::Infallible>);
    let mut response = Sse::new(stream).into_response();
    no_store(&mut response);
    response
}

/// The words the page uses, by message id.
const PAGE_WORDS: [&str; 11] = [
    "class-page-title",
    "class-page-offline",
    "class-page-online",
    "class-page-red-to-move",
    "class-page-black-to-move",
    "class-page-moves",
    "class-page-last-move",
    "class-page-start",
    "class-page-language",
    "class-page-full",
    "class-page-wrong-code",
];

/// The student page: one document with its styles, script and the words in every
/// language.
fn page(i18n: &I18n) -> String {
    let mut words = serde_json::Map::new();
    for language in Language::ALL {
        let mut table = serde_json::Map::new();
        for id in PAGE_WORDS.into_iter().chain(quiz::PAGE_WORDS) {
            table.insert(id.to_owned(), i18n.tr_in(language, id).into());
        }
        table.insert(
            "name".to_owned(),
            i18n.tr_in(language, "language-name").into(),
        );
        words.insert(language.tag().to_owned(), table.into());
    }
    // `</` cannot end the script early inside a JSON string written this way.
    let words = serde_json::Value::Object(words)
        .to_string()
        .replace("</", "<\\/");
    PAGE.replace("/*WORDS*/null", &words)
        .replace("<!--QUIZ-->", quiz::PAGE)
}

const PAGE: &str = include_str!("class/page.html");

pub mod quiz;

#[cfg(test)]
mod test_client;
#[cfg(test)]
mod tests;
