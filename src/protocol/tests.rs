//! The controller's decisions, driven line by line with no process: what is
//! queued while thinking and in which order, which results are held, which
//! moves a search may choose, and when there is no move.

use super::*;
use crate::settings::Level;
use crate::strength::Strength;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use xiangqi::Position;

/// A controller whose output is collected, driven one event at a time.
struct Harness {
    c: Controller,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    lines: Arc<Mutex<Vec<String>>>,
    /// Lines already returned by `take`.
    seen: usize,
}

impl Harness {
    /// A controller after `handshake`, without the built-in book: the
    /// tests that are about books give it theirs.
    fn new(handshake: &str) -> Harness {
        let (tx, rx) = channel();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let mut c = Controller::new(
            tx.clone(),
            Box::new(move |l: &str| sink.lock().unwrap().push(l.to_string())),
        );
        c.engine.set_default_book(None);
        let mut h = Harness {
            c,
            tx,
            rx,
            lines,
            seen: 0,
        };
        h.line(handshake);
        h.take();
        h
    }

    fn line(&mut self, text: &str) {
        self.c.handle(Event::Line(text.to_string()));
    }

    fn event(&mut self, e: Event) {
        self.c.handle(e);
    }

    /// Handles the engine's events until it is idle with nothing queued.
    fn settle(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.c.engine.is_thinking() || !self.c.queue.is_empty() {
            assert!(Instant::now() < deadline, "the engine did not settle");
            if let Ok(e) = self.rx.recv_timeout(Duration::from_millis(50)) {
                self.c.handle(e);
            }
        }
    }

    /// Handles engine events until the work thread has finished (its result
    /// may be held), without stopping it.
    fn wait_done(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            assert!(Instant::now() < deadline, "the search did not finish");
            let e = self.rx.recv_timeout(Duration::from_secs(1));
            let done = matches!(e, Ok(Event::Engine(engine::Event::Done(_))));
            if let Ok(e) = e {
                self.c.handle(e);
            }
            if done {
                return;
            }
        }
    }

    /// New output lines other than `info` progress lines.
    fn take(&mut self) -> Vec<String> {
        let all = self.lines.lock().unwrap();
        let new: Vec<String> = all[self.seen..]
            .iter()
            .filter(|l| !(l.starts_with("info depth") && l.contains(" nodes ")))
            .cloned()
            .collect();
        self.seen = all.len();
        new
    }
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn legal_best(line: &str, pos: &Position) -> Move {
    let text = line
        .strip_prefix("bestmove ")
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove line: {line}"));
    pos.parse_move(text)
        .unwrap_or_else(|e| panic!("bestmove {text} is not legal: {e}"))
}

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn lines_while_thinking_are_queued_in_order() {
    let mut h = Harness::new("ucci");
    h.line("position startpos");
    h.line("go infinite");
    h.line("position startpos moves h2e2");
    h.line("go depth 1");
    h.line("isready");
    // isready is answered at once; the rest waits for the bestmove.
    assert_eq!(h.take(), ["readyok"]);
    h.line("stop");
    h.settle();
    let out = h.take();
    assert_eq!(out.len(), 2, "{out:?}");
    legal_best(&out[0], &Position::startpos());
    legal_best(&out[1], &after(&["h2e2"]));
}

#[test]
fn an_overlong_line_while_thinking_waits_its_turn() {
    let mut h = Harness::new("ucci");
    h.line("position startpos");
    h.line("go infinite");
    h.line("position startpos moves h2e2");
    h.line("go depth 1");
    h.event(Event::Overlong {
        len: 2 << 20,
        head: "position fen rnbakabnr/9".into(),
    });
    h.line("go depth 1");
    h.line("stop");
    h.settle();
    let out = h.take();
    assert_eq!(out.len(), 5, "{out:?}");
    legal_best(&out[0], &Position::startpos());
    // The go sent before the overlong line searches the position before it...
    legal_best(&out[1], &after(&["h2e2"]));
    // ...and the go after it finds no position.
    assert!(
        out[2].starts_with("info message ignored a line of"),
        "{out:?}"
    );
    assert!(out[3].contains("no valid position"), "{out:?}");
    assert_eq!(out[4], "nobestmove");
}

#[test]
fn ponder_and_infinite_results_are_held() {
    let mut h = Harness::new("ucci");
    h.line("position startpos");
    h.line("go ponder depth 2");
    h.wait_done();
    assert!(h.take().is_empty(), "a pondering search answered early");
    h.line("ponderhit");
    legal_best(&h.take()[0], &Position::startpos());

    h.line("go infinite depth 2");
    h.wait_done();
    h.line("ponderhit");
    assert!(
        h.take().iter().all(|l| !l.starts_with("bestmove")),
        "an infinite search answered before stop"
    );
    h.line("stop");
    legal_best(&h.take()[0], &Position::startpos());
    assert!(!h.c.engine.is_thinking());
}

#[test]
fn banned_moves_are_never_played() {
    // Black's king on e9 with one advisor: few moves.
    let fen = "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut h = Harness::new("ucci");
    h.line(&format!("position fen {fen}"));
    h.line(&format!("banmoves {}", all[1..].join(" ")));
    h.line("go depth 3");
    h.settle();
    let out = h.take();
    assert_eq!(legal_best(&out[0], &pos).to_string(), all[0]);
    h.line(&format!("banmoves {}", all.join(" ")));
    h.line("go depth 3");
    h.settle();
    assert_eq!(h.take(), ["nobestmove"]);
    // A new position lifts the bans.
    h.line(&format!("position fen {fen}"));
    h.line("go depth 1");
    h.settle();
    legal_best(&h.take()[0], &pos);
}

#[test]
fn searchmoves_limit_the_choice() {
    let mut h = Harness::new("uci");
    h.line("position startpos");
    h.line("go depth 3 searchmoves a0a1 i3i4");
    h.settle();
    let out = h.take();
    let best = legal_best(&out[0], &Position::startpos()).to_string();
    assert!(best == "a0a1" || best == "i3i4", "{out:?}");
    // A searchmoves word that is no legal move is reported, the rest stand.
    h.line("go depth 2 searchmoves a0a1 zz99");
    h.settle();
    let out = h.take();
    assert!(out[0].starts_with("info string searchmoves"), "{out:?}");
    assert!(out[1].starts_with("bestmove a0a1"), "{out:?}");
}

