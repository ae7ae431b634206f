//! Opening books in ElephantEye's `BOOK.DAT` format, the book format that
//! UCCI engines and GUIs pass around as `bookfiles`: reading, probing and
//! writing. No file I/O happens here; callers hand over bytes and get bytes.
//!
//! # The format
//!
//! A book is a flat array of 8-byte records with no header. Each record is,
//! little-endian:
//!
//! | bytes | field    | meaning                                            |
//! |-------|----------|----------------------------------------------------|
//! | 0–3   | `lock`   | 32-bit hash of the position the move is played in  |
//! | 4–5   | `move`   | the move, as two squares of a 16×16 board          |
//! | 6–7   | `weight` | how often the move should be chosen, relative to the other moves of the position |
//!
//! The records are sorted by `lock` (as unsigned numbers), so all the moves
//! of one position sit next to each other and a reader finds them by binary
//! search. Nothing else is stored: no position, no count, no checksum. A
//! lock that is in the file but whose moves are illegal in the position
//! being looked up is a hash collision, and readers drop such moves.
//!
//! **Squares.** ElephantEye's board is 16×16 with the real board inside:
//! file `a`–`i` (0–8) is column `file + 3`, and rank `r` (0 = Red's back
//! rank) is row `(9 - r) + 3`, counting rows from Black's side. The square
//! number is `column + 16 * row`, and a move is `from | to << 8`.
//!
//! **The lock.** It is ElephantEye's "lock1" Zobrist hash. The Zobrist
//! numbers come from the RC4 keystream with a key of four zero bytes, read
//! four bytes at a time as little-endian `u32`s. ElephantEye draws three
//! numbers (a key and two locks) per Zobrist entry, in this order: first
//! the side-to-move entry, then one entry per piece type and square, piece
//! types 0–13 (Red's king, advisor, elephant, horse, rook, cannon, pawn,
//! then Black's in the same order) and, within each, the 256 squares of the
//! 16×16 board in order. A position's lock is the XOR of the third number
//! ("lock1") of the entries of its pieces on their squares, and of the
//! side-to-move entry when Black is to move.
//!
//! **Mirrors.** A book stores a position or its left-right mirror, not
//! both: a reader that misses a position looks again with the board
//! mirrored and mirrors the moves it finds back. ElephantEye's book maker
//! keeps whichever orientation has the smaller lock1 (then lock0); for a
//! symmetric position both a move and its mirror image are stored.
//!
//! # This module
//!
//! - [`Book::from_bytes`] checks the whole file (length, order, move codes)
//!   and returns a [`BookError`] rather than panicking on any input.
//! - [`Book::probe`] returns the legal book moves of a position with their
//!   weights, heaviest first (ties in file order), as ElephantEye's lookup
//!   does. One deliberate difference: when the position's own lock is
//!   present but none of its moves is legal (a collision), the mirrored
//!   lookup is still tried; ElephantEye gives up there.
//! - [`BookBuilder`] collects moves and writes a sorted book that
//!   ElephantEye reads; [`Book::to_bytes`] writes any book back unchanged.
//! - [`lock`], [`mirrored_lock`], [`lock0`], [`encode_move`], [`decode_move`] and
//!   [`mirror_move`] expose the format's pieces for tools.

use std::fmt;
use xiangqi::{Move, Position, Square};

/// Size of one record in bytes.
pub const RECORD_BYTES: usize = 8;

// ---------------------------------------------------------------------------
// Zobrist locks from RC4

/// RC4 with a key of four zero bytes. A zero key makes the key schedule
/// `j += s[i]` alone.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    const fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            s[i] = i as u8;
            i += 1;
        }
        let mut j = 0u8;
        let mut i = 0;
        while i < 256 {
            j = j.wrapping_add(s[i]); // + key[i % 4], which is 0
            let t = s[i];
            s[i] = s[j as usize];
            s[j as usize] = t;
            i += 1;
        }
        Rc4 { s, i: 0, j: 0 }
    }

    const fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        let t = self.s[self.i as usize];
        self.s[self.i as usize] = self.s[self.j as usize];
        self.s[self.j as usize] = t;
        self.s[self.s[self.i as usize].wrapping_add(self.s[self.j as usize]) as usize]
    }

    const fn next_u32(&mut self) -> u32 {
        let b0 = self.next_byte() as u32;
        let b1 = self.next_byte() as u32;
        let b2 = self.next_byte() as u32;
        let b3 = self.next_byte() as u32;
        b0 | b1 << 8 | b2 << 16 | b3 << 24
    }
}

