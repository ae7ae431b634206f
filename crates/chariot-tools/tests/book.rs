//! `chariot-tools book …` end to end: books built from PGN that
//! chariot-match itself wrote (its `pgn::write_game`), the same games as
//! xqbase-style `[Format "ICCS"]` PGN giving the same bytes, refusals of
//! other notations, and `probe`/`stats` on built, damaged and ElephantEye's
//! books.

mod common;

use chariot::book::{self, Book};
use chariot::xiangqi::{Color, Move, Position};
use chariot_match::game::{EndKind, GameRecord, PlayedMove};
use chariot_match::pgn::{write_game, Tags};
use chariot_tools::book::build::{Collector, Config};
use chariot_tools::book::stats;
use chariot_tools::pgn;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
        .args(args)
        .output()
        .expect("chariot-tools runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Seeded games from chariot-match's bundled openings (book moves marked
/// as such) continued by random moves, with random results.
fn games(seed: u64, n: usize) -> Vec<GameRecord> {
    let openings = chariot_match::openings::load(None).expect("bundled suite");
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let opening = &openings[i % openings.len()];
            let (mut pos, mut moves) = common::after_book(opening);
            for _ in 0..rng.random_range(0..30) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.random_range(0..legal.len())];
                pos.make_move(m);
                moves.push(PlayedMove {
                    mv: m,
                    book: false,
                    score: None,
                    depth: Some(rng.random_range(1..30)),
                    elapsed_ms: rng.random_range(0..5000),
                });
            }
            GameRecord {
                start_fen: opening.fen.clone(),
                opening_name: opening.name.clone(),
                moves,
                winner: [Some(Color::Red), Some(Color::Black), None][rng.random_range(0..3)],
                end: EndKind::Adjudication,
                reason: "test {game}".to_string(),
                fault: None,
            }
        })
        .collect()
}

fn match_pgn(games: &[GameRecord]) -> String {
    let tags = Tags {
        event: "book test",
        site: "here",
        date: "2026.11.23",
        round: "1",
        red: "Chariot",
        black: "Other \"engine\"",
        time_control: ["10+0.1"; 2],
    };
    games.iter().map(|g| write_game(&tags, g)).collect()
}

/// The same games as xqbase-style PGN: `[Format "ICCS"]`, `H2-E2`, CRLF
/// lines, a banner after each result.
fn xqbase_pgn(games: &[GameRecord]) -> String {
    let mut out = String::new();
    for g in games {
        out.push_str("[Game \"Chinese Chess\"]\r\n[Event \"book test\"]\r\n");
        out.push_str(&format!("[Result \"{}\"]\r\n", g.result()));
        out.push_str(&format!(
            "[FEN \"{}\"]\r\n[Format \"ICCS\"]\r\n",
            g.start_fen
        ));
        for (i, m) in g.moves.iter().enumerate() {
            if i % 2 == 0 {
                out.push_str(&format!("{:3}. ", i / 2 + 1));
            }
            let t = m.mv.to_string().to_ascii_uppercase();
            out.push_str(&format!("{}-{} ", &t[..2], &t[2..]));
            if i % 2 == 1 {
                out.push_str("\r\n");
            }
        }
        out.push_str(&format!("\r\n {}\r\n=====\r\n banner 1. x\r\n", g.result()));
    }
    out
}

/// The canonical positions and moves the games visit below `max_ply`,
/// counted independently of the builder: by the Zobrist key of the
/// orientation with the smaller (lock1, lock0), moves mirrored with it.
fn visited(games: &[GameRecord], max_ply: usize) -> HashMap<u64, HashSet<Move>> {
    let mut out: HashMap<u64, HashSet<Move>> = HashMap::new();
    for g in games {
        let mut pos = Position::from_fen(&g.start_fen).expect("FEN");
        for m in g.moves.iter().take(max_ply) {
            let mirror = pos.file_mirrored();
            let a = (book::lock(&pos), book::lock0(&pos));
            let b = (book::lock(&mirror), book::lock0(&mirror));
            let (key, mv) = if a <= b {
                (pos.key(), m.mv)
            } else {
                (mirror.key(), book::mirror_move(m.mv))
            };
            out.entry(key).or_default().insert(mv);
            pos.make_move(m.mv);
        }
    }
    out
}

