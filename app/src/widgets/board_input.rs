//! The board's interaction controller, one for every board: which piece a left drag may
//! pick up, where the lifted piece and its destinations are drawn while it moves, and what
//! the pointer did once the board is painted, as [`BoardEvent`]s in points. What an event
//! means is the panel's to say.
//!
//! A board uses it in three steps:
//!
//! ```ignore
//! let input = BoardInput::new(ui, id, Pick::SideToMove(position)).with_marks(&theme);
//! input.decorate(ui, &mut marks); // the lifted piece, its destinations
//! let (response, geometry) = Board::new(&diagram, &marks, &theme).show(ui);
//! for event in input.finish(ui, &response, &geometry) { /* the panel's actions */ }
//! ```
//!
//! What is held between frames lives in egui's temporary memory under the board's id. The
//! decisions are the pure function [`decide`] of what is held and what the pointer did,
//! so they are tested without a window.

use crate::theme::Theme;
use crate::widgets::board::{Board, BoardArrow, BoardGeometry, Marks, paint_arrow, remember_drawn};
use crate::widgets::board_menu::{self, Find};
use chuhe_core::diagram::Diagram;
use chuhe_core::record::MarkColor;
use chuhe_core::{Piece, Position, Square};
use egui::{Context, Id, Modifiers, PointerButton, Pos2, Response, Ui, Vec2};

/// Which pieces a left drag may pick up.
#[derive(Clone, Copy, Debug)]
pub enum Pick<'a> {
    /// None: the board only reads clicks (and marks, if it draws them).
    Nothing,
    /// The pieces of the side to move in this position.
    SideToMove(&'a Position),
    /// Any piece of this arrangement, legal or not (the position editor's).
    AnyPiece(&'a chuhe_core::Board),
}

impl Pick<'_> {
    /// Whether the piece on `square` may be picked up (never an empty point).
    pub fn allows(&self, square: Square) -> bool {
        match self {
            Pick::Nothing => false,
            Pick::SideToMove(position) => position
                .piece_at(square)
                .is_some_and(|p| p.color == position.side_to_move()),
            Pick::AnyPiece(board) => board.get(square).is_some(),
        }
    }
}

/// How a board answers the pointer.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    /// Which pieces a left drag picks up.
    pub pick: Pick<'a>,
    /// The right button draws arrows (drag) and circles (click) instead of reporting
    /// [`BoardEvent::SecondaryClick`].
    pub marks: bool,
    /// A lifted piece let go off the board is reported ([`BoardEvent::DropOff`]) rather
    /// than put back.
    pub drop_off: bool,
    /// While a piece of [`Pick::SideToMove`] is lifted, its legal destinations are shown.
    pub destinations: bool,
}

impl<'a> Rules<'a> {
    /// A board where `pick` may be dragged, with no marks, no drop-off and no
    /// destinations.
    pub fn new(pick: Pick<'a>) -> Rules<'a> {
        Rules {
            pick,
            marks: false,
            drop_off: false,
            destinations: false,
        }
    }
}

/// What the pointer holds over a board between frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Held {
    /// Nothing.
    #[default]
    Nothing,
    /// A piece lifted by a left drag from its point.
    Piece(Square),
    /// A piece brought from outside the board (the editor's palette), not on it yet.
    Carried(Piece),
    /// A right drag drawing an arrow from this point.
    Arrow(Square),
}

/// What the pointer did on the board in a frame, reduced to points (`None` off the grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// The button went down and up without moving.
    Click(PointerButton, Option<Square>),
    /// A drag with the button began where it went down.
    DragStart(PointerButton, Option<Square>),
    /// The button was let go with the pointer here.
    Release(PointerButton, Option<Square>),
}

