//! Shape rules: which of the 36 named patterns a finished position shows.
//!
//! Each rule looks at a position where the side to move has lost (将死, or 困毙 for
//! pattern 36) and, when known, the move that mated. The side to move is the defender, the
//! other side the attacker. A rule states the final picture that gives the pattern its name
//! (马后炮: the checking cannon's screen is the attacker's horse); for patterns named for
//! how the attack runs, the rule is the picture such an attack ends in.
//!
//! Ranks are counted from the defender's side: 0 is its back rank (底线), 1 the 咽喉线
//! (the rank through the palace centre), 2 the palace top (宫顶线), 3 its pawn rank (卒林线).

use crate::{Color, Move, Piece, PieceKind, Position, Square};

/// The file indices of the palace's two side files (肋道: the 4th and 6th files).
const RIBS: [u8; 2] = [3, 5];
/// The centre file (中路).
const CENTRE: u8 = 4;
/// The 3rd and 7th files (三七路), where 卧槽, 钓鱼 and 高钓 horses stand.
const THREE_SEVEN: [u8; 2] = [2, 6];

/// Patterns without a shape rule. Every pattern has one: those named for how the attack
/// runs (10 车马冷着, 19 车炮滚杀, 23 双车错杀, 28 进洞出洞 …) are recognised by the
/// pieces that make the final mate, which is what the course of such an attack leaves.
const NO_RULE: [u8; 0] = [];

/// Whether pattern `id` has a shape rule.
pub fn has_rule(id: u8) -> bool {
    (1..=36).contains(&id) && !NO_RULE.contains(&id)
}

/// The patterns whose shape the finished position `pos` shows (ascending ids), given the
/// mating move `last` if known. Empty when the side to move still has a legal move.
pub fn recognise(pos: &Position, last: Option<Move>) -> Vec<u8> {
    if pos.has_legal_move() {
        return Vec::new();
    }
    let view = View::new(pos, last);
    (1..=36u8)
        .filter(|&id| has_rule(id) && view.rule(id))
        .collect()
}

/// The finished position seen from the attacker.
struct View<'a> {
    pos: &'a Position,
    last: Option<Move>,
    attacker: Color,
    defender: Color,
    /// The defending general.
    g: Square,
    /// The attacking general.
    a: Square,
    checkers: Vec<Square>,
    /// The points the defending general could step to but for the attack: orthogonal
    /// neighbours inside its palace not held by its own pieces.
    escapes: Vec<Square>,
}

