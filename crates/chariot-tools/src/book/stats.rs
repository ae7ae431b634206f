//! `book stats`: what a book holds and whether it is sound.
//!
//! The file is read leniently (a damaged book is described, not refused):
//! whole records are counted even after a truncation, and an unsorted book
//! is sorted in memory for the walk.
//!
//! A lock does not tell which position it belongs to, so move legality can
//! only be checked for positions the walk reaches. From the start position
//! the walk follows every book move; from a position outside the book that
//! a book move led to, it tries every legal move once (books made from game
//! results often leave out the losing side's moves, so a book move can lead
//! out of the book for a ply). Those tries are many more lookups, and a
//! 32-bit lock then matches the wrong position now and then: a position
//! found that way counts only when it has a legal book move, and an illegal
//! record met there is reported apart, as a probable collision. Records
//! under locks the walk never reaches are unchecked.

use chariot::book::{self, Book, Record, RECORD_BYTES};
use chariot::xiangqi::{Move, Position};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write;

/// A record whose move is illegal in the position the walk found under its
/// lock.
#[derive(Clone, Debug)]
pub struct IllegalRecord {
    /// The stored orientation of the reached position.
    pub fen: String,
    /// The stored move.
    pub mv: Move,
    /// Its weight.
    pub weight: u16,
    /// Whether the position was found by a move outside the book (then the
    /// lock probably belongs to another position).
    pub off_book: bool,
}

/// Positions the walk found in the book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// Positions (either orientation stored).
    pub positions: usize,
    /// The deepest ply among them.
    pub max_ply: usize,
    /// Those found only through their mirror image.
    pub mirrored: usize,
}

/// The walk from the start position.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Positions found by a book move of a book position (or the start).
    pub by_book_moves: Reached,
    /// Positions found by trying every move of a position outside the book.
    pub off_book: Reached,
    /// Locks whose records were checked.
    pub locks: usize,
    /// Records under those locks.
    pub records: usize,
    /// Positions found by a book move that are stored in both orientations.
    pub both_orientations: usize,
    /// Records illegal in the reached position.
    pub illegal: Vec<IllegalRecord>,
}

/// Everything `book stats` reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// File length.
    pub bytes: usize,
    /// Bytes after the last whole record.
    pub trailing_bytes: usize,
    /// Whole records.
    pub records: usize,
    /// Distinct locks.
    pub positions: usize,
    /// Positions by their number of moves: (moves, positions), ascending.
    pub moves_per_position: Vec<(usize, usize)>,
    /// All weights, sorted.
    weights: Vec<u16>,
    /// Records whose lock is smaller than the previous record's.
    pub unsorted: usize,
    /// Records whose move code is not a move on the board.
    pub bad_codes: usize,
    /// Records repeating the (lock, move) of another record.
    pub repeated: usize,
    /// The walk from the start position.
    pub walk: Walk,
}

impl Stats {
    /// Problems that break readers: truncation, disorder, bad codes.
    pub fn errors(&self) -> Vec<String> {
        let mut e = Vec::new();
        if self.trailing_bytes > 0 {
            e.push(format!(
                "{} bytes after the last whole {RECORD_BYTES}-byte record: truncated, or not a book",
                self.trailing_bytes
            ));
        }
        if self.unsorted > 0 {
            e.push(format!(
                "{} records out of lock order: binary searches will miss positions",
                self.unsorted
            ));
        }
        if self.bad_codes > 0 {
            e.push(format!(
                "{} records with move codes off the board",
                self.bad_codes
            ));
        }
        e
    }