/// What a board reports to its panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEvent {
    /// A left click on a point.
    Click(Square),
    /// A left drag picked up the piece on this point; the release decides where it goes.
    Lift(Square),
    /// A lifted piece was let go on another point.
    Move(Square, Square),
    /// A lifted piece was let go off the board (only when the rules ask for it).
    DropOff(Square),
    /// A carried piece was let go on a point.
    Place(Square, Piece),
    /// A right drag from one point to another, in the colour of the modifiers held.
    Arrow(Square, Square, MarkColor),
    /// A right click, or a right drag back to its start, on a point (boards with marks).
    Circle(Square, MarkColor),
    /// A right click on a point (boards without marks).
    SecondaryClick(Square),
    /// A right click off the points (beside the board, in its margin or between points),
    /// which no board uses for its pieces or marks: it opens the board's context menu.
    MenuClick,
}

/// What `gesture` means on a board with `rules` while `held` is held: what is held
/// afterwards and the event, if any. `color` is the mark colour of the modifiers held.
pub fn decide(
    held: Held,
    gesture: Gesture,
    rules: &Rules,
    color: MarkColor,
) -> (Held, Option<BoardEvent>) {
    use PointerButton::{Primary, Secondary};
    match gesture {
        Gesture::Click(Primary, Some(at)) => (held, Some(BoardEvent::Click(at))),
        Gesture::Click(Secondary, Some(at)) if rules.marks => {
            (held, Some(BoardEvent::Circle(at, color)))
        }
        Gesture::Click(Secondary, Some(at)) => (held, Some(BoardEvent::SecondaryClick(at))),
        Gesture::Click(Secondary, None) => (held, Some(BoardEvent::MenuClick)),
        Gesture::Click(..) => (held, None),
        Gesture::DragStart(Primary, Some(from)) if rules.pick.allows(from) => {
            (Held::Piece(from), Some(BoardEvent::Lift(from)))
        }
        Gesture::DragStart(Secondary, Some(from)) if rules.marks => (Held::Arrow(from), None),
        // A drag from an empty point, another side's piece or off the grid does nothing.
        Gesture::DragStart(..) => (Held::Nothing, None),
        Gesture::Release(button, at) => match (held, button) {
            (Held::Piece(from), Primary) => {
                let event = match at {
                    Some(to) if to != from => Some(BoardEvent::Move(from, to)),
                    // Back where it came from: put down, nothing happened.
                    Some(_) => None,
                    None if rules.drop_off => Some(BoardEvent::DropOff(from)),
                    None => None,
                };
                (Held::Nothing, event)
            }
            (Held::Carried(piece), Primary) => {
                (Held::Nothing, at.map(|to| BoardEvent::Place(to, piece)))
            }
            (Held::Arrow(from), Secondary) => {
                let event = match at {
                    Some(to) if to != from => Some(BoardEvent::Arrow(from, to, color)),
                    Some(at) => Some(BoardEvent::Circle(at, color)),
                    None => None,
                };
                (Held::Nothing, event)
            }
            // Another button let go: the drag goes on.
            _ => (held, None),
        },
    }
}

/// The arrow to show while a right drag is drawn, from its start to the point under the
/// pointer, if that is another point.
pub fn preview(held: Held, at: Option<Square>) -> Option<(Square, Square)> {
    match (held, at) {
        (Held::Arrow(from), Some(to)) if from != to => Some((from, to)),
        _ => None,
    }
}

/// Lichess's colours for marks: green plain, red with Shift, blue with Alt (or Ctrl),
/// yellow with both.
pub fn mark_color(modifiers: Modifiers) -> MarkColor {
    let other = modifiers.alt || modifiers.ctrl || modifiers.command;
    match (modifiers.shift, other) {
        (false, false) => MarkColor::Green,
        (true, false) => MarkColor::Red,
        (false, true) => MarkColor::Blue,
        (true, true) => MarkColor::Yellow,
    }
}

/// The controller of one board for one frame.
pub struct BoardInput<'a> {
    id: Id,
    rules: Rules<'a>,
    /// The marks' colours, for the arrow preview; set when the board draws marks.
    theme: Option<&'a Theme>,
    held: Held,
    /// Whether a right click on a point opens the board's menu too (on boards whose right
    /// button draws nothing).
    menu_on_points: bool,
    /// The size the board may take, when not all the space there is.
    room: Option<Vec2>,
    /// The key its drawn place is remembered under (see [`remember_drawn`]).
    drawn: &'static str,
}