/// The two locks of every Zobrist entry, on Chariot's 90 squares.
struct Locks {
    /// (lock0, lock1) of the side to move.
    side: [u32; 2],
    /// (lock0, lock1) by piece type 0–13 and Chariot square index.
    pieces: [[[u32; 2]; 90]; 14],
}

/// The Chariot square index of a 16×16 square, if it is on the board.
const fn board_index(sq16: usize) -> Option<usize> {
    let (x, y) = (sq16 & 15, sq16 >> 4);
    if x >= 3 && x <= 11 && y >= 3 && y <= 12 {
        let (file, rank) = (x - 3, 12 - y);
        Some(rank * 9 + file)
    } else {
        None
    }
}

const fn build_locks() -> Locks {
    let mut rc4 = Rc4::zero_key();
    let mut locks = Locks {
        side: [0; 2],
        pieces: [[[0; 2]; 90]; 14],
    };
    let _key = rc4.next_u32();
    locks.side[0] = rc4.next_u32();
    locks.side[1] = rc4.next_u32();
    let mut piece = 0;
    while piece < 14 {
        let mut sq16 = 0;
        while sq16 < 256 {
            let _key = rc4.next_u32();
            let lock0 = rc4.next_u32();
            let lock1 = rc4.next_u32();
            if let Some(i) = board_index(sq16) {
                locks.pieces[piece][i] = [lock0, lock1];
            }
            sq16 += 1;
        }
        piece += 1;
    }
    locks
}

static LOCKS: Locks = build_locks();

/// Both locks of a position, (lock0, lock1), or of its left-right mirror
/// image when `mirrored` (without building the mirrored position).
fn locks(pos: &Position, mirrored: bool) -> [u32; 2] {
    let mut l = if pos.side_to_move() == xiangqi::Color::Black {
        LOCKS.side
    } else {
        [0, 0]
    };
    for sq in pos.occupied() {
        let pc = pos.piece_at(sq);
        let t = pc.color().index() * 7 + pc.kind().index();
        let sq = if mirrored { sq.flip_file() } else { sq };
        let [a, b] = LOCKS.pieces[t][sq.index()];
        l[0] ^= a;
        l[1] ^= b;
    }
    l
}

/// The position's book key: ElephantEye's 32-bit Zobrist "lock1".
pub fn lock(pos: &Position) -> u32 {
    locks(pos, false)[1]
}

/// The [`lock`] of the position's left-right mirror image.
pub fn mirrored_lock(pos: &Position) -> u32 {
    locks(pos, true)[1]
}

/// ElephantEye's second 32-bit Zobrist lock, "lock0". It is not stored in
/// books; ElephantEye's book maker uses it after lock1 to choose which
/// orientation of a position to store.
pub fn lock0(pos: &Position) -> u32 {
    locks(pos, false)[0]
}

// ---------------------------------------------------------------------------
// Moves

/// The 16×16 square of a board square.
fn square16(sq: Square) -> u16 {
    (sq.file() as u16 + 3) + 16 * ((9 - sq.rank() as u16) + 3)
}

/// A move in the book's encoding, `from | to << 8` on the 16×16 board.
pub fn encode_move(m: Move) -> u16 {
    square16(m.from()) | square16(m.to()) << 8
}

/// A move from the book's encoding: `None` unless both squares are on the
/// board and differ. Legality is the caller's business.
pub fn decode_move(raw: u16) -> Option<Move> {
    let from = Square::from_index(board_index((raw & 0xff) as usize)?)?;
    let to = Square::from_index(board_index((raw >> 8) as usize)?)?;
    (from != to).then(|| Move::new(from, to))
}