    /// Oddities readers survive.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        let off_book = self.walk.illegal.iter().filter(|r| r.off_book).count();
        let by_book = self.walk.illegal.len() - off_book;
        if by_book > 0 {
            w.push(format!(
                "{by_book} records illegal in a position found by a book move (damaged \
                 records, or lock collisions; readers drop them)"
            ));
        }
        if off_book > 0 {
            w.push(format!(
                "{off_book} records illegal in a position found by a move outside the book \
                 (probably a lock collision with another position; readers drop them)"
            ));
        }
        if self.repeated > 0 {
            w.push(format!(
                "{} records repeat a move of their position",
                self.repeated
            ));
        }
        if self.walk.both_orientations > 0 {
            w.push(format!(
                "{} reached positions are stored in both orientations (the mirror image's \
                 records are never read)",
                self.walk.both_orientations
            ));
        }
        let zero = self.weights.iter().take_while(|&&w| w == 0).count();
        if zero > 0 {
            w.push(format!("{zero} records of weight 0 (never chosen)"));
        }
        w
    }

    /// The report, as `book stats` prints it.
    pub fn render(&self, name: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{name}: {} bytes, {} records",
            self.bytes, self.records
        );
        let _ = writeln!(out, "positions (distinct locks): {}", self.positions);
        let _ = writeln!(out, "moves (records): {}", self.records);
        if self.positions > 0 {
            let _ = writeln!(
                out,
                "moves per position: mean {:.2}, max {}",
                self.records as f64 / self.positions as f64,
                self.moves_per_position.last().map_or(0, |&(m, _)| m)
            );
            let buckets: Vec<String> = self
                .moves_per_position
                .iter()
                .map(|(m, n)| format!("{m}: {n}"))
                .collect();
            let _ = writeln!(out, "  {}", buckets.join(", "));
        }
        if let (Some(&min), Some(&max)) = (self.weights.first(), self.weights.last()) {
            let total: u64 = self.weights.iter().map(|&w| u64::from(w)).sum();
            let median = self.weights[self.weights.len() / 2];
            let _ = writeln!(
                out,
                "weights: total {total}, min {min}, median {median}, mean {:.1}, max {max}",
                total as f64 / self.weights.len() as f64
            );
            let _ = writeln!(out, "  {}", weight_histogram(&self.weights).join(", "));
        }
        let w = &self.walk;
        let _ = writeln!(
            out,
            "walk from the start position: {} positions found by a book move (deepest ply {}, \
             {} through the mirror image) and {} by a move outside the book (deepest ply {}); \
             {} of {} locks and {} of {} records checked for legality",
            w.by_book_moves.positions,
            w.by_book_moves.max_ply,
            w.by_book_moves.mirrored,
            w.off_book.positions,
            w.off_book.max_ply,
            w.locks,
            self.positions,
            w.records,
            self.records
        );
        for r in w.illegal.iter().take(10) {
            let _ = writeln!(
                out,
                "  illegal: {} (weight {}) in {}{}",
                r.mv,
                r.weight,
                r.fen,
                if r.off_book {
                    " (found by a move outside the book)"
                } else {
                    ""
                }
            );
        }
        if w.illegal.len() > 10 {
            let _ = writeln!(out, "  … and {} more", w.illegal.len() - 10);
        }
        let (errors, warnings) = (self.errors(), self.warnings());
        let _ = writeln!(
            out,
            "sanity: {} errors, {} warnings",
            errors.len(),
            warnings.len()
        );
        for e in &errors {
            let _ = writeln!(out, "  error: {e}");
        }
        for w in &warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
        out
    }
}

/// Weight counts in power-of-two buckets: `0`, `1`, `2-3`, `4-7`, …
fn weight_histogram(sorted: &[u16]) -> Vec<String> {
    let mut counts: Vec<(u32, usize)> = Vec::new();
    for &w in sorted {
        let bucket = if w == 0 { 0 } else { 16 - w.leading_zeros() };
        match counts.last_mut() {
            Some((b, n)) if *b == bucket => *n += 1,
            _ => counts.push((bucket, 1)),
        }
    }
    counts
        .into_iter()
        .map(|(b, n)| match b {
            0 => format!("0: {n}"),
            1 => format!("1: {n}"),
            b => format!("{}-{}: {n}", 1u32 << (b - 1), (1u32 << b) - 1),
        })
        .collect()
}

