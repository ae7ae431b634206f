//! `chariot-match` end to end: real games between Chariot engine processes
//! (UCCI and UCI), against Debian's fairy-stockfish when it is installed, and against
//! small shell-script engines that crash, hang, play illegal moves or never
//! finish their handshake. Every game in every PGN is replayed with the
//! rules core: the moves must be legal and the result must follow.
//!
//! The engine is the workspace's `chariot` binary of the same profile
//! (`cargo test --workspace` builds it), or the one `CHARIOT_ENGINE` names.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use xiangqi::rules;
use xiangqi::{Color, Move, Position};

const FSF: &str = "/usr/games/fairy-stockfish";
/// No test run may take longer than this (a hung runner fails, not hangs).
const RUN_LIMIT: Duration = Duration::from_secs(90);

/// The tests run one match at a time: they measure time, and the machine
/// may be small.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The runner under test.
fn runner() -> &'static str {
    env!("CARGO_BIN_EXE_chariot-match")
}

/// The engine that plays: `CHARIOT_ENGINE`, or the workspace's `chariot`
/// binary next to this test's profile directory.
fn chariot() -> String {
    if let Some(path) = std::env::var_os("CHARIOT_ENGINE") {
        return path.to_string_lossy().into_owned();
    }
    let exe = std::env::current_exe().expect("the test's own path");
    // target/<profile>/deps/match-… → target/<profile>/chariot
    let path = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("chariot"))
        .expect("a profile directory");
    assert!(
        path.exists(),
        "no engine at {}: run `cargo build --workspace` (same profile) or set CHARIOT_ENGINE",
        path.display()
    );
    path.to_string_lossy().into_owned()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A UCCI engine written in sh. `on_go` runs for every `go` with `$n` the
/// number of `go`s so far and `first_move` printing a legal first move for
/// either side from the start position; `on_stop` runs for `stop`.
fn fake_engine(dir: &Path, name: &str, on_go: &str, on_stop: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        r#"#!/bin/sh
n=0
pos=""
first_move() {{
  case "$pos" in
    *" moves "*) echo "bestmove a6a5" ;;
    *) echo "bestmove a3a4" ;;
  esac
}}
while IFS= read -r line; do
  case "$line" in
    ucci) echo "id name {name}"; echo "option usemillisec type check default true"; echo ucciok ;;
    isready) echo readyok ;;
    position*) pos="$line" ;;
    go*) n=$((n+1)); {on_go} ;;
    stop) {on_stop} ;;
    quit) echo bye; exit 0 ;;
  esac
done
"#
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.display().to_string()
}

/// An opening file holding only the start position (so the fake engines'
/// first moves are legal).
fn startpos_openings(dir: &Path) -> String {
    let path = dir.join("start.txt");
    std::fs::write(&path, "startpos # the start\n").unwrap();
    path.display().to_string()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    pgn: String,
    seconds: f64,
}

/// Runs `chariot-match` with `args` plus `--pgn DIR/match.pgn`.
fn run_match(dir: &Path, args: &[&str]) -> Run {
    let pgn_path = dir.join("match.pgn");
    let t0 = Instant::now();
    let mut child = Command::new(runner())
        .args(args)
        .arg("--pgn")
        .arg(&pgn_path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if t0.elapsed() > RUN_LIMIT {
            child.kill().unwrap();
            panic!("chariot-match {args:?} ran over {RUN_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: out_thread.join().unwrap(),
        stderr: err_thread.join().unwrap(),
        pgn: std::fs::read_to_string(&pgn_path).unwrap_or_default(),
        seconds: t0.elapsed().as_secs_f64(),
    };
    eprintln!(
        "--- chariot-match {} ({:.1} s, exit {})\n{}{}",
        args.join(" "),
        run.seconds,
        run.code,
        run.stdout,
        run.stderr
    );
    run
}

/// One game read back from the PGN.
#[derive(Debug)]
struct Game {
    tags: Vec<(String, String)>,
    moves: Vec<Move>,
    /// The move comments (book moves included).
    comments: Vec<String>,
    reason: String,
}

impl Game {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} tag in {:?}", self.tags))
    }
}

fn parse_pgn(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    for chunk in text.split("\n\n[Event ").filter(|c| !c.trim().is_empty()) {
        let chunk = if chunk.starts_with("[Event ") {
            chunk.to_string()
        } else {
            format!("[Event {chunk}")
        };
        let (head, body) = chunk.split_once("\n\n").expect("tags, blank line, moves");
        let tags = head
            .lines()
            .map(|l| {
                let l = l.trim_start_matches('[').trim_end_matches(']');
                let (name, value) = l.split_once(' ').unwrap();
                (name.to_string(), value.trim_matches('"').to_string())
            })
            .collect();
        // Tokens: move numbers, moves, {comments}, the result.
        let mut moves = Vec::new();
        let mut comments = Vec::new();
        let mut rest = body.replace('\n', " ");
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').unwrap() + open;
            for t in rest[..open].split_whitespace() {
                if let Ok(m) = Move::parse_iccs(t) {
                    moves.push(m);
                }
            }
            comments.push(rest[open + 1..close].to_string());
            rest = rest[close + 1..].to_string();
        }
        let reason = comments.pop().unwrap_or_default();
        games.push(Game {
            tags,
            moves,
            comments,
            reason,
        });
    }
    games
}