/// The move mirrored left to right (file `a` ↔ `i`).
pub fn mirror_move(m: Move) -> Move {
    Move::new(m.from().flip_file(), m.to().flip_file())
}

// ---------------------------------------------------------------------------
// Records and errors

/// One record of a book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// The position's [`lock`].
    pub lock: u32,
    /// The move in the book's encoding ([`encode_move`]).
    pub mv: u16,
    /// Relative weight among the position's moves.
    pub weight: u16,
}

impl Record {
    /// The record's 8 bytes.
    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..4].copy_from_slice(&self.lock.to_le_bytes());
        b[4..6].copy_from_slice(&self.mv.to_le_bytes());
        b[6..8].copy_from_slice(&self.weight.to_le_bytes());
        b
    }

    /// A record from its 8 bytes.
    pub fn from_bytes(b: [u8; RECORD_BYTES]) -> Record {
        Record {
            lock: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            mv: u16::from_le_bytes([b[4], b[5]]),
            weight: u16::from_le_bytes([b[6], b[7]]),
        }
    }

    /// The record's move, if its code names two squares of the board.
    pub fn decode_move(self) -> Option<Move> {
        decode_move(self.mv)
    }
}

/// Why bytes are not a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The length is not a whole number of records: the file was cut short,
    /// has bytes appended, or is not a book.
    Truncated {
        /// The length in bytes.
        len: usize,
    },
    /// A record's lock is smaller than the one before it. Readers
    /// binary-search the locks, so an unsorted book loses positions.
    Unsorted {
        /// The record's index (0-based).
        index: usize,
        /// Its lock.
        lock: u32,
        /// The previous record's lock.
        previous: u32,
    },
    /// A record's move code does not name two different squares of the
    /// board.
    BadMove {
        /// The record's index (0-based).
        index: usize,
        /// The move code.
        raw: u16,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Truncated { len } => write!(
                f,
                "{len} bytes is not a whole number of {RECORD_BYTES}-byte records \
                 ({} bytes left over): truncated, or not a book",
                len % RECORD_BYTES
            ),
            BookError::Unsorted {
                index,
                lock,
                previous,
            } => write!(
                f,
                "record {index} is out of order: lock {lock:#010x} after {previous:#010x}"
            ),
            BookError::BadMove { index, raw } => write!(
                f,
                "record {index} has move code {raw:#06x}, which is not a move between two squares of the board"
            ),
        }
    }
}

impl std::error::Error for BookError {}

/// Splits bytes into records, checking only that the length is a whole
/// number of records (for tools that diagnose damaged books; a [`Book`]
/// checks more).
pub fn parse_records(bytes: &[u8]) -> Result<Vec<Record>, BookError> {
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(BookError::Truncated { len: bytes.len() });
    }
    Ok(bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| {
            let mut b = [0u8; RECORD_BYTES];
            b.copy_from_slice(c);
            Record::from_bytes(b)
        })
        .collect())
}

// ---------------------------------------------------------------------------
// The book

/// An opening book: records sorted by lock, as in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    records: Vec<Record>,
}