#[test]
fn no_move_cases() {
    // Red is checkmated: two rooks against the bare king.
    let mated = "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1";
    for (handshake, none) in [("ucci", "nobestmove"), ("uci", "bestmove (none)")] {
        let mut h = Harness::new(handshake);
        h.line(&format!("position fen {mated}"));
        h.line("go depth 5");
        h.settle();
        assert_eq!(h.take(), [none]);
        // A refused position leaves none: go answers no move with a reason.
        h.line("position fen banana");
        h.line("go depth 1");
        h.settle();
        let out = h.take();
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[0].contains("no position is set"), "{out:?}");
        assert!(out[1].contains("go: no valid position is set"), "{out:?}");
        assert_eq!(out[2], none);
        // An illegal move in the list refuses the whole position.
        h.line("position startpos moves h2e2 h2e2");
        h.line("go depth 1");
        h.settle();
        assert_eq!(h.take().last().map(String::as_str), Some(none));
    }
    // `stop` with nothing running: UCCI answers nobestmove, UCI nothing.
    let mut h = Harness::new("ucci");
    h.line("stop");
    assert_eq!(h.take(), ["nobestmove"]);
    let mut h = Harness::new("uci");
    h.line("stop");
    assert!(h.take().is_empty());
}

#[test]
fn nothing_before_the_handshake() {
    let (tx, _rx) = channel();
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&lines);
    let mut c = Controller::new(
        tx,
        Box::new(move |l: &str| sink.lock().unwrap().push(l.to_string())),
    );
    for l in ["position startpos", "go depth 1", "isready", "frobnicate"] {
        c.handle(Event::Line(l.into()));
    }
    assert!(lines.lock().unwrap().is_empty());
    assert!(!c.engine.is_thinking());
}

#[test]
fn ucci_times_are_milliseconds_unless_usemillisec_false() {
    let mut h = Harness::new("ucci");
    let go = GoParams {
        time: Some(2.5),
        increment: Some(0.5),
        opptime: Some(3.0),
        ..GoParams::default()
    };
    let clock = h.c.go_request(&go).0.limits.clock.unwrap();
    assert_eq!(
        (clock.time_ms, clock.inc_ms, clock.opp_time_ms),
        (2, 0, Some(3))
    );
    h.line("setoption usemillisec false");
    let clock = h.c.go_request(&go).0.limits.clock.unwrap();
    assert_eq!((clock.time_ms, clock.inc_ms), (2500, 500));
    // UCI: milliseconds, the clock of the side to move.
    let mut h = Harness::new("uci");
    h.line("position startpos moves h2e2");
    let go = GoParams {
        wtime: Some(1000.0),
        btime: Some(2000.0),
        binc: Some(20.0),
        ..GoParams::default()
    };
    let clock = h.c.go_request(&go).0.limits.clock.unwrap();
    assert_eq!(
        (clock.time_ms, clock.inc_ms, clock.opp_time_ms),
        (2000, 20, Some(1000))
    );
}

#[test]
fn eof_ends_an_endless_search() {
    let mut h = Harness::new("uci");
    h.line("position startpos");
    h.line("go infinite");
    let done = h.c.handle(Event::Eof);
    assert!(!done, "the search's answer is still to come");
    h.settle();
    legal_best(&h.take()[0], &Position::startpos());
    drop(h.tx);
}

/// The deepest `info depth` among the output lines from `from` on, up to
/// the first `bestmove`, and that `bestmove` line.
fn searched_to(lines: &[String]) -> (u32, &str) {
    let mut depth = 0;
    for l in lines {
        if let Some(rest) = l.strip_prefix("info depth ") {
            let d = rest.split_whitespace().next().and_then(|d| d.parse().ok());
            depth = depth.max(d.unwrap_or(0));
        } else if l.starts_with("bestmove") {
            return (depth, l);
        }
    }
    panic!("no bestmove in {lines:?}")
}

#[test]
fn eof_runs_the_queued_searches_to_their_limits() {
    // A script piped in: the input ends long before the searches do.
    let mut h = Harness::new("ucci");
    for line in [
        "position startpos",
        "go depth 6",
        "position startpos moves h2e2",
        "go depth 5",
        "position startpos moves h2e2 h9g7",
        "go nodes 3000",
    ] {
        h.line(line);
    }
    let done = h.c.handle(Event::Eof);
    assert!(!done, "the searches are still to run");
    h.settle();
    let all = h.lines.lock().unwrap().clone();
    let best: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].starts_with("bestmove"))
        .collect();
    assert_eq!(best.len(), 3, "{all:?}");
    let (depth, line) = searched_to(&all);
    assert_eq!(depth, 6, "{all:?}");
    legal_best(line, &Position::startpos());
    let (depth, line) = searched_to(&all[best[0] + 1..]);
    assert_eq!(depth, 5, "{all:?}");
    legal_best(line, &after(&["h2e2"]));
    legal_best(&all[best[2]], &after(&["h2e2", "h9g7"]));
    // Done: idle, nothing queued, input over.
    assert!(h.c.handle(Event::Line(String::new())));
}

#[test]
fn eof_stops_only_the_searches_that_wait_to_be_told() {
    for open in [
        "go infinite",
        "go",
        "go depth infinite",
        "go ponder",
        "go ponder depth 3",
        "go depth 99999999999",
    ] {
        for batch in [false, true] {
            let mut h = Harness::new("ucci");
            h.line(&format!("setoption batch {batch}"));
            h.line("position startpos");
            h.line("go depth 4");
            h.line("position startpos moves h2e2");
            h.line(open);
            h.line("position startpos moves h2e2 h9g7");
            h.line("go depth 3");
            h.event(Event::Eof);
            h.settle();
            let out = h.take();
            let best: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
            assert_eq!(best.len(), 3, "{open}, batch {batch}: {out:?}");
            legal_best(best[0], &Position::startpos());
            legal_best(best[1], &after(&["h2e2"]));
            legal_best(best[2], &after(&["h2e2", "h9g7"]));
            assert!(h.c.handle(Event::Line(String::new())));
        }
    }
}

#[test]
fn eof_during_pondering_honours_a_ponderhit_sent_before_it() {
    let mut h = Harness::new("uci");
    h.line("position startpos");
    h.line("go ponder depth 4");
    h.line("ponderhit");
    h.event(Event::Eof);
    h.settle();
    let all = h.lines.lock().unwrap().clone();
    let (depth, line) = searched_to(&all);
    assert_eq!(depth, 4, "{all:?}");
    legal_best(line, &Position::startpos());
}

