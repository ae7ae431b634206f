//! Building a book from games: counting, weighting, writing.
//!
//! # What is counted
//!
//! Every move played in a position of ply below `max_ply` (the ply counted
//! from the standard start, so a game given from a FEN counts from that
//! FEN's move number and side) is credited to the position with the game's
//! result for the side that played it: 2 half-points for a win, 1 for a
//! draw, 0 for a loss.
//!
//! A position and its left-right mirror image are one position, as in
//! ElephantEye's books: the counts go to whichever orientation has the
//! smaller (lock1, lock0) (ElephantEye's own choice), with the move mirrored
//! when the game was in the other orientation. Readers find the other
//! orientation by their mirrored lookup, so nothing is stored twice. In a
//! symmetric position a move and its mirror image are the same choice and
//! share their counts.
//!
//! # The weight
//!
//! For a move (or mirror pair) played in `n` games scoring `h` half-points
//! for the side that played it, with `n >= min_games`:
//!
//! ```text
//! s = (h/2 + 1) / (n + 2)        the score, pulled towards 50% by one
//!                                imaginary win and one imaginary loss
//! w = n · (2s)²                  frequency times squared performance
//! ```
//!
//! A move scoring 50% weighs its game count; one that wins every game
//! approaches four times that, one that loses every game approaches zero.
//! The square makes results count for more than popularity without letting
//! a single lucky game outweigh a well-tried main line (one win: s = 2/3,
//! w = 1.8; fifty games at 50%: w = 50). The weights are written in tenths,
//! at least 1, and a position's weights are scaled down together when its
//! largest would not fit 16 bits. In a symmetric position the weight of a
//! mirror pair is split equally between its two moves.
//!
//! # Written positions
//!
//! Positions whose moves all fall below `min_games` are not written. Two
//! positions with the same lock (a 32-bit collision) cannot both be stored:
//! the one seen in more games is kept and the other is counted as dropped.
//! A kept position whose mirror image's lock is another kept position's
//! lock is counted as shadowed: lookups of that mirror image would find the
//! other position's moves first (and drop them as illegal).

use crate::pgn::{Game, Outcome};
use chariot::book::{self, Book, BookBuilder, Record};
use chariot::xiangqi::{Move, Position};
use std::collections::HashMap;

/// What goes into a book.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Positions of ply `0..max_ply` contribute their moves.
    pub max_ply: u32,
    /// A move needs at least this many games.
    pub min_games: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct MoveCount {
    games: u32,
    half_points: u32,
}

#[derive(Clone, Debug)]
struct PositionCount {
    lock: u32,
    mirror_lock: u32,
    symmetric: bool,
    games: u32,
    /// By the book code of the move in the stored orientation (for a
    /// symmetric position, the smaller code of the mirror pair).
    moves: HashMap<u16, MoveCount>,
}

/// Counts games into positions and moves.
#[derive(Debug)]
pub struct Collector {
    config: Config,
    /// By the Zobrist key of the stored orientation.
    positions: HashMap<u64, PositionCount>,
    games: u64,
    moves_counted: u64,
}

/// What [`Collector::finish`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games counted.
    pub games: u64,
    /// Moves counted (plies below the limit).
    pub moves: u64,
    /// Distinct positions seen (mirror images together).
    pub positions_seen: usize,
    /// Positions written.
    pub positions: usize,
    /// Records written.
    pub records: usize,
    /// Moves (or mirror pairs) left out for having fewer than `min_games`.
    pub below_min_games: usize,
    /// Positions left out because another position had their lock.
    pub dropped_collisions: usize,
    /// Written positions whose mirror image's lock belongs to another
    /// written position.
    pub shadowed: usize,
}

/// Which of a position and its left-right mirror image a book stores: the
/// one with the smaller (lock1, lock0), ElephantEye's own choice.
#[derive(Clone, Copy, Debug)]
pub struct Orientation {
    /// The position's own lock.
    pub lock: u32,
    /// Its mirror image's lock.
    pub mirror_lock: u32,
    /// The position is its own mirror image.
    pub symmetric: bool,
    /// The mirror image is the one stored.
    pub flip: bool,
}

impl Orientation {
    /// The orientation of `pos`.
    pub fn of(pos: &Position) -> Orientation {
        let mirror = pos.file_mirrored();
        let direct = (book::lock(pos), book::lock0(pos));
        let mirrored = (book::lock(&mirror), book::lock0(&mirror));
        Orientation {
            lock: direct.0,
            mirror_lock: mirrored.0,
            symmetric: direct == mirrored,
            flip: direct > mirrored,
        }
    }

    /// The stored one of `pos` and its mirror image.
    pub fn stored(&self, pos: &Position) -> Position {
        if self.flip {
            pos.file_mirrored()
        } else {
            pos.clone()
        }
    }

