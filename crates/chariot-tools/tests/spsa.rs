//! `chariot-tools spsa` end to end, with real games between two processes
//! of the engine's tuning build: a run in two sessions (the second plays
//! only the pairs the first left), the report, a state file of another run
//! refused, and SIGTERM stopping a run that then resumes. These need the
//! tuning build at CHARIOT_TUNE_BIN (scripts/test.sh passes the engine its
//! tune test built; by hand: `cargo build --release --features tune
//! --target-dir target/tune`) and are skipped without it. The refusals that
//! need no tuning build always run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-spsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn tool(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
        .arg("spsa")
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("chariot-tools runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The tuning build, or `None` (with a message) when CHARIOT_TUNE_BIN is
/// not set. A relative path is taken from the workspace's root (tests run
/// in the crate's directory).
fn tune_bin() -> Option<String> {
    match std::env::var("CHARIOT_TUNE_BIN") {
        Ok(path) if !path.is_empty() => {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            Some(root.join(path).display().to_string())
        }
        _ => {
            eprintln!(
                "skipped: CHARIOT_TUNE_BIN is not set (cargo build --release --features tune \
                 --target-dir target/tune; CHARIOT_TUNE_BIN=target/tune/release/chariot)"
            );
            None
        }
    }
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// A run of `pairs` pairs at 1000 nodes a move, tuning two parameters.
fn run_args(bin: &str, state: &Path, pairs: u32) -> Vec<String> {
    let mut args = vec![
        "--engine".to_string(),
        format!("cmd={bin}"),
        "option.hashsize=16".to_string(),
    ];
    args.extend(words(&format!(
        "--nodes 1000 --pairs {pairs} --only razor_base,futility_base --seed 3"
    )));
    args.extend(["--state".to_string(), state.display().to_string()]);
    args
}

/// The pairs finished, and θ+'s games, by the state file.
fn progress(state: &Path) -> (u64, u64) {
    let text = std::fs::read_to_string(state).unwrap_or_default();
    let mut done = 0;
    let mut games = 0;
    for line in text.lines() {
        let w: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .filter_map(|x| x.parse().ok())
            .collect();
        if line.starts_with("done ") {
            done += w[0];
        } else if line.starts_with("done-beyond ") {
            done += w.len() as u64;
        } else if line.starts_with("wdl ") {
            games = w.iter().sum();
        }
    }
    (done, games)
}

/// The pairs a run played, by its lines on stderr.
fn pairs_played(stderr: &str) -> Vec<u64> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("spsa: pair "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

#[test]
fn a_run_in_two_sessions_then_its_report() {
    let Some(bin) = tune_bin() else { return };
    let dir = temp_dir("sessions");
    let state = dir.join("run.state");
    let mut first = run_args(&bin, &state, 4);
    first.extend(words("--stop-after 2"));
    let out = tool(&first);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("stopped after 2 of 4 pairs"), "{stderr}");
    assert_eq!(pairs_played(&stderr), [1, 2], "{stderr}");
    assert!(
        stdout.starts_with("SPSA: 2 of 4 pairs (seed 3)"),
        "{stdout}"
    );
    assert_eq!(progress(&state), (2, 4));

    // The second session plays the two pairs left.
    let out = tool(&run_args(&bin, &state, 4));
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("resuming"), "{stderr}");
    assert!(stderr.contains("2 of 4 pairs done"), "{stderr}");
    assert!(stderr.contains("the run is complete"), "{stderr}");
    assert_eq!(pairs_played(&stderr), [3, 4], "{stderr}");
    assert_eq!(progress(&state), (4, 8));
    for needle in [
        "SPSA: 4 of 4 pairs (seed 3)",
        "\nname ",
        "\nrazor_base ",
        "\nfutility_base ",
        "For src/search/params.rs (tunables!):",
        ", 0, 600, 20.0;\n",
        ", 0, 300, 10.0;\n",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    let table = std::fs::read_to_string(dir.join("run.state.table.txt")).expect("table file");
    let lines = std::fs::read_to_string(dir.join("run.state.rs")).expect("lines file");
    assert!(stdout.contains(&table) && stdout.contains(&lines));
    assert!(lines.contains("    razor_base = ") && lines.contains("    futility_base = "));

    // --report says the same at any time, without an engine.
    let out = tool(&["--report".to_string(), state.display().to_string()]);
    let (report, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(report, stdout);
    println!("chariot-tools spsa --report {}:\n{report}", state.display());

    // Another run's settings are refused, and the state is left alone.
    let before = std::fs::read_to_string(&state).expect("state");
    let out = tool(&run_args(&bin, &state, 6));
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("another run's (it has 'pairs 4' where this run has 'pairs 6')"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&state).expect("state"), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_a_run_that_then_resumes() {
    let Some(bin) = tune_bin() else { return };
    let dir = temp_dir("sigterm");
    let state = dir.join("run.state");
    /// Kills the run if the test fails before it ends.
    struct Running(std::process::Child);
    impl Drop for Running {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Running(
        Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
            .arg("spsa")
            .args(run_args(&bin, &state, 6))
            .env_remove("RUST_LOG")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chariot-tools runs"),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while progress(&state).0 < 1 {
        assert!(std::time::Instant::now() < deadline, "no pair finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.0.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    let (done, games) = progress(&state);
    assert!((1..6).contains(&done), "{done} pairs done");
    assert_eq!(games, 2 * done);

    let out = tool(&run_args(&bin, &state, 6));
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("{done} of 6 pairs done")),
        "{stderr}"
    );
    assert_eq!(pairs_played(&stderr), (done + 1..=6).collect::<Vec<_>>());
    assert_eq!(progress(&state), (6, 12));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stand-in engine in sh that speaks enough UCCI to be probed, with
/// `usebook` and the option lines given.
#[cfg(unix)]
fn fake_engine(options: &str) -> Vec<String> {
    let script = format!(
        "while read -r l; do case \"$l\" in \
         ucci) echo 'id name fake'; echo 'option usebook type check default true'; {options} echo ucciok ;; \
         isready) echo readyok ;; quit) exit 0 ;; esac; done"
    );
    vec![
        "--engine".to_string(),
        "cmd=sh".to_string(),
        "arg=-c".to_string(),
        format!("arg={script}"),
    ]
}

/// Each mistake is refused with one line on stderr naming it.
#[cfg(unix)]
#[test]
fn mistakes_are_refused_in_one_line() {
    let dir = temp_dir("refusals");
    let bad_params = dir.join("bad.txt");
    std::fs::write(
        &bad_params,
        "razor_base, int, 200, 0, 600, 20, 0.002\nrazor_depth, int, 3, 1, 6\n",
    )
    .expect("write");
    let state = [
        "--state".to_string(),
        dir.join("s.state").display().to_string(),
    ];
    let narrow = "echo 'option razor_base type spin min 0 max 300 default 200';";
    let wide = "echo 'option razor_base type spin min 0 max 600 default 200';";
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            words("--engine cmd=/nonexistent/chariot --nodes 1000 --pairs 2"),
            "the engine cannot play: cannot start '/nonexistent/chariot'",
        ),
        (
            [
                fake_engine(""),
                words("--nodes 1000 --pairs 2 --only razor_base"),
            ]
            .concat(),
            "engine fake has no option razor_base: is it a tuning build",
        ),
        (
            [
                fake_engine(narrow),
                words("--nodes 1000 --pairs 2 --only razor_base"),
            ]
            .concat(),
            "option razor_base takes 0..300, less than the parameter's 0..600",
        ),
        (
            [
                fake_engine(wide),
                words("option.Hash=16 --nodes 1000 --pairs 2 --only razor_base"),
            ]
            .concat(),
            "engine fake has no option 'Hash'",
        ),
        (
            words("--engine cmd=x --nodes 1000 --pairs 2 --only razor_base,rzor"),
            "--only: unknown parameter 'rzor'",
        ),
        (
            [
                words("--engine cmd=x --nodes 1000 --pairs 2 --params"),
                vec![bad_params.display().to_string()],
            ]
            .concat(),
            "bad.txt:2: expected NAME, int, START, MIN, MAX, C_END, R_END",
        ),
        (
            words("--engine cmd=x --pairs 2"),
            "give --tc BASE[+INC] or --nodes N",
        ),
        (
            words("--engine cmd=x --tc fast --pairs 2"),
            "--tc: time control 'fast'",
        ),
        (
            words("--engine cmd=x option.razor_base=100 --nodes 1 --pairs 2"),
            "option.razor_base is a tuned parameter",
        ),
        (
            words("--engine cmd=x --nodes 1 --pairs 2 --resign score=1"),
            "--resign needs movecount=N",
        ),
        (
            words("--engine name=x --nodes 1 --pairs 2"),
            "--engine: engine without cmd=PATH",
        ),
        (
            vec![
                "--report".to_string(),
                dir.join("none.state").display().to_string(),
            ],
            "no state file",
        ),
    ];
    for (args, needle) in cases {
        let mut args = args;
        if !args.contains(&"--report".to_string()) {
            args.extend(state.iter().cloned());
        }
        let out = tool(&args);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
