//! A school club's or class's tournaments (seed 000: a points tournament in each grade
//! group — 低、中、高年级组 — by single round robin, the top three of each group awarded),
//! run by the official rules' 第11–15条 and 第21条:
//! - pairings by Berger table (round robin, 13.1) or by Swiss system (积分编排制, 11.4) for
//!   groups too large to play everyone;
//! - a win scores 1, a draw ½, a loss 0 (14.1); a game lost by absence scores as a loss
//!   and is marked `−`, the present player's win `+` (21.4); if both are absent both lose
//!   (21.3: 判双方弃权);
//! - places by points, then 15.1's tie-breaks for round robins (小分, 胜局, 直胜, 犯规) and
//!   15.2's for Swiss (对手分, 胜局, 犯规); players still level share the place.
//!
//! Clubs are saved as RON, written atomically after every change ([`ClubStore`]).

mod berger;
mod sheet;
mod standings;
mod store;
mod swiss;

pub use berger::{BergerRound, berger_table};
pub use sheet::{Award, RoundTable, Sheet, Words, score_text, standings_header, standings_row};
pub use standings::{Standing, TieBreak, standings};
pub use store::{ClubStore, parse, to_ron};
pub use swiss::{SwissEntrant, SwissRound, pair_round};

use crate::ron_error::RonErrorKind;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's number in a club, never reused.
pub type PlayerId = u32;

/// The seed's grade groups (低年级组, 中年级组, 高年级组).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GradeGroup {
    /// 低年级组.
    Low,
    /// 中年级组.
    Middle,
    /// 高年级组.
    High,
}

impl GradeGroup {
    /// Every group, youngest first.
    pub const ALL: [GradeGroup; 3] = [GradeGroup::Low, GradeGroup::Middle, GradeGroup::High];
}

/// A member of the club.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// Its number.
    pub id: PlayerId,
    /// The name.
    pub name: String,
    /// The grade group it plays in.
    pub group: GradeGroup,
}

/// How a tournament is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Everyone meets everyone once, by Berger table.
    RoundRobin,
    /// 积分编排制 over this many rounds.
    Swiss {
        /// The number of rounds.
        rounds: u32,
    },
}

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// Red won.
    RedWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
    /// Red did not play: Black wins without a game (`−` / `+`, rule 21.4).
    RedForfeits,
    /// Black did not play: Red wins without a game.
    BlackForfeits,
    /// Neither played: both lose (rule 21.3).
    BothForfeit,
}

impl GameResult {
    /// Every result, in the order the app offers them.
    pub const ALL: [GameResult; 6] = [
        GameResult::RedWins,
        GameResult::Draw,
        GameResult::BlackWins,
        GameResult::RedForfeits,
        GameResult::BlackForfeits,
        GameResult::BothForfeit,
    ];

    /// The points of Red and Black.
    pub const fn points(self) -> (f64, f64) {
        match self {
            GameResult::RedWins | GameResult::BlackForfeits => (1.0, 0.0),
            GameResult::Draw => (0.5, 0.5),
            GameResult::BlackWins | GameResult::RedForfeits => (0.0, 1.0),
            GameResult::BothForfeit => (0.0, 0.0),
        }
    }

    /// The short form of a score sheet: `1-0`, `½-½`, `0-1`, and for games not played
    /// rule 21.4's marks, `-/+`, `+/-`, `-/-` (ASCII hyphens: every font has them).
    pub const fn short(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::Draw => "½-½",
            GameResult::BlackWins => "0-1",
            GameResult::RedForfeits => "-/+",
            GameResult::BlackForfeits => "+/-",
            GameResult::BothForfeit => "-/-",
        }
    }
}

/// One board of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    /// Who plays Red.
    pub red: PlayerId,
    /// Who plays Black.
    pub black: PlayerId,
    /// The result, once entered.
    #[serde(default)]
    pub result: Option<GameResult>,
    /// Fouls (犯规, rule 9) called on Red in this game.
    #[serde(default)]
    pub red_fouls: u32,
    /// Fouls called on Black.
    #[serde(default)]
    pub black_fouls: u32,
    /// The game's record as PGN, when one was attached.
    #[serde(default)]
    pub game: Option<String>,
}

impl Pairing {
    fn new(red: PlayerId, black: PlayerId) -> Pairing {
        Pairing {
            red,
            black,
            result: None,
            red_fouls: 0,
            black_fouls: 0,
            game: None,
        }
    }
}

