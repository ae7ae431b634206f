//! The tuning build (`--features tune`): every search tunable is a hidden
//! option that changes the search at run time. Run with
//! `cargo test --release --features tune --test tune`; without the feature
//! there is nothing to test here.
#![cfg(feature = "tune")]

mod common;

use chariot::search::params::TUNABLES;

/// Pipes `script` into the engine and returns its stdout and stderr.
fn run(script: &str) -> (String, String) {
    let run = common::pipe(script.as_bytes());
    assert_eq!(run.code, 0, "{}", run.stderr);
    (run.stdout.join("\n"), run.stderr)
}

/// The nodes of the last `info depth` line.
fn nodes(out: &str) -> u64 {
    let line = out
        .lines()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[i + 1].parse().expect("a number")
}

#[test]
fn every_tunable_is_advertised_in_both_dialects() {
    let (uci, _) = run("uci\n");
    let (ucci, _) = run("ucci\n");
    for t in TUNABLES {
        let want = format!(
            "option name {} type spin default {} min {} max {}",
            t.name, t.value, t.min, t.max
        );
        assert!(uci.lines().any(|l| l == want), "{want}");
        let want = format!(
            "option {} type spin min {} max {} default {}",
            t.name, t.min, t.max, t.value
        );
        assert!(ucci.lines().any(|l| l == want), "{want}");
    }
}

#[test]
fn a_tunable_set_by_option_changes_the_search() {
    let search = "position startpos\ngo depth 9\n";
    let (plain, _) = run(&format!(
        "uci\nsetoption name UseBook value false\n{search}"
    ));
    let (same, _) = run(&format!(
        "uci\nsetoption name UseBook value false\nsetoption name lmr_base_x100 value 75\n{search}"
    ));
    let (tuned, err) = run(&format!(
        "uci\nsetoption name UseBook value false\nsetoption name lmr_base_x100 value 180\n{search}"
    ));
    assert!(err.is_empty(), "{err}");
    assert_eq!(nodes(&plain), nodes(&same));
    assert_ne!(nodes(&plain), nodes(&tuned));
}

#[test]
fn tunable_values_out_of_range_are_clamped_and_bad_ones_refused() {
    let (out, err) = run("ucci\nsetoption rfp_depth 99\nsetoption name lmr_pv value x\nisready\n");
    assert!(
        out.contains("info message option rfp_depth 99 is out of range (2 to 12); using 12"),
        "{out}"
    );
    assert!(
        err.contains("option lmr_pv: value 'x' is not a number; unchanged"),
        "{err}"
    );
    assert!(out.contains("readyok"));
}