    /// A move of `pos` as a move of the stored orientation.
    pub fn stored_move(&self, m: Move) -> Move {
        if self.flip {
            book::mirror_move(m)
        } else {
            m
        }
    }
}

impl Collector {
    /// An empty collector.
    pub fn new(config: Config) -> Collector {
        Collector {
            config,
            positions: HashMap::new(),
            games: 0,
            moves_counted: 0,
        }
    }

    /// Counts one game's moves below the ply limit.
    pub fn add_game(&mut self, game: &Game) {
        self.add(&game.start, &game.moves, game.outcome);
    }

    /// Counts the moves (legal, from `start`) of a game that ended with
    /// `outcome`.
    pub fn add(&mut self, start: &Position, moves: &[Move], outcome: Outcome) {
        self.games += 1;
        let mut pos = start.clone();
        pos.clear_history();
        let first = start.game_ply();
        for (i, &m) in moves.iter().enumerate() {
            let ply = first.saturating_add(i as u32);
            if ply >= self.config.max_ply || !pos.is_legal(m) {
                break;
            }
            self.count(&pos, m, outcome.half_points(pos.side_to_move()));
            pos.make_move(m);
            pos.clear_history();
        }
    }

    fn count(&mut self, pos: &Position, m: Move, half_points: u32) {
        let o = Orientation::of(pos);
        let (key, lock, mirror_lock) = if o.flip {
            (pos.file_mirrored().key(), o.mirror_lock, o.lock)
        } else {
            (pos.key(), o.lock, o.mirror_lock)
        };
        let symmetric = o.symmetric;
        let code = book::encode_move(o.stored_move(m));
        let code = if symmetric {
            code.min(book::encode_move(book::mirror_move(m)))
        } else {
            code
        };
        let entry = self.positions.entry(key).or_insert_with(|| PositionCount {
            lock,
            mirror_lock,
            symmetric,
            games: 0,
            moves: HashMap::new(),
        });
        entry.games += 1;
        let c = entry.moves.entry(code).or_default();
        c.games += 1;
        c.half_points += half_points;
        self.moves_counted += 1;
    }

    /// The book and what went into it.
    pub fn finish(self) -> (Book, Report) {
        let mut report = Report {
            games: self.games,
            moves: self.moves_counted,
            positions_seen: self.positions.len(),
            ..Report::default()
        };
        let min_games = self.config.min_games.max(1);

        // Each position's records; positions with none are not written.
        let mut by_lock: HashMap<u32, (u32, u64, Vec<Record>)> = HashMap::new();
        let mut keys: Vec<&u64> = self.positions.keys().collect();
        keys.sort_unstable(); // deterministic collision choices
        for key in keys {
            let p = &self.positions[key];
            let mut weighted: Vec<(u16, f64)> = Vec::new();
            for (&code, c) in &p.moves {
                if c.games < min_games {
                    report.below_min_games += 1;
                    continue;
                }
                let w = weight(c.games, c.half_points) * 10.0;
                let pair = mirror_code(code).filter(|&m| p.symmetric && m != code);
                match pair {
                    Some(other) => {
                        weighted.push((code, w / 2.0));
                        weighted.push((other, w / 2.0));
                    }
                    None => weighted.push((code, w)),
                }
            }
            if weighted.is_empty() {
                continue;
            }
            let max = weighted.iter().map(|&(_, w)| w).fold(0.0, f64::max);
            let scale = if max > 65535.0 { 65535.0 / max } else { 1.0 };
            let records: Vec<Record> = weighted
                .into_iter()
                .map(|(mv, w)| Record {
                    lock: p.lock,
                    mv,
                    weight: (w * scale).round().clamp(1.0, 65535.0) as u16,
                })
                .collect();
            match by_lock.get(&p.lock) {
                Some(&(games, _, _)) if games >= p.games => report.dropped_collisions += 1,
                Some(_) => {
                    report.dropped_collisions += 1;
                    by_lock.insert(p.lock, (p.games, *key, records));
                }
                None => {
                    by_lock.insert(p.lock, (p.games, *key, records));
                }
            }
        }
        for (_, key, _) in by_lock.values() {
            let p = &self.positions[key];
            if !p.symmetric && by_lock.contains_key(&p.mirror_lock) {
                report.shadowed += 1;
            }
        }

        let (book, positions) = assemble(by_lock.into_values().map(|(_, _, r)| r));
        report.positions = positions;
        report.records = book.len();
        (book, report)
    }
}

/// The book of some positions' records, and how many positions there were.
pub fn assemble(positions: impl IntoIterator<Item = Vec<Record>>) -> (Book, usize) {
    let mut builder = BookBuilder::new();
    let mut count = 0;
    for records in positions {
        count += 1;
        for r in records {
            builder.add_record(r);
        }
    }
    (builder.build(), count)
}

