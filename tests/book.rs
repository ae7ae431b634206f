//! Opening books in ElephantEye's format (src/book/format.rs), against
//! ElephantEye's own book: the known answers of
//! `../shared/fixtures/README.md`, a walk over every position the book
//! reaches compared with an independent lookup written from the format's
//! description, write-back round trips, and the reader on random, truncated
//! and mutated bytes. Tests that need the fixture print a message and pass
//! when it is absent; the property tests fall back to a book built here.

use chariot::book::{
    self, decode_move, encode_move, lock, lock0, mirror_move, mirrored_lock, Book, BookBuilder,
    BookError, Record, RECORD_BYTES,
};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use xiangqi::{Move, Position};

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/eleeye-BOOK.DAT")
}

/// The fixture's bytes, or `None` with a message saying the test is skipped.
fn fixture_bytes(test: &str) -> Option<Vec<u8>> {
    let path = fixture_path();
    match std::fs::read(&path) {
        Ok(b) => Some(b),
        Err(e) => {
            println!(
                "SKIPPED {test}: ElephantEye's book is not at {} ({e})",
                path.display()
            );
            None
        }
    }
}

fn fixture(test: &str) -> Option<(Vec<u8>, Book)> {
    let bytes = fixture_bytes(test)?;
    let book = Book::from_bytes(&bytes).expect("ElephantEye's book reads");
    Some((bytes, book))
}

fn mv(s: &str) -> Move {
    Move::parse_iccs(s).expect("test move text")
}

fn fen(s: &str) -> Position {
    Position::from_fen(s).expect("test FEN")
}

fn show(moves: &[(Move, u16)]) -> String {
    let v: Vec<String> = moves.iter().map(|(m, w)| format!("{m}:{w}")).collect();
    v.join(" ")
}

// ---------------------------------------------------------------------------
// An independent lookup, written from the fixture README's description: its
// own RC4, its own 16x16 board read from the FEN, ElephantEye's binary
// search over the raw bytes and its bubble sort. Only legality comes from
// the rules crate.

struct Reference {
    /// lock1 by piece type 0-13 and 16x16 square.
    table: Vec<[u32; 256]>,
    side: u32,
}

impl Reference {
    fn new() -> Reference {
        let mut s: Vec<u8> = (0..=255).collect();
        let mut j = 0usize;
        for i in 0..256 {
            j = (j + s[i] as usize) % 256;
            s.swap(i, j);
        }
        let (mut x, mut y) = (0usize, 0usize);
        let mut next = move || {
            let mut v = 0u32;
            for k in 0..4 {
                x = (x + 1) % 256;
                y = (y + s[x] as usize) % 256;
                s.swap(x, y);
                v |= (s[(s[x] as usize + s[y] as usize) % 256] as u32) << (8 * k);
            }
            v
        };
        let mut triple = || {
            let _key = next();
            let _lock0 = next();
            next()
        };
        let side = triple();
        let mut table = vec![[0u32; 256]; 14];
        for row in table.iter_mut() {
            for v in row.iter_mut() {
                *v = triple();
            }
        }
        Reference { table, side }
    }

