//! The opening books the engine plays from, and how it chooses a book move.
//!
//! `format.rs` reads and writes the `BOOK.DAT` format; this module is what
//! the engine does with books: which are in use (the built-in one, or the
//! `bookfiles` list that replaces it), which of a position's book moves may
//! be played, and which one is chosen. There is no I/O here: the front end
//! reads the files and hands over their bytes.
//!
//! - **Which books.** Without `bookfiles`, the built-in book
//!   ([`BUILTIN_BOOK`], `books/chariot.dat`, compiled in). With `bookfiles`,
//!   the listed files instead, in their order: the first book that has a usable move
//!   for the position answers, the others are not consulted.
//! - **Which moves may be played** ([`usable_moves`]): a book move must be
//!   legal (the reader drops the rest), one of the root moves the `go` may
//!   choose from (not banned, among `searchmoves` when given), weigh more
//!   than 0, and must not repeat an earlier position of the game nor end the
//!   game otherwise than in the mover's favour. ElephantEye skips a book move
//!   that makes a repetition too; a repetition the rules would lose (a
//!   perpetual check or chase) is thus never played from the book, and
//!   neither is a drawn one: the search, which judges cycles, decides there.
//! - **Which move is chosen** ([`BookPick`]): with `randomness none` the
//!   heaviest (ties: the first in the book's order), the same every time;
//!   otherwise a weighted random pick, the weight raised to a power that
//!   flattens the choice as the randomness grows.

pub mod format;

// The format's items under `book::` too, as the tools and tests name them.
pub use format::{
    decode_move, encode_move, lock, lock0, mirror_move, mirrored_lock, parse_records, Book,
    BookBuilder, BookError, IllegalBookMove, Record, RECORD_BYTES,
};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::fmt;
use std::sync::Arc;
use xiangqi::rules::{self, CycleVerdict};
use xiangqi::{Move, Position};

/// The built-in book, compiled into the engine and used when no
/// `bookfiles` are set: Chariot's own, grown from its analysis by
/// `chariot-tools book build --analyse` (docs/BOOKS.md gives the command).
/// It is checked like any book file when the engine starts, and a test
/// checks that it reads.
pub const BUILTIN_BOOK: Option<&[u8]> = Some(include_bytes!("../../books/chariot.dat"));

/// The name the built-in book goes by in messages.
pub const BUILTIN_NAME: &str = "<built-in>";

/// The largest file taken as a book: 32 M records, far beyond any real
/// book (ElephantEye's has 12,081).
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

/// A book and where it came from.
#[derive(Clone, Debug)]
pub struct NamedBook {
    /// The path it was read from, or [`BUILTIN_NAME`].
    pub name: String,
    pub book: Arc<Book>,
}

/// Why a book file was not taken. The front end adds the file's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read (missing, a directory, no permission...).
    Unreadable(String),
    /// The file has no bytes: no book at all (a failed copy, most likely).
    Empty,
    /// The bytes are not a book: cut short, out of order, or a bad move code.
    Corrupt(BookError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Unreadable(why) => f.write_str(why),
            LoadError::Empty => f.write_str("the file is empty"),
            LoadError::Corrupt(e) => write!(f, "not a book: {e}"),
        }
    }
}

/// A book from a file's bytes (or why its reading failed): an empty file
/// is refused, and the bytes are checked whole by [`Book::from_bytes`].
/// Never panics, whatever the bytes.
pub fn load(name: &str, bytes: Result<Vec<u8>, String>) -> Result<NamedBook, LoadError> {
    let bytes = bytes.map_err(LoadError::Unreadable)?;
    if bytes.is_empty() {
        return Err(LoadError::Empty);
    }
    let book = Book::from_bytes(&bytes).map_err(LoadError::Corrupt)?;
    Ok(NamedBook {
        name: name.to_string(),
        book: Arc::new(book),
    })
}

/// The built-in book, if Chariot has one and it reads (a test checks that
/// it does; should it not, the engine says so and plays without it).
pub fn builtin() -> Option<NamedBook> {
    let bytes = BUILTIN_BOOK?;
    match load(BUILTIN_NAME, Ok(bytes.to_vec())) {
        Ok(book) => Some(book),
        Err(e) => {
            log::error!("the built-in book does not read ({e}); playing without it");
            None
        }
    }
}