impl<'a> View<'a> {
    fn new(pos: &'a Position, last: Option<Move>) -> View<'a> {
        let defender = pos.side_to_move();
        let attacker = !defender;
        let g = pos.general(defender);
        let escapes = neighbours(g)
            .into_iter()
            .filter(|s| s.in_palace(defender))
            .filter(|&s| pos.piece_at(s).is_none_or(|p| p.color == attacker))
            .collect();
        View {
            pos,
            last,
            attacker,
            defender,
            g,
            a: pos.general(attacker),
            checkers: pos.checkers_of(defender),
            escapes,
        }
    }

    fn rel(&self, s: Square) -> u8 {
        s.rank().relative_to(self.defender)
    }

    fn kind_at(&self, s: Square) -> Option<PieceKind> {
        self.pos
            .piece_at(s)
            .filter(|p| p.color == self.attacker)
            .map(|p| p.kind)
    }

    /// The attacker's pieces of `kind`.
    fn ours(&self, kind: PieceKind) -> Vec<Square> {
        self.pos
            .squares_of_color(self.attacker)
            .filter(|&s| self.kind_at(s) == Some(kind))
            .collect()
    }

    fn checker_kinds(&self) -> Vec<PieceKind> {
        self.checkers
            .iter()
            .filter_map(|&s| self.kind_at(s))
            .collect()
    }

    fn checks_with(&self, kind: PieceKind) -> Vec<Square> {
        self.checkers
            .iter()
            .copied()
            .filter(|&s| self.kind_at(s) == Some(kind))
            .collect()
    }

    /// Whether the attacker's piece on `from` attacks `to`, as if the defending general
    /// had stepped off its point (it cannot hide behind itself).
    fn covers(&self, from: Square, to: Square) -> bool {
        let occupied = |s: Square| s != self.g && self.pos.piece_at(s).is_some();
        attacks(self.pos, from, to, &occupied)
    }

    /// Whether the attacker's piece on `s` takes part in the mate: it gives check or
    /// guards a point the general would flee to.
    fn involved(&self, s: Square) -> bool {
        self.checkers.contains(&s) || self.escapes.iter().any(|&e| self.covers(s, e))
    }

    fn any_involved(&self, kind: PieceKind) -> bool {
        self.ours(kind).into_iter().any(|s| self.involved(s))
    }

    /// The one piece between a checking cannon and the general (its screen).
    fn screen(&self, cannon: Square) -> Option<Square> {
        let between = between(cannon, self.g);
        let pieces: Vec<Square> = between
            .into_iter()
            .filter(|&s| self.pos.piece_at(s).is_some())
            .collect();
        (pieces.len() == 1).then(|| pieces[0])
    }

    fn at(&self, file: u8, rel: u8) -> Option<Square> {
        let rank = match self.defender {
            Color::Red => rel,
            Color::Black => 9 - rel,
        };
        Square::from_coords(file, rank)
    }

    /// An attacking rook or pawn stands at `file`, rank `rel`.
    fn rook_or_pawn_at(&self, file: u8, rel: u8) -> bool {
        self.at(file, rel)
            .and_then(|s| self.kind_at(s))
            .is_some_and(|k| matches!(k, PieceKind::Rook | PieceKind::Pawn))
    }

    /// An attacking rook or pawn at `file`, rank `rel`, taking part in the mate.
    fn rook_or_pawn_working_at(&self, file: u8, rel: u8) -> bool {
        self.rook_or_pawn_at(file, rel) && self.at(file, rel).is_some_and(|s| self.involved(s))
    }

    fn horse_checker_at(&self, files: &[u8], rels: &[u8]) -> bool {
        self.checks_with(PieceKind::Horse)
            .into_iter()
            .any(|s| files.contains(&s.file().index()) && rels.contains(&self.rel(s)))
    }

    /// 白脸将: the attacking general takes part, by covering along its open file a point
    /// the defending general would step to, or by standing behind the checker so that
    /// taking it would bring the generals face to face.
    fn white_face(&self) -> bool {
        let covers_escape = self.escapes.iter().any(|&e| {
            e.file() == self.a.file()
                && between(self.a, e)
                    .into_iter()
                    .all(|s| s == self.g || self.pos.piece_at(s).is_none())
        });
        let guards_checker = self.g.file() == self.a.file() && {
            let pieces: Vec<Square> = between(self.a, self.g)
                .into_iter()
                .filter(|&s| self.pos.piece_at(s).is_some())
                .collect();
            pieces.len() == 1 && self.checkers.contains(&pieces[0])
        };
        covers_escape || guards_checker
    }

    /// A cannon checks with a screen of the attacker's `kind`.
    fn cannon_screened_by(&self, kind: PieceKind) -> bool {
        self.checks_with(PieceKind::Cannon)
            .into_iter()
            .any(|c| self.screen(c).and_then(|s| self.kind_at(s)) == Some(kind))
    }

    /// An attacking cannon on the general's file with nothing between (空头炮).
    fn empty_head_cannon(&self) -> bool {
        self.ours(PieceKind::Cannon).into_iter().any(|c| {
            c.file() == self.g.file()
                && between(c, self.g)
                    .into_iter()
                    .all(|s| self.pos.piece_at(s).is_none())
        })
    }

    /// The defender's advisors standing next to its general (闷宫's self-block).
    fn advisors_beside(&self) -> usize {
        neighbours(self.g)
            .into_iter()
            .filter(|&s| {
                self.pos.piece_at(s) == Some(Piece::new(self.defender, PieceKind::Advisor))
            })
            .count()
    }

    fn rule(&self, id: u8) -> bool {
        use PieceKind::*;
        let in_check = !self.checkers.is_empty();
        if id == 36 {
            return !in_check;
        }
        if !in_check {
            return false;
        }
        match id {
            // 白脸将杀 (对面笑杀).
            1 => self.white_face(),
            // 卧槽马: a horse checks from the 3rd/7th file on the 咽喉线.
            2 => self.horse_checker_at(&THREE_SEVEN, &[1]),
            // 挂角马: a horse checks from a rib file on the back rank or palace top.
            3 => self.horse_checker_at(&RIBS, &[0, 2]),
            // 八角马: a horse in one palace corner, the general in the opposite corner.
            4 => self.ours(Horse).into_iter().any(|h| {
                RIBS.contains(&h.file().index())
                    && matches!(self.rel(h), 0 | 2)
                    && self.g.file().index() == 8 - h.file().index()
                    && self.rel(self.g) == 2 - self.rel(h)
            }),
            // 拔簧马: the mating move is a horse's, and the point it left was the one thing
            // between an attacking rook and the general or one of its flight squares: the
            // horse springs away and the rook's line takes effect.
            5 => self.last.is_some_and(|m| {
                self.kind_at(m.to) == Some(Horse)
                    && self.ours(Rook).into_iter().any(|r| {
                        std::iter::once(self.g)
                            .chain(self.escapes.iter().copied())
                            .any(|t| {
                                let line = between(r, t);
                                line.contains(&m.from)
                                    && line
                                        .iter()
                                        .all(|&s| s == self.g || self.pos.piece_at(s).is_none())
                                    && self.covers(r, t)
                            })
                    })
            }),
            // 钓鱼马 / 高钓马: a horse on the 3rd/7th file, on the palace top or on the
            // 卒林线, guarding a point next to the general.
            6 | 7 => {
                let rel = if id == 6 { 2 } else { 3 };
                self.ours(Horse).into_iter().any(|h| {
                    THREE_SEVEN.contains(&h.file().index())
                        && self.rel(h) == rel
                        && self.escapes.iter().any(|&e| self.covers(h, e))
                })
            }
            // 双马饮泉: a horse mates with the other horse beside it.
            8 => {
                let horses = self.ours(Horse);
                horses.len() == 2
                    && self.checker_kinds().contains(&Horse)
                    && distance(horses[0], horses[1]) <= 2
                    && horses.iter().all(|&h| self.rel(h) <= 3)
            }
            // 马后炮: the checking cannon's screen is the attacker's horse.
            9 => self.cannon_screened_by(Horse),
            // 车马冷着: rook and horse mate together, no cannon needed.
            10 => {
                self.checker_kinds()
                    .iter()
                    .all(|k| matches!(k, Rook | Horse))
                    && self.any_involved(Rook)
                    && self.any_involved(Horse)
                    && !self.any_involved(Cannon)
            }
            // 立马车 (白马现蹄): a 挂角 horse checks with a rook helping.
            11 => self.horse_checker_at(&RIBS, &[0, 2]) && self.any_involved(Rook),
            // 海底捞月: the rook mates with the generals' face-off, the cannon nearby.
            12 => {
                self.checker_kinds().contains(&Rook)
                    && self.white_face()
                    && !self.ours(Cannon).is_empty()
            }
            // 重炮: the checking cannon's screen is the other cannon.
            13 => self.cannon_screened_by(Cannon),
            // 中肋炮: one cannon on the centre file, one on a rib file, both at work.
            14 => {
                let cannons = self.ours(Cannon);
                let centre = cannons
                    .iter()
                    .any(|&c| c.file().index() == CENTRE && self.involved(c));
                let rib = cannons
                    .iter()
                    .any(|&c| RIBS.contains(&c.file().index()) && self.involved(c));
                centre && rib
            }
            // 闷宫: a lone cannon checks a general hemmed in by its own two advisors.
            15 => self.checker_kinds() == [Cannon] && self.advisors_beside() == 2,
            // 闷将: every point next to the general in its palace holds its own piece.
            16 => {
                let inside: Vec<Square> = neighbours(self.g)
                    .into_iter()
                    .filter(|s| s.in_palace(self.defender))
                    .collect();
                inside.iter().all(|&s| {
                    self.pos
                        .piece_at(s)
                        .is_some_and(|p| p.color == self.defender)
                })
            }
            // 铁门栓: a central cannon shuts the centre file; a rook or pawn mates the
            // general beside it.
            17 => {
                self.g.file().index() != CENTRE
                    && self
                        .checker_kinds()
                        .iter()
                        .any(|k| matches!(k, Rook | Pawn))
                    && self
                        .ours(Cannon)
                        .into_iter()
                        .any(|c| c.file().index() == CENTRE && self.involved(c))
            }
            // 炮碾丹砂: the rook mates with a cannon sunk on the back rank.
            18 => {
                self.checker_kinds().contains(&Rook)
                    && self.ours(Cannon).into_iter().any(|c| self.rel(c) == 0)
            }
            // 车炮滚杀: rook and cannon alone give the mate.
            19 => {
                self.checker_kinds()
                    .iter()
                    .all(|k| matches!(k, Rook | Cannon))
                    && self.any_involved(Rook)
                    && self.any_involved(Cannon)
                    && !self.any_involved(Horse)
                    && !self.any_involved(Pawn)
            }
            // 车炮抽杀: a cannon mates a general boxed in by its own pieces, a rook
            // standing in an elephant's eye.
            20 => {
                self.checker_kinds() == [Cannon]
                    && self.escapes.iter().all(|&e| {
                        self.pos.piece_at(e).is_some()
                            || self.ours(Rook).into_iter().any(|r| self.covers(r, e))
                    })
                    && self
                        .ours(Rook)
                        .into_iter()
                        .any(|r| is_elephant_eye(self, r))
            }
            // 三子归边: rook, horse and cannon together on one wing, one of them checking.
            21 => [0u8..=3, 5..=8].into_iter().any(|wing| {
                let on_wing = |k: PieceKind| {
                    self.ours(k)
                        .into_iter()
                        .filter(|s| wing.contains(&s.file().index()))
                        .collect::<Vec<_>>()
                };
                let (r, h, c) = (on_wing(Rook), on_wing(Horse), on_wing(Cannon));
                !r.is_empty()
                    && !h.is_empty()
                    && !c.is_empty()
                    && r.iter()
                        .chain(&h)
                        .chain(&c)
                        .any(|s| self.checkers.contains(s))
            }),
            // 穿心杀: the centre advisor is gone; the general on its back rank is mated
            // along it by a rook.
            22 => {
                let centre = self.at(CENTRE, 1);
                self.rel(self.g) == 0
                    && self.checks_with(Rook).into_iter().any(|r| self.rel(r) == 0)
                    && centre.is_some_and(|c| {
                        self.pos
                            .piece_at(c)
                            .is_none_or(|p| p.color == self.attacker)
                    })
            }
            // 双车错杀: two rooks on neighbouring lines, one checks, both at work.
            23 => {
                let rooks = self.ours(Rook);
                rooks.len() == 2
                    && rooks.iter().all(|&r| self.involved(r))
                    && self.checker_kinds().contains(&Rook)
                    && {
                        let (p, q) = (rooks[0], rooks[1]);
                        p.file().index().abs_diff(q.file().index()) == 1
                            || p.rank().index().abs_diff(q.rank().index()) == 1
                    }
            }
            // 夹车炮: 重炮 with a rook helping.
            24 => self.cannon_screened_by(Cannon) && self.any_involved(Rook),
            // 天地炮: one cannon on the centre file, one on the back rank, one of the two
            // checking.
            25 => {
                let cannons = self.ours(Cannon);
                let centre: Vec<Square> = cannons
                    .iter()
                    .copied()
                    .filter(|c| c.file().index() == CENTRE)
                    .collect();
                let bottom: Vec<Square> = cannons
                    .iter()
                    .copied()
                    .filter(|&c| self.rel(c) == 0 && c.file().index() != CENTRE)
                    .collect();
                !centre.is_empty()
                    && !bottom.is_empty()
                    && centre.iter().chain(&bottom).any(|c| self.involved(*c))
            }
            // 空头炮: a cannon on the general's file with nothing between.
            26 => self.empty_head_cannon(),
            // 平顶冠: 空头炮 and two rooks or pawns side by side on the 咽喉线's rib points.
            27 => self.empty_head_cannon() && RIBS.iter().all(|&f| self.rook_or_pawn_at(f, 1)),
            // 进洞出洞: a rook checks inside the palace with the general's help.
            28 => {
                self.checks_with(Rook)
                    .into_iter()
                    .any(|r| r.in_palace(self.defender))
                    && self.white_face()
            }
            // 双将: two pieces give check at once.
            29 => self.checkers.len() >= 2,
            // 三进兵 (送佛归殿): a pawn mates the general on its starting point.
            30 => {
                self.checker_kinds().contains(&Pawn)
                    && self.g.file().index() == CENTRE
                    && self.rel(self.g) == 0
            }
            // 小鬼扼喉: a pawn or rook on a rib point of the 咽喉线 takes part in the mate.
            31 => RIBS.iter().any(|&f| self.rook_or_pawn_working_at(f, 1)),
            // 二鬼拍门: pawns or rooks hold both rib points of the 咽喉线.
            32 => RIBS.iter().all(|&f| self.rook_or_pawn_at(f, 1)),
            // 小鬼坐龙庭: a pawn or rook on the palace centre takes part in the mate.
            33 => self.rook_or_pawn_working_at(CENTRE, 1),
            // 三车闹士: three rooks and pawns at the palace, at least one a pawn.
            34 => {
                let near = |s: &Square| (2..=6).contains(&s.file().index()) && self.rel(*s) <= 3;
                let rooks = self.ours(Rook).iter().filter(|s| near(s)).count();
                let pawns = self.ours(Pawn).iter().filter(|s| near(s)).count();
                pawns >= 1 && rooks + pawns >= 3
            }
            // 老卒搜山: a pawn that has reached the back rank takes part.
            35 => self
                .ours(Pawn)
                .into_iter()
                .any(|p| self.rel(p) == 0 && self.involved(p)),
            _ => false,
        }
    }
}

/// A rook standing in the eye of one of the defender's elephants.
fn is_elephant_eye(view: &View<'_>, r: Square) -> bool {
    [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        .into_iter()
        .any(|(df, dr)| {
            r.offset(df, dr).is_some_and(|e| {
                view.pos.piece_at(e) == Some(Piece::new(view.defender, PieceKind::Elephant))
            })
        })
}

fn neighbours(s: Square) -> Vec<Square> {
    [(0, 1), (0, -1), (1, 0), (-1, 0)]
        .into_iter()
        .filter_map(|(df, dr)| s.offset(df, dr))
        .collect()
}

/// The larger of the file and rank distances.
fn distance(a: Square, b: Square) -> u8 {
    a.file()
        .index()
        .abs_diff(b.file().index())
        .max(a.rank().index().abs_diff(b.rank().index()))
}

/// The points strictly between two points of one file or rank (empty otherwise).
pub(crate) fn between(a: Square, b: Square) -> Vec<Square> {
    let (af, ar) = (a.file().index() as i8, a.rank().index() as i8);
    let (bf, br) = (b.file().index() as i8, b.rank().index() as i8);
    if af != bf && ar != br {
        return Vec::new();
    }
    let (df, dr) = ((bf - af).signum(), (br - ar).signum());
    let mut out = Vec::new();
    let mut s = a.offset(df, dr);
    while let Some(p) = s {
        if p == b {
            break;
        }
        out.push(p);
        s = p.offset(df, dr);
    }
    out
}

/// Whether the piece on `from` attacks `to` by its move rules, with `occupied` saying
/// which points hold pieces (so a caller can lift a piece off).
fn attacks(pos: &Position, from: Square, to: Square, occupied: &dyn Fn(Square) -> bool) -> bool {
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    if from == to {
        return false;
    }
    let (df, dr) = (
        to.file().index() as i8 - from.file().index() as i8,
        to.rank().index() as i8 - from.rank().index() as i8,
    );
    let on_line = df == 0 || dr == 0;
    let blockers = || {
        between(from, to)
            .into_iter()
            .filter(|&s| occupied(s))
            .count()
    };
    match piece.kind {
        PieceKind::Rook => on_line && blockers() == 0,
        PieceKind::Cannon => on_line && blockers() == 1,
        PieceKind::Horse => {
            let leg = match (df.abs(), dr.abs()) {
                (1, 2) => from.offset(0, dr.signum()),
                (2, 1) => from.offset(df.signum(), 0),
                _ => return false,
            };
            leg.is_some_and(|l| !occupied(l))
        }
        PieceKind::Pawn => {
            let forward = match piece.color {
                Color::Red => 1,
                Color::Black => -1,
            };
            let crossed = !from.rank().is_own_half(piece.color);
            (df == 0 && dr == forward) || (crossed && dr == 0 && df.abs() == 1)
        }
        PieceKind::General => {
            (df.abs() + dr.abs() == 1 && to.in_palace(piece.color)) || (df == 0 && blockers() == 0)
        }
        PieceKind::Advisor => df.abs() == 1 && dr.abs() == 1 && to.in_palace(piece.color),
        PieceKind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && to.rank().is_own_half(piece.color)
                && from
                    .offset(df / 2, dr / 2)
                    .is_some_and(|eye| !occupied(eye))
        }
    }
}