    /// lock1 from the FEN text alone.
    fn lock(&self, fen: &str) -> u32 {
        let mut fields = fen.split_whitespace();
        let board = fields.next().expect("board field");
        let black = fields.next() == Some("b");
        let mut lock = if black { self.side } else { 0 };
        for (row, text) in board.split('/').enumerate() {
            let mut col = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    col += d as usize;
                    continue;
                }
                let kind = "KABNRCP"
                    .find(c.to_ascii_uppercase())
                    .expect("piece letter");
                let t = kind + if c.is_ascii_lowercase() { 7 } else { 0 };
                lock ^= self.table[t][(col + 3) + 16 * (row + 3)];
                col += 1;
            }
        }
        lock
    }

    fn decode(raw: u16) -> Option<Move> {
        let sq = |v: u16| {
            let (x, y) = ((v & 15) as usize, (v >> 4) as usize);
            ((3..=11).contains(&x) && (3..=12).contains(&y))
                .then(|| xiangqi::Square::new(x - 3, 9 - (y - 3)))
        };
        let (from, to) = (sq(raw & 0xff)?, sq(raw >> 8)?);
        (from != to).then(|| Move::new(from, to))
    }

    /// ElephantEye's `GetBookMoves`, step by step.
    fn lookup(&self, bytes: &[u8], pos: &Position) -> Vec<(Move, u16)> {
        let n = bytes.len() / 8;
        let rec = |i: usize| {
            let b = &bytes[8 * i..8 * i + 8];
            (
                u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                u16::from_le_bytes([b[4], b[5]]),
                u16::from_le_bytes([b[6], b[7]]),
            )
        };
        let mut scan = pos.clone();
        for pass in 0..2 {
            let target = self.lock(&scan.to_fen());
            let (mut lo, mut hi) = (0i64, n as i64 - 1);
            let mut found = None;
            while lo <= hi {
                let mid = (lo + hi) / 2;
                let l = rec(mid as usize).0;
                if l < target {
                    lo = mid + 1;
                } else if l > target {
                    hi = mid - 1;
                } else {
                    found = Some(mid as usize);
                    break;
                }
            }
            if let Some(mut i) = found {
                while i > 0 && rec(i - 1).0 == target {
                    i -= 1;
                }
                let mut out = Vec::new();
                while i < n && rec(i).0 == target {
                    let (_, raw, w) = rec(i);
                    if let Some(m) = Reference::decode(raw).filter(|&m| scan.is_legal(m)) {
                        let m = if pass == 0 {
                            m
                        } else {
                            Move::new(m.from().flip_file(), m.to().flip_file())
                        };
                        out.push((m, w));
                    }
                    i += 1;
                }
                for a in 0..out.len().saturating_sub(1) {
                    for b in (a + 1..out.len()).rev() {
                        if out[b - 1].1 < out[b].1 {
                            out.swap(b - 1, b);
                        }
                    }
                }
                return out;
            }
            scan = scan.file_mirrored();
        }
        Vec::new()
    }
}

// ---------------------------------------------------------------------------
// Known answers

/// The fixture README's table: ElephantEye's own lookup in its own book.
const KNOWN_ANSWERS: [(&str, &str); 5] = [
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "b2e2:1473 h2e2:1473 c3c4:546 g3g4:546 c0e2:311 g0e2:311 b0c2:89 h0g2:89 h2d2:42 \
         b2f2:42 b2d2:37 h2f2:37 b0a2:18 h0i2:18 h2c2:2 b2g2:2",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "h9g7:761 b9c7:172 h7e7:97 b7e7:1",
    ),
    (
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        "h0g2:955 g3g4:61 c3c4:3",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - 0 1",
        "h7g7:149 c6c5:57 b9c7:50 g9e7:24 b7e7:4 b7g7:2 h9i7:2",
    ),
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "",
    ),
];

#[test]
fn known_answers_of_elephanteye() {
    let Some((bytes, book)) = fixture("known_answers_of_elephanteye") else {
        return;
    };
    let reference = Reference::new();
    for (f, expected) in KNOWN_ANSWERS {
        let pos = fen(f);
        let got = book.probe(&pos);
        assert_eq!(show(&got), expected, "probe of {f}");
        // The independent lookup agrees, so the README's answers pin both.
        assert_eq!(show(&reference.lookup(&bytes, &pos)), expected, "{f}");
        assert_eq!(lock(&pos), reference.lock(f), "lock of {f}");
    }
}

#[test]
fn the_fixture_has_the_expected_shape() {
    let Some((bytes, book)) = fixture("the_fixture_has_the_expected_shape") else {
        return;
    };
    assert_eq!(bytes.len(), 96_648);
    assert_eq!(book.len(), 12_081);
    println!(
        "ElephantEye's book: {} records, {} positions",
        book.len(),
        book.positions()
    );
}