/// How a book move is chosen among the usable ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookPick {
    /// Always the heaviest (ties: the first in the book's order).
    Heaviest,
    /// At random, each move with a chance proportional to its weight raised
    /// to `percent / 100`: 100 follows the book's weights, more sharpens
    /// the choice towards the heaviest moves, less flattens it (0 would be
    /// uniform).
    Weighted { percent: u32 },
}

/// The chosen book move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookChoice {
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
    /// The weights of all the usable moves it was chosen from, added up.
    pub total: u32,
    /// How many usable moves there were.
    pub choices: usize,
    /// The book's name.
    pub source: String,
    /// The book's heaviest answer to the move, if it has one: the move the
    /// opponent is expected to play (`bestmove … ponder …`), as
    /// ElephantEye gives it.
    pub ponder: Option<Move>,
}

/// Why a book move may not be played when the game is at `pos`, or `None`
/// when it may. `pos` carries the game's history (its `position … moves …`),
/// so repetitions are seen.
pub fn unplayable(pos: &Position, m: Move) -> Option<String> {
    let mover = pos.side_to_move();
    let mut after = pos.clone();
    after.make_move(m);
    if let Some(verdict) = rules::adjudicate(&after, rules::MOVE_LIMIT_PLIES) {
        if verdict.winner != Some(mover) {
            let result = if verdict.winner.is_none() {
                "a draw"
            } else {
                "a loss"
            };
            return Some(format!(
                "it ends the game in {result} by {}",
                verdict.reason
            ));
        }
        return None;
    }
    let since = rules::earlier_occurrences(&after).next()?;
    Some(match rules::judge_cycle(&after, since) {
        CycleVerdict::Loses(c, why) if c == mover => {
            format!("it repeats a position, a {why} the rules would lose")
        }
        CycleVerdict::Loses(_, why) => format!("it repeats a position (the opponent's {why})"),
        CycleVerdict::Draw => "it repeats a position".to_string(),
    })
}

