//! A group's standings and pairings as a sheet to print or open in a spreadsheet: which
//! columns it has and what each cell says, the words in the caller's language, and the
//! sheet as CSV (RFC 4180).

use super::{Club, Format, GradeGroup, Standing, TieBreak, Tournament};

/// The awards of a group (seed 000, rule 5): 冠军, 亚军, 季军.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Award {
    /// 冠军: first.
    Champion,
    /// 亚军: second.
    RunnerUp,
    /// 季军: third.
    Third,
}

impl Standing {
    /// The award of this line: only the top three of a finished tournament get one, and
    /// players sharing a place share its award.
    pub fn award(&self) -> Option<Award> {
        if !self.top_three {
            return None;
        }
        Some(match self.rank {
            1 => Award::Champion,
            2 => Award::RunnerUp,
            _ => Award::Third,
        })
    }
}

/// What a sheet needs said in words; the caller answers each in its language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words<'a> {
    /// A grade group's name (the title is the club's name and this).
    Group(GradeGroup),
    /// The line under the title.
    Subtitle {
        /// Round robin or Swiss.
        format: Format,
        /// Players in the group.
        players: usize,
        /// Rounds complete.
        played: usize,
        /// Rounds in all.
        rounds: usize,
    },
    /// The standings' place column.
    Rank,
    /// The standings' name column.
    Name,
    /// The standings' points column.
    Points,
    /// A tie-break's column.
    TieBreak(TieBreak),
    /// The awards' column.
    AwardColumn,
    /// An award.
    Award(Award),
    /// The sentence saying how a format splits equal points.
    TieBreakNote(Format),
    /// The pairings' board column.
    Board,
    /// The pairings' Red column.
    Red,
    /// The pairings' result column.
    Result,
    /// The pairings' Black column.
    Black,
    /// A round's heading (1 first).
    Round(usize),
    /// The line naming the player without an opponent.
    Bye(&'a str),
}

/// Points and tie-break scores as the sheet writes them: `2`, `2.5`, `4.75`.
pub fn score_text(x: f64) -> String {
    // `+ 0.0` turns a negative zero into zero.
    let s = format!("{:.2}", x + 0.0);
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The standings' column headings for `format`: place, name, points, the format's
/// tie-breaks in the order they are applied, the award.
pub fn standings_header(format: Format, words: &dyn Fn(Words) -> String) -> Vec<String> {
    let mut header = vec![words(Words::Rank), words(Words::Name), words(Words::Points)];
    for &tb in TieBreak::order(format) {
        header.push(words(Words::TieBreak(tb)));
    }
    header.push(words(Words::AwardColumn));
    header
}

/// The cells of a standings line of `club`, in the order of [`standings_header`]. A
/// head-to-head score not needed to split a tie is left empty, as is the award of a
/// player without one.
pub fn standings_row(
    club: &Club,
    format: Format,
    line: &Standing,
    words: &dyn Fn(Words) -> String,
) -> Vec<String> {
    let mut row = vec![
        line.rank.to_string(),
        club.name_of(line.player).to_owned(),
        score_text(line.points),
    ];
    for tb in TieBreak::order(format) {
        row.push(match tb {
            TieBreak::SonnebornBerger => score_text(line.sonneborn_berger),
            TieBreak::Buchholz => score_text(line.buchholz),
            TieBreak::Wins => line.wins.to_string(),
            TieBreak::HeadToHead => line.head_to_head.map(score_text).unwrap_or_default(),
            TieBreak::Fouls => line.fouls.to_string(),
        });
    }
    row.push(
        line.award()
            .map(|a| words(Words::Award(a)))
            .unwrap_or_default(),
    );
    row
}

/// One round's table on the sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundTable {
    /// "Round 1".
    pub heading: String,
    /// Board, Red, result, Black.
    pub rows: Vec<[String; 4]>,
    /// "Bye: name".
    pub bye: Option<String>,
}

/// A tournament's sheet: its title, the standings, then each round's pairings.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// Club and group.
    pub title: String,
    /// Round robin or Swiss, and how far it has got.
    pub subtitle: String,
    /// The standings' column headings.
    pub standings_header: Vec<String>,
    /// The standings, with whether each line is in the top three.
    pub standings: Vec<(Vec<String>, bool)>,
    /// How equal points are split (rule 15.1 or 15.2).
    pub note: String,
    /// The pairings' column headings.
    pub pairings_header: [String; 4],
    /// The rounds.
    pub rounds: Vec<RoundTable>,
}