impl Book {
    /// Reads a book file's bytes, checking the length, the order of the
    /// locks and every move code. An empty input is an empty book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        Book::from_records(parse_records(bytes)?)
    }

    /// A book of these records, in this order, if they are sorted by lock
    /// and every move code names two squares of the board.
    pub fn from_records(records: Vec<Record>) -> Result<Book, BookError> {
        for (index, r) in records.iter().enumerate() {
            if index > 0 && r.lock < records[index - 1].lock {
                return Err(BookError::Unsorted {
                    index,
                    lock: r.lock,
                    previous: records[index - 1].lock,
                });
            }
            if r.decode_move().is_none() {
                return Err(BookError::BadMove { index, raw: r.mv });
            }
        }
        Ok(Book { records })
    }

    /// The book file's bytes: the records in order.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.records.iter().flat_map(|r| r.to_bytes()).collect()
    }

    /// All records, sorted by lock.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Number of records (moves).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the book has no records.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Number of distinct locks (positions, as far as the hash can tell).
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for r in &self.records {
            if last != Some(r.lock) {
                n += 1;
                last = Some(r.lock);
            }
        }
        n
    }

    /// The records stored under `lock`, in file order (empty if none).
    pub fn entries(&self, lock: u32) -> &[Record] {
        let start = self.records.partition_point(|r| r.lock < lock);
        let end = start + self.records[start..].partition_point(|r| r.lock == lock);
        &self.records[start..end]
    }

    /// The legal moves the book stores under `lock` for `pos`, mirrored
    /// back when `mirrored`.
    fn legal_entries(&self, pos: &Position, lock: u32, mirrored: bool) -> Vec<(Move, u16)> {
        self.entries(lock)
            .iter()
            .filter_map(|r| {
                let m = r.decode_move().filter(|&m| pos.is_legal(m))?;
                Some((if mirrored { mirror_move(m) } else { m }, r.weight))
            })
            .collect()
    }

    /// The book moves of `pos` with their weights: the moves stored under
    /// the position's lock, or, when that gives no legal move, those stored
    /// under its mirror image's lock, mirrored back. Only moves legal in
    /// `pos` are returned, heaviest first; equal weights keep the file's
    /// order. Empty when the position is not in the book.
    pub fn probe(&self, pos: &Position) -> Vec<(Move, u16)> {
        let direct = lock(pos);
        let mut moves = self.legal_entries(pos, direct, false);
        if moves.is_empty() {
            let mirrored = mirrored_lock(pos);
            if mirrored != direct && !self.entries(mirrored).is_empty() {
                moves = self.legal_entries(&pos.file_mirrored(), mirrored, true);
            }
        }
        moves.sort_by_key(|&(_, w)| std::cmp::Reverse(w)); // stable: ties keep file order
        moves
    }
}

// ---------------------------------------------------------------------------
// Writing

/// A move offered to [`BookBuilder::add`] that is not legal in its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalBookMove {
    /// The position, as FEN.
    pub fen: String,
    /// The move.
    pub mv: Move,
}

impl fmt::Display for IllegalBookMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not legal in {}", self.mv, self.fen)
    }
}

impl std::error::Error for IllegalBookMove {}