// ---------------------------------------------------------------------------
// The whole reachable book

/// Every position reachable from the start by book moves (probing as the
/// engine will), breadth first, with its ply.
fn reachable(book: &Book) -> Vec<(Position, usize)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut queue = VecDeque::from([(Position::startpos(), 0usize)]);
    seen.insert(Position::startpos().key());
    while let Some((pos, ply)) = queue.pop_front() {
        let moves = book.probe(&pos);
        if moves.is_empty() {
            continue;
        }
        for &(m, _) in &moves {
            let mut next = pos.clone();
            next.make_move(m);
            next.clear_history();
            if seen.insert(next.key()) {
                queue.push_back((next, ply + 1));
            }
        }
        out.push((pos, ply));
    }
    out
}

#[test]
fn every_reachable_position_probes_consistently() {
    let Some((bytes, book)) = fixture("every_reachable_position_probes_consistently") else {
        return;
    };
    let reference = Reference::new();
    let positions = reachable(&book);
    let locks: HashSet<u32> = book.records().iter().map(|r| r.lock).collect();
    let mut covered: HashSet<u32> = HashSet::new();
    let (mut mirrored_lookups, mut both_stored, mut max_ply) = (0, 0, 0);
    let mut smaller_stored = 0;
    for (pos, ply) in &positions {
        max_ply = max_ply.max(*ply);
        let moves = book.probe(pos);
        // Same answer as ElephantEye's procedure, done independently.
        assert_eq!(
            moves,
            reference.lookup(&bytes, pos),
            "position {}",
            pos.to_fen()
        );
        for &(m, _) in &moves {
            assert!(pos.is_legal(m));
        }
        // Weights heaviest first.
        assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));

        // The mirror image gets the mirrored moves, in the same order,
        // unless the book stores both orientations separately.
        let mirror = pos.file_mirrored();
        let (l, lm) = (lock(pos), lock(&mirror));
        assert_eq!(mirrored_lock(pos), lm);
        let mirrored: Vec<(Move, u16)> = moves.iter().map(|&(m, w)| (mirror_move(m), w)).collect();
        if l == lm {
            // A symmetric position: its move list is its own mirror image.
            let mut a = moves.clone();
            let mut b = mirrored.clone();
            a.sort_by_key(|&(m, w)| (m.raw(), w));
            b.sort_by_key(|&(m, w)| (m.raw(), w));
            assert_eq!(a, b, "symmetric position {}", pos.to_fen());
        } else if locks.contains(&l) && locks.contains(&lm) {
            both_stored += 1;
        } else {
            assert_eq!(book.probe(&mirror), mirrored, "mirror of {}", pos.to_fen());
        }
        if !locks.contains(&l) {
            mirrored_lookups += 1;
            covered.insert(lm);
        } else {
            covered.insert(l);
        }
        // ElephantEye's book maker stores the orientation with the smaller
        // (lock1, lock0).
        let stored_is_smaller = if locks.contains(&l) {
            (l, lock0(pos)) <= (lm, lock0(&mirror))
        } else {
            (lm, lock0(&mirror)) <= (l, lock0(pos))
        };
        if stored_is_smaller {
            smaller_stored += 1;
        }
    }
    let records_covered: usize = covered.iter().map(|&l| book.entries(l).len()).sum();
    println!(
        "{} reachable positions (deepest at ply {max_ply}), {mirrored_lookups} found through \
         the mirror, {both_stored} with both orientations stored, {smaller_stored} stored in \
         the orientation with the smaller lock; {} of {} locks and {records_covered} of {} \
         records reached",
        positions.len(),
        covered.len(),
        book.positions(),
        book.len()
    );
    // Derived from the walk (the numbers it printed when this was written):
    // the book is a tree of openings hanging off the start position; every
    // reachable position is stored once, in the orientation with the
    // smaller lock.
    assert_eq!(both_stored, 0);
    assert_eq!(smaller_stored, positions.len());
    assert!(positions.len() > 1000, "{} positions", positions.len());
}

