//! The protocol as clients use it: the compiled binary is spawned and driven
//! over pipes, with timeouts. Every `bestmove` is checked for legality in the
//! position it answers. Timeouts are generous (the machine is shared): the
//! stop latency itself is measured by scripts/measure/stop_latency.py, not here.

mod common;

use common::assert_legal;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi::Position;

const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(|_| {})
    }

    /// The engine spawned by a command that `configure` may change (its
    /// directory, its environment).
    fn start_with(configure: impl FnOnce(&mut Command)) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_chariot"));
        configure(&mut command);
        let mut child = command
            // Only what the engine says by default reaches stderr.
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn chariot");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let err = Arc::new(Mutex::new(String::new()));
        let err2 = Arc::clone(&err);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut e = err2.lock().expect("lock");
                e.push_str(&line);
                e.push('\n');
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: err,
        }
    }

    /// The engine after `ucci`, with its books off: most tests here are
    /// about searching, and the built-in book would answer the start
    /// position without one. The book tests turn it back on.
    fn ucci() -> Engine {
        let mut e = Engine::ucci_with_book();
        e.send("setoption usebook false");
        e
    }

    fn ucci_with_book() -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.until(|l| l == "ucciok");
        e
    }

    /// The engine after `uci`, with its books off (see [`Engine::ucci`]).
    fn uci() -> Engine {
        let mut e = Engine::uci_with_book();
        e.send("setoption name UseBook value false");
        e
    }

    fn uci_with_book() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.until(|l| l == "uciok");
        e
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn next(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some(l) => {
                    let stop = done(&l);
                    seen.push(l);
                    if stop {
                        return seen;
                    }
                }
                None => panic!(
                    "timed out; got {seen:?}\nstderr: {}",
                    self.stderr.lock().expect("lock")
                ),
            }
        }
    }

    /// The next line starting with `bestmove` or equal to `nobestmove`,
    /// with the lines before it.
    fn bestmove(&self) -> (String, Vec<String>) {
        let mut lines = self.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        let last = lines.pop().expect("a line");
        (last, lines)
    }

    /// Asserts nothing arrives on stdout for `d`.
    fn silent_for(&self, d: Duration) {
        if let Some(l) = self.next(d) {
            panic!("unexpected output '{l}'");
        }
    }

    fn alive(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok");
    }

    fn stderr_has(&self, needle: &str) -> bool {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if self.stderr.lock().expect("lock").contains(needle) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "engine did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The position a `position` line sets up.
fn setup(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("test FEN"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = pos.parse_move(m).expect("test move");
        pos.make_move(mv);
    }
    pos
}

const MATED: &str = "5k3/3r5/9/9/4r4/9/9/9/9/4K4 w - - 0 1";
const STALEMATE: &str = "5k3/9/3r5/9/9/9/9/9/r8/4K4 w - - 0 1";
/// Red to move can take a free rook on e5 with the rook on e1.
const FREE_ROOK: &str = "3k5/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1";
/// Red mates in one with a1a9 (d8 is covered by the rook on h8, e9 by the
/// flying general).
const MATE_IN_ONE: &str = "3k5/7R1/9/9/9/9/9/9/R8/4K4 w - - 0 1";

#[test]
fn nothing_before_the_handshake_then_ucci_at_once() {
    let mut e = Engine::start();
    e.silent_for(Duration::from_millis(300));
    e.send("ucci");
    let lines = e.until(|l| l == "ucciok");
    assert_eq!(lines[0], format!("id name {}", engine_name()));
    assert_eq!(
        lines
            .iter()
            .find(|l| l.starts_with("option"))
            .map(String::as_str),
        Some("option usemillisec type check default true"),
        "usemillisec is advertised first"
    );
    for option in [
        "option promotion type check default false",
        "option idle type combo default none var none var small var medium var large",
        "option pruning type combo default large var large var none var small var medium",
        "option knowledge type combo default large var large var none var small var medium",
        "option usebook type check default true",
        "option bestbookmove type check default false",
        "option bookfiles type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    e.send("quit");
    e.until(|l| l == "bye");
    assert_eq!(e.wait_exit(), 0);
    // On pipes (not a terminal) nothing at all went to stderr: no hint.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(*e.stderr.lock().expect("lock"), "");
}

#[test]
fn elephanteye_options_as_the_league_sends_them() {
    let mut e = Engine::ucci();
    for line in [
        "setoption promotion false",
        "setoption ponder false",
        "setoption newgame",
        "setoption usemillisec true",
        "setoption idle none",
        "setoption pruning large",
        "setoption knowledge medium",
        "setoption name pruning value small",
    ] {
        e.send(line);
    }
    e.send("isready");
    // Nothing but readyok: no message, and no "unknown option" on stderr.
    assert_eq!(e.until(|l| l == "readyok"), ["readyok"]);
    e.send("setoption promotion true");
    let lines = e.until(|l| l.starts_with("info message"));
    assert!(
        lines[0].starts_with("info message option promotion true refused:"),
        "{lines:?}"
    );
    assert!(e.stderr_has("option promotion true refused"));
    assert!(!e.stderr.lock().expect("lock").contains("unknown option"));
    // The engine plays on, by the standard rules.
    e.send("position startpos");
    e.send("go depth 2");
    assert_legal(&e.bestmove().0, &Position::startpos());
}

#[test]
fn league_fens_and_what_clients_send() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let mut e = Engine::ucci();
    // UCCILEAG's 10-field FEN: read, with a one-line warning on stderr.
    e.send(&format!(
        "position fen {board} w - - 0 1 - - 0 1 moves h2e2 h9g7"
    ));
    e.send("go depth 2");
    let (best, before) = e.bestmove();
    assert!(
        before.iter().all(|l| !l.starts_with("info message")),
        "{before:?}"
    );
    assert_legal(&best, &setup(None, &["h2e2", "h9g7"]));
    assert!(e.stderr_has("FEN fields 7 and after ignored: '- - 0 1'"));
    // Capital side letters, `-` counters, CR LF line ends.
    for (fen, side_black) in [
        (format!("{board} R - - - -"), false),
        (format!("{board} B"), true),
        (format!("{board}\tb  - - 0 1"), true),
    ] {
        e.send_bytes(format!("position fen {fen}\r\n").as_bytes());
        e.send("go depth 1");
        let want = setup(
            Some(&format!("{board} {}", if side_black { "b" } else { "w" })),
            &[],
        );
        assert_legal(&e.bestmove().0, &want);
    }
    // Moves without `moves`: refused, with the reason, and nothing searched.
    e.send(&format!("position fen {board} w - - 0 1 h2e2 h9g7"));
    e.send("go depth 1");
    let (best, before) = e.bestmove();
    assert_eq!(best, "nobestmove");
    assert!(
        before
            .iter()
            .any(|l| l.contains("FEN field 7 'h2e2' looks like a move")),
        "{before:?}"
    );
}

/// The name the engine goes by: Chariot, the crate's version and the id
/// of the net compiled in, as its file under `nets/` is named (a test of
/// tests/nnue.rs checks that the name is the net's hash).
fn engine_name() -> String {
    let file = chariot::eval::nets::BUILTIN_NET_FILE;
    let id = file
        .strip_prefix("chariot-")
        .and_then(|rest| rest.strip_suffix(".nnue"))
        .expect("the built-in net's file is named chariot-<id>.nnue");
    format!("Chariot {} (net {id})", env!("CARGO_PKG_VERSION"))
}

#[test]
fn version_and_net_in_id_name_of_both_dialects_and_in_version() {
    for (handshake, ok) in [("ucci", "ucciok"), ("uci", "uciok")] {
        let mut e = Engine::start();
        e.send(handshake);
        let lines = e.until(|l| l == ok);
        let names: Vec<&String> = lines.iter().filter(|l| l.starts_with("id name ")).collect();
        assert_eq!(
            names,
            [&format!("id name {}", engine_name())],
            "{handshake}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("--version")
        .output()
        .expect("the engine runs");
    assert!(out.status.success());
    let version = String::from_utf8(out.stdout).expect("UTF-8");
    let name = engine_name();
    let expected = name
        .strip_prefix("Chariot ")
        .expect("the name starts with Chariot");
    assert_eq!(version, format!("chariot {expected}\n"));
}

#[test]
fn uci_handshake_and_options() {
    let mut e = Engine::uci();
    e.send("setoption name Hash value 32");
    e.send("setoption name Move Overhead value 10");
    e.send("setoption Threads 1");
    e.send("setoption name NoSuchOption value 3");
    e.alive();
    assert!(e.stderr_has("unknown option 'NoSuchOption'"));
    e.send("ucinewgame");
    e.send("position startpos moves h2e2");
    e.send("go depth 3");
    let (best, infos) = e.bestmove();
    assert_legal(&best, &setup(None, &["h2e2"]));
    assert!(infos
        .iter()
        .any(|l| l.contains(" score cp ") && l.contains(" pv ")));
}

/// The `wdl W D L` of an `info … score …` line: `None` if it has none,
/// and a panic if it is not right after the score (`cp N` or `mate N` in
/// UCI, a bare number in UCCI) or not three per mille summing to 1000.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let score = words.iter().position(|&w| w == "score")?;
    let at = words.iter().position(|&w| w == "wdl")?;
    let after_score = if matches!(words.get(score + 1), Some(&"cp" | &"mate")) {
        score + 3
    } else {
        score + 2
    };
    assert_eq!(at, after_score, "wdl right after the score: {line}");
    let odds: Vec<u32> = words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().unwrap_or_else(|_| panic!("per mille in {line}")))
        .collect();
    assert_eq!(odds.iter().sum::<u32>(), 1000, "{line}");
    Some([odds[0], odds[1], odds[2]])
}

/// The `info` lines of a search that carry a score.
fn scored(infos: &[String]) -> Vec<&String> {
    let lines: Vec<&String> = infos
        .iter()
        .filter(|l| l.starts_with("info ") && l.contains(" score "))
        .collect();
    assert!(!lines.is_empty(), "no scored info line in {infos:?}");
    lines
}

#[test]
fn win_draw_loss_odds_when_asked_in_both_dialects() {
    let dialects = [
        (
            Engine::uci(),
            "UCI_ShowWDL",
            "name UCI_ShowWDL value",
            "string",
        ),
        (Engine::ucci(), "showwdl", "showwdl", "message"),
    ];
    for (mut e, name, set, tell) in dialects {
        let set = format!("setoption {set}");
        e.send("position startpos moves h2e2 h9g7");
        e.send("go depth 5");
        let (_, infos) = e.bestmove();
        for l in scored(&infos) {
            assert_eq!(wdl_of(l), None, "off by default: {l}");
        }
        e.send(&format!("{set} true"));
        e.send("go depth 5");
        let (_, infos) = e.bestmove();
        for l in scored(&infos) {
            let [w, d, l_] = wdl_of(l).unwrap_or_else(|| panic!("no wdl in {l}"));
            assert!(
                d > 0 && w < 1000 && l_ < 1000,
                "an opening is not decided: {l}"
            );
        }
        e.send(&format!("position fen {MATE_IN_ONE}"));
        e.send("go depth 3");
        let (_, infos) = e.bestmove();
        let last = scored(&infos).pop().expect("a line");
        assert_eq!(wdl_of(last), Some([1000, 0, 0]), "{last}");
        e.send(&format!("{set} maybe"));
        let refused = e.until(|l| l.starts_with("info"));
        let want =
            format!("info {tell} option {name}: value 'maybe' is not true or false; unchanged");
        assert_eq!(refused.last(), Some(&want));
        e.send(&format!("{set} false"));
        e.send("position startpos");
        e.send("go depth 3");
        let (_, infos) = e.bestmove();
        for l in scored(&infos) {
            assert_eq!(wdl_of(l), None, "off again: {l}");
        }
    }
    // UCCI's `go depth 0`, the static evaluation, has the odds too.
    let mut e = Engine::ucci();
    e.send("setoption showwdl true");
    e.send("position startpos");
    e.send("go depth 0");
    let line = e.until(|l| l.starts_with("info depth 0 score"));
    let line = line.last().expect("a line");
    assert!(wdl_of(line).is_some(), "{line}");
}

#[test]
fn every_go_mode_gives_one_legal_bestmove() {
    let modes = [
        "go depth 3",
        "go nodes 3000",
        "go time 1000 increment 0",
        "go time 5000 movestogo 40",
        "go time 3000 increment 20 opptime 3000 oppincrement 20",
        "go time 1000 movestogo 1 opptime 100 oppmovestogo 5",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go wtime 2000 btime 2000 movestogo 10",
        "go movetime 200",
        "go draw depth 2",
    ];
    let mut e = Engine::ucci();
    let pos = setup(None, &["h2e2", "h9g7"]);
    for mode in modes {
        e.send("position startpos moves h2e2 h9g7");
        e.send(mode);
        let (best, _) = e.bestmove();
        assert_legal(&best, &pos);
        // Exactly one: nothing more follows.
        e.alive();
    }
}

#[test]
fn mate_is_found_and_scored_by_distance() {
    let mut e = Engine::ucci();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    e.send("go mate 1");
    let (best, infos) = e.bestmove();
    let m = assert_legal(&best, &setup(Some(MATE_IN_ONE), &[]));
    let mut after = setup(Some(MATE_IN_ONE), &[]);
    after.make_move(m);
    assert!(after.legal_moves().is_empty(), "{best} mates");
    assert!(
        infos.last().is_some_and(|l| l.contains("score 9999")),
        "{infos:?}"
    );

    let mut u = Engine::uci();
    u.send(&format!("position fen {MATE_IN_ONE}"));
    u.send("go depth 3");
    let (best, infos) = u.bestmove();
    assert_legal(&best, &setup(Some(MATE_IN_ONE), &[]));
    assert!(
        infos.last().is_some_and(|l| l.contains("score mate 1")),
        "{infos:?}"
    );
}

#[test]
fn stop_ends_infinite_searches() {
    for go in ["go infinite", "go depth infinite", "go"] {
        let mut e = Engine::ucci();
        e.send("position startpos");
        e.send(go);
        e.silent_for_bestmove(Duration::from_millis(300));
        e.send("stop");
        let (best, _) = e.bestmove();
        assert_legal(&best, &Position::startpos());
    }
}

impl Engine {
    /// Asserts no bestmove arrives for `d` (info lines may).
    fn silent_for_bestmove(&self, d: Duration) {
        let deadline = Instant::now() + d;
        while let Some(l) = self.next(deadline.saturating_duration_since(Instant::now())) {
            assert!(
                !l.starts_with("bestmove") && l != "nobestmove",
                "early '{l}'"
            );
        }
    }
}

#[test]
fn infinite_result_is_held_until_stop() {
    let mut e = Engine::uci();
    e.send("position startpos");
    // The depth limit is reached at once, but infinite mode holds the answer.
    e.send("go infinite depth 2");
    e.silent_for_bestmove(Duration::from_millis(500));
    e.send("stop");
    let (best, _) = e.bestmove();
    assert_legal(&best, &Position::startpos());
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::ucci();
    e.send("setoption ponder true");
    e.send("position startpos moves b2e2");
    e.send("go ponder depth 2");
    e.silent_for_bestmove(Duration::from_millis(500));
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send("ponderhit");
    let (best, _) = e.bestmove();
    assert_legal(&best, &setup(None, &["b2e2"]));

    // ponderhit with a time limit: the clock starts at ponderhit.
    e.send("position startpos moves b2e2");
    e.send("go ponder time 400 increment 0");
    e.silent_for_bestmove(Duration::from_millis(800));
    e.send("ponderhit draw");
    let (best, _) = e.bestmove();
    assert_legal(&best, &setup(None, &["b2e2"]));

    // stop while pondering also answers.
    e.send("position startpos moves b2e2");
    e.send("go ponder infinite");
    e.silent_for_bestmove(Duration::from_millis(200));
    e.send("stop");
    let (best, _) = e.bestmove();
    assert_legal(&best, &setup(None, &["b2e2"]));
}

#[test]
fn commands_while_thinking_run_in_order_afterwards() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go depth 5");
    e.send(&format!("position fen {FREE_ROOK}"));
    e.send("go depth 2");
    e.send("isready");
    // isready is answered at once, before the first bestmove.
    let lines = e.until(|l| l == "readyok" || l.starts_with("bestmove"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    let (first, _) = e.bestmove();
    assert_legal(&first, &Position::startpos());
    let (second, _) = e.bestmove();
    assert_eq!(
        assert_legal(&second, &setup(Some(FREE_ROOK), &[])).to_string(),
        "e1e5"
    );
}

#[test]
fn banmoves_exclude_the_best_move() {
    let mut e = Engine::ucci();
    e.send(&format!("position fen {FREE_ROOK}"));
    e.send("go depth 3");
    let (best, _) = e.bestmove();
    assert_eq!(best.split_whitespace().nth(1), Some("e1e5"));
    e.send(&format!("position fen {FREE_ROOK}"));
    e.send("banmoves e1e5");
    e.send("go depth 3");
    let (best, _) = e.bestmove();
    let m = assert_legal(&best, &setup(Some(FREE_ROOK), &[]));
    assert_ne!(m.to_string(), "e1e5");
    // The next position clears the ban.
    e.send(&format!("position fen {FREE_ROOK}"));
    e.send("go depth 3");
    let (best, _) = e.bestmove();
    assert_eq!(best.split_whitespace().nth(1), Some("e1e5"));

    // UCI searchmoves restricts the root the same way.
    let mut u = Engine::uci();
    u.send(&format!("position fen {FREE_ROOK}"));
    u.send("go depth 3 searchmoves e0f0 e1e2");
    let (best, _) = u.bestmove();
    let m = assert_legal(&best, &setup(Some(FREE_ROOK), &[]));
    assert!(["e0f0", "e1e2"].contains(&m.to_string().as_str()), "{best}");
}

/// One legal move (the king's, e0f0), in a game position.
const FORCED: &str = "1R1a5/9/b3k4/4C4/1R2P1p2/2P3p2/9/9/r8/4KrB2 w - - 0 89";

/// The deepest `info depth` among `lines`.
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// The word after ` key ` in an `info` line (`pv`'s first move, say).
fn word_after(line: &str, key: &str) -> Option<String> {
    line.split(&format!(" {key} "))
        .nth(1)?
        .split(' ')
        .next()
        .map(str::to_owned)
}

#[test]
fn a_forced_move_on_the_clock_is_answered_after_a_short_search() {
    // How short (30 ms, stopped at 60) is the time plan's unit test
    // (limits.rs, `plan_for`) and a measure's; here, that the move comes
    // with a searched score, on the clock, at `ponderhit`, through
    // banmoves and on UCI's clock, and that a depth asked is searched to
    // the end.
    assert_eq!(setup(Some(FORCED), &[]).legal_moves().len(), 1);
    let mut e = Engine::ucci();
    e.send("setoption ponder true");
    for (go, hit) in [
        ("go time 60000 increment 1000", false),
        ("go ponder time 60000 increment 1000", true),
    ] {
        e.send(&format!("position fen {FORCED}"));
        e.send(go);
        if hit {
            e.alive();
            e.send("ponderhit");
        }
        let (best, lines) = e.bestmove();
        assert!(best.starts_with("bestmove e0f0"), "{go}: {best}");
        scored(&lines);
    }
    // The same where banmoves leaves one move of the start position's 44.
    e.send("position startpos");
    let others: Vec<String> = Position::startpos()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .filter(|m| m != "h2e2")
        .collect();
    e.send(&format!("banmoves {}", others.join(" ")));
    e.send("go time 60000 increment 1000");
    let (best, lines) = e.bestmove();
    assert!(best.starts_with("bestmove h2e2"), "{best}");
    scored(&lines);
    // A depth asked is searched.
    e.send(&format!("position fen {FORCED}"));
    e.send("go depth 4 time 60000 increment 1000");
    let (best, lines) = e.bestmove();
    assert!(best.starts_with("bestmove e0f0"), "{best}");
    assert_eq!(deepest(&lines), 4, "{lines:?}");
    // UCI's clock too.
    let mut u = Engine::uci();
    u.send(&format!("position fen {FORCED}"));
    u.send("go wtime 60000 btime 60000 winc 1000 binc 1000");
    let (best, lines) = u.bestmove();
    assert!(best.starts_with("bestmove e0f0"), "{best}");
    scored(&lines);
}

#[test]
fn a_stopped_iteration_plays_its_best_move() {
    // Node limits stop iterations part-way, the same way each time: where
    // the last line is a lower bound a ply deeper than the last complete
    // iteration, its move is the one played. (UCI: UCCI shows a bound only
    // when it proves a mate.)
    // In a new game each time, a search to a node limit repeats the first
    // nodes of a longer one: searched once, it shows the iterations that
    // change the best move, and the limits that stop inside them find the
    // stopped iteration's move most often not the complete one's.
    let mut e = Engine::uci();
    let mut go = |nodes: u64| {
        e.send("ucinewgame");
        e.send("position startpos moves h2e2 h9g7");
        e.send(&format!("go nodes {nodes}"));
        e.bestmove()
    };
    let (_, reference) = go(600_000);
    let iterations: Vec<(u64, String)> = reference
        .iter()
        .filter(|l| l.contains(" pv ") && !l.contains("bound "))
        .filter_map(|l| Some((word_after(l, "nodes")?.parse().ok()?, word_after(l, "pv")?)))
        .collect();
    let (mut unfinished, mut changed) = (0, 0);
    for pair in iterations.windows(2) {
        let ((before, old), (after, new)) = (&pair[0], &pair[1]);
        if old == new {
            continue;
        }
        for k in 1..=6 {
            let nodes = before + (after - before) * k / 7;
            let (best, lines) = go(nodes);
            let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
            let (Some(last), Some(complete)) = (
                infos.last(),
                infos.iter().rev().find(|l| !l.contains("bound ")),
            ) else {
                panic!("no line with a pv: {lines:?}");
            };
            let played = best.split(' ').nth(1).map(str::to_owned);
            if last.contains(" lowerbound ") {
                unfinished += 1;
                assert_eq!(
                    deepest(&[last.to_string()]),
                    deepest(&[complete.to_string()]) + 1
                );
                assert_eq!(played, word_after(last, "pv"), "{nodes}: {lines:?}");
                changed += usize::from(played != word_after(complete, "pv"));
            } else {
                assert_eq!(played, word_after(complete, "pv"), "{nodes}: {lines:?}");
            }
        }
    }
    assert!(unfinished >= 3, "{unfinished} searches stopped part-way");
    assert!(changed >= 1, "{changed} of {unfinished} changed the move");
}

#[test]
fn ucci_shows_a_mate_proved_by_a_stopped_iteration() {
    // UCCI has no bound marks, so it hides the lower bound of a stopped
    // iteration, except one that proves a mate: the mating move is played
    // and announced. Node limits stop the same search in both dialects at
    // the same node; red mates in 3 (d4d8).
    let fen = "2Rak1bn1/9/9/p3p3p/6p2/2PR5/P3r1P1P/3A2c2/4A4/4K4 w - - 0 1";
    let go = |mut e: Engine, nodes: u64| {
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go nodes {nodes}"));
        let (best, lines) = e.bestmove();
        let last = lines.iter().rev().find(|l| l.contains(" pv ")).cloned();
        (best, last.unwrap_or_default())
    };
    let (mut proved, mut hidden) = (0, 0);
    for nodes in (50_000..=300_000).step_by(50_000) {
        let (uci_best, uci_last) = go(Engine::uci(), nodes);
        let (ucci_best, ucci_last) = go(Engine::ucci(), nodes);
        assert_eq!(uci_best, ucci_best, "{nodes}");
        assert!(!ucci_last.contains("bound"), "{ucci_last}");
        let mate: Option<i32> = word_after(&uci_last, "mate").and_then(|m| m.parse().ok());
        if let (true, Some(moves @ 1..)) = (uci_last.contains(" lowerbound "), mate) {
            // Mate in N moves is a score of 10000 less 2N - 1 plies.
            let score = word_after(&ucci_last, "score");
            assert_eq!(
                score,
                Some((10_000 - (2 * moves - 1)).to_string()),
                "{ucci_last}"
            );
            assert_eq!(word_after(&ucci_last, "pv"), word_after(&uci_last, "pv"));
            assert_eq!(deepest(&[ucci_last]), deepest(&[uci_last]));
            proved += 1;
        } else if uci_last.contains(" lowerbound ") {
            assert!(deepest(&[ucci_last]) < deepest(&[uci_last]), "{nodes}");
            hidden += 1;
        }
    }
    assert!(
        proved >= 1,
        "no search proved the mate part-way ({hidden} other bounds)"
    );
}

#[test]
fn movetime_is_spent_whole() {
    // Less the move overhead (30 ms by default), and never stopped between
    // iterations: the answer comes no sooner than that (a slow machine only
    // answers later).
    let mut e = Engine::ucci();
    e.send("position startpos moves h2e2");
    let start = Instant::now();
    e.send("go movetime 600");
    let (best, _) = e.bestmove();
    assert_legal(&best, &setup(None, &["h2e2"]));
    assert!(
        start.elapsed() >= Duration::from_millis(570),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn no_move_answers() {
    let mut e = Engine::ucci();
    for fen in [MATED, STALEMATE] {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        assert_eq!(e.bestmove().0, "nobestmove");
    }
    // stop while idle.
    e.send("stop");
    assert_eq!(e.bestmove().0, "nobestmove");
    // every legal move banned.
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let all: Vec<String> = setup(Some(MATE_IN_ONE), &[])
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    e.send(&format!("banmoves {}", all.join(" ")));
    e.send("go depth 2");
    assert_eq!(e.bestmove().0, "nobestmove");
    // go depth 0: a static evaluation, no move.
    e.send("position startpos");
    e.send("go depth 0");
    let (last, before) = e.bestmove();
    assert_eq!(last, "nobestmove");
    assert!(before.iter().any(|l| l.starts_with("info depth 0 score")));

    let mut u = Engine::uci();
    u.send(&format!("position fen {MATED}"));
    u.send("go depth 2");
    assert_eq!(u.bestmove().0, "bestmove (none)");
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut e = Engine::ucci();
    let cases: [(&[u8], &str); 12] = [
        (
            b"position fen rnbakabnr/9/1c5c1 w\n",
            "FEN board has 3 rank(s)",
        ),
        (b"position fen 4k4/9/9/9/9/9/9/9/9/9 w\n", "Red king(s)"),
        (
            b"position startpos moves h2e2 h9h0 b0c2\n",
            "move 2 of the list",
        ),
        (b"position startpos moves h2e2 zz99\n", "move 2 of the list"),
        (b"position fen\n", "missing FEN"),
        (b"frobnicate the engine\n", "unknown command 'frobnicate'"),
        (b"go depth lots\n", "'depth' needs a number"),
        (b"go sideways\n", "unexpected word 'sideways'"),
        (b"\xff\xfe\x00\x01garbage\n", "unknown command"),
        (b"setoption ponder maybe\n", "not true or false"),
        (b"banmoves a0a9\n", "banmoves"),
        (b"ponderhit\n", "not pondering"),
    ];
    for (input, expected) in cases {
        e.send_bytes(input);
        e.alive();
        assert!(
            e.stderr_has(expected),
            "no '{expected}' on stderr for {input:?}"
        );
    }
    // A rejected position is never searched: no move until a valid one arrives.
    e.send("position startpos moves h2e2 h9h0");
    e.send("go depth 2");
    assert_eq!(e.bestmove().0, "nobestmove");
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/9 w");
    e.send("go depth 2");
    assert_eq!(e.bestmove().0, "nobestmove");
    // A line of megabytes.
    let mut huge = b"position startpos moves ".to_vec();
    huge.extend(b"h2e2 ".repeat(400_000));
    huge.push(b'\n');
    e.send_bytes(&huge);
    e.alive();
    assert!(e.stderr_has("too long"));
    e.send("go depth 1");
    assert_eq!(e.bestmove().0, "nobestmove");
    // Absurd numbers are said and fitted, and the engine serves on.
    e.send("position startpos");
    for (go, said) in [
        (
            "go depth -7",
            vec!["go depth -7 is out of range (1 to 100); using 1"],
        ),
        (
            "go depth 99999999999 nodes 5000",
            vec!["go depth 99999999999 is out of range (1 to 100); using 100"],
        ),
        (
            "go nodes 0",
            vec!["go nodes 0 is out of range (1 to 1000000000000000000); using 1"],
        ),
        (
            "go time -5 movestogo 0",
            vec![
                "go time -5 is negative; using 0",
                "go movestogo 0 is not a number of moves (at least 1); ignored",
            ],
        ),
    ] {
        e.send(go);
        let (best, before) = e.bestmove();
        assert_legal(&best, &Position::startpos());
        let messages: Vec<&str> = before
            .iter()
            .filter_map(|l| l.strip_prefix("info message "))
            .collect();
        assert_eq!(messages, said, "{go}");
        for m in said {
            assert!(e.stderr_has(m), "{m}");
        }
    }
    e.send("setoption hashsize 99999999999");
    e.until(|l| l.starts_with("info message option hashsize 99999999999: out of range"));
    e.send("setoption hashsize 0");
    e.until(|l| l == "info message option hashsize 0: 0 lets the engine decide; using 16");
    e.send("setoption name MultiPV value -4");
    e.until(|l| l == "info message option MultiPV -4: out of range (1 to 128); using 1");
    e.send("setoption bookfiles /nonexistent/chariot/book.obk");
    e.until(|l| {
        l == "info message option bookfiles: '/nonexistent/chariot/book.obk' not loaded: \
              the file does not exist; carrying on without it"
    });
    e.alive();
}

#[test]
fn quit_while_thinking_exits_after_bye() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.silent_for_bestmove(Duration::from_millis(200));
    e.send("quit");
    let lines = e.until(|l| l == "bye");
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_eq!(e.wait_exit(), 0);
}

#[test]
fn eof_lets_a_limited_search_finish_and_stops_an_endless_one() {
    // The end of input is no `stop`: a search with a limit runs to it.
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go depth 8");
    e.close_stdin();
    let (best, infos) = e.bestmove();
    assert_legal(&best, &Position::startpos());
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 8 ")),
        "{infos:?}"
    );
    assert_eq!(e.wait_exit(), 0);

    // A GUI that dies during an infinite search leaves no process behind:
    // the search stops, answers, and the engine exits.
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.silent_for_bestmove(Duration::from_millis(200));
    let closed = Instant::now();
    e.close_stdin();
    let (best, _) = e.bestmove();
    assert_legal(&best, &Position::startpos());
    assert_eq!(e.wait_exit(), 0);
    assert!(
        closed.elapsed() < Duration::from_secs(2),
        "exited {:?} after the end of input",
        closed.elapsed()
    );
}

#[test]
fn seconds_when_usemillisec_is_off() {
    let mut e = Engine::ucci();
    e.send("setoption usemillisec false");
    e.send("position startpos");
    // One second (not one millisecond): the search reaches a real depth.
    e.send("go time 1 movestogo 1");
    let (best, infos) = e.bestmove();
    assert_legal(&best, &Position::startpos());
    let depth = infos
        .iter()
        .filter_map(|l| {
            l.split_whitespace()
                .nth(2)
                .and_then(|d| d.parse::<u32>().ok())
        })
        .max()
        .unwrap_or(0);
    assert!(depth >= 3, "{infos:?}");
}

#[test]
fn display_perft_probe_and_multipv() {
    let mut e = Engine::ucci();
    e.send("position startpos moves h2e2");
    e.send("d");
    let lines = e.until(|l| l.starts_with("Key:"));
    assert!(lines.iter().any(
        |l| l.starts_with("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
    ));
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 79666")
    );
    e.send("probe startpos moves h2e2");
    e.until(|l| l.starts_with("pophash"));
    // After a search the table knows the root: probe names its best move.
    e.send("position startpos moves h2e2");
    e.send("go depth 6");
    let (best, _) = e.bestmove();
    let m = best
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    e.send("probe startpos moves h2e2");
    let hash = e.until(|l| l.starts_with("pophash"));
    let line = hash.last().cloned().unwrap_or_default();
    assert!(
        line.starts_with(&format!("pophash bestmove {m} ")),
        "{line}"
    );
    assert!(
        line.contains("lowerbound") && line.contains("depth 6"),
        "{line}"
    );
    e.send("probe startpos moves h2e2 zz00");
    e.until(|l| l == "pophash");
    // bench prints the signature lines and the engine keeps serving.
    e.send("bench 2");
    let lines = e.until(|l| l.starts_with("Nodes/second:"));
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched: ")));
    e.alive();

    let mut u = Engine::uci();
    u.send("setoption name MultiPV value 3");
    u.send("position startpos");
    u.send("go depth 2");
    let (best, infos) = u.bestmove();
    assert_legal(&best, &Position::startpos());
    for k in 1..=3 {
        assert!(
            infos
                .iter()
                .any(|l| l.starts_with("info depth 2 ") && l.contains(&format!(" multipv {k} "))),
            "{infos:?}"
        );
    }
}

#[test]
fn threads_search_together_and_newgame_clears() {
    let mut e = Engine::ucci();
    e.send("setoption threads 2");
    e.send("setoption hashsize 8");
    for moves in ["", " moves h2e2 h9g7", " moves c3c4"] {
        e.send(&format!("position startpos{moves}"));
        e.send("go depth 8");
        let (best, infos) = e.bestmove();
        let list: Vec<&str> = moves.split_whitespace().skip(1).collect();
        assert_legal(&best, &setup(None, &list));
        assert!(
            infos.iter().any(|l| l.starts_with("info depth 8 ")),
            "{infos:?}"
        );
    }
    e.send("setoption newgame");
    e.send("probe startpos moves c3c4");
    e.until(|l| l == "pophash");
}

#[test]
fn fixed_node_searches_are_deterministic() {
    let run = || {
        let mut e = Engine::ucci();
        e.send("position startpos moves h2e2 h9g7 h0g2");
        e.send("go nodes 20000");
        let (best, infos) = e.bestmove();
        // Drop timing fields.
        let strip = |l: &String| -> String {
            let w: Vec<&str> = l.split_whitespace().collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if w[i] == "nps" || w[i] == "time" {
                    i += 2;
                } else {
                    out.push(w[i]);
                    i += 1;
                }
            }
            out.join(" ")
        };
        (best, infos.iter().map(strip).collect::<Vec<_>>())
    };
    assert_eq!(run(), run());
}

/// Both dialects with their books on: the engine, the tag of its info
/// lines, a game's `go` on a long clock, and the command turning books off.
fn book_dialects() -> [(Engine, &'static str, &'static str, &'static str); 2] {
    [
        (
            Engine::ucci_with_book(),
            "info message",
            "go time 300000 increment 0",
            "setoption usebook false",
        ),
        (
            Engine::uci_with_book(),
            "info string",
            "go wtime 300000 btime 300000",
            "setoption name UseBook value false",
        ),
    ]
}

#[test]
fn the_built_in_book_opens_at_once_and_with_variety() {
    for (mut e, tag, go, off) in book_dialects() {
        e.send("setoption randomness huge");
        e.send("position startpos");
        e.alive();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..12 {
            let start = Instant::now();
            e.send(go);
            let (best, before) = e.bestmove();
            let took = start.elapsed();
            let m = assert_legal(&best, &Position::startpos()).to_string();
            assert_eq!(before.len(), 1, "{before:?}");
            assert!(
                before[0].starts_with(&format!("{tag} book move {m} (weight ")),
                "{before:?}"
            );
            // A few milliseconds; the bound allows for a loaded machine.
            assert!(took < Duration::from_millis(250), "{best} took {took:?}");
            seen.insert(m);
        }
        assert!(seen.len() >= 2, "one opening only: {seen:?}");
        // With the books off, the same position is searched.
        e.send(off);
        e.send("go depth 3");
        let (best, before) = e.bestmove();
        assert_legal(&best, &Position::startpos());
        assert!(
            before.iter().all(|l| !l.contains("book move")),
            "{before:?}"
        );
    }
}

#[test]
fn everything_it_plays_with_is_inside_the_binary() {
    // Started in an empty directory with no home or cache: the built-in
    // book answers and the built-in evaluation scores.
    let empty = std::env::temp_dir().join(format!("chariot-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("scratch directory");
    let mut e = Engine::start_with(|c| {
        c.current_dir(&empty)
            .env_remove("HOME")
            .env_remove("XDG_CACHE_HOME");
    });
    e.send("ucci");
    e.until(|l| l == "ucciok");
    e.send("position startpos");
    e.send("go depth 5");
    let (best, before) = e.bestmove();
    assert_legal(&best, &Position::startpos());
    assert!(before[0].contains("book move"), "{before:?}");
    let start = Position::startpos();
    let builtin = match chariot::eval::nets::builtin_net() {
        Some(net) => net.evaluate_fresh(&start),
        None => chariot::eval::evaluate_fresh(&start),
    };
    e.send("setoption usebook false");
    e.send("go depth 0");
    assert_eq!(
        e.until(|l| l == "nobestmove")[0],
        format!("info depth 0 score {builtin}")
    );
    assert_eq!(e.stderr.lock().expect("lock").as_str(), "");
    let _ = std::fs::remove_dir(&empty);
}

/// ElephantEye's own book, when `../shared/fixtures/` has it (it is never
/// part of the repository), or `None` with a message saying the test is
/// skipped.
fn elephanteye_book(test: &str) -> Option<String> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/eleeye-BOOK.DAT");
    if path.is_file() {
        Some(path.display().to_string())
    } else {
        println!(
            "SKIPPED {test}: ElephantEye's book is not at {}",
            path.display()
        );
        None
    }
}

/// ElephantEye's book moves in the start position (the fixture's README).
const ELEPHANTEYE_START_MOVES: [&str; 16] = [
    "b2e2", "h2e2", "c3c4", "g3g4", "c0e2", "g0e2", "b0c2", "h0g2", "h2d2", "b2f2", "b2d2", "h2f2",
    "b0a2", "h0i2", "h2c2", "b2g2",
];

/// A Chinese Windows GUI names a book in a folder called 象棋 in GBK bytes;
/// on Linux the folder's name is those bytes. The book loads, and a file
/// that is not there is named in the error, in readable text.
#[cfg(unix)]
#[test]
fn a_book_in_a_folder_named_in_gbk_loads() {
    use std::os::unix::ffi::OsStrExt;
    const XIANGQI_GBK: &[u8] = &[0xcf, 0xf3, 0xc6, 0xe5];
    let dir = std::env::temp_dir().join(format!("chariot-gbk-book-{}", std::process::id()));
    let folder = dir.join(std::ffi::OsStr::from_bytes(XIANGQI_GBK));
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/books/chariot.dat");
    std::fs::copy(book, folder.join("book.dat")).expect("the book copied");
    let mut e = Engine::ucci_with_book();
    e.send("setoption debug true");
    let in_folder = |file: &str| {
        let mut path = format!("{}/", dir.display()).into_bytes();
        path.extend_from_slice(XIANGQI_GBK);
        path.extend_from_slice(format!("/{file}").as_bytes());
        path
    };
    let line = [
        &b"setoption bookfiles "[..],
        &in_folder("book.dat"),
        b";",
        &in_folder("none.dat"),
        b"\n",
    ]
    .concat();
    e.send_bytes(&line);
    e.alive();
    assert!(
        e.stderr_has("象棋/book.dat': "),
        "{}",
        e.stderr.lock().expect("lock")
    );
    assert!(e.stderr_has("象棋/none.dat' not loaded: the file does not exist"));
    e.send("position startpos");
    e.send("go depth 5");
    let (_, lines) = e.bestmove();
    assert!(lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn elephanteyes_book_answers_at_once() {
    let Some(book) = elephanteye_book("elephanteyes_book_answers_at_once") else {
        return;
    };
    for (mut e, tag, go, _) in book_dialects() {
        e.send(&format!("setoption bookfiles {book}"));
        e.send("setoption randomness huge");
        e.send("position startpos");
        e.alive();
        let mut seen = Vec::new();
        for _ in 0..8 {
            let start = Instant::now();
            e.send(go);
            let (best, before) = e.bestmove();
            let took = start.elapsed();
            let m = assert_legal(&best, &Position::startpos()).to_string();
            assert!(ELEPHANTEYE_START_MOVES.contains(&m.as_str()), "{best}");
            assert_eq!(before.len(), 1, "{before:?}");
            let weight = before[0]
                .strip_prefix(&format!("{tag} book move {m} (weight "))
                .unwrap_or_else(|| panic!("{before:?}"));
            assert!(weight.ends_with(" of 5036)"), "{before:?}");
            // A few milliseconds; the bound allows for a loaded machine.
            assert!(took < Duration::from_millis(250), "{best} took {took:?}");
            seen.push(m);
        }
        println!("{tag}: book moves {seen:?}");
        // The next position is in the book too: h2e2's answers.
        e.send("position startpos moves h2e2");
        e.send("go depth 20");
        let (best, _) = e.bestmove();
        let m = assert_legal(&best, &setup(None, &["h2e2"])).to_string();
        assert!(
            ["h9g7", "b9c7", "h7e7", "b7e7"].contains(&m.as_str()),
            "{best}"
        );
        // probe lists the book moves before its pophash.
        e.send("probe startpos");
        let lines = e.until(|l| l.starts_with("pophash"));
        assert!(
            lines[0].starts_with(&format!("{tag} book b2e2:1473 h2e2:1473 c3c4:546 ")),
            "{lines:?}"
        );
        assert!(lines[0].ends_with(" (total 5036)"), "{lines:?}");
    }
}