/// The moves of `moves` (a book's answer for `pos`) that may be played:
/// among `root` (the legal moves the `go` may choose from), weighing more
/// than 0, and not [`unplayable`]. The order is kept.
pub fn usable_moves(pos: &Position, root: &[Move], moves: &[(Move, u16)]) -> Vec<(Move, u16)> {
    moves
        .iter()
        .copied()
        .filter(|&(m, w)| {
            if w == 0 || !root.contains(&m) {
                return false;
            }
            match unplayable(pos, m) {
                Some(why) => {
                    log::debug!("book move {m} skipped: {why}");
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// The index of the move chosen among `moves` (not empty, heaviest first
/// as [`Book::probe`] gives them), with `seed` for a random pick.
pub fn pick(moves: &[(Move, u16)], how: BookPick, seed: u64) -> usize {
    let heaviest = || {
        let max = moves.iter().map(|&(_, w)| w).max().unwrap_or(0);
        moves.iter().position(|&(_, w)| w == max).unwrap_or(0)
    };
    match how {
        BookPick::Heaviest => heaviest(),
        BookPick::Weighted { percent } => {
            let power = f64::from(percent) / 100.0;
            let weights: Vec<f64> = moves
                .iter()
                .map(|&(_, w)| f64::from(w).powf(power))
                .collect();
            let total: f64 = weights.iter().sum();
            if !(total.is_finite() && total > 0.0) {
                return heaviest();
            }
            let mut x = StdRng::seed_from_u64(seed).random::<f64>() * total;
            for (i, w) in weights.iter().enumerate() {
                if x < *w {
                    return i;
                }
                x -= w;
            }
            // Rounding left a sliver past the end: the last move with weight.
            weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
        }
    }
}

/// Chooses a book move for `pos` from `books`, in order: the first book
/// with a usable move answers. `None` when no book has one.
pub fn choose(
    books: &[NamedBook],
    pos: &Position,
    root: &[Move],
    how: BookPick,
    seed: u64,
) -> Option<BookChoice> {
    books.iter().find_map(|nb| {
        let usable = usable_moves(pos, root, &nb.book.probe(pos));
        if usable.is_empty() {
            return None;
        }
        let (mv, weight) = usable[pick(&usable, how, seed)];
        let mut after = pos.clone();
        after.make_move(mv);
        let ponder = nb.book.probe(&after).first().map(|&(m, _)| m);
        Some(BookChoice {
            mv,
            weight,
            total: usable.iter().map(|&(_, w)| u32::from(w)).sum(),
            choices: usable.len(),
            source: nb.name.clone(),
            ponder,
        })
    })
}

/// The book moves of `pos` in the first of `books` that has any, with the
/// book's name (for `probe`): every legal move the book holds, whatever
/// its weight.
pub fn probe<'a>(books: &'a [NamedBook], pos: &Position) -> Option<(&'a str, Vec<(Move, u16)>)> {
    books.iter().find_map(|nb| {
        let moves = nb.book.probe(pos);
        (!moves.is_empty()).then_some((nb.name.as_str(), moves))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse_iccs(s).unwrap()
    }

    #[test]
    fn the_builtin_book_reads_if_there_is_one() {
        match BUILTIN_BOOK {
            None => assert!(builtin().is_none()),
            Some(bytes) => {
                let book = builtin().expect("the built-in book reads");
                assert_eq!(book.book.to_bytes(), bytes);
            }
        }
    }

    #[test]
    fn loading_says_why_not() {
        assert_eq!(
            load("x", Err("it does not exist".into())).err(),
            Some(LoadError::Unreadable("it does not exist".into()))
        );
        assert_eq!(load("x", Ok(Vec::new())).err(), Some(LoadError::Empty));
        let err = load("x", Ok(vec![1, 2, 3])).err().unwrap();
        assert!(matches!(
            err,
            LoadError::Corrupt(BookError::Truncated { len: 3 })
        ));
        assert!(err.to_string().starts_with("not a book: 3 bytes"), "{err}");
    }

    #[test]
    fn heaviest_and_weighted_picks() {
        let moves = [(mv("h2e2"), 10), (mv("b2e2"), 10), (mv("c3c4"), 5)];
        assert_eq!(pick(&moves, BookPick::Heaviest, 1), 0);
        assert_eq!(
            pick(&[(mv("h2e2"), 1), (mv("b2e2"), 9)], BookPick::Heaviest, 1),
            1
        );
        // A fixed seed gives a fixed pick; over many seeds every move comes
        // up, in proportion to its weight.
        let how = BookPick::Weighted { percent: 100 };
        assert_eq!(pick(&moves, how, 42), pick(&moves, how, 42));
        let mut counts = [0usize; 3];
        for seed in 0..5000 {
            counts[pick(&moves, how, seed)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
        let share = counts[2] as f64 / 5000.0;
        assert!((share - 0.2).abs() < 0.03, "{counts:?}");
        // A power of 0 is uniform; a high power nearly always the heaviest.
        let flat = BookPick::Weighted { percent: 0 };
        let lop = [(mv("h2e2"), 60000), (mv("c3c4"), 1)];
        let n = (0..4000).filter(|&s| pick(&lop, flat, s) == 1).count();
        assert!((1700..2300).contains(&n), "{n}");
        let sharp = BookPick::Weighted { percent: 400 };
        assert!((0..4000).all(|s| pick(&lop, sharp, s) == 0));
    }

    #[test]
    fn repetitions_and_game_ends_are_not_played_from_the_book() {
        // Red's rook checks from a9 and a8 in turn while Black's king steps
        // between d9 and d8: after four plies the start stands again.
        let mut pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(unplayable(&pos, mv("a8a9")), None, "the first check is new");
        for m in ["a8a9", "d9d8", "a9a8", "d8d9"] {
            pos.make_move(mv(m));
        }
        let why = unplayable(&pos, mv("a8a9")).expect("a repetition");
        assert!(
            why.contains("perpetual check the rules would lose"),
            "{why}"
        );
        assert_eq!(unplayable(&pos, mv("e0f0")), None);
        // A third time the game is over, and lost.
        for m in ["a8a9", "d9d8", "a9a8", "d8d9"] {
            pos.make_move(mv(m));
        }
        let why = unplayable(&pos, mv("a8a9")).expect("a loss");
        assert!(why.contains("a loss by perpetual check"), "{why}");
        let root: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let mut b = BookBuilder::new();
        b.add(&pos, mv("a8a9"), 1000).unwrap();
        b.add(&pos, mv("e0f0"), 1).unwrap();
        b.add(&pos, mv("e0e1"), 0).unwrap();
        let book = b.build();
        assert_eq!(
            usable_moves(&pos, &root, &book.probe(&pos)),
            [(mv("e0f0"), 1)],
            "the repetition and the zero weight are dropped"
        );
    }
}