/// Collects book moves and builds a sorted [`Book`].
///
/// Moves are stored under the lock of the position they are given with;
/// the builder does not choose orientations (a caller who wants each
/// position once, as ElephantEye's books have it, adds either a position
/// or its mirror image, not both). The same move of the same lock added
/// twice is one record whose weight is the sum (saturating at 65535).
/// Records are sorted by lock, then by move code, the order ElephantEye's
/// book maker writes.
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    records: Vec<Record>,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new() -> BookBuilder {
        BookBuilder::default()
    }

    /// Adds `mv` of `pos` with `weight`, if the move is legal there.
    pub fn add(&mut self, pos: &Position, mv: Move, weight: u16) -> Result<(), IllegalBookMove> {
        if !pos.is_legal(mv) {
            return Err(IllegalBookMove {
                fen: pos.to_fen(),
                mv,
            });
        }
        self.records.push(Record {
            lock: lock(pos),
            mv: encode_move(mv),
            weight,
        });
        Ok(())
    }

    /// Adds a raw record (for tools that copy or edit books). Records whose
    /// move code is not a move on the board are dropped by
    /// [`build`](Self::build)'s check; it returns whether this one is kept.
    pub fn add_record(&mut self, record: Record) -> bool {
        let ok = record.decode_move().is_some();
        if ok {
            self.records.push(record);
        }
        ok
    }

    /// Number of records so far (before merging repeated moves).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The book: records sorted by lock and move, repeated moves merged.
    pub fn build(mut self) -> Book {
        self.records.sort_by_key(|r| (r.lock, r.mv));
        let mut out: Vec<Record> = Vec::with_capacity(self.records.len());
        for r in self.records {
            match out.last_mut() {
                Some(last) if last.lock == r.lock && last.mv == r.mv => {
                    last.weight = last.weight.saturating_add(r.weight);
                }
                _ => out.push(r),
            }
        }
        Book { records: out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rc4_matches_the_published_test_vector() {
        // The published vector: key "Key" enciphers "Plaintext" as
        // BB F3 16 E8 D9 40 AF 0A D3. The keystream code is the engine's;
        // the keyed schedule below differs from `zero_key` only by adding
        // the key bytes. (The zero key itself is checked against
        // ElephantEye's own book in tests/book.rs.)
        fn keyed(key: &[u8]) -> Rc4 {
            let mut s = [0u8; 256];
            for (i, v) in s.iter_mut().enumerate() {
                *v = i as u8;
            }
            let mut j = 0u8;
            for i in 0..256 {
                j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
                s.swap(i, j as usize);
            }
            Rc4 { s, i: 0, j: 0 }
        }
        let mut rc4 = keyed(b"Key");
        let out: Vec<u8> = b"Plaintext".iter().map(|p| p ^ rc4.next_byte()).collect();
        assert_eq!(out, [0xbb, 0xf3, 0x16, 0xe8, 0xd9, 0x40, 0xaf, 0x0a, 0xd3]);
        // The zero-key schedule is the keyed one with key [0; 4].
        let (mut a, mut b) = (keyed(&[0; 4]), Rc4::zero_key());
        for _ in 0..1000 {
            assert_eq!(a.next_byte(), b.next_byte());
        }
    }

    #[test]
    fn move_codes_round_trip() {
        for from in Square::all() {
            for to in Square::all().filter(|&t| t != from) {
                let m = Move::new(from, to);
                assert_eq!(decode_move(encode_move(m)), Some(m));
            }
        }
        // h2e2: h2 is column 10, row 10; e2 is column 7, row 10.
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(encode_move(m), 0xaa | 0xa7 << 8);
        assert_eq!(decode_move(0), None);
        assert_eq!(decode_move(0xaaaa), None, "same square twice");
        assert_eq!(decode_move(0x3233), None, "column 2 is off the board");
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(Book::from_bytes(&[]), Ok(Book::default()));
        assert_eq!(
            Book::from_bytes(&[0; 9]),
            Err(BookError::Truncated { len: 9 })
        );
        let good = Record {
            lock: 5,
            mv: encode_move(Move::parse_iccs("h2e2").unwrap()),
            weight: 1,
        };
        let bytes: Vec<u8> = [good, Record { lock: 4, ..good }]
            .iter()
            .flat_map(|r| r.to_bytes())
            .collect();
        assert_eq!(
            Book::from_bytes(&bytes),
            Err(BookError::Unsorted {
                index: 1,
                lock: 4,
                previous: 5
            })
        );
        let bytes: Vec<u8> = [good, Record { mv: 0, ..good }]
            .iter()
            .flat_map(|r| r.to_bytes())
            .collect();
        assert_eq!(
            Book::from_bytes(&bytes),
            Err(BookError::BadMove { index: 1, raw: 0 })
        );
    }

    #[test]
    fn builder_sorts_merges_and_refuses_illegal_moves() {
        let start = Position::startpos();
        let mut b = BookBuilder::new();
        let h2e2 = Move::parse_iccs("h2e2").unwrap();
        let b2e2 = Move::parse_iccs("b2e2").unwrap();
        b.add(&start, h2e2, 3).unwrap();
        b.add(&start, b2e2, 3).unwrap();
        b.add(&start, h2e2, 65535).unwrap();
        assert!(b.add(&start, Move::parse_iccs("a0a5").unwrap(), 1).is_err());
        let book = b.build();
        assert_eq!(book.len(), 2);
        assert_eq!(book.probe(&start), vec![(h2e2, 65535), (b2e2, 3)]);
        assert_eq!(Book::from_bytes(&book.to_bytes()), Ok(book));
    }
}