#[test]
fn symmetric_positions_weigh_mirror_moves_alike() {
    // ElephantEye's maker credits a move and its mirror image alike in a
    // symmetric position, so their weights are equal (as the start
    // position's b2e2/h2e2 pair shows).
    let Some((_, book)) = fixture("symmetric_positions_weigh_mirror_moves_alike") else {
        return;
    };
    let mut symmetric = 0;
    for (pos, _) in reachable(&book) {
        if lock(&pos) != lock(&pos.file_mirrored()) {
            continue;
        }
        symmetric += 1;
        let moves: HashMap<Move, u16> = book.probe(&pos).into_iter().collect();
        for (&m, &w) in &moves {
            assert_eq!(
                moves.get(&mirror_move(m)),
                Some(&w),
                "{m} in {}",
                pos.to_fen()
            );
        }
    }
    println!("{symmetric} symmetric positions checked");
    assert!(symmetric >= 1);
}

#[test]
fn stored_moves_that_are_illegal_are_dropped() {
    // Two records of the book are illegal in the positions found under
    // their locks: hash collisions or damaged records. Both lookups drop
    // them.
    let Some((bytes, book)) = fixture("stored_moves_that_are_illegal_are_dropped") else {
        return;
    };
    let reference = Reference::new();

    // Found by a walk trying every move of the positions outside the book
    // that book moves lead to: the lock of this position holds one record,
    // b4b7, and b4 is empty. With no legal move left, the position is not
    // in the book. (`chariot-tools book stats` makes that walk and takes
    // this for a collision, as it has no legal book move.)
    let f = "r1bakab2/8r/1cn1c1n2/p1p1p1p1p/9/6P2/P1P1P3P/1C4N2/4C4/RNBAKABR1 b - - 9 5";
    let pos = fen(f);
    let stored: Vec<Record> = book.entries(lock(&pos)).to_vec();
    assert_eq!(stored.len(), 1);
    assert_eq!(decode_move(stored[0].mv), Some(mv("b4b7")));
    assert!(!pos.is_legal(mv("b4b7")));
    assert!(book.probe(&pos).is_empty());
    assert!(reference.lookup(&bytes, &pos).is_empty());

    // Found by a wider walk (two positions outside the book allowed): this
    // position is found through its mirror image, whose lock holds d1d6:1
    // and h0h4:2. Mirrored back, d1d6 is f1f6 (legal) and h0h4 is b0b4,
    // which is not (no piece on b0).
    let f = "r1bakabr1/4n4/1c4n1c/p1p1p3p/6p2/1CP6/P3P1P1P/2N1C1N2/R4R3/2BAKAB2 w - - 16 9";
    let pos = fen(f);
    assert!(book.entries(lock(&pos)).is_empty());
    let stored: Vec<(Move, u16)> = book
        .entries(mirrored_lock(&pos))
        .iter()
        .map(|r| (decode_move(r.mv).expect("valid code"), r.weight))
        .collect();
    assert_eq!(show(&stored), "d1d6:1 h0h4:2");
    assert!(!pos.is_legal(mv("b0b4")));
    assert_eq!(show(&book.probe(&pos)), "f1f6:1");
    assert_eq!(show(&reference.lookup(&bytes, &pos)), "f1f6:1");
}