/// The seconds a searched move's comment says it took (`+0.35/12 0.512s`).
fn comment_secs(comment: &str) -> f64 {
    comment
        .rsplit(' ')
        .next()
        .unwrap()
        .trim_end_matches('s')
        .parse()
        .unwrap_or_else(|e| panic!("{comment:?}: {e}"))
}

/// Seconds used and moves searched by each side (by `Color::index`),
/// from the game's move comments (book moves left out).
fn time_by_side(g: &Game) -> ([f64; 2], [u32; 2]) {
    let mut used = [0.0f64; 2];
    let mut moves = [0u32; 2];
    let mut side = Position::from_fen(g.tag("FEN")).unwrap().side_to_move();
    for c in &g.comments {
        if c != "book" {
            used[side.index()] += comment_secs(c);
            moves[side.index()] += 1;
        }
        side = side.flip();
    }
    (used, moves)
}

/// Replays a game with Chariot's rules: every move legal; a result by the
/// rules must be what `rules::adjudicate` says of the final position.
fn check_game(g: &Game) {
    let mut pos = Position::from_fen(g.tag("FEN")).unwrap();
    for &m in &g.moves {
        assert!(
            rules::adjudicate(&pos, rules::MOVE_LIMIT_PLIES).is_none(),
            "game {} went on after its end",
            g.tag("Round")
        );
        assert!(
            pos.is_legal(m),
            "game {}: illegal {m} in {}",
            g.tag("Round"),
            pos.to_fen()
        );
        pos.make_move(m);
    }
    assert_eq!(g.tag("PlyCount"), g.moves.len().to_string());
    assert_eq!(g.comments.len(), g.moves.len(), "a comment per move");
    let by_rules = [
        "mates",
        "stalemate",
        "perpetual",
        "repetition",
        "move limit",
        "insufficient",
    ];
    if by_rules.iter().any(|r| g.reason.contains(r)) {
        let v = rules::adjudicate(&pos, rules::MOVE_LIMIT_PLIES).unwrap_or_else(|| {
            panic!(
                "game {} ended '{}' but the rules go on",
                g.tag("Round"),
                g.reason
            )
        });
        let result = match v.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(
            g.tag("Result"),
            result,
            "game {}: {}",
            g.tag("Round"),
            g.reason
        );
        assert_eq!(g.tag("Termination"), "normal");
    }
}

/// The table row of an engine, as words.
fn row<'a>(stdout: &'a str, name: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no table row for {name} in\n{stdout}"))
        .split_whitespace()
        .collect()
}

/// Games, W, D, L, crashes, time forfeits, illegal moves, hangs of a row.
fn counts(stdout: &str, name: &str) -> [u32; 8] {
    let r = row(stdout, name);
    let n = r.len();
    let num = |s: &str| s.parse::<u32>().unwrap();
    [
        num(r[2]),
        num(r[3]),
        num(r[4]),
        num(r[5]),
        num(r[n - 4]),
        num(r[n - 3]),
        num(r[n - 2]),
        num(r[n - 1]),
    ]
}