/// One round: its boards and who sits out.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// The boards, board 1 first.
    pub pairings: Vec<Pairing>,
    /// The player without an opponent.
    #[serde(default)]
    pub bye: Option<PlayerId>,
}

impl Round {
    /// Whether every board has a result.
    pub fn is_complete(&self) -> bool {
        self.pairings.iter().all(|p| p.result.is_some())
    }
}

/// A tournament of one grade group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    /// The group that plays it.
    pub group: GradeGroup,
    /// Round robin or Swiss.
    pub format: Format,
    /// The players in draw order (draw number = index + 1).
    pub players: Vec<PlayerId>,
    /// The rounds paired so far (all of them for a round robin).
    pub rounds: Vec<Round>,
}

/// Why a club operation or file failed.
#[derive(Debug)]
pub enum ClubError {
    /// A file could not be read or written.
    Io(std::io::Error),
    /// A club file is not valid RON for a club: where and why.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong there.
        reason: RonErrorKind,
    },
    /// A club file reads but does not hang together (a pairing names an unknown player …).
    Inconsistent(Inconsistency),
    /// A tournament needs at least two players.
    TooFewPlayers,
    /// More Swiss rounds than the field allows without repeated games, or none.
    BadRoundCount,
    /// The group already has a tournament.
    GroupTaken,
    /// No such round or board.
    NoSuchGame,
    /// The next Swiss round waits for every result of the current one.
    RoundIncomplete,
    /// Every round has been paired.
    AllRoundsPaired,
    /// No pairing without a repeated game exists.
    NoPairing,
    /// Round robins are paired once, at the start.
    NotSwiss,
    /// The player plays in a tournament and cannot be removed or moved to another group.
    PlayerInTournament,
    /// No such player.
    NoSuchPlayer,
    /// A tournament with results cannot be cancelled.
    HasResults,
}

/// How a club file that reads fails to hang together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    /// Two players have the same id.
    SharedPlayerId,
    /// One group has two tournaments.
    TwoTournamentsInGroup,
    /// A tournament names a player the club does not have.
    UnknownPlayer(PlayerId),
    /// A tournament enters a player twice.
    PlayerEnteredTwice,
    /// A Swiss tournament has more rounds than it was made with.
    TooManyRounds,
    /// In a round (1-based) a player is paired who is not in the tournament, or twice.
    NotPairedOnce {
        /// The round, from 1.
        round: usize,
        /// The player.
        player: PlayerId,
    },
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inconsistency::SharedPlayerId => f.write_str("two players share an id"),
            Inconsistency::TwoTournamentsInGroup => f.write_str("two tournaments for one group"),
            Inconsistency::UnknownPlayer(p) => write!(f, "unknown player {p}"),
            Inconsistency::PlayerEnteredTwice => f.write_str("a player is entered twice"),
            Inconsistency::TooManyRounds => f.write_str("more rounds than the tournament has"),
            Inconsistency::NotPairedOnce { round, player } => {
                write!(f, "round {round}: player {player} is not in it once")
            }
        }
    }
}

impl fmt::Display for ClubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClubError::Io(e) => e.fmt(f),
            ClubError::Parse {
                line,
                column,
                reason,
            } => write!(f, "line {line}, column {column}: {reason}"),
            ClubError::Inconsistent(what) => write!(f, "inconsistent club file: {what}"),
            ClubError::TooFewPlayers => f.write_str("a tournament needs at least two players"),
            ClubError::BadRoundCount => f.write_str("impossible number of rounds"),
            ClubError::GroupTaken => f.write_str("the group already has a tournament"),
            ClubError::NoSuchGame => f.write_str("no such round or board"),
            ClubError::RoundIncomplete => {
                f.write_str("the current round has games without a result")
            }
            ClubError::AllRoundsPaired => f.write_str("every round has been paired"),
            ClubError::NoPairing => f.write_str("no pairing without a repeated game exists"),
            ClubError::NotSwiss => f.write_str("a round robin is paired at the start"),
            ClubError::PlayerInTournament => f.write_str("the player plays in a tournament"),
            ClubError::NoSuchPlayer => f.write_str("no such player"),
            ClubError::HasResults => f.write_str("the tournament has results"),
        }
    }
}

impl std::error::Error for ClubError {}

