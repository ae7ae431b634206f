//! `chariot-tools wdl` end to end: on games datagen makes here, it prints
//! constants that make a valid model, a calibration table covering exactly
//! the held-out positions (every position with cross-validation), and its
//! verdict, with the exit status following the verdict; with
//! `--engine-model`, the engine's own model judged on every position.

use chariot::wdl::Model;
use chariot_tools::datagen::{self, Config};
use chariot_tools::wdl::{is_valid, load};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::AtomicBool;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-wdl-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 40 games of classical self-play at 60 nodes a move.
fn self_play(dir: &Path) -> PathBuf {
    let data = dir.join("games.cxgd");
    let cfg = Config {
        games: 40,
        nodes: 60,
        seed: 3,
        threads: 2,
        shard: (1, 1),
        random_plies: (4, 10),
        out: data.clone(),
        net: None,
    };
    datagen::generate(&cfg, &AtomicBool::new(false)).unwrap();
    data
}

fn wdl(data: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
        .arg("wdl")
        .arg("--data")
        .arg(data)
        .args(["--holdout", "4", "--width", "100", "--range", "300"])
        .args(["--min-positions", "100"])
        .args(args)
        .output()
        .unwrap()
}

/// The coefficients of `field` (`a` or `b`) in the printed constants.
fn coefficients(stdout: &str, field: &str) -> [f64; 4] {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{field}: [")))
        .unwrap_or_else(|| panic!("no {field} in:\n{stdout}"));
    let inner = line.split(['[', ']']).nth(1).unwrap();
    let v: Vec<f64> = inner
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    v.try_into().unwrap()
}

fn scalar(stdout: &str, field: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{field}: ")))
        .unwrap_or_else(|| panic!("no {field} in:\n{stdout}"));
    line.split([':', ','])
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// The positions in the rows of the score table.
fn table_positions(stdout: &str) -> usize {
    stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("score (cp)"))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            // The label, then positions, six rates and the error.
            words[words.len() - 8].parse::<usize>().unwrap()
        })
        .sum()
}

#[test]
fn the_command_fits_reports_and_judges() {
    let dir = scratch();
    let data = self_play(&dir);
    let (samples, report) = load(&[&data]).unwrap();
    assert_eq!(report.games, 40);
    let held = samples.iter().filter(|s| s.game % 4 == 3).count();

    let run = wdl(&data, &["--max-error", "100"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("pub const MODEL: Model = Model {"),
        "{stdout}"
    );
    let model = Model {
        a: coefficients(&stdout, "a"),
        b: coefficients(&stdout, "b"),
        d: coefficients(&stdout, "d"),
        k: scalar(&stdout, "k"),
        z: scalar(&stdout, "z"),
        p: scalar(&stdout, "p"),
        a2: scalar(&stdout, "a2"),
        b2: scalar(&stdout, "b2"),
    };
    assert!(is_valid(&model), "{model:?}");
    assert!(
        stdout.contains(&format!(
            "held out: one game in 4, {held} positions of 10 games"
        )),
        "{stdout}"
    );
    assert_eq!(table_positions(&stdout), held, "{stdout}");
    let verdict = stdout
        .lines()
        .find(|l| l.starts_with("largest |predicted - observed|"))
        .unwrap_or_else(|| panic!("no verdict in:\n{stdout}"));
    assert!(verdict.ends_with("within 100 points"), "{verdict}");

    // No model is exact on 40 games: the strictest bound fails the run.
    let run = wdl(&data, &["--max-error", "0"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(": beyond 0 points"), "{stdout}");

    // Cross-validated, the table covers every position of every game.
    let run = wdl(&data, &["--max-error", "100", "--cross-validate"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert_eq!(table_positions(&stdout), samples.len(), "{stdout}");

    // The engine's own model, judged on every game with nothing fitted.
    let run = wdl(&data, &["--max-error", "100", "--engine-model"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "the engine's model (chariot::wdl::MODEL) on all {} positions of 40 games: log-loss",
            samples.len()
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("pub const MODEL"), "{stdout}");
    assert_eq!(table_positions(&stdout), samples.len(), "{stdout}");
    let run = wdl(&data, &["--engine-model", "--cross-validate"]);
    assert_eq!(run.status.code(), Some(2));

    let run = wdl(&dir.join("missing.cxgd"), &[]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.starts_with("error: cannot read"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