#[test]
fn chariot_against_chariot_in_both_protocols() {
    let _serial = serial();
    let dir = scratch("selfplay");
    let c = chariot();
    let ucci = format!("cmd={c}");
    let uci = format!("cmd={c}");
    let run = run_match(
        &dir,
        &[
            "--engine",
            &ucci,
            "name=ucci-side",
            "--engine",
            &uci,
            "name=uci-side",
            "proto=uci",
            "--games",
            "4",
            "--depth",
            "2",
            "-j",
            "2",
            "--shuffle",
            "--seed",
            "11",
        ],
    );
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout.matches("Finished game").count(), 4);
    assert!(run.stdout.contains("Match finished: 4 games"));
    assert!(run.stdout.contains("pentanomial [LL LD DD+WL WD WW]"));
    // Two complete pairs: the table's Elo is the pentanomial one, and the
    // pairs line repeats it; nothing infinite or NaN anywhere.
    assert!(
        run.stdout
            .contains("Elo ± 95%: pentanomial, from game pairs with colours swapped\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(", as in the table\n"), "{}", run.stdout);
    for bad in ["+inf", "-inf", "NaN"] {
        assert!(!run.stdout.contains(bad), "{}", run.stdout);
    }
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 4);
    let mut rounds: Vec<String> = games.iter().map(|g| g.tag("Round").to_string()).collect();
    rounds.sort();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    for g in &games {
        check_game(g);
        assert_eq!(g.tag("TimeControl"), "-");
        assert!(g.tags.iter().any(|(n, _)| n == "Opening"));
        // Engine moves carry "score/depth time".
        let engine_comments: Vec<&String> = g.comments.iter().filter(|c| *c != "book").collect();
        assert!(!engine_comments.is_empty());
        assert!(
            engine_comments
                .iter()
                .all(|c| c.contains("/2 ") && c.ends_with('s')),
            "{engine_comments:?}"
        );
    }
    // The two games of a pair share their opening with colours swapped.
    for pair in [("1", "2"), ("3", "4")] {
        let a = games.iter().find(|g| g.tag("Round") == pair.0).unwrap();
        let b = games.iter().find(|g| g.tag("Round") == pair.1).unwrap();
        assert_eq!(a.tag("Opening"), b.tag("Opening"));
        assert_eq!(
            (a.tag("Red"), a.tag("Black")),
            (b.tag("Black"), b.tag("Red"))
        );
    }
    let [games_a, w, d, l, crash, time, illegal, hang] = counts(&run.stdout, "ucci-side");
    assert_eq!(games_a, 4);
    assert_eq!(w + d + l, 4);
    assert_eq!([crash, time, illegal, hang], [0; 4]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_keeps_its_own_depth_limit() {
    let _serial = serial();
    let dir = scratch("ownlimit");
    let c = chariot();
    let shallow = format!("cmd={c}");
    let deep = format!("cmd={c}");
    let run = run_match(
        &dir,
        &[
            "--engine",
            &shallow,
            "name=shallow",
            "depth=1",
            "--engine",
            &deep,
            "name=deep",
            "--depth",
            "3",
            "--games",
            "2",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 2);
    let mut searched = [0, 0];
    for g in &games {
        check_game(g);
        assert!(g.tag("FEN").contains(" w "), "{}", g.tag("FEN"));
        for (ply, comment) in g.comments.iter().enumerate() {
            // "+0.19/1 0.001s": the score, the depth, the time.
            let Some(depth) = comment
                .split_whitespace()
                .next()
                .and_then(|w| w.split_once('/'))
                .and_then(|(_, d)| d.parse::<u32>().ok())
            else {
                continue;
            };
            let player = g.tag(if ply % 2 == 0 { "Red" } else { "Black" });
            let (i, want) = if player == "shallow" { (0, 1) } else { (1, 3) };
            assert_eq!(depth, want, "{player} at ply {ply}: {comment}");
            searched[i] += 1;
        }
    }
    assert!(searched[0] > 5 && searched[1] > 5, "{searched:?}");
    // A clock cannot be replaced per engine: one clear line.
    let run = run_match(
        &dir,
        &["-e", &shallow, "depth=1", "-e", &deep, "--tc", "1+0.1"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--engine #1: depth=/nodes= replaces a per-move limit"),
        "{}",
        run.stderr
    );
}

#[test]
fn clocks_are_kept_and_respected() {
    let _serial = serial();
    let dir = scratch("clock");
    let engine = format!("cmd={}", chariot());
    let run = run_match(
        &dir,
        &[
            "--engine",
            &engine,
            "name=a",
            "--engine",
            &engine,
            "name=b",
            "--games",
            "2",
            "--tc",
            "1+0.02",
            "--maxmoves",
            "16",
            "-j",
            "2",
        ],
    );
    assert_eq!(run.code, 0);
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        check_game(g);
        assert_eq!(g.tag("TimeControl"), "1+0.02");
        // Neither side used more than its clock: base + increments + grace.
        let (used, moves) = time_by_side(g);
        for i in 0..2 {
            assert!(moves[i] > 0);
            assert!(
                used[i] <= 1.0 + 0.02 * f64::from(moves[i]) + 0.2,
                "{used:?} in {moves:?} moves"
            );
        }
    }
    assert_eq!(counts(&run.stdout, "a")[5], 0, "no time forfeits");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_odds_give_each_side_its_own_clock() {
    let _serial = serial();
    let dir = scratch("odds");
    let engine = format!("cmd={}", chariot());
    let run = run_match(
        &dir,
        &[
            "--engine",
            &engine,
            "name=fast",
            "tc=1+0.01",
            "--engine",
            &engine,
            "name=slow",
            "--games",
            "2",
            "--tc",
            "10+0.1",
            "--maxmoves",
            "16",
            "-j",
            "2",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Match finished: 2 games (time odds: fast 1+0.01 s, the other 10+0.1 s)"),
        "{}",
        run.stdout
    );
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        check_game(g);
        assert!(
            g.tags.iter().all(|(n, _)| n != "TimeControl"),
            "no common clock under odds: {:?}",
            g.tags
        );
        let own = |name: &str| {
            if name == "fast" {
                (1.0, 0.01)
            } else {
                (10.0, 0.1)
            }
        };
        let clocks = [own(g.tag("Red")), own(g.tag("Black"))];
        assert_eq!(
            g.tag("RedTimeControl"),
            format!("{}+{}", clocks[0].0, clocks[0].1)
        );
        assert_eq!(
            g.tag("BlackTimeControl"),
            format!("{}+{}", clocks[1].0, clocks[1].1)
        );
        // Each side kept within its own clock: base + increments + grace.
        let (used, moves) = time_by_side(g);
        for i in 0..2 {
            let (base, inc) = clocks[i];
            assert!(moves[i] > 0);
            assert!(
                used[i] <= base + inc * f64::from(moves[i]) + 0.2,
                "{used:?} in {moves:?} moves under {clocks:?}"
            );
        }
    }
    assert_eq!(counts(&run.stdout, "fast")[5], 0, "no time forfeits");
    assert_eq!(counts(&run.stdout, "slow")[5], 0, "no time forfeits");
    // An engine's clock needs the match to have one.
    let run = run_match(
        &dir,
        &["-e", &engine, "tc=1", "-e", &engine, "--depth", "2"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("--engine #1: tc= replaces the match's clock: give the match --tc"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gauntlet_against_fairy_stockfish() {
    let _serial = serial();
    if !Path::new(FSF).exists() {
        println!("note: {FSF} is not installed; skipping the game against fairy-stockfish");
        return;
    }
    let dir = scratch("fsf");
    let engine = format!("cmd={}", chariot());
    let fsf = format!("cmd={FSF}");
    let run = run_match(
        &dir,
        &[
            "--engine",
            &engine,
            "--engine",
            &fsf,
            "name=fsf-ucci",
            "option.Skill_Level=0",
            "--engine",
            &fsf,
            "name=fsf-uci",
            "proto=uci",
            "option.Skill Level=0",
            "--format",
            "gauntlet",
            "--games",
            "2",
            "--st",
            "0.02",
            "--maxmoves",
            "40",
            "-j",
            "2",
        ],
    );
    assert_eq!(run.code, 0);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
    assert!(run.stderr.contains("fsf-uci (uci, moves with ranks 1-10)"));
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 4);
    for g in &games {
        check_game(g);
        assert_eq!(g.tag("TimeControl"), "1/0.02");
    }
    for name in ["fsf-ucci", "fsf-uci"] {
        let [n, .., crash, time, illegal, hang] = counts(&run.stdout, name);
        assert_eq!(n, 2);
        assert_eq!([crash, time, illegal, hang], [0; 4], "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_engines_lose_are_counted_and_the_match_goes_on() {
    let _serial = serial();
    let dir = scratch("broken");
    let openings = startpos_openings(&dir);
    let crasher = fake_engine(
        &dir,
        "crasher",
        r#"if [ $n -ge 2 ]; then echo "crasher: out of luck" >&2; exit 3; fi; first_move"#,
        ":",
    );
    let illegal = fake_engine(&dir, "illegal", "echo 'bestmove e0e5'", ":");
    let hanger = fake_engine(
        &dir,
        "hanger",
        "if [ $n -ge 2 ]; then :; else first_move; fi",
        ":",
    );
    let silent = dir.join("silent");
    std::fs::write(&silent, "#!/bin/sh\nexec sleep 30\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&silent, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let engine = format!("cmd={}", chariot());
    let args = [
        "--engine".to_string(),
        engine,
        "name=chariot".into(),
        "option.Nonsense=1".into(),
        "option.hashsize=huge".into(),
        "--engine".into(),
        format!("cmd={crasher}"),
        "--engine".into(),
        format!("cmd={illegal}"),
        "--engine".into(),
        format!("cmd={hanger}"),
        "--engine".into(),
        "cmd=/nonexistent/engine".into(),
        "name=ghost".into(),
        "--engine".into(),
        format!("cmd={}", silent.display()),
        "--format".into(),
        "gauntlet".into(),
        "--games".into(),
        "2".into(),
        "--depth".into(),
        "2".into(),
        "--hang-timeout".into(),
        "0.3".into(),
        "--handshake-timeout".into(),
        "0.5".into(),
        "--openings".into(),
        openings,
        "-j".into(),
        "2".into(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_match(&dir, &args);
    assert_eq!(
        run.code, 0,
        "the match goes on without the engines that cannot play"
    );
    // One clear line for each problem.
    assert!(
        run.stderr
            .contains("engine #5 (ghost) left out: cannot start '/nonexistent/engine'"),
        "{}",
        run.stderr
    );
    assert!(run
        .stderr
        .contains("engine #6 (silent) left out: silent: no 'ucciok' within 0.5 s of 'ucci'"));
    assert!(run.stderr.contains("has no option 'Nonsense'; not set"));
    assert!(run
        .stderr
        .contains("option 'hashsize' = 'huge' is a spin option"));
    assert!(
        run.stderr.contains("crasher: out of luck"),
        "the crash report quotes the engine's stderr"
    );
    assert_eq!(run.stdout.matches("Finished game").count(), 6);
    let [n, w, ..] = counts(&run.stdout, "chariot");
    assert_eq!((n, w), (6, 6));
    // crasher: crashed in both games, so it was restarted after the first.
    assert_eq!(counts(&run.stdout, "crasher"), [2, 0, 0, 2, 2, 0, 0, 0]);
    assert_eq!(counts(&run.stdout, "illegal"), [2, 0, 0, 2, 0, 0, 2, 0]);
    assert_eq!(counts(&run.stdout, "hanger"), [2, 0, 0, 2, 0, 0, 0, 2]);
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 6);
    for g in &games {
        check_game(g);
        let loser_is_fake = g.tag("Red") != "chariot" || g.tag("Black") != "chariot";
        assert!(loser_is_fake);
        match g.tag("Termination") {
            "abandoned" => assert!(
                g.reason.contains("crashed") || g.reason.contains("hangs"),
                "{}",
                g.reason
            ),
            "rules infraction" => assert!(
                g.reason.contains("plays illegal move e0e5: "),
                "{}",
                g.reason
            ),
            other => panic!("unexpected termination {other}: {}", g.reason),
        }
    }
    // The crasher and the hanger played their first move in every game
    // (restarted after each failure).
    for g in games
        .iter()
        .filter(|g| g.reason.contains("crasher") || g.reason.contains("hanger"))
    {
        assert_eq!(
            g.moves.len(),
            if g.tag("Red") == "chariot" { 3 } else { 2 },
            "{g:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_forfeits_after_stop_and_grace() {
    let _serial = serial();
    let dir = scratch("time");
    let openings = startpos_openings(&dir);
    // Thinks forever; answers `stop` (within the grace) with a legal first
    // move, then with an illegal one.
    let stopper = fake_engine(
        &dir,
        "stopper",
        ":",
        "if [ $n -ge 2 ]; then echo 'bestmove e0e5'; else first_move; fi",
    );
    // Plays one move, then never answers, not even `stop`.
    let hanger = fake_engine(
        &dir,
        "hanger",
        "if [ $n -ge 2 ]; then :; else first_move; fi",
        ":",
    );
    let engine = format!("cmd={}", chariot());
    let run = run_match(
        &dir,
        &[
            "--engine",
            &engine,
            "name=chariot",
            "--engine",
            &format!("cmd={stopper}"),
            "--engine",
            &format!("cmd={hanger}"),
            "--format",
            "gauntlet",
            "--games",
            "2",
            "--tc",
            "0.3",
            "--grace",
            "200",
            "--openings",
            &openings,
            "-j",
            "2",
        ],
    );
    assert_eq!(run.code, 0);
    // The stopper's first move came after `stop`, inside the grace: accepted.
    assert_eq!(counts(&run.stdout, "stopper"), [2, 0, 0, 2, 0, 0, 2, 0]);
    assert_eq!(counts(&run.stdout, "hanger"), [2, 0, 0, 2, 0, 2, 0, 0]);
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 4);
    for g in &games {
        check_game(g);
        if g.reason.contains("hanger") {
            assert_eq!(g.tag("Termination"), "time forfeit");
            assert!(
                g.reason.contains("loses on time: no move within 0."),
                "{}",
                g.reason
            );
        }
        if g.reason.contains("stopper") {
            // Its first move took about the whole 0.3 s clock.
            let first = g
                .comments
                .iter()
                .enumerate()
                .find(|(i, _)| (*i == 0) == (g.tag("Red") == "stopper"))
                .unwrap()
                .1;
            let secs = comment_secs(first);
            assert!((0.29..0.5).contains(&secs), "{first}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_with_stop_false_plays_every_game_and_says_when_it_decided() {
    let _serial = serial();
    let dir = scratch("sprt-all");
    let openings = startpos_openings(&dir);
    let illegal = fake_engine(&dir, "illegal", "echo 'bestmove e0e5'", ":");
    let engine = format!("cmd={}", chariot());
    let illegal = format!("cmd={illegal}");
    let args = [
        "--engine",
        &engine,
        "name=new",
        "--engine",
        &illegal,
        "name=old",
        "--depth",
        "1",
        "--openings",
        &openings,
        "--sprt",
        "elo0=0",
        "elo1=400",
        "stop=false",
    ];
    let run = run_match(&dir, &[&args[..], &["--games", "14"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    // As in the test below, the fifth pair decides (LLR 2.989); the match
    // goes on to seven pairs, 7 × 0.5978 = 4.185.
    assert!(
        run.stdout.contains("Match finished: 14 games"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "LLR 2.989, bounds [-2.944, 2.944]: H1 accepted after 10 games; all 14 games: LLR 4.185"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(parse_pgn(&run.pgn).len(), 14);
    // Every game, with no number of games given, would be 100,000 of them.
    let run = run_match(&dir, &args);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("give --games"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_as_soon_as_it_decides() {
    let _serial = serial();
    let dir = scratch("sprt");
    let openings = startpos_openings(&dir);
    let illegal = fake_engine(&dir, "illegal", "echo 'bestmove e0e5'", ":");
    let engine = format!("cmd={}", chariot());
    let run = run_match(
        &dir,
        &[
            "--engine",
            &engine,
            "name=new",
            "--engine",
            &format!("cmd={illegal}"),
            "name=old",
            "--depth",
            "1",
            "--games",
            "100",
            "--openings",
            &openings,
            "--sprt",
            "elo0=0",
            "elo1=400",
            "alpha=0.05",
            "beta=0.05",
        ],
    );
    assert_eq!(run.code, 0);
    // Every pair is won twice: each adds ln(s1/s0) = ln(0.909091/0.5) =
    // 0.5978 to the LLR, which passes 2.944 with the fifth pair (2.989).
    assert!(
        run.stdout
            .contains("SPRT decided after 10 games (of at most 100)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("LLR 2.989, bounds [-2.944, 2.944]: H1 accepted"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("[0 0 0 0 5] over 5 pairs"));
    // Ten wins: no Elo, and too few pairs for a bound above 0.
    assert!(
        run.stdout
            .contains("[0 0 0 0 5] over 5 pairs: no losses yet, as in the table"),
        "{}",
        run.stdout
    );
    assert!(row(&run.stdout, "new")
        .join(" ")
        .contains("100.0% no losses yet"));
    assert!(row(&run.stdout, "old")
        .join(" ")
        .contains("0.0% no wins yet"));
    assert_eq!(parse_pgn(&run.pgn).len(), 10);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_openings_and_arguments_get_one_clear_line() {
    let _serial = serial();
    let dir = scratch("badinput");
    let engine = format!("cmd={}", chariot());
    let file = dir.join("openings.txt");
    std::fs::write(
        &file,
        "startpos moves h2e2 h9g7\nstartpos moves h2e9\nnot a fen at all\n",
    )
    .unwrap();
    let openings = file.display().to_string();
    let run = run_match(
        &dir,
        &[
            "-e",
            &engine,
            "-e",
            &engine,
            "--depth",
            "1",
            "--games",
            "2",
            "--openings",
            &openings,
        ],
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stderr
            .contains("openings.txt:2: skipped: move 1 (h2e9)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("openings.txt:3: skipped: FEN"),
        "{}",
        run.stderr
    );
    assert_eq!(parse_pgn(&run.pgn).len(), 2);
    // Engines that share a name are told apart.
    assert!(
        run.stdout
            .lines()
            .any(|l| l.contains("Chariot ") && l.contains(" (2)")),
        "{}",
        run.stdout
    );

    std::fs::write(&file, "garbage\n").unwrap();
    let run = run_match(
        &dir,
        &[
            "-e",
            &engine,
            "-e",
            &engine,
            "--depth",
            "1",
            "--openings",
            &openings,
        ],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no usable opening in"),
        "{}",
        run.stderr
    );

    let run = run_match(
        &dir,
        &["-e", "cmd=/nonexistent/a", "-e", &engine, "--depth", "1"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fewer than two engines can play"));

    for (args, needle) in [
        (
            vec!["-e", &engine, "-e", &engine, "--tc", "soon"],
            "--tc: time control 'soon'",
        ),
        (
            vec![
                "-e", &engine, "-e", &engine, "--depth", "2", "--sprt", "elo0=3", "elo1=1",
            ],
            "elo0 < elo1",
        ),
        (
            vec![
                "-e", &engine, "-e", &engine, "--depth", "2", "--resign", "score=7",
            ],
            "--resign needs",
        ),
        (
            vec!["-e", &engine, "-e", "proto=uci", "--depth", "2"],
            "engine without cmd",
        ),
        (vec!["-e", &engine, "--depth", "2"], "at least two"),
    ] {
        let run = run_match(&dir, &args);
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_finished_games_and_stops_the_engines() {
    let _serial = serial();
    let dir = scratch("ctrlc");
    // A wrapper that records its PID, then becomes Chariot.
    let pids = dir.join("pids");
    let wrapper = dir.join("wrapped");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho $$ >> '{}'\nexec '{}'\n",
            pids.display(),
            chariot()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let engine = format!("cmd={}", wrapper.display());
    let pgn = dir.join("match.pgn");
    let mut child = Command::new(runner())
        .args([
            "-e", &engine, "-e", &engine, "--tc", "0.5+0.01", "--games", "200", "-j", "2", "--pgn",
        ])
        .arg(&pgn)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut err = child.stderr.take().unwrap();
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut out = String::new();
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 {
        out.push_str(&line);
        let finished = line.starts_with("Finished game");
        line.clear();
        if finished {
            break;
        }
    }
    let t0 = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    out.push_str(&rest);
    let code = child.wait().unwrap().code();
    let stopped_in = t0.elapsed();
    let stderr = err_thread.join().unwrap();
    eprintln!("{out}{stderr}");
    assert_eq!(code, Some(130));
    assert!(stopped_in < Duration::from_secs(3), "{stopped_in:?}");
    assert!(stderr.contains("interrupted: stopping"));
    let finished = out.matches("Finished game").count();
    assert!(
        out.contains(&format!(
            "Match interrupted: {finished} of 200 games finished"
        )),
        "{out}"
    );
    let games = parse_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), finished);
    games.iter().for_each(check_game);
    // Every engine process is gone.
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert!(
        pids.lines().count() >= 4,
        "probes and the workers' engines started"
    );
    for pid in pids.lines() {
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "engine {pid} still running"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_move_that_crosses_stop_leaves_no_stray_answer_for_the_next_go() {
    let _serial = serial();
    let dir = scratch("crossing");
    let openings = startpos_openings(&dir);
    // Red: its first move comes after the runner's `stop` (inside the
    // grace), so it then reads that `stop` while idle and answers it with a
    // `nobestmove`, as UCCI says, a little later (as over a busy pipe).
    // Its later moves come at once.
    let racer = fake_engine(
        &dir,
        "racer",
        "case $n in 1) sleep 0.8; echo 'bestmove a3a4' ;; 2) echo 'bestmove a4a5' ;; *) echo 'bestmove a5a6 resign' ;; esac",
        "sleep 0.2; echo nobestmove",
    );
    let plain = fake_engine(
        &dir,
        "plain",
        "case $n in 1) echo 'bestmove i6i5' ;; 2) echo 'bestmove i5i4' ;; *) echo 'bestmove i4i3' ;; esac",
        ":",
    );
    let run = run_match(
        &dir,
        &[
            "--engine",
            &format!("cmd={racer}"),
            "--engine",
            &format!("cmd={plain}"),
            "--games",
            "1",
            "--tc",
            "0.5+1",
            "--grace",
            "600",
            "--openings",
            &openings,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let games = parse_pgn(&run.pgn);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    // The stray `nobestmove` did not answer Red's second `go`: Red played
    // its three moves and resigned with the third.
    assert!(!g.reason.contains("no move given"), "{}", g.reason);
    // Four plies played; the resigning move is not played.
    assert_eq!(g.tag("PlyCount"), "4", "{}", g.reason);
    assert!(g.reason.contains("resigns"), "{}", g.reason);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `chariot-match merge` with `args`: exit status, stdout, stderr.
fn run_merge(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(runner())
        .arg("merge")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let run = (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    eprintln!(
        "--- chariot-match merge {} (exit {})\n{}{}",
        args.join(" "),
        run.0,
        run.1,
        run.2
    );
    run
}

/// A deterministic match: fixed nodes, books off, so that the same game
/// is the same moves whichever process plays it.
fn fixed_node_match(engine: &str, games: &str) -> Vec<String> {
    [
        "--engine",
        engine,
        "name=first",
        "--engine",
        engine,
        "name=second",
        "option.hashsize=8",
        "--each",
        "option.usebook=false",
        "--games",
        games,
        "--nodes",
        "2000",
        "--shuffle",
        "--seed",
        "5",
        "--sprt",
        "elo0=-50",
        "elo1=50",
        "stop=false",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The report of a run or a merge: every line before the one naming the
/// PGN file.
fn report_of(stdout: &str) -> String {
    stdout
        .lines()
        .take_while(|l| !l.starts_with("Games saved") && !l.starts_with("Merged "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The game numbers of a run's "Finished game N" lines.
fn finished_numbers(stdout: &str) -> Vec<usize> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn shards_merged_are_the_unsharded_match_and_merge_refuses_what_does_not_fit() {
    let _serial = serial();
    let dir = scratch("shards");
    let engine = format!("cmd={}", chariot());
    let base = fixed_node_match(&engine, "10");
    let with = |extra: &[&str]| -> Vec<String> {
        let mut a = base.clone();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };

    // The whole match in one process, one game at a time.
    let whole = run_match(&dir, &as_refs(&with(&["-j", "1"])));
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    // Three shards, each in its own directory (each appends to its own PGN).
    let mut files = Vec::new();
    for k in 1..=3 {
        let sub = dir.join(format!("shard{k}"));
        std::fs::create_dir_all(&sub).unwrap();
        let results = sub.join("r.results").display().to_string();
        let shard = format!("{k}/3");
        let run = run_match(
            &sub,
            &as_refs(&with(&["--shard", &shard, "--results", &results])),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!("shard {k}/3: ")),
            "{}",
            run.stderr
        );
        files.push(results);
    }
    let merged_pgn = dir.join("merged.pgn").display().to_string();
    let mut args: Vec<&str> = files.iter().rev().map(String::as_str).collect();
    args.extend(["--pgn", &merged_pgn]);
    let (code, stdout, _) = run_merge(&args);
    assert_eq!(code, 0);
    // The same report, line for line: games, W/D/L, pairs, Elo, LOS, SPRT.
    assert_eq!(report_of(&stdout), report_of(&whole.stdout));
    assert!(stdout.contains("SPRT (pentanomial"), "{stdout}");
    // The same games, move for move, in game order.
    let one = parse_pgn(&whole.pgn);
    let merged = parse_pgn(&std::fs::read_to_string(&merged_pgn).unwrap());
    assert_eq!(one.len(), 10);
    assert_eq!(merged.len(), 10);
    for (i, (a, b)) in one.iter().zip(&merged).enumerate() {
        assert_eq!(b.tag("Round"), (i + 1).to_string());
        for tag in ["Round", "Red", "Black", "FEN", "Result", "Opening"] {
            assert_eq!(a.tag(tag), b.tag(tag), "game {}", i + 1);
        }
        assert_eq!(a.moves, b.moves, "game {}", i + 1);
        check_game(b);
    }

    // Refusals, each in one line on stderr, exit status 2.
    let refused = |args: &[&str], needle: &str| {
        let (code, stdout, stderr) = run_merge(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(stdout.is_empty());
    };
    let f: Vec<&str> = files.iter().map(String::as_str).collect();
    // A file given twice, and a shard given twice (a copy of its file).
    refused(&[f[0], f[1], f[0]], "is given twice");
    let copy = dir.join("copy.results").display().to_string();
    std::fs::copy(f[1], &copy).unwrap();
    refused(&[f[0], f[1], &copy, f[2]], "shard 2/3 is given twice");
    // A shard of another match: another node count.
    let other = dir.join("other.results").display().to_string();
    let text = std::fs::read_to_string(f[2]).unwrap();
    std::fs::write(
        &other,
        text.replace("setting limit 2000 nodes", "setting limit 3000 nodes"),
    )
    .unwrap();
    refused(
        &[f[0], f[1], &other],
        "are shards of different matches: limit is '2000 nodes' in one and '3000 nodes' in the other",
    );
    // Overlapping games: shard 2/3 holds pair 2 (games 3-4), as does 2/4.
    let sub = dir.join("quarter");
    std::fs::create_dir_all(&sub).unwrap();
    let quarter = sub.join("q.results").display().to_string();
    let run = run_match(
        &sub,
        &as_refs(&with(&["--shard", "2/4", "--results", &quarter])),
    );
    assert_eq!(run.code, 0);
    refused(&[f[1], &quarter], "game 3 is in both");
    // Missing games, named with their shard.
    refused(
        &[f[0], f[2]],
        "4 of 10 games are missing: shard 2/3 (no file given): 3-4, 9-10",
    );
    // Not a result file; the PGN to write is one of the inputs.
    refused(&[&whole_pgn(&dir)], "not a chariot-match result file");
    refused(&[f[0], "--pgn", f[0]], "is one of the result files");
    // --partial reports on the games there are.
    let (code, stdout, stderr) = run_merge(&[f[0], f[2], "--partial", "--pgn", &merged_pgn]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Match merged: 6 of 10 games (4 missing)"),
        "{stdout}"
    );
    assert!(
        stderr.contains("shard 2/3 (no file given): 3-4, 9-10"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn as_refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn whole_pgn(dir: &Path) -> String {
    dir.join("match.pgn").display().to_string()
}

#[cfg(unix)]
#[test]
fn a_killed_shard_keeps_its_games_and_a_rerun_plays_only_the_missing_ones() {
    let _serial = serial();
    let dir = scratch("killed");
    let engine = format!("cmd={}", chariot());
    let results = dir.join("s.results");
    let mut args = fixed_node_match(&engine, "16");
    args.extend(
        [
            "--shard",
            "2/2",
            "--results",
            &results.display().to_string(),
            "--pgn",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    args.push(dir.join("first.pgn").display().to_string());
    // Shard 2/2 plays pairs 2, 4, 6, 8: games 3-4, 7-8, 11-12, 15-16.
    let shard_games = [3, 4, 7, 8, 11, 12, 15, 16];
    let mut child = Command::new(runner())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while stdout.read_line(&mut line).unwrap() > 0 && !line.starts_with("Finished game") {
        line.clear();
    }
    // As Slurm's time limit or a node failure would: no chance to clean up.
    child.kill().unwrap();
    child.wait().unwrap();
    let first = std::fs::read_to_string(&results).unwrap();
    let kept: Vec<usize> = first
        .lines()
        .filter_map(|l| l.strip_prefix("end game "))
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        !kept.is_empty() && kept.len() < shard_games.len(),
        "{kept:?}"
    );
    // A record torn by the kill, as a write cut short leaves it.
    std::fs::write(
        &results,
        format!("{first}game 15 red=1 black=2 opening=3 result=1-0 end=normal fault=-\nreason Red mates\n| [Event \"Ch"),
    )
    .unwrap();

    // The rerun, with the same arguments: only the missing games.
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_match(&dir, &refs[..refs.len() - 2]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("torn last record"), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{} already there, {} to play",
            if kept.len() == 1 {
                "1 game".to_string()
            } else {
                format!("{} games", kept.len())
            },
            shard_games.len() - kept.len()
        )),
        "{}",
        run.stderr
    );
    let played = finished_numbers(&run.stdout);
    let mut all: Vec<usize> = kept.iter().chain(&played).copied().collect();
    all.sort();
    assert_eq!(all, shard_games, "kept {kept:?}, played {played:?}");
    // The shard's report counts its games of both runs.
    assert!(
        run.stdout
            .contains("Shard 2/2 of the match finished: 8 games"),
        "{}",
        run.stdout
    );
    // The file now holds every game of the shard once, and a third run
    // plays nothing.
    let text = std::fs::read_to_string(&results).unwrap();
    assert_eq!(text.matches("\nend game ").count(), 8);
    let again = run_match(&dir, &refs[..refs.len() - 2]);
    assert_eq!(again.code, 0);
    assert!(
        finished_numbers(&again.stdout).is_empty(),
        "{}",
        again.stdout
    );
    // Another match's rerun in the same file is refused.
    let mut other = refs[..refs.len() - 2].to_vec();
    let at = other.iter().position(|a| *a == "2000").unwrap();
    other[at] = "3000";
    let refused = run_match(&dir, &other);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains(
            "is of another match (limit is '2000 nodes' in one and '3000 nodes' in the other)"
        ),
        "{}",
        refused.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_its_sprt_stopped_is_not_played_on_when_run_again() {
    let _serial = serial();
    let dir = scratch("sprt-results");
    let openings = startpos_openings(&dir);
    let mover = fake_engine(&dir, "mover", "first_move", ":");
    let resigner = fake_engine(&dir, "resigner", "echo 'bestmove i6i5 resign'", ":");
    let results = dir.join("r.results").display().to_string();
    let args = [
        "--engine",
        &format!("cmd={mover}"),
        "--engine",
        &format!("cmd={resigner}"),
        "--games",
        "200",
        "--tc",
        "5",
        "--openings",
        &openings,
        "--sprt",
        "elo0=0",
        "elo1=100",
        "--results",
        &results,
    ];
    let first = run_match(&dir, &args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first.stdout.contains("SPRT decided after"),
        "{}",
        first.stdout
    );
    assert!(first.stdout.contains("H1 accepted"), "{}", first.stdout);
    // (Games this fast may all finish before the collector reads the one
    // that decided: every finished game is kept.)
    let played = finished_numbers(&first.stdout).len();
    let again = run_match(&dir, &args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        finished_numbers(&again.stdout).is_empty(),
        "{}",
        again.stdout
    );
    assert!(
        again.stderr.contains("the SPRT decided after") && again.stderr.contains("nothing to play"),
        "{}",
        again.stderr
    );
    assert!(
        again
            .stdout
            .contains(&format!("SPRT decided after {played} games")),
        "{}",
        again.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