impl From<std::io::Error> for ClubError {
    fn from(e: std::io::Error) -> ClubError {
        ClubError::Io(e)
    }
}

impl Tournament {
    /// A round robin of `players` (in draw order), every round paired by Berger table.
    pub fn round_robin(group: GradeGroup, players: Vec<PlayerId>) -> Result<Tournament, ClubError> {
        if players.len() < 2 {
            return Err(ClubError::TooFewPlayers);
        }
        let rounds = berger_table(players.len())
            .into_iter()
            .map(|r| Round {
                pairings: r
                    .pairs
                    .iter()
                    .map(|&(red, black)| Pairing::new(players[red], players[black]))
                    .collect(),
                bye: r.bye.map(|b| players[b]),
            })
            .collect();
        Ok(Tournament {
            group,
            format: Format::RoundRobin,
            players,
            rounds,
        })
    }

    /// A Swiss tournament of `players` over `rounds` rounds, its first round paired. A
    /// field of `n` can play at most `n − 1` rounds without a repeated game (fewer in
    /// practice: late rounds may leave no pairing, which [`Tournament::pair_next_round`]
    /// then reports).
    pub fn swiss(
        group: GradeGroup,
        players: Vec<PlayerId>,
        rounds: u32,
    ) -> Result<Tournament, ClubError> {
        if players.len() < 2 {
            return Err(ClubError::TooFewPlayers);
        }
        if rounds == 0 || rounds as usize > players.len() - 1 {
            return Err(ClubError::BadRoundCount);
        }
        let mut t = Tournament {
            group,
            format: Format::Swiss { rounds },
            players,
            rounds: Vec::new(),
        };
        t.pair_next_round()?;
        Ok(t)
    }

    /// Whether any result has been entered.
    pub fn has_results(&self) -> bool {
        self.rounds
            .iter()
            .any(|r| r.pairings.iter().any(|p| p.result.is_some()))
    }

    /// Whether every round has been paired and every result of them is in.
    pub fn is_finished(&self) -> bool {
        !self.rounds.is_empty()
            && self.rounds.len() == self.total_rounds()
            && self.rounds.iter().all(Round::is_complete)
    }

    /// How many rounds the tournament has in all.
    pub fn total_rounds(&self) -> usize {
        match self.format {
            Format::RoundRobin => self.rounds.len(),
            Format::Swiss { rounds } => rounds as usize,
        }
    }

    /// Whether the next Swiss round can be paired now.
    pub fn can_pair_next(&self) -> bool {
        matches!(self.format, Format::Swiss { .. })
            && self.rounds.len() < self.total_rounds()
            && self.rounds.last().is_none_or(Round::is_complete)
    }

    /// Pairs the next Swiss round from the results so far.
    pub fn pair_next_round(&mut self) -> Result<(), ClubError> {
        if !matches!(self.format, Format::Swiss { .. }) {
            return Err(ClubError::NotSwiss);
        }
        if self.rounds.len() >= self.total_rounds() {
            return Err(ClubError::AllRoundsPaired);
        }
        if !self.rounds.last().is_none_or(Round::is_complete) {
            return Err(ClubError::RoundIncomplete);
        }
        let entrants = self.swiss_entrants();
        let round = pair_round(&entrants).ok_or(ClubError::NoPairing)?;
        let players = &self.players;
        self.rounds.push(Round {
            pairings: round
                .pairs
                .iter()
                .map(|&(red, black)| Pairing::new(players[red], players[black]))
                .collect(),
            bye: round.bye.map(|b| players[b]),
        });
        Ok(())
    }

    /// What the Swiss pairing needs to know of each player, by draw number.
    pub fn swiss_entrants(&self) -> Vec<SwissEntrant> {
        let index = |id: PlayerId| self.players.iter().position(|&p| p == id);
        let mut entrants = vec![SwissEntrant::default(); self.players.len()];
        for round in &self.rounds {
            for p in &round.pairings {
                let (Some(r), Some(b)) = (index(p.red), index(p.black)) else {
                    continue;
                };
                let (rp, bp) = p.result.map_or((0.0, 0.0), GameResult::points);
                entrants[r].score += rp;
                entrants[b].score += bp;
                entrants[r].opponents.insert(b);
                entrants[b].opponents.insert(r);
                // A game not played gives no colour.
                if !matches!(
                    p.result,
                    Some(
                        GameResult::RedForfeits
                            | GameResult::BlackForfeits
                            | GameResult::BothForfeit
                    )
                ) {
                    entrants[r].colours.push(true);
                    entrants[b].colours.push(false);
                }
            }
            if let Some(i) = round.bye.and_then(index) {
                entrants[i].had_bye = true;
                entrants[i].score += BYE_POINTS_SWISS;
            }
        }
        entrants
    }

