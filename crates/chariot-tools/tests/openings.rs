//! `chariot-tools openings` end to end: a small suite made by the binary
//! loads in chariot-match, says how it was made, and is never overwritten;
//! a request that cannot be met leaves no file.

use chariot_match::openings::parse_suite;
use std::path::PathBuf;
use std::process::{Command, Output};

fn make(out: &PathBuf, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
        .args(["openings", "--count", "6", "--nodes", "300", "--seed", "2"])
        .args(["--evalfile", "<classical>", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("chariot-tools runs")
}

#[test]
fn a_suite_is_made_loads_and_is_never_overwritten() {
    let dir = std::env::temp_dir().join(format!("chariot-openings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("suite.txt");
    let o = make(&out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).expect("the suite");
    assert!(
        text.starts_with("# 6 openings from `chariot-tools openings --count 6 --extra-plies 2-4"),
        "{text}"
    );
    let (openings, problems) = parse_suite(&text, "suite.txt");
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(openings.len(), 6);

    let again = make(&out, &[]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwritten"));
    assert_eq!(std::fs::read_to_string(&out).expect("the suite"), text);

    let none = dir.join("none.txt");
    let o = make(&none, &["--max-score=-1"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("only 0 of 6"));
    assert!(!none.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