impl Sheet {
    /// The sheet of `t`, a tournament of `club`, in the words `words` gives.
    pub fn new(club: &Club, t: &Tournament, words: &dyn Fn(Words) -> String) -> Sheet {
        let title = format!("{} — {}", club.name, words(Words::Group(t.group)));
        let subtitle = words(Words::Subtitle {
            format: t.format,
            players: t.players.len(),
            played: t.rounds.iter().filter(|r| r.is_complete()).count(),
            rounds: t.total_rounds(),
        });
        let standings = t
            .standings()
            .iter()
            .map(|line| (standings_row(club, t.format, line, words), line.top_three))
            .collect();
        let rounds = t
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| RoundTable {
                heading: words(Words::Round(r + 1)),
                rows: round
                    .pairings
                    .iter()
                    .enumerate()
                    .map(|(b, p)| {
                        [
                            (b + 1).to_string(),
                            club.name_of(p.red).to_owned(),
                            p.result.map(|r| r.short().to_owned()).unwrap_or_default(),
                            club.name_of(p.black).to_owned(),
                        ]
                    })
                    .collect(),
                bye: round.bye.map(|b| words(Words::Bye(club.name_of(b)))),
            })
            .collect();
        Sheet {
            title,
            subtitle,
            standings_header: standings_header(t.format, words),
            standings,
            note: words(Words::TieBreakNote(t.format)),
            pairings_header: [
                words(Words::Board),
                words(Words::Red),
                words(Words::Result),
                words(Words::Black),
            ],
            rounds,
        }
    }

    /// The sheet as CSV (RFC 4180, UTF-8 with a byte-order mark so spreadsheets read the
    /// Chinese right, lines ended by CR LF): the title lines, the standings, then each
    /// round after an empty line.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("\u{feff}");
        let mut line = |cells: &[String]| {
            let cells: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
            out.push_str(&cells.join(","));
            out.push_str("\r\n");
        };
        line(std::slice::from_ref(&self.title));
        line(std::slice::from_ref(&self.subtitle));
        line(&[]);
        line(&self.standings_header);
        for (row, _) in &self.standings {
            line(row);
        }
        line(std::slice::from_ref(&self.note));
        for round in &self.rounds {
            line(&[]);
            line(std::slice::from_ref(&round.heading));
            line(&self.pairings_header);
            for row in &round.rows {
                line(row);
            }
            if let Some(bye) = &round.bye {
                line(std::slice::from_ref(bye));
            }
        }
        out
    }
}