/// The weight of a move played in `games` games scoring `half_points`
/// half-points for its side: `n · (2s)²` with `s = (h/2 + 1) / (n + 2)`.
pub fn weight(games: u32, half_points: u32) -> f64 {
    let n = f64::from(games);
    let s = (f64::from(half_points) / 2.0 + 1.0) / (n + 2.0);
    n * (2.0 * s) * (2.0 * s)
}

/// The book code of the mirror image of a move's code.
fn mirror_code(code: u16) -> Option<u16> {
    book::decode_move(code).map(|m| book::encode_move(book::mirror_move(m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str, outcome: Outcome) -> (Position, Vec<Move>, Outcome) {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for t in moves.split_whitespace() {
            let m = pos.parse_move(t).unwrap();
            pos.make_move(m);
            out.push(m);
        }
        (Position::startpos(), out, outcome)
    }

    #[test]
    fn the_formula() {
        assert!((weight(1, 2) - 16.0 / 9.0).abs() < 1e-9); // one win
        assert!((weight(1, 0) - 4.0 / 9.0).abs() < 1e-9); // one loss
        assert!((weight(50, 50) - 50.0).abs() < 1e-9); // 50% over 50 games
        assert!(weight(100, 200) < 400.0 && weight(100, 200) > 380.0);
        assert!(weight(100, 0) < 0.04);
    }

    #[test]
    fn mirror_images_are_one_position_and_symmetric_pairs_share() {
        let mut c = Collector::new(Config {
            max_ply: 4,
            min_games: 1,
        });
        for (s, m, o) in [
            game("h2e2 h9g7 h0g2", Outcome::RedWins),
            game("b2e2 b9c7 b0c2", Outcome::RedWins),
            game("h2e2 h9g7", Outcome::Draw),
        ] {
            c.add(&s, &m, o);
        }
        let (book, report) = c.finish();
        assert_eq!(report.games, 3);
        assert_eq!(report.moves, 8);
        // start; after h2e2 (= after b2e2); after h2e2 h9g7 (= mirror);
        assert_eq!(report.positions, 3);
        assert_eq!(report.dropped_collisions, 0);
        assert_eq!(report.shadowed, 0);
        let start = Position::startpos();
        let moves = book.probe(&start);
        // Three games of the central cannon (two wins, a draw), split
        // between h2e2 and b2e2.
        let w = (weight(3, 5) * 10.0 / 2.0).round() as u16;
        assert_eq!(
            moves,
            vec![
                (Move::parse_iccs("b2e2").unwrap(), w),
                (Move::parse_iccs("h2e2").unwrap(), w)
            ]
        );
        // Black's answer after either cannon: the mirror images counted
        // together (two losses and a draw).
        let mut p = start.clone();
        p.make_move(Move::parse_iccs("b2e2").unwrap());
        let w = (weight(3, 1) * 10.0).round() as u16;
        assert_eq!(book.probe(&p), vec![(Move::parse_iccs("b9c7").unwrap(), w)]);
        let mut p = start.clone();
        p.make_move(Move::parse_iccs("h2e2").unwrap());
        assert_eq!(book.probe(&p), vec![(Move::parse_iccs("h9g7").unwrap(), w)]);
        // Red's third ply: h0g2, and b0c2 of the mirrored game, two wins.
        p.make_move(Move::parse_iccs("h9g7").unwrap());
        let w = (weight(2, 4) * 10.0).round() as u16;
        assert_eq!(book.probe(&p), vec![(Move::parse_iccs("h0g2").unwrap(), w)]);
    }

    #[test]
    fn min_games_and_max_ply() {
        let mut c = Collector::new(Config {
            max_ply: 1,
            min_games: 2,
        });
        for (s, m, o) in [
            game("h2e2 h9g7", Outcome::RedWins),
            game("h2e2 b9c7", Outcome::BlackWins),
            game("c3c4", Outcome::RedWins),
        ] {
            c.add(&s, &m, o);
        }
        let (book, report) = c.finish();
        assert_eq!(report.moves, 3);
        assert_eq!(report.below_min_games, 1); // c3c4 (one game)
        assert_eq!(report.positions, 1);
        let moves = book.probe(&Position::startpos());
        assert_eq!(moves.len(), 2);
        assert!(moves.iter().all(|(m, _)| m.to_string().ends_with("e2")));
    }

    #[test]
    fn a_game_from_a_fen_counts_from_its_move_number() {
        let mut c = Collector::new(Config {
            max_ply: 2,
            min_games: 1,
        });
        let start = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        )
        .unwrap();
        let moves = [
            Move::parse_iccs("h9g7").unwrap(),
            Move::parse_iccs("h0g2").unwrap(),
        ];
        c.add(&start, &moves, Outcome::Draw);
        let (book, report) = c.finish();
        assert_eq!(report.moves, 1, "ply 1 counts, ply 2 does not");
        assert_eq!(book.probe(&start).len(), 1);
    }
}