/// What a board drawn under its controller gave this frame.
pub struct Shown {
    /// The board's response, for its context menu.
    pub response: Response,
    /// Where the board was drawn.
    pub geometry: BoardGeometry,
    /// What the pointer did on it, the menu's clicks taken out.
    pub events: Vec<BoardEvent>,
    /// Whether the board's context menu was asked for.
    pub menu: bool,
    /// The piece carried onto the board from outside, for its panel to draw under the
    /// pointer.
    pub carried: Option<Piece>,
}

impl<'a> BoardInput<'a> {
    /// The controller of the board `id`, where a left drag picks up the pieces `pick`
    /// allows, with what it held at the end of the last frame.
    pub fn new(ui: &Ui, id: Id, pick: Pick<'a>) -> BoardInput<'a> {
        BoardInput {
            id,
            rules: Rules::new(pick),
            theme: None,
            held: ui.data(|d| d.get_temp(id)).unwrap_or_default(),
            menu_on_points: false,
            room: None,
            drawn: crate::widgets::board::MAIN_BOARD,
        }
    }

    /// A right click anywhere opens the board's menu: for boards whose right button draws
    /// no marks and takes no piece off.
    pub fn with_menu_on_points(mut self) -> Self {
        self.menu_on_points = true;
        self
    }

    /// Where the board is drawn is remembered as `key` instead of as the main board's.
    pub fn drawn_as(mut self, key: &'static str) -> Self {
        self.drawn = key;
        self
    }

    /// The board takes at most `size`, instead of all the space there is.
    pub fn within(mut self, size: Vec2) -> Self {
        self.room = Some(size);
        self
    }

    /// The whole of one board's frame: draws `diagram` with `marks` in `theme`'s colours
    /// under this controller (the lifted piece and its destinations added to the marks),
    /// remembers where it was drawn (for hit-testing from outside the frame), and returns
    /// what the pointer did. What an event means is the caller's.
    pub fn show(
        mut self,
        ui: &mut Ui,
        diagram: &Diagram,
        mut marks: Marks,
        theme: &Theme,
    ) -> Shown {
        self.decorate(ui, &mut marks);
        let board = Board::new(diagram, &marks, theme);
        let (response, geometry) = match self.room {
            Some(room) => ui.allocate_ui(room, |ui| board.show(ui)).inner,
            None => board.show(ui),
        };
        remember_drawn(ui.ctx(), self.drawn, geometry);
        let mut menu = false;
        let events = self
            .finish(ui, &response, &geometry)
            .into_iter()
            .filter(|event| {
                let opens_menu = match event {
                    BoardEvent::MenuClick => true,
                    BoardEvent::SecondaryClick(_) => self.menu_on_points,
                    _ => false,
                };
                menu |= opens_menu;
                !opens_menu
            })
            .collect();
        Shown {
            response,
            geometry,
            events,
            menu,
            carried: self.carried(),
        }
    }

    /// The right button draws arrows and circles, the preview in `theme`'s colours.
    pub fn with_marks(mut self, theme: &'a Theme) -> Self {
        self.rules.marks = true;
        self.theme = Some(theme);
        self
    }

    /// A lifted piece let go off the board is reported as [`BoardEvent::DropOff`].
    pub fn with_drop_off(mut self) -> Self {
        self.rules.drop_off = true;
        self
    }

    /// Whether a lifted piece's legal destinations are shown.
    pub fn with_destinations(mut self, show: bool) -> Self {
        self.rules.destinations = show;
        self
    }

    /// The palette of a board's panel hands it a piece to carry: from now until the left
    /// button is let go, the board `id` holds `piece` and places it where it is dropped.
    pub fn carry(ctx: &Context, id: Id, piece: Piece) {
        ctx.data_mut(|d| d.insert_temp(id, Held::Carried(piece)));
    }

    /// The piece carried onto the board from outside, for its panel to draw under the
    /// pointer.
    pub fn carried(&self) -> Option<Piece> {
        match self.held {
            Held::Carried(piece) => Some(piece),
            _ => None,
        }
    }

    /// Before painting: the lifted piece under the pointer instead of on its point, and
    /// its destinations if the rules show them.
    fn decorate(&self, ui: &Ui, marks: &mut Marks) {
        let Held::Piece(from) = self.held else {
            return;
        };
        if let Some(at) = ui.input(|i| i.pointer.latest_pos()) {
            marks.lifted = Some((from, at));
        }
        if self.rules.destinations
            && let Pick::SideToMove(position) = self.rules.pick
        {
            marks.destinations = position
                .legal_moves_from(from)
                .iter()
                .map(|m| m.to)
                .collect();
        }
    }

    /// After painting: what the pointer did on the board drawn as `response` in
    /// `geometry` (a drag's start before a release, a release before a click). Draws the
    /// arrow preview while a right drag goes on, and remembers what is held for the next
    /// frame.
    fn finish(
        &mut self,
        ui: &Ui,
        response: &Response,
        geometry: &BoardGeometry,
    ) -> Vec<BoardEvent> {
        let square_at = |pos: Option<Pos2>| pos.and_then(|p| geometry.square_at(p));
        let (origin, pointer, modifiers) = ui.input(|i| {
            (
                i.pointer.press_origin(),
                i.pointer.latest_pos(),
                i.modifiers,
            )
        });
        let color = mark_color(modifiers);
        let buttons = [PointerButton::Primary, PointerButton::Secondary];
        let mut gestures = Vec::new();
        for button in buttons {
            if response.drag_started_by(button) {
                gestures.push(Gesture::DragStart(button, square_at(origin)));
            }
        }
        // Releases are read from the input, not the response: a piece carried from outside
        // is let go over the board without the board ever having been dragged.
        for button in buttons {
            if ui.input(|i| i.pointer.button_released(button)) {
                gestures.push(Gesture::Release(button, square_at(pointer)));
            }
        }
        for button in buttons {
            if response.clicked_by(button) {
                let at = square_at(response.interact_pointer_pos());
                gestures.push(Gesture::Click(button, at));
            }
        }
        let mut events = Vec::new();
        for gesture in gestures {
            let (held, event) = decide(self.held, gesture, &self.rules, color);
            self.held = held;
            events.extend(event);
        }
        // A drag whose release this board never saw (it was hidden then) is over.
        if self.held != Held::Nothing && !ui.input(|i| i.pointer.any_down()) {
            self.held = Held::Nothing;
        }
        if let (Some(theme), Some((from, to))) =
            (self.theme, preview(self.held, square_at(pointer)))
        {
            let arrow = BoardArrow {
                from,
                to,
                color: theme.mark(color),
                thin: false,
            };
            paint_arrow(&ui.painter_at(geometry.board_rect()), geometry, &arrow);
        }
        ui.data_mut(|d| d.insert_temp(self.id, self.held));
        events
    }
}

/// A board where a person plays one side of `position` and nothing else (solve mode,
/// training): the side to move's pieces move when `can_move`, `hint` shows as an arrow,
/// any right click opens the menu that finds the position in the collections. Returns the
/// moves and clicks, for the caller to say what they mean; `id` names the board's
/// controller.
#[allow(clippy::too_many_arguments)]
pub fn practice_board(
    app: &crate::widgets::View,
    ui: &mut Ui,
    id: &str,
    position: &Position,
    mut marks: Marks,
    theme: &Theme,
    can_move: bool,
    hint: Option<chuhe_core::Move>,
    actions: &mut Vec<crate::actions::Action>,
) -> Vec<BoardEvent> {
    if let Some(hint) = hint {
        marks.arrows.push(BoardArrow {
            from: hint.from,
            to: hint.to,
            color: theme.engine_arrow,
            thin: false,
        });
    }
    let pick = if can_move {
        Pick::SideToMove(position)
    } else {
        Pick::Nothing
    };
    let diagram = Diagram::from_position(position);
    // The right button draws nothing here: any right click opens the menu.
    let shown = BoardInput::new(ui, Id::unique(id), pick)
        .with_destinations(app.state.settings.show_destinations)
        .with_menu_on_points()
        .show(ui, &diagram, marks, theme);
    board_menu::show(&shown.response, shown.menu, |ui| {
        board_menu::find_position(ui, app.i18n, Find::Shown(position), actions);
    });
    shown
        .events
        .into_iter()
        .filter(|e| matches!(e, BoardEvent::Move(..) | BoardEvent::Click(_)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use PointerButton::{Primary, Secondary};
    use chuhe_core::{Color, PieceKind};

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    const GREEN: MarkColor = MarkColor::Green;

    /// Runs `gestures` from nothing held, returning the events and what is held at the end.
    fn run(rules: &Rules, gestures: &[Gesture]) -> (Vec<BoardEvent>, Held) {
        let mut held = Held::Nothing;
        let mut events = Vec::new();
        for &gesture in gestures {
            let (next, event) = decide(held, gesture, rules, GREEN);
            held = next;
            events.extend(event);
        }
        (events, held)
    }

    #[test]
    fn only_the_side_to_move_lifts_its_pieces() {
        let position = Position::startpos();
        let rules = Rules::new(Pick::SideToMove(&position));
        assert_eq!(
            run(&rules, &[Gesture::DragStart(Primary, Some(sq("b0")))]),
            (vec![BoardEvent::Lift(sq("b0"))], Held::Piece(sq("b0")))
        );
        for from in [Some(sq("b9")), Some(sq("e4")), None] {
            assert_eq!(
                run(&rules, &[Gesture::DragStart(Primary, from)]),
                (vec![], Held::Nothing),
                "{from:?}"
            );
        }
        let nothing = Rules::new(Pick::Nothing);
        assert_eq!(
            run(&nothing, &[Gesture::DragStart(Primary, Some(sq("b0")))]),
            (vec![], Held::Nothing)
        );
    }

    #[test]
    fn the_editor_lifts_any_piece() {
        let board = chuhe_core::Board::startpos();
        let rules = Rules::new(Pick::AnyPiece(&board));
        assert!(rules.pick.allows(sq("b0")) && rules.pick.allows(sq("b9")));
        assert!(!rules.pick.allows(sq("e4")));
    }

    #[test]
    fn a_drag_moves_on_release_elsewhere_and_not_when_put_back() {
        let position = Position::startpos();
        let rules = Rules::new(Pick::SideToMove(&position));
        let lift = Gesture::DragStart(Primary, Some(sq("b0")));
        assert_eq!(
            run(&rules, &[lift, Gesture::Release(Primary, Some(sq("c2")))]),
            (
                vec![
                    BoardEvent::Lift(sq("b0")),
                    BoardEvent::Move(sq("b0"), sq("c2"))
                ],
                Held::Nothing
            )
        );
        assert_eq!(
            run(&rules, &[lift, Gesture::Release(Primary, Some(sq("b0")))]),
            (vec![BoardEvent::Lift(sq("b0"))], Held::Nothing)
        );
        // The right button let go in between does not drop it.
        assert_eq!(
            run(&rules, &[lift, Gesture::Release(Secondary, Some(sq("c2")))]).1,
            Held::Piece(sq("b0"))
        );
    }

    #[test]
    fn off_the_board_a_piece_is_put_back_unless_drop_off_is_reported() {
        let position = Position::startpos();
        let mut rules = Rules::new(Pick::SideToMove(&position));
        let gestures = [
            Gesture::DragStart(Primary, Some(sq("a0"))),
            Gesture::Release(Primary, None),
        ];
        assert_eq!(run(&rules, &gestures).0, [BoardEvent::Lift(sq("a0"))]);
        rules.drop_off = true;
        assert_eq!(
            run(&rules, &gestures).0,
            [BoardEvent::Lift(sq("a0")), BoardEvent::DropOff(sq("a0"))]
        );
    }

    #[test]
    fn a_carried_piece_is_placed_where_it_is_dropped_on_the_board() {
        let rules = Rules::new(Pick::Nothing);
        let cannon = Piece::new(Color::Red, PieceKind::Cannon);
        let carried = Held::Carried(cannon);
        assert_eq!(
            decide(
                carried,
                Gesture::Release(Primary, Some(sq("b2"))),
                &rules,
                GREEN
            ),
            (Held::Nothing, Some(BoardEvent::Place(sq("b2"), cannon)))
        );
        assert_eq!(
            decide(carried, Gesture::Release(Primary, None), &rules, GREEN),
            (Held::Nothing, None)
        );
    }

    #[test]
    fn clicks_are_reported_on_points_only() {
        let rules = Rules::new(Pick::Nothing);
        assert_eq!(
            run(&rules, &[Gesture::Click(Primary, Some(sq("e4")))]).0,
            [BoardEvent::Click(sq("e4"))]
        );
        assert_eq!(
            run(&rules, &[Gesture::Click(Secondary, Some(sq("e4")))]).0,
            [BoardEvent::SecondaryClick(sq("e4"))]
        );
        assert_eq!(run(&rules, &[Gesture::Click(Primary, None)]).0, []);
    }

    #[test]
    fn a_right_click_off_the_points_asks_for_the_menu_with_marks_or_without() {
        let position = Position::startpos();
        let mut rules = Rules::new(Pick::SideToMove(&position));
        for marks in [false, true] {
            rules.marks = marks;
            assert_eq!(
                run(&rules, &[Gesture::Click(Secondary, None)]).0,
                [BoardEvent::MenuClick],
                "marks: {marks}"
            );
        }
        // On a point the click keeps its meaning, and a right drag off the points is no
        // click.
        assert_eq!(
            run(&rules, &[Gesture::Click(Secondary, Some(sq("e7")))]).0,
            [BoardEvent::Circle(sq("e7"), GREEN)]
        );
        assert_eq!(run(&rules, &[Gesture::DragStart(Secondary, None)]).0, []);
    }

    #[test]
    fn with_marks_the_right_button_draws_arrows_and_circles() {
        let position = Position::startpos();
        let mut rules = Rules::new(Pick::SideToMove(&position));
        rules.marks = true;
        let red = MarkColor::Red;
        assert_eq!(
            decide(
                Held::Nothing,
                Gesture::Click(Secondary, Some(sq("e7"))),
                &rules,
                red
            ),
            (Held::Nothing, Some(BoardEvent::Circle(sq("e7"), red)))
        );
        let start = Gesture::DragStart(Secondary, Some(sq("b0")));
        assert_eq!(run(&rules, &[start]), (vec![], Held::Arrow(sq("b0"))));
        let arrow = Held::Arrow(sq("b0"));
        assert_eq!(
            decide(
                arrow,
                Gesture::Release(Secondary, Some(sq("c2"))),
                &rules,
                red
            ),
            (
                Held::Nothing,
                Some(BoardEvent::Arrow(sq("b0"), sq("c2"), red))
            )
        );
        // Back to its start it is a circle; off the board, nothing.
        assert_eq!(
            decide(
                arrow,
                Gesture::Release(Secondary, Some(sq("b0"))),
                &rules,
                red
            )
            .1,
            Some(BoardEvent::Circle(sq("b0"), red))
        );
        assert_eq!(
            decide(arrow, Gesture::Release(Secondary, None), &rules, red),
            (Held::Nothing, None)
        );
        // Without marks a right drag draws nothing.
        rules.marks = false;
        assert_eq!(run(&rules, &[start]), (vec![], Held::Nothing));
    }

    #[test]
    fn the_preview_follows_a_right_drag_to_another_point() {
        let arrow = Held::Arrow(sq("b0"));
        assert_eq!(preview(arrow, Some(sq("c2"))), Some((sq("b0"), sq("c2"))));
        assert_eq!(preview(arrow, Some(sq("b0"))), None);
        assert_eq!(preview(arrow, None), None);
        assert_eq!(preview(Held::Piece(sq("b0")), Some(sq("c2"))), None);
    }

    #[test]
    fn modifiers_choose_the_mark_colour() {
        assert_eq!(mark_color(Modifiers::NONE), MarkColor::Green);
        assert_eq!(mark_color(Modifiers::SHIFT), MarkColor::Red);
        assert_eq!(mark_color(Modifiers::ALT), MarkColor::Blue);
        assert_eq!(mark_color(Modifiers::CTRL), MarkColor::Blue);
        assert_eq!(
            mark_color(Modifiers::SHIFT | Modifiers::ALT),
            MarkColor::Yellow
        );
    }
}