    /// The pairing at `round`, `board` (0-based).
    pub fn pairing(&self, round: usize, board: usize) -> Option<&Pairing> {
        self.rounds.get(round)?.pairings.get(board)
    }

    fn pairing_mut(&mut self, round: usize, board: usize) -> Result<&mut Pairing, ClubError> {
        self.rounds
            .get_mut(round)
            .and_then(|r| r.pairings.get_mut(board))
            .ok_or(ClubError::NoSuchGame)
    }

    /// Enters (or, with `None`, clears) a result. A Swiss round already followed by
    /// another keeps its results: the later pairing was made from them.
    pub fn set_result(
        &mut self,
        round: usize,
        board: usize,
        result: Option<GameResult>,
    ) -> Result<(), ClubError> {
        if matches!(self.format, Format::Swiss { .. })
            && round + 1 < self.rounds.len()
            && result.is_none()
        {
            return Err(ClubError::RoundIncomplete);
        }
        self.pairing_mut(round, board)?.result = result;
        Ok(())
    }

    /// Sets the fouls called on Red and Black in a game.
    pub fn set_fouls(
        &mut self,
        round: usize,
        board: usize,
        red: u32,
        black: u32,
    ) -> Result<(), ClubError> {
        let p = self.pairing_mut(round, board)?;
        p.red_fouls = red;
        p.black_fouls = black;
        Ok(())
    }

    /// Attaches a game's PGN to a pairing (`None` removes it).
    pub fn attach_game(
        &mut self,
        round: usize,
        board: usize,
        pgn: Option<String>,
    ) -> Result<(), ClubError> {
        self.pairing_mut(round, board)?.game = pgn;
        Ok(())
    }

    /// The standings now.
    pub fn standings(&self) -> Vec<Standing> {
        standings(self)
    }

    /// Checks that every pairing names players of the tournament, distinct, each at most
    /// once a round.
    fn check(&self, club: &Club) -> Result<(), ClubError> {
        let bad = |what| Err(ClubError::Inconsistent(what));
        for &p in &self.players {
            if club.player(p).is_none() {
                return bad(Inconsistency::UnknownPlayer(p));
            }
        }
        let mut unique = self.players.clone();
        unique.sort_unstable();
        unique.dedup();
        if unique.len() != self.players.len() {
            return bad(Inconsistency::PlayerEnteredTwice);
        }
        if let Format::Swiss { rounds } = self.format
            && self.rounds.len() > rounds as usize
        {
            return bad(Inconsistency::TooManyRounds);
        }
        for (r, round) in self.rounds.iter().enumerate() {
            let mut seen = Vec::new();
            let ids = round
                .pairings
                .iter()
                .flat_map(|p| [p.red, p.black])
                .chain(round.bye);
            for id in ids {
                if !self.players.contains(&id) || seen.contains(&id) {
                    return bad(Inconsistency::NotPairedOnce {
                        round: r + 1,
                        player: id,
                    });
                }
                seen.push(id);
            }
        }
        Ok(())
    }
}

/// Shuffles `players` (Fisher–Yates) with a small xorshift generator seeded by `seed`.
fn draw_lots(players: &mut [PlayerId], seed: u64) {
    // xorshift needs a state other than zero.
    let mut state = seed | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in (1..players.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        players.swap(i, j);
    }
}

/// Points for a Swiss bye. The rules do not say; a bye is scored as a win without a game
/// (1 point), as is usual in 积分编排制, but it counts neither as a win nor towards
/// anyone's 对手分. In a round robin every player sits out once (odd fields), so a bye
/// scores nothing.
pub const BYE_POINTS_SWISS: f64 = 1.0;

/// A club: its players and a tournament per grade group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Club {
    /// The club's (or class's) name.
    pub name: String,
    /// The members, in the order they were added.
    #[serde(default)]
    pub players: Vec<Player>,
    /// The tournaments, at most one per group.
    #[serde(default)]
    pub tournaments: Vec<Tournament>,
    /// The next player's id.
    #[serde(default)]
    pub next_id: PlayerId,
}