/// A CSV cell, quoted when it holds a comma, quote or line break.
fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::{GameResult, PlayerId};

    /// Plain words, to read the sheet by.
    fn words(w: Words) -> String {
        match w {
            Words::Group(g) => format!("{g:?}"),
            Words::Subtitle {
                format,
                players,
                played,
                rounds,
            } => format!("{format:?}: {players} players, {played} of {rounds}"),
            Words::Rank => "Rank".into(),
            Words::Name => "Name".into(),
            Words::Points => "Pts".into(),
            Words::TieBreak(tb) => format!("{tb:?}"),
            Words::AwardColumn => "Award".into(),
            Words::Award(a) => format!("{a:?}"),
            Words::TieBreakNote(f) => format!("Ties by {:?}", TieBreak::order(f)),
            Words::Board => "Bd".into(),
            Words::Red => "Red".into(),
            Words::Result => "Res".into(),
            Words::Black => "Black".into(),
            Words::Round(r) => format!("Round {r}"),
            Words::Bye(name) => format!("Bye: {name}"),
        }
    }

    /// Three players by round robin: Wu beats both others, who draw; Chen has a foul.
    fn three() -> (Club, [PlayerId; 3]) {
        let mut club = Club::new("River");
        let chen = club.add_player("Chen, Jing", GradeGroup::Low);
        let say = club.add_player("say \"hi\"", GradeGroup::Low);
        let wu = club.add_player("Wu", GradeGroup::Low);
        club.create_tournament(GradeGroup::Low, Format::RoundRobin)
            .unwrap();
        let t = club.tournament_mut(GradeGroup::Low).unwrap();
        let mut fouled = false;
        for r in 0..t.rounds.len() {
            let p = t.rounds[r].pairings[0].clone();
            let result = if p.red == wu {
                GameResult::RedWins
            } else if p.black == wu {
                GameResult::BlackWins
            } else {
                GameResult::Draw
            };
            t.set_result(r, 0, Some(result)).unwrap();
            if !fouled && (p.red == chen || p.black == chen) {
                let (red, black) = if p.red == chen { (1, 0) } else { (0, 1) };
                t.set_fouls(r, 0, red, black).unwrap();
                fouled = true;
            }
        }
        (club, [chen, say, wu])
    }

    #[test]
    fn scores_are_written_without_trailing_zeros() {
        assert_eq!(score_text(2.0), "2");
        assert_eq!(score_text(2.5), "2.5");
        assert_eq!(score_text(4.75), "4.75");
        assert_eq!(score_text(-0.0), "0");
    }

    #[test]
    fn the_columns_follow_each_formats_tie_breaks() {
        assert_eq!(
            standings_header(Format::RoundRobin, &words).join(","),
            "Rank,Name,Pts,SonnebornBerger,Wins,HeadToHead,Fouls,Award"
        );
        assert_eq!(
            standings_header(Format::Swiss { rounds: 5 }, &words).join(","),
            "Rank,Name,Pts,Buchholz,Wins,Fouls,Award"
        );
    }

    #[test]
    fn the_sheet_as_csv_quotes_names_and_lists_the_places_in_order() {
        let (club, _) = three();
        let t = club.tournament(GradeGroup::Low).unwrap();
        let csv = Sheet::new(&club, t, &words).to_csv();
        let lines: Vec<&str> = csv.split("\r\n").collect();
        // Wu first on points; the other two level on points, 小分, wins and head to
        // head (the draw), split by Chen's foul.
        assert_eq!(
            lines[..9],
            [
                "\u{feff}River — Low",
                "\"RoundRobin: 3 players, 3 of 3\"",
                "",
                "Rank,Name,Pts,SonnebornBerger,Wins,HeadToHead,Fouls,Award",
                "1,Wu,2,1,2,,0,Champion",
                "2,\"say \"\"hi\"\"\",0.5,0.25,0,0.5,0,RunnerUp",
                "3,\"Chen, Jing\",0.5,0.25,0,0.5,1,Third",
                "\"Ties by [SonnebornBerger, Wins, HeadToHead, Fouls]\"",
                "",
            ]
        );
        // Then each round: heading, columns, the one board, the bye; the file ends with
        // a line break.
        assert_eq!(lines.len(), 8 + 3 * 5 + 1);
        assert_eq!(lines.last(), Some(&""));
        for r in 0..3 {
            let round = &lines[9 + 5 * r..9 + 5 * r + 4];
            assert_eq!(round[0], format!("Round {}", r + 1));
            assert_eq!(round[1], "Bd,Red,Res,Black");
            assert!(round[2].starts_with("1,"), "{}", round[2]);
            assert!(round[3].starts_with("Bye: ") || round[3].starts_with("\"Bye: "));
        }
        assert!(
            csv.contains(",Wu,1-0,") || csv.contains(",0-1,Wu\r\n"),
            "{csv}"
        );
        assert!(csv.contains("½-½"), "{csv}");
    }

    #[test]
    fn awards_wait_for_the_last_round_and_are_shared_with_the_place() {
        let (mut club, [chen, say, wu]) = three();
        let award = |club: &Club, p| {
            let t = club.tournament(GradeGroup::Low).unwrap();
            t.standings()
                .iter()
                .find(|l| l.player == p)
                .unwrap()
                .award()
        };
        assert_eq!(award(&club, wu), Some(Award::Champion));
        assert_eq!(award(&club, say), Some(Award::RunnerUp));
        assert_eq!(award(&club, chen), Some(Award::Third));
        // Without the foul Chen and "say" share second place, and its award.
        let t = club.tournament_mut(GradeGroup::Low).unwrap();
        for r in 0..3 {
            t.set_fouls(r, 0, 0, 0).unwrap();
        }
        assert_eq!(award(&club, say), Some(Award::RunnerUp));
        assert_eq!(award(&club, chen), Some(Award::RunnerUp));
        // A round without its result: nobody has won anything yet, and the sheet says so.
        let t = club.tournament_mut(GradeGroup::Low).unwrap();
        t.set_result(2, 0, None).unwrap();
        let t = club.tournament(GradeGroup::Low).unwrap();
        assert!(t.standings().iter().all(|l| l.award().is_none()));
        let sheet = Sheet::new(&club, t, &words);
        assert!(
            sheet
                .standings
                .iter()
                .all(|(row, top)| !top && row[7].is_empty())
        );
        assert!(sheet.subtitle.ends_with("2 of 3"), "{}", sheet.subtitle);
    }
}