#[test]
fn mirrored_known_answers() {
    // Derived answers: the README's positions mirrored left to right give
    // the mirrored moves with the same weights.
    let Some((_, book)) = fixture("mirrored_known_answers") else {
        return;
    };
    for (f, _) in KNOWN_ANSWERS {
        let pos = fen(f);
        let mirror = pos.file_mirrored();
        let expected: Vec<(Move, u16)> = book
            .probe(&pos)
            .into_iter()
            .map(|(m, w)| (mirror_move(m), w))
            .collect();
        let mut got = book.probe(&mirror);
        let mut expected_sorted = expected.clone();
        if lock(&pos) == lock(&mirror) {
            // Symmetric: the same set; order of equal weights may differ.
            got.sort_by_key(|&(m, w)| (std::cmp::Reverse(w), m.raw()));
            expected_sorted.sort_by_key(|&(m, w)| (std::cmp::Reverse(w), m.raw()));
        }
        assert_eq!(got, expected_sorted, "mirror of {f}");
    }
    // One spelled out: after the mirrored central cannon b2e2, Black's
    // mirrored answers.
    let after = fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR b - - 1 1");
    assert_eq!(
        show(&book.probe(&after)),
        "b9c7:761 h9g7:172 b7e7:97 h7e7:1"
    );
}

// ---------------------------------------------------------------------------
// Writing

#[test]
fn the_fixture_writes_back_byte_for_byte() {
    let Some((bytes, book)) = fixture("the_fixture_writes_back_byte_for_byte") else {
        return;
    };
    // Read and written unchanged.
    assert_eq!(book.to_bytes(), bytes);

    // Rebuilt by the builder from its records in random order: the builder
    // sorts by lock then move code, as ElephantEye's maker did, so the
    // bytes are identical.
    let mut records = book.records().to_vec();
    records.shuffle(&mut StdRng::seed_from_u64(7));
    let mut builder = BookBuilder::new();
    for r in records {
        assert!(builder.add_record(r));
    }
    assert_eq!(builder.build().to_bytes(), bytes);
}

#[test]
fn the_reachable_book_rebuilt_from_positions_probes_identically() {
    let Some((_, book)) = fixture("the_reachable_book_rebuilt_from_positions_probes_identically")
    else {
        return;
    };
    // Rebuild from positions and moves (what a book maker has): for every
    // reachable position, add the stored orientation's moves with their
    // weights through `BookBuilder::add`.
    let positions = reachable(&book);
    let locks: HashSet<u32> = book.records().iter().map(|r| r.lock).collect();
    let mut builder = BookBuilder::new();
    let mut done = HashSet::new();
    for (pos, _) in &positions {
        let stored = if locks.contains(&lock(pos)) {
            pos.clone()
        } else {
            pos.file_mirrored()
        };
        if !done.insert(lock(&stored)) {
            continue;
        }
        for r in book.entries(lock(&stored)) {
            let m = decode_move(r.mv).expect("valid code");
            builder
                .add(&stored, m, r.weight)
                .expect("book move is legal");
        }
    }
    let rebuilt = Book::from_bytes(&builder.build().to_bytes()).expect("rebuilt book reads");
    for (pos, _) in &positions {
        assert_eq!(rebuilt.probe(pos), book.probe(pos), "{}", pos.to_fen());
        let mirror = pos.file_mirrored();
        assert_eq!(rebuilt.probe(&mirror), book.probe(&mirror));
    }
    // The records it holds are exactly the fixture's records under those
    // locks, in the same order.
    let expected: Vec<Record> = book
        .records()
        .iter()
        .filter(|r| done.contains(&r.lock))
        .copied()
        .collect();
    assert_eq!(rebuilt.records(), &expected[..]);
    println!(
        "rebuilt {} of {} records from {} positions: identical records and probes",
        rebuilt.len(),
        book.len(),
        done.len()
    );
}

/// A book built here from seeded random playouts, so that the property
/// tests run without the fixture: its bytes and the lines it was built
/// from.
fn synthetic_book() -> (Vec<u8>, Vec<Vec<Move>>) {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut builder = BookBuilder::new();
    let mut lines = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::startpos();
        let mut line = Vec::new();
        for _ in 0..12 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            builder
                .add(&pos, m, rng.random_range(1..=u16::MAX))
                .expect("legal");
            pos.make_move(m);
            line.push(m);
        }
        lines.push(line);
    }
    (builder.build().to_bytes(), lines)
}