#[test]
fn a_book_from_chariot_match_pgn() {
    let dir = temp_dir("match");
    let games = games(1, 120);
    let pgn_path = dir.join("games.pgn");
    std::fs::write(&pgn_path, match_pgn(&games)).expect("write PGN");
    let out = dir.join("book.dat");
    let o = tool(&[
        "book",
        "build",
        "--pgn",
        pgn_path.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
        "--max-ply",
        "12",
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("120 games read, 0 skipped"), "{stderr}");

    let bytes = std::fs::read(&out).expect("book written");
    let book = Book::from_bytes(&bytes).expect("a valid book");
    let canonical = visited(&games, 12);
    assert_eq!(book.positions(), canonical.len(), "one entry per position");
    assert!(
        stdout.contains(&format!("{} positions", canonical.len())),
        "{stdout}"
    );

    // Every move of every game below the limit is a book move of its
    // position, in both orientations; nothing else is.
    for g in &games {
        let mut pos = Position::from_fen(&g.start_fen).expect("FEN");
        for m in g.moves.iter().take(12) {
            let moves: Vec<Move> = book.probe(&pos).into_iter().map(|(m, _)| m).collect();
            assert!(moves.contains(&m.mv), "{} in {}", m.mv, pos.to_fen());
            let mirrored: Vec<Move> = book
                .probe(&pos.file_mirrored())
                .into_iter()
                .map(|(m, _)| m)
                .collect();
            assert!(mirrored.contains(&book::mirror_move(m.mv)));
            pos.make_move(m.mv);
        }
    }
    // No position is stored in both orientations.
    let locks: HashSet<u32> = book.records().iter().map(|r| r.lock).collect();
    for g in &games {
        let mut pos = Position::from_fen(&g.start_fen).expect("FEN");
        for m in g.moves.iter().take(12) {
            let (a, b) = (book::lock(&pos), book::mirrored_lock(&pos));
            if a != b {
                assert!(
                    !(locks.contains(&a) && locks.contains(&b)),
                    "{}",
                    pos.to_fen()
                );
            }
            pos.make_move(m.mv);
        }
    }

    // `book stats` finds it sound and reaches every position from the start.
    let s = stats::compute(&bytes);
    assert!(
        s.errors().is_empty() && s.warnings().is_empty(),
        "{:?}",
        s.warnings()
    );
    assert_eq!(s.walk.locks, book.positions());
    assert_eq!(s.walk.records, book.len());
    let o = tool(&["book", "stats", out.to_str().expect("utf-8 path")]);
    let (stdout, _) = text(&o);
    assert!(o.status.success());
    assert!(stdout.contains("sanity: 0 errors, 0 warnings"), "{stdout}");

    // `book probe` prints the moves with weights and shares summing to 100%.
    let o = tool(&[
        "book",
        "probe",
        out.to_str().expect("utf-8 path"),
        "startpos",
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    let moves = book.probe(&Position::startpos());
    assert!(
        stdout.contains(&format!("{} book moves", moves.len())),
        "{stdout}"
    );
    let shares: f64 = stdout
        .lines()
        .filter_map(|l| l.strip_suffix('%'))
        .filter_map(|l| l.split_whitespace().last()?.parse::<f64>().ok())
        .sum();
    assert!((shares - 100.0).abs() < 0.1, "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xqbase_iccs_pgn_gives_the_same_book() {
    let games = games(2, 80);
    let build = |text: &str| {
        let file = pgn::read(text).expect("readable");
        assert!(file.skipped.is_empty(), "{:?}", file.skipped);
        assert_eq!(file.games.len(), games.len());
        let mut c = Collector::new(Config {
            max_ply: 16,
            min_games: 1,
        });
        for g in &file.games {
            c.add_game(g);
        }
        c.finish().0.to_bytes()
    };
    assert_eq!(build(&match_pgn(&games)), build(&xqbase_pgn(&games)));
}

#[test]
fn mirrored_games_give_mirrored_probes() {
    // Games and their mirror images together: every position probes as
    // the mirror of its mirror image.
    let mut games = games(3, 60);
    let mirrored: Vec<GameRecord> = games
        .iter()
        .map(|g| {
            let start = Position::from_fen(&g.start_fen)
                .expect("FEN")
                .file_mirrored();
            let mut g = g.clone();
            g.start_fen = start.to_fen();
            for m in &mut g.moves {
                m.mv = book::mirror_move(m.mv);
            }
            g
        })
        .collect();
    games.extend(mirrored);
    let file = pgn::read(&match_pgn(&games)).expect("readable");
    let mut c = Collector::new(Config {
        max_ply: 10,
        min_games: 1,
    });
    for g in &file.games {
        c.add_game(g);
    }
    let (book, report) = c.finish();
    assert_eq!(report.games, 120);
    for g in &file.games {
        let mut pos = g.start.clone();
        for &m in g.moves.iter().take(10) {
            let a = book.probe(&pos);
            let b: Vec<(Move, u16)> = book
                .probe(&pos.file_mirrored())
                .into_iter()
                .map(|(m, w)| (book::mirror_move(m), w))
                .collect();
            let sorted = |mut v: Vec<(Move, u16)>| {
                v.sort_by_key(|&(m, w)| (m.raw(), w));
                v
            };
            assert_eq!(sorted(a), sorted(b), "{}", pos.to_fen());
            pos.make_move(m);
        }
    }
}

fn build_args<'a>(pgn: &'a Path, out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "book",
        "build",
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn other_notations_are_refused_with_the_file_and_line() {
    let dir = temp_dir("refuse");
    let out = dir.join("book.dat");
    let cases = [
        (
            "chinese.pgn",
            "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n  1. 炮八平五 马２进３\n 0-1\n",
            "line 3: game 1: '炮八平五' is not an ICCS move",
        ),
        (
            "wxf.pgn",
            "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n1. C2.5 H8+7 1-0\n",
            "line 2: [Format \"WXF\"]",
        ),
        ("binary.pgn", "\u{1}\u{2}\u{3}\u{4}", "is not an ICCS move"),
        ("empty.pgn", "\n\n", "no games found"),
    ];
    for (name, content, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, content).expect("write");
        let o = tool(&build_args(&path, &out, &[]));
        let (_, stderr) = text(&o);
        assert!(!o.status.success(), "{name}");
        assert!(stderr.contains(name), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert!(!out.exists(), "{name}: nothing written");
    }
    // GB2312 bytes (not UTF-8), as ElephantEye's league runner writes.
    let path = dir.join("league.pgn");
    let mut bytes = b"[Game \"Chinese Chess\"]\r\n[Red \"".to_vec();
    bytes.extend_from_slice(&[0xcf, 0xe0, 0xd1, 0xdb]);
    bytes.extend_from_slice(b"\"]\r\n[Result \"1-0\"]\r\n  1. ");
    bytes.extend_from_slice(&[0xc5, 0xda, 0xb0, 0xcb, 0xc6, 0xbd, 0xce, 0xe5]);
    bytes.extend_from_slice(b"\r\n 1-0\r\n");
    std::fs::write(&path, bytes).expect("write");
    let o = tool(&build_args(&path, &out, &[]));
    let (_, stderr) = text(&o);
    assert!(!o.status.success());
    assert!(stderr.contains("line 4: game 1:"), "{stderr}");
    assert!(
        stderr.contains("convert Chinese or WXF notation"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn skipped_games_min_games_and_max_ply() {
    let dir = temp_dir("options");
    let path = dir.join("g.pgn");
    std::fs::write(
        &path,
        "[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
         [Result \"1/2-1/2\"]\n1. h2e2 h9g7 2. h0g2 {x} i9h9 1/2-1/2\n\n\
         [Result \"0-1\"]\n1. c3c4 c3c4 0-1\n\n\
         [Result \"*\"]\n1. h2e2 *\n",
    )
    .expect("write");
    let out = dir.join("book.dat");
    let o = tool(&build_args(
        &path,
        &out,
        &["--min-games", "2", "--max-ply", "2"],
    ));
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("skipped game 3 (line 7): move 2 c3c4"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped game 4 (line 10): no result"),
        "{stderr}"
    );
    assert!(stderr.contains("2 games read, 2 skipped"), "{stderr}");
    assert!(stdout.contains("2 positions"), "{stdout}");
    let book = Book::from_bytes(&std::fs::read(&out).expect("book")).expect("valid");
    let mut pos = Position::startpos();
    let moves: Vec<String> = book
        .probe(&pos)
        .iter()
        .map(|(m, _)| m.to_string())
        .collect();
    assert_eq!(moves, ["b2e2", "h2e2"]);
    pos.make_move(Move::parse_iccs("h2e2").expect("move"));
    let moves: Vec<String> = book
        .probe(&pos)
        .iter()
        .map(|(m, _)| m.to_string())
        .collect();
    assert_eq!(moves, ["h9g7"]);
    pos.make_move(Move::parse_iccs("h9g7").expect("move"));
    assert!(book.probe(&pos).is_empty(), "ply 2 is beyond --max-ply 2");

    // --min-games 3: nothing left, an error and no file.
    let out3 = dir.join("book3.dat");
    let o = tool(&build_args(&path, &out3, &["--min-games", "3"]));
    assert!(!o.status.success());
    assert!(text(&o).1.contains("no book moves"));
    assert!(!out3.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_and_probe_on_damaged_books() {
    let dir = temp_dir("damaged");
    let path = dir.join("g.pgn");
    std::fs::write(&path, match_pgn(&games(4, 30))).expect("write");
    let out = dir.join("book.dat");
    assert!(tool(&build_args(&path, &out, &[])).status.success());
    let mut bytes = std::fs::read(&out).expect("book");
    bytes.truncate(bytes.len() - 3);
    let cut = dir.join("cut.dat");
    std::fs::write(&cut, &bytes).expect("write");
    let o = tool(&["book", "stats", cut.to_str().expect("utf-8 path")]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout.contains("error: 5 bytes after the last whole 8-byte record"),
        "{stdout}"
    );
    let o = tool(&[
        "book",
        "probe",
        cut.to_str().expect("utf-8 path"),
        "startpos",
    ]);
    let (_, stderr) = text(&o);
    assert!(!o.status.success());
    assert!(stderr.contains("not a usable book"), "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");

    // Two records swapped: unsorted.
    let mut bytes = std::fs::read(&out).expect("book");
    let n = bytes.len() / 8;
    let (a, b) = (0, n - 1);
    for i in 0..8 {
        bytes.swap(8 * a + i, 8 * b + i);
    }
    let swapped = dir.join("swapped.dat");
    std::fs::write(&swapped, &bytes).expect("write");
    let o = tool(&["book", "stats", swapped.to_str().expect("utf-8 path")]);
    let (stdout, _) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout.contains("records out of lock order"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn probe_and_stats_on_elephanteyes_book() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/eleeye-BOOK.DAT");
    if !path.exists() {
        println!(
            "SKIPPED probe_and_stats_on_elephanteyes_book: no book at {}",
            path.display()
        );
        return;
    }
    let p = path.to_str().expect("utf-8 path");
    let o = tool(&[
        "book",
        "probe",
        p,
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR",
        "w",
    ]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert_eq!(
        stdout,
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1\n\
         3 book moves\n\
         move   weight   share\n\
         h0g2      955   93.72%\n\
         g3g4       61    5.99%\n\
         c3c4        3    0.29%\n"
    );
    let o = tool(&["book", "stats", p]);
    let (stdout, _) = text(&o);
    assert!(o.status.success(), "{stdout}");
    assert!(stdout.contains("96648 bytes, 12081 records"), "{stdout}");
    assert!(
        stdout.contains("positions (distinct locks): 10841"),
        "{stdout}"
    );
    assert!(stdout.contains("sanity: 0 errors, 0 warnings"), "{stdout}");
    assert!(
        stdout.contains("5985 of 10841 locks and 7124 of 12081 records checked"),
        "{stdout}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The PGN reader on arbitrary text, and on valid PGN with bytes
    /// changed: a format error or games, never a panic; every game it
    /// returns replays legally.
    #[test]
    fn the_pgn_reader_never_panics(
        noise in "\\PC{0,300}",
        edits in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), proptest::prelude::any::<char>()), 0..6),
    ) {
        let _ = pgn::read(&noise);
        let mut chars: Vec<char> = match_pgn(&games(5, 3)).chars().collect();
        for (at, c) in edits {
            let i = at.index(chars.len());
            chars[i] = c;
        }
        let text: String = chars.into_iter().collect();
        if let Ok(file) = pgn::read(&text) {
            for g in &file.games {
                let mut pos = g.start.clone();
                for &m in &g.moves {
                    proptest::prop_assert!(pos.is_legal(m));
                    pos.make_move(m);
                }
            }
        }
    }
}