impl Club {
    /// An empty club.
    pub fn new(name: &str) -> Club {
        Club {
            name: name.to_owned(),
            players: Vec::new(),
            tournaments: Vec::new(),
            next_id: 1,
        }
    }

    /// A player by id.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// A player's name ("?" for an unknown id, which a checked club never has).
    pub fn name_of(&self, id: PlayerId) -> &str {
        self.player(id).map_or("?", |p| p.name.as_str())
    }

    /// Adds a player; returns its id.
    pub fn add_player(&mut self, name: &str, group: GradeGroup) -> PlayerId {
        let id = self
            .next_id
            .max(self.players.iter().map(|p| p.id + 1).max().unwrap_or(1));
        self.next_id = id + 1;
        self.players.push(Player {
            id,
            name: name.trim().to_owned(),
            group,
        });
        id
    }

    /// Whether a player plays in any tournament.
    pub fn plays(&self, id: PlayerId) -> bool {
        self.tournaments.iter().any(|t| t.players.contains(&id))
    }

    /// Removes a player who plays in no tournament.
    pub fn remove_player(&mut self, id: PlayerId) -> Result<(), ClubError> {
        if self.plays(id) {
            return Err(ClubError::PlayerInTournament);
        }
        let before = self.players.len();
        self.players.retain(|p| p.id != id);
        if self.players.len() == before {
            return Err(ClubError::NoSuchPlayer);
        }
        Ok(())
    }

    /// The players of a group, in the order they were added (their draw order).
    pub fn group_players(&self, group: GradeGroup) -> Vec<PlayerId> {
        self.players
            .iter()
            .filter(|p| p.group == group)
            .map(|p| p.id)
            .collect()
    }

    /// The group's tournament.
    pub fn tournament(&self, group: GradeGroup) -> Option<&Tournament> {
        self.tournaments.iter().find(|t| t.group == group)
    }

    /// The group's tournament, to enter results.
    pub fn tournament_mut(&mut self, group: GradeGroup) -> Option<&mut Tournament> {
        self.tournaments.iter_mut().find(|t| t.group == group)
    }

    /// Starts the group's tournament with the group's players in the order they were
    /// added.
    pub fn create_tournament(
        &mut self,
        group: GradeGroup,
        format: Format,
    ) -> Result<&Tournament, ClubError> {
        self.create_tournament_drawn(group, format, None)
    }

    /// Starts the group's tournament; with `lots`, the draw numbers (which decide the
    /// Berger table's pairings and colours, rule 13.1) are drawn by lot (抽签) from that
    /// seed, else they follow the order the players were added.
    pub fn create_tournament_drawn(
        &mut self,
        group: GradeGroup,
        format: Format,
        lots: Option<u64>,
    ) -> Result<&Tournament, ClubError> {
        if self.tournament(group).is_some() {
            return Err(ClubError::GroupTaken);
        }
        let mut players = self.group_players(group);
        if let Some(seed) = lots {
            draw_lots(&mut players, seed);
        }
        let t = match format {
            Format::RoundRobin => Tournament::round_robin(group, players)?,
            Format::Swiss { rounds } => Tournament::swiss(group, players, rounds)?,
        };
        self.tournaments.push(t);
        Ok(self.tournaments.last().expect("just pushed"))
    }

    /// Cancels the group's tournament, allowed only before any result is in (to add a
    /// forgotten player and start again): results once entered are never thrown away.
    pub fn cancel_tournament(&mut self, group: GradeGroup) -> Result<(), ClubError> {
        let t = self.tournament(group).ok_or(ClubError::NoSuchGame)?;
        if t.has_results() {
            return Err(ClubError::HasResults);
        }
        self.tournaments.retain(|t| t.group != group);
        Ok(())
    }

    /// Checks that the club hangs together (after reading it from a file).
    pub fn check(&self) -> Result<(), ClubError> {
        let mut ids: Vec<PlayerId> = self.players.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != self.players.len() {
            return Err(ClubError::Inconsistent(Inconsistency::SharedPlayerId));
        }
        let mut groups = Vec::new();
        for t in &self.tournaments {
            if groups.contains(&t.group) {
                return Err(ClubError::Inconsistent(
                    Inconsistency::TwoTournamentsInGroup,
                ));
            }
            groups.push(t.group);
            t.check(self)?;
        }
        Ok(())
    }
}