/// Describes a book file's bytes.
pub fn compute(bytes: &[u8]) -> Stats {
    let whole = bytes.len() - bytes.len() % RECORD_BYTES;
    // The length is whole, so this cannot fail.
    let mut records: Vec<Record> = book::parse_records(&bytes[..whole]).unwrap_or_default();
    let mut stats = Stats {
        bytes: bytes.len(),
        trailing_bytes: bytes.len() - whole,
        records: records.len(),
        ..Stats::default()
    };
    stats.unsorted = records.windows(2).filter(|w| w[1].lock < w[0].lock).count();
    stats.bad_codes = records.iter().filter(|r| r.decode_move().is_none()).count();
    stats.weights = records.iter().map(|r| r.weight).collect();
    stats.weights.sort_unstable();

    records.sort_by_key(|r| r.lock); // stable: a sorted book is unchanged
    let mut per_lock: HashMap<u32, usize> = HashMap::new();
    let mut seen = HashSet::new();
    for r in &records {
        *per_lock.entry(r.lock).or_default() += 1;
        if !seen.insert((r.lock, r.mv)) {
            stats.repeated += 1;
        }
    }
    stats.positions = per_lock.len();
    let mut hist: HashMap<usize, usize> = HashMap::new();
    for &n in per_lock.values() {
        *hist.entry(n).or_default() += 1;
    }
    stats.moves_per_position = hist.into_iter().collect();
    stats.moves_per_position.sort_unstable();

    records.retain(|r| r.decode_move().is_some());
    if let Ok(book) = Book::from_records(records) {
        stats.walk = walk(&book);
    }
    stats
}