fn sample_bytes() -> Vec<u8> {
    std::fs::read(fixture_path()).unwrap_or_else(|_| synthetic_book().0)
}

#[test]
fn a_synthetic_book_probes_what_was_added() {
    let (bytes, lines) = synthetic_book();
    let book = Book::from_bytes(&bytes).expect("synthetic book reads");
    let reference = Reference::new();
    for line in &lines {
        let mut pos = Position::startpos();
        for &m in line {
            let moves = book.probe(&pos);
            assert!(
                moves.iter().any(|&(b, _)| b == m),
                "{m} in {}",
                pos.to_fen()
            );
            assert_eq!(moves, reference.lookup(&bytes, &pos));
            pos.make_move(m);
        }
    }
}

// ---------------------------------------------------------------------------
// The reader on bad input: typed errors, never a panic

/// What a correct reader must say about `bytes`, worked out independently.
fn expected_verdict(bytes: &[u8]) -> Result<(), BookError> {
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(BookError::Truncated { len: bytes.len() });
    }
    let mut previous = None;
    for (index, c) in bytes.chunks_exact(8).enumerate() {
        let lock = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let raw = u16::from_le_bytes([c[4], c[5]]);
        if let Some(p) = previous {
            if lock < p {
                return Err(BookError::Unsorted {
                    index,
                    lock,
                    previous: p,
                });
            }
        }
        if Reference::decode(raw).is_none() {
            return Err(BookError::BadMove { index, raw });
        }
        previous = Some(lock);
    }
    Ok(())
}