#[test]
fn batch_mode_reads_nothing_but_quit_while_thinking() {
    let mut h = Harness::new("ucci");
    h.line("setoption batch true");
    h.line("position startpos");
    h.line("go depth 6");
    // Each waits for the bestmove: none cuts the search short.
    h.line("isready");
    h.line("stop");
    h.line("probe startpos");
    h.line("go depth 2");
    assert_eq!(h.c.queue.len(), 4);
    h.settle();
    let all = h.lines.lock().unwrap().clone();
    let (depth, _) = searched_to(&all);
    assert_eq!(depth, 6, "{all:?}");
    let out: Vec<String> = h
        .take()
        .into_iter()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    // In order: the answer, then each queued line's (UCCI's idle `stop`
    // answers `nobestmove`), then the second search's answer.
    assert_eq!(
        out,
        ["bestmove", "readyok", "nobestmove", "pophash", "bestmove"],
        "{all:?}"
    );

    // `quit` still acts at once.
    h.line("go depth 40");
    h.line("quit");
    assert!(h.c.quitting);
    h.settle();
    assert!(h.take()[0].starts_with("bestmove"));
}

#[test]
fn batch_mode_lets_a_search_that_waits_take_its_stop_in_turn() {
    let mut h = Harness::new("uci");
    h.line("setoption name Batch value true");
    h.line("position startpos");
    h.line("go depth 3");
    // Queued behind the first search; when `go infinite` runs, the lines
    // after it come in order: `isready` and `stop` act, `position` waits.
    h.line("go infinite");
    h.line("isready");
    h.line("stop");
    h.line("position startpos moves h2e2");
    h.line("go depth 2");
    h.settle();
    let out: Vec<String> = h
        .take()
        .into_iter()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
        .collect();
    assert_eq!(out, ["bestmove", "readyok", "bestmove", "bestmove"]);
}

#[test]
fn terminal_hint_names_the_engine_and_the_handshakes() {
    let hint = terminal_hint();
    assert!(hint.starts_with(crate::engine_name()), "{hint}");
    assert!(hint.contains("type 'ucci' or 'uci'"), "{hint}");
    assert!(!hint.contains('\n'));
}

const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

#[test]
fn league_fens_with_extra_fields_are_read() {
    for handshake in ["ucci", "uci"] {
        let mut h = Harness::new(handshake);
        // UCCILEAG: a 6-field FEN, then `- - 0 1`.
        h.line(&format!(
            "position fen {START_BOARD} w - - 0 1 - - 0 1 moves h2e2"
        ));
        h.line("go depth 1");
        h.settle();
        let out = h.take();
        assert_eq!(out.len(), 1, "{out:?}");
        legal_best(&out[0], &after(&["h2e2"]));
        // A client's 2-field FEN with a capital side letter and a trailing CR.
        h.line(&format!("position fen {START_BOARD} B\r"));
        h.line("go depth 1");
        h.settle();
        legal_best(
            &h.take()[0],
            &Position::from_fen(&format!("{START_BOARD} b")).unwrap(),
        );
        // A move list without `moves` is refused, not silently dropped.
        h.line(&format!("position fen {START_BOARD} w h2e2 h9g7"));
        let out = h.take();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].contains("FEN field 3 'h2e2' looks like a move")
                && out[0].contains("no position is set"),
            "{out:?}"
        );
        assert!(h.c.engine.position().is_none());
    }
}

#[test]
fn elephanteye_options_are_answered() {
    let mut h = Harness::new("ucci");
    for line in [
        "setoption promotion false",
        "setoption idle medium",
        "setoption pruning small",
        "setoption knowledge none",
        "setoption name idle value large",
    ] {
        h.line(line);
        assert!(h.take().is_empty(), "{line}");
    }
    let s = h.c.engine.settings();
    assert_eq!((s.pruning, s.knowledge), (Level::Small, Level::None));
    h.line("setoption promotion true");
    let out = h.take();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info message option promotion true refused: "),
        "{out:?}"
    );
    h.line("setoption pruning lots");
    assert!(h.take()[0].contains("not none, small, medium or large"));
    assert_eq!(h.c.engine.settings().pruning, Level::Small);
    // UCI clients may send them too.
    let mut h = Harness::new("uci");
    h.line("setoption name pruning value medium");
    h.line("setoption name promotion value true");
    let out = h.take();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("info string option promotion true refused"));
    assert_eq!(h.c.engine.settings().pruning, Level::Medium);
}