/// Walks the book from the start position (see the module doc).
fn walk(book: &Book) -> Walk {
    let mut w = Walk::default();
    // Per checked lock: whether it was checked in a position reached by
    // book moves, and the illegal records found. A check from such a
    // position replaces one from a position reached off the book.
    let mut checked: HashMap<u32, (bool, Vec<IllegalRecord>)> = HashMap::new();
    // The fewest plies outside the book each position was queued with.
    let mut queued: HashMap<u64, u8> = HashMap::new();
    let mut done: HashSet<u64> = HashSet::new();
    let start = Position::startpos();
    queued.insert(start.key(), 0);
    let mut queue = VecDeque::from([(start, 0usize, 0u8)]);
    while let Some((pos, ply, out)) = queue.pop_front() {
        if done.contains(&pos.key()) {
            continue;
        }
        let (direct, mirrored) = (book::lock(&pos), book::mirrored_lock(&pos));
        let found = if !book.entries(direct).is_empty() {
            Some((direct, false))
        } else if direct != mirrored && !book.entries(mirrored).is_empty() {
            Some((mirrored, true))
        } else {
            None
        };
        let moves = book.probe(&pos);
        let next: Vec<(Move, u8)> = match found {
            Some((lock, through_mirror)) if out == 0 || !moves.is_empty() => {
                done.insert(pos.key());
                let reached = if out == 0 {
                    &mut w.by_book_moves
                } else {
                    &mut w.off_book
                };
                reached.positions += 1;
                reached.max_ply = reached.max_ply.max(ply);
                if through_mirror {
                    reached.mirrored += 1;
                }
                if out == 0
                    && direct != mirrored
                    && !through_mirror
                    && !book.entries(mirrored).is_empty()
                {
                    w.both_orientations += 1;
                }
                let trusted = out == 0;
                if checked.get(&lock).is_none_or(|&(t, _)| trusted && !t) {
                    let stored = if through_mirror {
                        pos.file_mirrored()
                    } else {
                        pos.clone()
                    };
                    let illegal = book
                        .entries(lock)
                        .iter()
                        .filter_map(|r| {
                            let m = r.decode_move()?;
                            (!stored.is_legal(m)).then(|| IllegalRecord {
                                fen: stored.to_fen(),
                                mv: m,
                                weight: r.weight,
                                off_book: !trusted,
                            })
                        })
                        .collect();
                    checked.insert(lock, (trusted, illegal));
                }
                moves.into_iter().map(|(m, _)| (m, 0)).collect()
            }
            _ if out == 0 => {
                done.insert(pos.key());
                pos.legal_moves().iter().map(|&m| (m, 1)).collect()
            }
            _ => continue,
        };
        for (m, out) in next {
            let mut child = pos.clone();
            child.make_move(m);
            child.clear_history();
            let key = child.key();
            if !done.contains(&key) && queued.get(&key).is_none_or(|&o| out < o) {
                queued.insert(key, out);
                queue.push_back((child, ply + 1, out));
            }
        }
    }
    w.locks = checked.len();
    w.records = checked.keys().map(|&l| book.entries(l).len()).sum();
    let mut locks: Vec<u32> = checked.keys().copied().collect();
    locks.sort_unstable();
    for l in locks {
        if let Some((_, illegal)) = checked.remove(&l) {
            w.illegal.extend(illegal);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot::book::BookBuilder;

    #[test]
    fn a_sound_book() {
        let start = Position::startpos();
        let mut b = BookBuilder::new();
        b.add(&start, Move::parse_iccs("h2e2").unwrap(), 10)
            .unwrap();
        b.add(&start, Move::parse_iccs("b2e2").unwrap(), 10)
            .unwrap();
        let mut p = start.clone();
        p.make_move(Move::parse_iccs("h2e2").unwrap());
        p.make_move(Move::parse_iccs("h9g7").unwrap()); // out of the book for a ply
        b.add(&p, Move::parse_iccs("h0g2").unwrap(), 3).unwrap();
        let s = compute(&b.build().to_bytes());
        assert_eq!((s.records, s.positions), (3, 2));
        assert_eq!(s.moves_per_position, vec![(1, 1), (2, 1)]);
        assert!(s.errors().is_empty() && s.warnings().is_empty());
        // The start, and the position after h2e2 h9g7 and its mirror image.
        assert_eq!(
            s.walk.by_book_moves,
            Reached {
                positions: 1,
                max_ply: 0,
                mirrored: 0
            }
        );
        assert_eq!(
            s.walk.off_book,
            Reached {
                positions: 2,
                max_ply: 2,
                mirrored: 1
            }
        );
        assert_eq!((s.walk.locks, s.walk.records), (2, 3));
        let text = s.render("x");
        assert!(text.contains("sanity: 0 errors, 0 warnings"), "{text}");
        assert!(text.contains("  2-3: 1, 8-15: 2\n"), "{text}");
    }

    #[test]
    fn a_damaged_book_is_described() {
        let start = Position::startpos();
        let h2e2 = book::encode_move(Move::parse_iccs("h2e2").unwrap());
        let l = book::lock(&start);
        let records = [
            Record {
                lock: l,
                mv: book::encode_move(Move::parse_iccs("a0a5").unwrap()),
                weight: 0,
            },
            Record {
                lock: l,
                mv: h2e2,
                weight: 1,
            },
            Record {
                lock: l,
                mv: h2e2,
                weight: 1,
            },
            Record {
                lock: 0,
                mv: 0,
                weight: 1,
            },
        ];
        let mut bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
        bytes.push(7);
        let s = compute(&bytes);
        assert_eq!(s.trailing_bytes, 1);
        assert_eq!(s.unsorted, 1);
        assert_eq!(s.bad_codes, 1);
        assert_eq!(s.repeated, 1);
        assert_eq!(s.walk.illegal.len(), 1);
        assert_eq!(s.errors().len(), 3);
        assert_eq!(s.warnings().len(), 3, "{:?}", s.warnings());
        let text = s.render("x");
        assert!(text.contains("illegal: a0a5 (weight 0)"), "{text}");
        assert!(text.contains("0: 1, 1: 3"), "{text}");
    }
}