/// Reads `bytes`, checks the verdict, and when it is a book probes a few
/// positions: only legal moves come back.
fn check_reader(bytes: &[u8]) {
    let result = Book::from_bytes(bytes);
    assert_eq!(
        result.as_ref().err(),
        expected_verdict(bytes).as_ref().err()
    );
    match result {
        Ok(book) => {
            assert_eq!(book.to_bytes(), bytes);
            let mut pos = Position::startpos();
            for _ in 0..4 {
                let moves = book.probe(&pos);
                assert!(moves.iter().all(|&(m, _)| pos.is_legal(m)));
                let Some(&(m, _)) = moves.first() else { break };
                pos.make_move(m);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    check_engine_loading(bytes);
}

/// The engine's book loading path on `bytes` (as a `bookfiles` list of
/// that file then a good one): it takes the bytes if and only if they are
/// a book, says why in one line naming the file when not, loads the good
/// book either way, and then answers `go` with a legal move.
fn check_engine_loading(bytes: &[u8]) {
    use chariot::engine::{Engine, Event, GoRequest, Notify, Output};
    use std::sync::mpsc::channel;
    use std::sync::{Arc, Mutex};
    let (tx, rx) = channel();
    let tx = Mutex::new(tx);
    let notify: Notify = Arc::new(move |e| {
        let _ = tx.lock().map(|t| t.send(e));
    });
    let mut engine = Engine::new(1, notify);
    let mut good = BookBuilder::new();
    good.add(&Position::startpos(), mv("h2e2"), 1)
        .expect("legal");
    let errors = engine.set_book_files(vec![
        ("fuzz.dat".to_string(), Ok(bytes.to_vec())),
        ("good.dat".to_string(), Ok(good.build().to_bytes())),
    ]);
    let is_book = !bytes.is_empty() && Book::from_bytes(bytes).is_ok();
    if is_book {
        assert_eq!(errors, Vec::<String>::new());
    } else {
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("'fuzz.dat' not loaded: "),
            "{errors:?}"
        );
        assert!(!errors[0].contains('\n'), "{errors:?}");
    }
    let names: Vec<&str> = engine.books().iter().map(|b| b.name.as_str()).collect();
    let want: &[&str] = if is_book {
        &["fuzz.dat", "good.dat"]
    } else {
        &["good.dat"]
    };
    assert_eq!(names, want);
    let mut out = engine.go(GoRequest {
        limits: chariot::search::Limits {
            depth: Some(1),
            ..Default::default()
        },
        ..GoRequest::default()
    });
    while !out.iter().any(|o| matches!(o, Output::BestMove(_))) {
        let ev = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the search answers");
        if let Event::Done(_) = ev {
            out = engine.on_event(ev);
        } else {
            engine.on_event(ev);
        }
    }
    for o in out {
        if let Output::BestMove(b) = o {
            assert!(Position::startpos().is_legal(b.best), "{}", b.best);
        }
    }
}

#[test]
fn the_engine_reports_unreadable_files_and_loads_the_rest() {
    use chariot::engine::{Engine, Notify};
    let notify: Notify = std::sync::Arc::new(|_| {});
    let mut engine = Engine::new(1, notify);
    let errors = engine.set_book_files(vec![
        (
            "gone.dat".to_string(),
            Err("the file does not exist".into()),
        ),
        ("book.dat".to_string(), Ok(synthetic_book().0)),
    ]);
    assert_eq!(errors, ["'gone.dat' not loaded: the file does not exist"]);
    assert_eq!(engine.books().len(), 1);
    // An empty list loads nothing; the default book comes back on request.
    assert_eq!(engine.set_book_files(Vec::new()), Vec::<String>::new());
    assert!(engine.books().is_empty());
    engine.use_default_book();
    assert_eq!(
        engine.books().len(),
        usize::from(chariot::book::BUILTIN_BOOK.is_some())
    );
}

#[test]
fn every_short_truncation_and_every_record_boundary() {
    let bytes = sample_bytes();
    // Every cut within the first records, then a cut at every record
    // boundary and one byte either side of a sample of them.
    for len in 0..=256.min(bytes.len()) {
        check_reader(&bytes[..len]);
    }
    for len in (0..=bytes.len()).step_by(RECORD_BYTES * 97) {
        for l in [len.saturating_sub(1), len, (len + 1).min(bytes.len())] {
            let r = Book::from_bytes(&bytes[..l]);
            if l % RECORD_BYTES == 0 {
                // A prefix of a sorted book is a sorted book.
                assert_eq!(r.map(|b| b.len()), Ok(l / RECORD_BYTES));
            } else {
                assert_eq!(r, Err(BookError::Truncated { len: l }));
            }
        }
    }
}

#[test]
fn move_codes_and_locks_of_the_start_position() {
    let start = Position::startpos();
    assert_eq!(lock(&start), Reference::new().lock(xiangqi::START_FEN));
    assert_eq!(encode_move(mv("h2e2")), 0xa7aa);
    assert_eq!(decode_move(0xa7aa), Some(mv("h2e2")));
    assert_eq!(book::mirror_move(mv("h2e2")), mv("b2e2"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 64 } else { 512 }))]

    #[test]
    fn random_bytes_give_errors_not_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_reader(&bytes);
    }

    #[test]
    fn random_records_sorted_or_not(records in proptest::collection::vec((any::<u32>(), any::<u16>(), any::<u16>()), 0..60), sort in any::<bool>()) {
        let mut records = records;
        if sort {
            records.sort_by_key(|r| r.0);
        }
        let bytes: Vec<u8> = records
            .iter()
            .flat_map(|&(lock, mv, weight)| Record { lock, mv, weight }.to_bytes())
            .collect();
        check_reader(&bytes);
    }

    #[test]
    fn truncated_copies_give_errors_not_panics(cut in any::<prop::sample::Index>()) {
        let bytes = sample_bytes();
        let len = cut.index(bytes.len() + 1);
        check_reader(&bytes[..len]);
    }

    #[test]
    fn mutated_copies_give_errors_not_panics(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8),
        extra in proptest::collection::vec(any::<u8>(), 0..3),
    ) {
        let mut bytes = sample_bytes();
        for (at, x) in &flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        check_reader(&bytes);
        bytes.extend_from_slice(&extra);
        check_reader(&bytes);
    }
}