/// The request and the notes of a `go` line.
fn request(h: &Harness, line: &str) -> (GoRequest, Vec<String>) {
    match command::parse(line) {
        Ok(Command::Go(g)) => h.c.go_request(&g),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn go_numbers_out_of_range_are_said_and_fitted() {
    let h = Harness::new("ucci");
    let limits = |line: &str| {
        let (req, notes) = request(&h, line);
        assert_eq!(notes.len(), 1, "{line}: {notes:?}");
        (req.limits, notes[0].clone())
    };
    let (l, n) = limits("go depth -5");
    assert_eq!(l.depth, Some(1));
    assert_eq!(n, "go depth -5 is out of range (1 to 100); using 1");
    let (l, n) = limits("go depth 99999999999");
    assert_eq!(l.depth, Some(MAX_DEPTH));
    assert_eq!(
        n,
        "go depth 99999999999 is out of range (1 to 100); using 100"
    );
    let (l, n) = limits("go depth 2.5");
    assert_eq!(l.depth, Some(2));
    assert_eq!(n, "go depth 2.5 is not a whole number; using 2");
    let (l, n) = limits("go nodes 0");
    assert_eq!(l.nodes, Some(1));
    assert!(n.starts_with("go nodes 0 is out of range (1 to "), "{n}");
    let (l, n) = limits("go nodes 1e400");
    assert_eq!(l.nodes, Some(MAX_NODES));
    assert!(
        n.starts_with("go nodes 1.7976931348623157e308 is out of range"),
        "{n}"
    );
    let (l, n) = limits("go time -5 increment 10");
    assert_eq!(l.clock.map(|c| (c.time_ms, c.inc_ms)), Some((0, 10)));
    assert_eq!(n, "go time -5 is negative; using 0");
    let (l, n) = limits("go time 60000 movestogo 0");
    assert_eq!(l.clock.map(|c| c.movestogo), Some(None));
    assert_eq!(
        n,
        "go movestogo 0 is not a number of moves (at least 1); ignored"
    );
    let (l, n) = limits("go movetime -100");
    assert_eq!(l.movetime_ms, Some(0));
    assert_eq!(n, "go movetime -100 is negative; using 0");
    let (l, _) = limits("go mate 0");
    assert_eq!(l.mate, Some(1));
    let (l, _) = limits("go wtime 1e300 btime 1000");
    assert_eq!(l.clock.map(|c| c.time_ms), Some(1_000_000_000_000));
    let (req, notes) = request(&h, "go perft 99");
    assert_eq!(
        (req.perft, notes.len()),
        (Some(xiangqi::perft::MAX_DEPTH), 1)
    );
    // Numbers in range say nothing; UCCI's `go depth 0` is an evaluation.
    for line in [
        "go depth 0",
        "go depth 100",
        "go nodes 1",
        "go time 1000 movestogo 40 opptime 0",
        "go perft 0",
        "go infinite",
    ] {
        assert_eq!(request(&h, line).1, Vec::<String>::new(), "{line}");
    }
    assert!(request(&h, "go depth 0").0.eval_only);
}

#[test]
fn out_of_range_numbers_reach_the_gui_and_the_engine_serves_on() {
    for (handshake, tag) in [("ucci", "info message"), ("uci", "info string")] {
        let mut h = Harness::new(handshake);
        h.line("position startpos");
        h.line("go depth -5");
        h.settle();
        let out = h.take();
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(
            out[0],
            format!("{tag} go depth -5 is out of range (1 to 100); using 1")
        );
        legal_best(&out[1], &Position::startpos());
        for (line, want) in [
            (
                "setoption hashsize 0",
                "option hashsize 0: 0 lets the engine decide; using 16",
            ),
            (
                "setoption name Threads value 0",
                "option Threads 0: 0 lets the engine decide; using 1",
            ),
            (
                "setoption name MultiPV value 0",
                "option MultiPV 0: out of range (1 to 128); using 1",
            ),
        ] {
            h.line(line);
            assert_eq!(h.take(), [format!("{tag} {want}")], "{line}");
        }
        assert_eq!(h.c.options.hash_mb, 16);
        assert_eq!(h.c.engine.settings().threads, 1);
        assert_eq!(h.c.engine.settings().multipv, 1);
        h.line("bench -3");
        h.settle();
        let out = h.take();
        assert_eq!(
            out[0],
            format!("{tag} bench depth -3 is out of range (1 to 30); using 1")
        );
        assert!(
            out.iter().any(|l| l.starts_with("Nodes searched: ")),
            "{out:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Opening books, built here with BookBuilder (no fixture needed)

/// A scratch directory of its own for a test's files.
fn scratch_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A book's bytes: for each entry, the position (a FEN or the start, then
/// moves), a move and its weight.
fn book_bytes(entries: &[(Option<&str>, &[&str], &str, u16)]) -> Vec<u8> {
    let mut b = crate::book::BookBuilder::new();
    for &(fen, moves, m, w) in entries {
        let mut pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mv = pos.parse_move(m).unwrap();
        b.add(&pos, mv, w).unwrap();
    }
    b.build().to_bytes()
}

/// The start position's book: h2e2 (30), b2e2 (10), c3c4 (5), and after
/// h2e2 the answer h9g7 (7).
fn start_book() -> Vec<u8> {
    book_bytes(&[
        (None, &[], "h2e2", 30),
        (None, &[], "b2e2", 10),
        (None, &[], "c3c4", 5),
        (None, &["h2e2"], "h9g7", 7),
        (None, &["h2e2"], "b9c7", 2),
    ])
}

/// Writes `bytes` to `name` in `dir`; returns the path as text.
fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.display().to_string()
}

/// Turns `bestbookmove` on, as the `handshake`'s dialect spells it.
fn best_book_move(h: &mut Harness, handshake: &str) {
    h.line(if handshake == "uci" {
        "setoption name BestBookMove value true"
    } else {
        "setoption bestbookmove true"
    });
}

/// A harness whose books are `paths` (`;`-separated), at the start
/// position, playing the heaviest book move (`bestbookmove`) so that the
/// tests know which move comes.
fn with_books(handshake: &str, paths: &str) -> Harness {
    let mut h = Harness::new(handshake);
    h.line(&format!("setoption bookfiles {paths}"));
    best_book_move(&mut h, handshake);
    assert!(h.take().is_empty(), "the books load silently");
    h.line("position startpos");
    h
}

/// The output of a `go` answered at once from the book.
fn book_answer(h: &mut Harness, go: &str) -> Vec<String> {
    let start = Instant::now();
    h.line(go);
    assert!(
        !h.c.engine.is_thinking(),
        "'{go}' was not answered from the book"
    );
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "{:?}",
        start.elapsed()
    );
    h.take()
}

/// The output of a `go` that searches (no book line), once it answered.
fn searched(h: &mut Harness, go: &str) -> Vec<String> {
    h.line(go);
    assert!(h.c.engine.is_thinking(), "'{go}' did not search");
    h.settle();
    let out = h.take();
    assert!(out.iter().all(|l| !l.contains("book move")), "{out:?}");
    out
}

#[test]
fn a_book_move_is_answered_at_once_with_its_info_line() {
    let dir = scratch_dir("book-answer");
    let book = write(&dir, "start.dat", &start_book());
    for (handshake, tag) in [("ucci", "info message"), ("uci", "info string")] {
        let mut h = with_books(handshake, &book);
        // Depth 30 would take minutes: the book answers first. With
        // bestbookmove, the heaviest move, and the book's heaviest answer
        // to it as the ponder move.
        assert_eq!(
            book_answer(&mut h, "go depth 30"),
            [
                format!("{tag} book move h2e2 (weight 30 of 45)"),
                "bestmove h2e2 ponder h9g7".to_string()
            ]
        );
        // Every game `go` does: clock, movetime, nodes, a draw offer.
        for go in [
            "go time 60000 increment 0",
            "go wtime 60000 btime 60000",
            "go movetime 10000",
            "go nodes 100000000",
            "go draw depth 30",
        ] {
            let out = book_answer(&mut h, go);
            assert_eq!(
                out.last().map(String::as_str),
                Some("bestmove h2e2 ponder h9g7"),
                "{go}"
            );
        }
        // Black's answer after h2e2; no ponder move where the book stops.
        h.line("position startpos moves h2e2");
        assert_eq!(
            book_answer(&mut h, "go depth 30"),
            [
                format!("{tag} book move h9g7 (weight 7 of 9)"),
                "bestmove h9g7".to_string()
            ]
        );
        // Out of the book: a search.
        h.line("position startpos moves c3c4");
        let out = searched(&mut h, "go depth 1");
        legal_best(&out[0], &after(&["c3c4"]));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The book moves of `n` gos from the start, with randomness `level` (or
/// `best`: bestbookmove) and the engine's seed fixed at `seed`.
fn book_picks(book: &str, level: &str, seed: u64, n: usize) -> Vec<String> {
    let mut h = with_books("uci", book);
    h.c.engine.settings_mut().seed = Some(seed);
    if level != "best" {
        h.line("setoption name BestBookMove value false");
        h.line(&format!("setoption name Randomness value {level}"));
    }
    (0..n)
        .map(|_| {
            let out = book_answer(&mut h, "go depth 30");
            let best = legal_best(&out[1], &Position::startpos()).to_string();
            assert_eq!(out[0].split(' ').nth(4), Some(best.as_str()), "{out:?}");
            best
        })
        .collect()
}

#[test]
fn book_choices_are_seeded_and_randomness_flattens_them() {
    let dir = scratch_dir("book-seed");
    let book = write(&dir, "start.dat", &start_book());
    // The same seed, the same choices; up to medium, the book's own
    // weights whatever the randomness; bestbookmove: the heaviest.
    let a = book_picks(&book, "medium", 7, 60);
    assert_eq!(a, book_picks(&book, "medium", 7, 60));
    assert_ne!(a, book_picks(&book, "medium", 8, 60));
    assert_eq!(a, book_picks(&book, "none", 7, 60));
    assert_eq!(a, book_picks(&book, "tiny", 7, 60));
    assert!(book_picks(&book, "best", 7, 10).iter().all(|m| m == "h2e2"));
    // Flatter as the randomness grows: the lightest move (5 of 45) comes
    // up more often under huge than under medium.
    let count = |picks: &[String], m: &str| picks.iter().filter(|p| *p == m).count();
    let medium = book_picks(&book, "medium", 1, 200);
    let huge = book_picks(&book, "huge", 1, 200);
    for picks in [&medium, &huge] {
        for m in ["h2e2", "b2e2", "c3c4"] {
            assert!(count(picks, m) > 0, "{m} never chosen: {picks:?}");
        }
    }
    assert!(
        count(&huge, "c3c4") > count(&medium, "c3c4"),
        "{medium:?} {huge:?}"
    );
    assert!(
        count(&huge, "h2e2") < count(&medium, "h2e2"),
        "{medium:?} {huge:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn banned_and_excluded_moves_are_not_played_from_the_book() {
    let dir = scratch_dir("book-bans");
    let book = write(&dir, "start.dat", &start_book());
    let mut h = with_books("ucci", &book);
    h.line("banmoves h2e2");
    assert_eq!(
        book_answer(&mut h, "go depth 30"),
        [
            "info message book move b2e2 (weight 10 of 15)",
            // The book has the mirror image of the position after b2e2.
            "bestmove b2e2 ponder b9c7"
        ]
    );
    // Every book move banned: a search, which plays none of them.
    h.line("banmoves b2e2 c3c4");
    let out = searched(&mut h, "go depth 2");
    let best = legal_best(&out[0], &Position::startpos()).to_string();
    assert!(
        !["h2e2", "b2e2", "c3c4"].contains(&best.as_str()),
        "{out:?}"
    );
    // searchmoves: only book moves among them, else a search among them.
    let mut h = with_books("uci", &book);
    assert_eq!(
        book_answer(&mut h, "go depth 30 searchmoves a0a1 c3c4 b2e2"),
        [
            "info string book move b2e2 (weight 10 of 15)",
            "bestmove b2e2 ponder b9c7"
        ]
    );
    let out = searched(&mut h, "go depth 2 searchmoves a0a1 i3i4");
    let best = legal_best(&out[0], &Position::startpos()).to_string();
    assert!(best == "a0a1" || best == "i3i4", "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Red's rook checks from a8 and a9 in turn; Black's king steps between d9
/// and d8. After these four plies the position stands a second time.
const CHECKS: &str = "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1";
const CHECK_CYCLE: [&str; 4] = ["a8a9", "d9d8", "a9a8", "d8d9"];

#[test]
fn a_losing_repetition_is_not_played_from_the_book() {
    let dir = scratch_dir("book-repetition");
    // The book's heaviest move checks again: the fourth check of the cycle,
    // a perpetual check the rules would lose. The light king move is new.
    let book = write(
        &dir,
        "checks.dat",
        &book_bytes(&[
            (Some(CHECKS), &[], "a8a9", 1000),
            (Some(CHECKS), &[], "e0f0", 1),
        ]),
    );
    let only_check = write(
        &dir,
        "check.dat",
        &book_bytes(&[(Some(CHECKS), &[], "a8a9", 1000)]),
    );
    let mut h = with_books("ucci", &book);
    // Fresh, the check is the book's move.
    h.line(&format!("position fen {CHECKS}"));
    assert_eq!(
        book_answer(&mut h, "go depth 30").last().unwrap(),
        "bestmove a8a9"
    );
    // After the cycle it would repeat: the king move instead.
    h.line(&format!(
        "position fen {CHECKS} moves {}",
        CHECK_CYCLE.join(" ")
    ));
    assert_eq!(
        book_answer(&mut h, "go depth 30"),
        [
            "info message book move e0f0 (weight 1 of 1)",
            "bestmove e0f0"
        ]
    );
    // With no other book move, the search decides.
    h.line(&format!("setoption bookfiles {only_check}"));
    h.line(&format!(
        "position fen {CHECKS} moves {}",
        CHECK_CYCLE.join(" ")
    ));
    let out = searched(&mut h, "go depth 3");
    let pos = after_fen(CHECKS, &CHECK_CYCLE);
    legal_best(&out[0], &pos);
    let _ = std::fs::remove_dir_all(&dir);
}

fn after_fen(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn usebook_false_searches() {
    let dir = scratch_dir("book-off");
    let book = write(&dir, "start.dat", &start_book());
    for (handshake, off, on) in [
        ("ucci", "setoption usebook false", "setoption usebook true"),
        (
            "uci",
            "setoption name UseBook value false",
            "setoption name UseBook value true",
        ),
    ] {
        let mut h = with_books(handshake, &book);
        h.line(off);
        assert!(h.take().is_empty());
        let out = searched(&mut h, "go depth 1");
        legal_best(&out[0], &Position::startpos());
        h.line("probe startpos");
        let out = h.take();
        assert!(out.len() == 1 && out[0].starts_with("pophash"), "{out:?}");
        h.line(on);
        assert_eq!(
            book_answer(&mut h, "go depth 30").last().unwrap(),
            "bestmove h2e2 ponder h9g7"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analysis_and_mate_searches_search_and_pondering_holds_the_book_move() {
    let dir = scratch_dir("book-modes");
    let book = write(&dir, "start.dat", &start_book());
    let mut h = with_books("uci", &book);
    // go infinite (and a bare go) analyse: a search, until stop.
    for go in ["go infinite", "go"] {
        h.line(go);
        assert!(h.c.engine.is_thinking(), "{go}");
        h.line("stop");
        h.settle();
        let out = h.take();
        assert!(out.iter().all(|l| !l.contains("book")), "{out:?}");
        legal_best(out.last().unwrap(), &Position::startpos());
    }
    searched(&mut h, "go mate 1");
    // Pondering: the book move is said at once and played at ponderhit.
    h.line("go ponder wtime 60000 btime 60000");
    assert_eq!(h.take(), ["info string book move h2e2 (weight 30 of 45)"]);
    h.wait_done();
    assert!(h.take().is_empty(), "answered before ponderhit");
    h.line("ponderhit");
    assert_eq!(h.take(), ["bestmove h2e2 ponder h9g7"]);
    assert!(!h.c.engine.is_thinking());
    // ...or at stop, when the guess was wrong.
    h.line("go ponder wtime 60000 btime 60000");
    h.wait_done();
    h.line("stop");
    assert_eq!(h.take().last().unwrap(), "bestmove h2e2 ponder h9g7");
    // UCCI go depth 0 evaluates; go perft counts.
    let mut h = with_books("ucci", &book);
    h.line("go depth 0");
    let out = h.take();
    assert!(
        out[0].starts_with("info depth 0 score ") && out[1] == "nobestmove",
        "{out:?}"
    );
    h.line("go perft 1");
    h.settle();
    assert!(h.take().iter().all(|l| !l.contains("book")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_book_files_are_reported_and_the_others_load() {
    let dir = scratch_dir("book-bad");
    let good_bytes = start_book();
    let good = write(&dir, "good.dat", &good_bytes);
    let truncated = write(&dir, "truncated.dat", &good_bytes[..good_bytes.len() - 3]);
    // The last record (the largest lock) before the first.
    let mut unsorted = good_bytes[good_bytes.len() - 8..].to_vec();
    unsorted.extend_from_slice(&good_bytes[..8]);
    let unsorted = write(&dir, "unsorted.dat", &unsorted);
    let mut bad_move = good_bytes.clone();
    bad_move[4..6].copy_from_slice(&[0, 0]);
    let bad_move = write(&dir, "badmove.dat", &bad_move);
    let empty = write(&dir, "empty.dat", b"");
    let missing = dir.join("missing.dat").display().to_string();
    let d = dir.display().to_string();
    let list = [
        &missing, &truncated, &unsorted, &good, &bad_move, &empty, &d,
    ];
    for (handshake, tag) in [("ucci", "info message"), ("uci", "info string")] {
        let mut h = Harness::new(handshake);
        h.line(&format!(
            "setoption bookfiles {}",
            list.map(|p| p.as_str()).join(";")
        ));
        let out = h.take();
        let want = [
            format!("'{missing}' not loaded: the file does not exist"),
            format!(
                "'{truncated}' not loaded: not a book: {} bytes is not a whole number of 8-byte records (5 bytes left over): truncated, or not a book",
                good_bytes.len() - 3
            ),
            format!("'{unsorted}' not loaded: not a book: record 1 is out of order"),
            format!("'{bad_move}' not loaded: not a book: record 0 has move code 0x0000"),
            format!("'{empty}' not loaded: the file is empty"),
            format!("'{d}' not loaded: it is a directory"),
        ];
        assert_eq!(out.len(), want.len(), "{out:?}");
        for (line, want) in out.iter().zip(&want) {
            let prefix = format!("{tag} option bookfiles: {want}");
            assert!(line.starts_with(&prefix), "{line}\n  want {prefix}");
            assert!(line.ends_with("; carrying on without it"), "{line}");
        }
        // The good one plays (its heaviest move, with bestbookmove).
        best_book_move(&mut h, handshake);
        h.line("position startpos");
        assert_eq!(
            book_answer(&mut h, "go depth 30").last().unwrap(),
            "bestmove h2e2 ponder h9g7"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bookfiles_replace_the_default_book_in_their_order() {
    let dir = scratch_dir("book-replace");
    let builtin =
        crate::book::load("<built-in>", Ok(book_bytes(&[(None, &[], "c3c4", 1)]))).unwrap();
    let start = write(&dir, "start.dat", &start_book());
    let other = write(&dir, "other.dat", &book_bytes(&[(None, &[], "g3g4", 1)]));
    let elsewhere = write(
        &dir,
        "elsewhere.dat",
        &book_bytes(&[(None, &["b2e2"], "b9c7", 1)]),
    );
    let mut h = Harness::new("ucci");
    h.c.engine.set_default_book(Some(builtin));
    h.line("setoption bestbookmove true");
    h.line("position startpos");
    let best = |h: &mut Harness| book_answer(h, "go depth 30").last().unwrap().clone();
    assert_eq!(best(&mut h), "bestmove c3c4", "the default book");
    h.line(&format!("setoption bookfiles {start}"));
    assert_eq!(best(&mut h), "bestmove h2e2 ponder h9g7");
    // A new list replaces the old one; the first book that has the
    // position answers.
    h.line(&format!("setoption bookfiles {other};{start}"));
    assert_eq!(best(&mut h), "bestmove g3g4");
    h.line(&format!("setoption bookfiles {elsewhere} ; {start}"));
    assert_eq!(best(&mut h), "bestmove h2e2 ponder h9g7");
    // A list whose books lack the position: a search, not the default book.
    h.line(&format!("setoption bookfiles {elsewhere}"));
    searched(&mut h, "go depth 1");
    // Even a list that loads nothing replaces it.
    h.line(&format!(
        "setoption bookfiles {}",
        dir.join("missing.dat").display()
    ));
    assert_eq!(h.take().len(), 1);
    searched(&mut h, "go depth 1");
    // An empty list returns to the default book.
    h.line("setoption bookfiles <empty>");
    assert_eq!(best(&mut h), "bestmove c3c4");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn probe_shows_the_book_moves_before_pophash() {
    let dir = scratch_dir("book-probe");
    let book = write(&dir, "start.dat", &start_book());
    for (handshake, tag) in [("ucci", "info message"), ("uci", "info string")] {
        let mut h = with_books(handshake, &book);
        h.line("probe startpos");
        assert_eq!(
            h.take(),
            [
                format!("{tag} book h2e2:30 b2e2:10 c3c4:5 (total 45)"),
                "pophash".into()
            ]
        );
        h.line("probe startpos moves h2e2");
        assert_eq!(h.take()[0], format!("{tag} book h9g7:7 b9c7:2 (total 9)"));
        h.line("probe startpos moves a0a1");
        assert_eq!(h.take(), ["pophash"]);
        // While thinking too, at once.
        h.line("position startpos moves c3c4");
        h.line("go infinite");
        h.line("probe startpos");
        assert_eq!(h.take()[1], "pophash");
        h.line("stop");
        h.settle();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A net file with seeded weights, written to a scratch path.
fn scratch_net(name: &str, seed: u64) -> (std::path::PathBuf, crate::eval::nnue::Network) {
    use crate::eval::nnue::{Network, HIDDEN, INPUTS};
    let mut x = seed;
    let mut next = |m: i64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) as i64 % (2 * m + 1) - m) as i16
    };
    let net = Network {
        hidden_weights: (0..INPUTS * HIDDEN).map(|_| next(100)).collect(),
        hidden_bias: (0..HIDDEN).map(|_| next(100)).collect(),
        output_weights: (0..2 * HIDDEN).map(|_| next(100)).collect(),
        output_bias: vec![1234],
    };
    let path = std::env::temp_dir().join(format!("chariot-{name}-{}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    (path, net)
}

#[test]
fn evalfile_loads_a_net_and_refuses_bad_files_keeping_the_one_in_use() {
    let mut h = Harness::new("ucci");
    let start = Position::startpos();
    let classical = crate::eval::evaluate_fresh(&start);
    let builtin = match crate::eval::nets::builtin_net() {
        Some(net) => net.evaluate_fresh(&start),
        None => classical,
    };
    h.line("position startpos");
    h.line("go depth 0");
    assert_eq!(
        h.take(),
        [format!("info depth 0 score {builtin}"), "nobestmove".into()]
    );

    let (path, net) = scratch_net("good", 1);
    let by_net = net.evaluate_fresh(&start);
    h.line(&format!("setoption evalfile {}", path.display()));
    assert!(h.take().is_empty(), "a good net is loaded silently");
    h.line("go depth 0");
    assert_eq!(h.take()[0], format!("info depth 0 score {by_net}"));

    // A missing file, then a corrupt one: refused, the net stays.
    h.line("setoption evalfile /no/such/file.nnue");
    let out = h.take();
    assert!(
        out[0].starts_with("info message option evalfile '/no/such/file.nnue' refused"),
        "{out:?}"
    );
    let mut bytes = net.to_bytes();
    bytes[1000] ^= 0x40;
    let bad = path.with_extension("bad");
    std::fs::write(&bad, &bytes).unwrap();
    h.line(&format!("setoption evalfile {}", bad.display()));
    let out = h.take();
    assert!(out[0].contains("corrupt"), "{out:?}");
    h.line("go depth 0");
    assert_eq!(h.take()[0], format!("info depth 0 score {by_net}"));
    assert_eq!(h.c.options.evalfile, path.display().to_string());
    // An endless device: refused after one byte more than a net has.
    h.line("setoption evalfile /dev/zero");
    let out = h.take();
    assert!(
        out[0].contains("refused: not a Chariot net file"),
        "{out:?}"
    );
    assert_eq!(h.c.options.evalfile, path.display().to_string());

    // The classical evaluation by name, then back to the built-in one.
    h.line("setoption evalfile <classical>");
    h.line("go depth 0");
    assert_eq!(h.take()[0], format!("info depth 0 score {classical}"));
    assert_eq!(h.c.options.evalfile, "<classical>");
    h.line("setoption evalfile <built-in>");
    h.line("go depth 0");
    assert_eq!(h.take()[0], format!("info depth 0 score {builtin}"));
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(bad);
}

// ---------------------------------------------------------------------------
// Strength levels

/// The `bestmove` line that answers `go` (after the `position` set), and
/// the lines before it.
fn answer(h: &mut Harness, position: &str, go: &str) -> (String, Vec<String>) {
    h.line(position);
    h.line(go);
    h.settle();
    let mut out = h.take();
    let best = out.pop().unwrap_or_default();
    (best, out)
}

#[test]
fn strength_options_reach_the_engine_in_both_dialects() {
    for (handshake, tag, limit, elo, skill) in [
        (
            "uci",
            "info string",
            "name UCI_LimitStrength value",
            "name UCI_Elo value",
            "name Skill Level value",
        ),
        ("ucci", "info message", "limitstrength", "elo", "skilllevel"),
    ] {
        let mut h = Harness::new(handshake);
        assert_eq!(h.c.engine.settings().strength, None);
        // UCI_Elo without UCI_LimitStrength: nothing changes, and one line says so.
        h.line(&format!("setoption {elo} 1200"));
        let out = h.take();
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with(&format!("{tag} option "))
                && out[0]
                    .ends_with("1200: kept; it changes nothing until UCI_LimitStrength is true")
                    != (handshake == "ucci"),
            "{out:?}"
        );
        assert_eq!(h.c.engine.settings().strength, None);
        h.line(&format!("setoption {limit} true"));
        assert!(h.take().is_empty());
        assert_eq!(
            h.c.engine.settings().strength,
            Some(Strength::from_elo(1200))
        );
        h.line(&format!("setoption {elo} 99999"));
        assert_eq!(
            h.take(),
            [format!(
                "{tag} option {} 99999: out of range (790 to 2980); using 2980",
                elo.trim_start_matches("name ").trim_end_matches(" value")
            )]
        );
        assert_eq!(
            h.c.engine.settings().strength,
            Some(Strength::from_elo(2980))
        );
        h.line(&format!("setoption {limit} false"));
        h.line(&format!("setoption {skill} 4"));
        assert!(h.take().is_empty());
        assert_eq!(h.c.engine.settings().strength, Strength::from_skill(4));
        h.line(&format!("setoption {skill} 20"));
        assert_eq!(h.c.engine.settings().strength, None);
    }
}

#[test]
fn levels_set_while_thinking_apply_from_the_next_go() {
    let mut h = Harness::new("uci");
    h.line("position startpos");
    h.line("go infinite");
    h.line("setoption name Skill Level value 0");
    // Queued: the search in progress is a full-strength one.
    assert_eq!(h.c.engine.settings().strength, None);
    h.line("stop");
    h.settle();
    assert_eq!(h.c.engine.settings().strength, Strength::from_skill(0));
    let (best, _) = answer(&mut h, "position startpos", "go depth 30");
    legal_best(&best, &Position::startpos());
}

/// The moves of `n` searches of one position at a level, with the
/// engine's seed fixed.
fn level_moves(level: &str, seed: u64, n: usize) -> Vec<String> {
    let mut h = Harness::new("uci");
    h.c.engine.settings_mut().seed = Some(seed);
    h.line(level);
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    let position = format!("position startpos moves {}", moves.join(" "));
    (0..n)
        .map(|_| {
            let (best, _) = answer(&mut h, &position, "go depth 30");
            legal_best(&best, &after(&moves)).to_string()
        })
        .collect()
}

#[test]
fn a_level_chooses_reproducibly_with_a_fixed_seed() {
    let weakest = "setoption name Skill Level value 0";
    let a = level_moves(weakest, 11, 12);
    assert_eq!(a, level_moves(weakest, 11, 12));
    assert_ne!(a, level_moves(weakest, 12, 12));
    let mut distinct = a.clone();
    distinct.sort();
    distinct.dedup();
    assert!(
        distinct.len() >= 3,
        "the weakest level always chose {distinct:?}"
    );
}

/// Mates in one from the tactics suite, each with its mating moves.
const MATES_IN_ONE: [(&str, &[&str]); 4] = [
    (
        "Cn1ak1b2/4a4/2N1b4/8p/2p1p2c1/9/P3r4/3r5/4A4/R3KA3 b - - 0 1",
        &["h5h0"],
    ),
    (
        "5k3/3CR4/b8/9/5Nb2/9/P1P6/4B3B/4A4/4KA3 w - - 0 1",
        &["f5g7"],
    ),
    (
        "1c1ak1b1r/4a4/C5n2/C1p1p1p1p/9/2c6/PR2P1P1P/2N3N2/4A4/2BAK1BR1 b - - 0 1",
        &["c4c0"],
    ),
    (
        "r1bak1b2/9/3a5/p3p3p/2p1P4/8P/P1P3P2/2n1B4/5r3/4KABc1 b - - 0 1",
        &["f1e1", "f1f0"],
    ),
];

#[test]
fn a_mate_in_one_is_played_at_every_level() {
    let mut levels: Vec<(&str, String)> = (0..=20)
        .map(|s| ("uci", format!("setoption name Skill Level value {s}")))
        .collect();
    for elo in [790, 1000, 2980] {
        levels.push(("ucci", format!("setoption elo {elo}")));
    }
    for (handshake, level) in &levels {
        let mut h = Harness::new(handshake);
        h.line("setoption limitstrength true");
        h.line(level);
        h.take();
        let go = match *handshake {
            "uci" => "go wtime 60000 btime 60000",
            _ => "go time 60000",
        };
        for seed in 0..2 {
            h.c.engine.settings_mut().seed = Some(seed);
            for (fen, mates) in MATES_IN_ONE {
                let (best, _) = answer(&mut h, &format!("position fen {fen}"), go);
                let pos = Position::from_fen(fen).unwrap();
                let mv = legal_best(&best, &pos).to_string();
                assert!(mates.contains(&mv.as_str()), "{level}: {fen}: {best}");
            }
        }
    }
}

#[test]
fn the_weakest_level_plays_on_with_legal_moves() {
    // Red is mated next move whatever it plays: full strength resigns, or
    // accepts a draw offered; the weakest level does neither.
    let lost = "position fen 3k5/9/9/9/1r7/9/9/9/r8/4K4 w - - 0 1";
    let mut h = Harness::new("ucci");
    let (best, _) = answer(&mut h, lost, "go depth 4");
    assert!(best.ends_with(" resign"), "{best}");
    let (best, _) = answer(&mut h, lost, "go draw depth 4");
    assert!(best.ends_with(" draw"), "{best}");
    h.line("setoption skilllevel 0");
    for go in ["go depth 4", "go draw depth 4", "go draw time 1000"] {
        let (best, _) = answer(&mut h, lost, go);
        assert!(!best.contains("resign") && !best.contains("draw"), "{best}");
        legal_best(&best, &Position::from_fen(&lost[13..]).unwrap());
    }
    // A game against itself: every move legal, never a resignation.
    h.c.engine.settings_mut().seed = Some(5);
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..60 {
        let position = format!("position startpos moves {}", moves.join(" "));
        let (best, _) = answer(&mut h, &position, "go draw time 60000 opptime 60000");
        if pos.legal_moves().is_empty() {
            assert_eq!(best, "nobestmove");
            break;
        }
        assert!(!best.contains("resign") && !best.contains("draw"), "{best}");
        let mv = legal_best(&best, &pos);
        pos.make_move(mv);
        moves.push(mv.to_string());
    }
}

#[test]
fn ucci_shows_a_bound_only_when_it_proves_a_mate() {
    // UCI marks every bound; UCCI has no marks and shows a bound only when
    // it proves a mate: for the side to move (a lower bound) or against it
    // (an upper bound). Mate in 3 either way.
    let (win, loss) = (MATE - 5, -(MATE - 4));
    let cases = [
        (None, 120, true),
        (Some(Bound::Lower), 120, false),
        (Some(Bound::Upper), -120, false),
        (Some(Bound::Lower), win, true),
        (Some(Bound::Upper), win, false),
        (Some(Bound::Upper), loss, true),
        (Some(Bound::Lower), loss, false),
    ];
    for dialect in ["ucci", "uci"] {
        let uci = dialect == "uci";
        let mut h = Harness::new(dialect);
        for (bound, score, ucci_shows) in cases {
            let before = h.lines.lock().unwrap().len();
            h.c.print_info(&Info {
                depth: 9,
                seldepth: 12,
                multipv: 1,
                score,
                bound,
                nodes: 1000,
                time_ms: 10,
                hashfull: 0,
                pv: Vec::new(),
            });
            let lines = h.lines.lock().unwrap()[before..].to_vec();
            let at = format!("{dialect} {bound:?} {score}: {lines:?}");
            assert_eq!(lines.len(), usize::from(uci || ucci_shows), "{at}");
            if let Some(line) = lines.first() {
                assert_eq!(line.contains("bound"), uci && bound.is_some(), "{at}");
            }
        }
    }
}
