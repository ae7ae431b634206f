//! Helpers shared by the engine's integration tests: the rules core's slow
//! reference and random positions, a one-call search, a script piped into
//! the compiled engine, and the legality check of its answers.
#![allow(dead_code)]

#[path = "../../crates/xiangqi/tests/common/mod.rs"]
mod reference;

#[allow(unused_imports)]
pub use reference::*;

use chariot::eval::Knowledge;
use chariot::search::{self, Job, Limits, Outcome, Selectivity, Shared, Tables, SEARCH_STACK};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::{Move, Position};

/// Searches `pos` as the engine does for one `go`: the built-in evaluation,
/// one thread, fresh 16 MB tables, no time limit unless `limits` sets one,
/// on a thread with the engine's search stack.
pub fn search_with(pos: &Position, limits: Limits) -> Outcome {
    search_styled(pos, limits, Selectivity::FULL, Knowledge::Full)
}

/// [`search_with`] with these cuts and this much evaluation knowledge.
pub fn search_styled(
    pos: &Position,
    limits: Limits,
    selectivity: Selectivity,
    knowledge: Knowledge,
) -> Outcome {
    let tables = Arc::new(Tables::new(16));
    // Lighter knowledge is the classical evaluation's (the search drops the
    // net for it).
    let net = chariot::eval::nets::builtin_net();
    let job = Job {
        selectivity,
        knowledge,
        ..Job::new(pos.clone(), pos.legal_moves().to_vec(), limits, tables, net)
    };
    std::thread::Builder::new()
        .stack_size(SEARCH_STACK)
        .spawn(move || search::search(job, &Shared::default(), Instant::now(), &mut |_| {}))
        .expect("spawn the search thread")
        .join()
        .expect("the search panicked")
}

/// Longest a script may take before the test calls it hung.
const HANG: Duration = Duration::from_secs(120);

/// What a piped run printed, how it ended, and how long it took after its
/// input was closed.
pub struct Piped {
    pub stdout: Vec<String>,
    pub stderr: String,
    pub code: i32,
    pub after_eof: Duration,
}

/// Pipes `script` into a fresh engine process (the compiled `chariot`),
/// closes its input, and waits for it to exit.
pub fn pipe(script: &[u8]) -> Piped {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn chariot");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).expect("read stdout");
        text
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stderr.read_to_end(&mut bytes).expect("read stderr");
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script).expect("write the script");
    drop(stdin);
    let closed = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code().unwrap_or(-1);
        }
        if closed.elapsed() > HANG {
            let _ = child.kill();
            panic!("the engine hung on its script");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let after_eof = closed.elapsed();
    Piped {
        stdout: out
            .join()
            .expect("stdout thread")
            .lines()
            .map(str::to_string)
            .collect(),
        stderr: err.join().expect("stderr thread"),
        code,
        after_eof,
    }
}

/// Checks a `bestmove` line is a legal move in `pos` (and its ponder move
/// legal after it); returns the move.
pub fn assert_legal(line: &str, pos: &Position) -> Move {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{line}");
    let m = pos
        .parse_move(words[1])
        .unwrap_or_else(|e| panic!("'{line}' in {}: {e}", pos.to_fen()));
    if let Some(i) = words.iter().position(|w| *w == "ponder") {
        let mut after = pos.clone();
        after.make_move(m);
        after
            .parse_move(words[i + 1])
            .unwrap_or_else(|e| panic!("ponder move of '{line}': {e}"));
    }
    m
}
