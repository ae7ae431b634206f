//! The FEN and move-text parsers never panic, whatever they are fed: arbitrary
//! Unicode, and near-miss FENs built from FEN's own alphabet (which reach the
//! deeper validation paths). Whatever they accept must be a sound position,
//! and the lenient FEN reader accepts the same positions as the strict one
//! wherever the strict one accepts.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use xiangqi::perft::perft;
use xiangqi::{Move, Position, START_FEN};

fn config() -> Config {
    Config {
        cases: if cfg!(debug_assertions) {
            2_000
        } else {
            20_000
        },
        rng_seed: RngSeed::Fixed(0xC4A7_1075),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Checks a position the parser accepted.
fn sound(pos: &mut Position) {
    assert!(pos.check_consistency().is_ok());
    let fen = pos.to_fen();
    assert_eq!(Position::from_fen(&fen).as_ref(), Ok(&*pos), "{fen}");
    // Its moves can be played and taken back.
    perft(pos, 2);
    assert_eq!(pos.to_fen(), fen);
}

/// Feeds `s` to both FEN readers and checks what they accept.
fn read_fen(s: &str) {
    let strict = Position::from_fen(s);
    let lenient = Position::from_fen_lenient(s);
    match (strict, lenient) {
        (Ok(mut pos), Ok(read)) => {
            assert_eq!(read.position, pos, "{s:?}");
            assert!(read.ignored.is_empty(), "{s:?}");
            sound(&mut pos);
        }
        (Ok(_), Err(e)) => panic!("{s:?}: strict accepted, lenient refused: {e}"),
        (Err(_), Ok(mut read)) => {
            assert!(!read.ignored.is_empty(), "{s:?}: lenient accepted more");
            sound(&mut read.position);
        }
        (Err(_), Err(e)) => assert!(!e.to_string().is_empty()),
    }
}

/// Strings over FEN's alphabet, shaped like a FEN.
fn fen_like() -> impl Strategy<Value = String> {
    let rank = proptest::string::string_regex("[KABNRCPEHkabnrcpeh1-9x0]{0,10}").expect("regex");
    let board = proptest::collection::vec(rank, 8..12).prop_map(|r| r.join("/"));
    let tail = proptest::string::string_regex(
        "( [wrbWRBx-]{1,2}( - -( -?[0-9]{1,25}){0,3}( -| [0-9]{1,3}| [a-j][0-9][a-j][0-9]){0,5})?)?\r?",
    )
    .expect("regex");
    (board, tail).prop_map(|(b, t)| format!("{b}{t}"))
}

/// Start-position FEN with a few characters replaced.
fn mutated_start() -> impl Strategy<Value = String> {
    proptest::collection::vec((0..START_FEN.len(), any::<char>()), 1..4).prop_map(|edits| {
        let mut chars: Vec<char> = START_FEN.chars().collect();
        for (i, c) in edits {
            chars[i] = c;
        }
        chars.into_iter().collect()
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fen_parser_never_panics_on_any_string(s in any::<String>()) {
        read_fen(&s);
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_strings(s in fen_like()) {
        read_fen(&s);
    }

    #[test]
    fn fen_parser_never_panics_on_mutated_start(s in mutated_start()) {
        read_fen(&s);
    }

    #[test]
    fn move_parser_never_panics(s in any::<String>()) {
        let _ = Move::parse_iccs(&s);
        let pos = Position::startpos();
        if let Ok(m) = pos.parse_move(&s) {
            prop_assert!(pos.is_legal(m));
        }
    }

    #[test]
    fn move_parser_on_move_shaped_text(s in "[a-jA-J][0-9:][a-jA-J][0-9:] ?") {
        let pos = Position::startpos();
        match pos.parse_move(&s) {
            Ok(m) => prop_assert!(pos.legal_moves().contains(&m)),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn raw_moves_decode_safely(raw in any::<u16>()) {
        if let Some(m) = Move::from_raw(raw) {
            prop_assert_eq!(m.raw(), raw);
            let _ = Position::startpos().is_legal(m);
        }
    }
}
