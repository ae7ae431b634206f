//! The trainer: deterministic for a seed whatever the thread count, a
//! resumed run equal to an uninterrupted one, the loss going down, and the
//! quantised net agreeing with the float net within a stated tolerance.

use chariot::nnue::{output_bucket, HIDDEN, OUTPUT_BUCKETS};
use chariot::xiangqi::Position;
use chariot_tools::datagen::{self, Config as GenConfig};
use chariot_tools::dataset;
use chariot_tools::train::{self, mean_loss, Config};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Quantisation error allowed, in centipawns: weights are rounded to 1/255
/// (hidden) and 1/64 (output), and the output is cut to whole units.
const TOLERANCE_CP: f32 = 12.0;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(out: PathBuf, epochs: usize, threads: usize) -> Config {
    Config {
        hidden: HIDDEN,
        buckets: 1,
        epochs,
        batch: 256,
        lr: 0.01,
        lambda: 0.75,
        seed: 5,
        threads,
        out,
        symmetric: false,
    }
}

/// `games` games of classical self-play at 60 nodes a move, in `dir`.
fn self_play(dir: &std::path::Path, games: u64, seed: u64) -> PathBuf {
    let data = dir.join("games.cxgd");
    let gen = GenConfig {
        games,
        nodes: 60,
        seed,
        threads: 2,
        shard: (1, 1),
        random_plies: (4, 10),
        out: data.clone(),
        net: None,
    };
    datagen::generate(&gen, &AtomicBool::new(false)).unwrap();
    data
}

#[test]
fn training_is_deterministic_resumable_and_quantises_faithfully() {
    let dir = scratch("all");
    let data = self_play(&dir, 24, 9);
    let (train_set, valid, report) = dataset::load(&[&data]).unwrap();
    assert_eq!(report.games, 24);
    assert!(train_set.len() > 500 && !valid.is_empty());

    let a = train::train(&config(dir.join("a"), 3, 1), &train_set, &valid, None).unwrap();
    let b = train::train(&config(dir.join("b"), 3, 2), &train_set, &valid, None).unwrap();
    assert!(a == b, "one thread and two trained different nets");
    // Resumed from the checkpoint after its second epoch, the run ends
    // with the same net.
    let ck = dir.join("a").join("checkpoint-002.ck");
    let c = train::train(&config(dir.join("c"), 3, 2), &train_set, &valid, Some(&ck)).unwrap();
    assert!(a == c, "a resumed run differs from an uninterrupted one");
    // Learning happened.
    let untrained = train::FloatNet::random(HIDDEN, 1, 5);
    assert!(mean_loss(&a, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));

    // The quantised net, read back from its file, agrees with the float net.
    let bytes = std::fs::read(dir.join("a").join("epoch-003.nnue")).unwrap();
    let q = chariot::nnue::Network::from_bytes(&bytes).unwrap();
    let mut worst = 0.0f32;
    let mut pos = Position::startpos();
    for i in 0..200 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let fl = a.evaluate(&pos);
        let qu = q.evaluate(&q.refresh(&pos), &pos) as f32;
        worst = worst.max((fl - qu).abs());
        pos.make_move(moves[(i * 7) % moves.len()]);
    }
    assert!(
        worst <= TOLERANCE_CP,
        "quantised and float nets differ by {worst} cp"
    );
    eprintln!("largest quantisation difference: {worst:.2} cp");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bucketed_net_trains_resumes_and_quantises_faithfully() {
    let dir = scratch("buckets");
    let data = self_play(&dir, 24, 10);
    let (train_set, valid, _) = dataset::load(&[&data]).unwrap();
    let cfg = |out: &str| Config {
        buckets: OUTPUT_BUCKETS,
        ..config(dir.join(out), 2, 2)
    };
    let a = train::train(&cfg("a"), &train_set, &valid, None).unwrap();
    assert_eq!(a.buckets, OUTPUT_BUCKETS);
    let ck = dir.join("a").join("checkpoint-001.ck");
    let b = train::train(&cfg("b"), &train_set, &valid, Some(&ck)).unwrap();
    assert!(a == b, "a resumed run differs from an uninterrupted one");
    // A checkpoint of one output does not resume a bucketed run.
    let single = train::train(&config(dir.join("c"), 1, 2), &train_set, &valid, None).unwrap();
    assert_eq!(single.buckets, 1);
    let ck1 = dir.join("c").join("checkpoint-001.ck");
    assert!(train::train(&cfg("d"), &train_set, &valid, Some(&ck1)).is_err());
    let untrained = train::FloatNet::random(HIDDEN, OUTPUT_BUCKETS, 5);
    assert!(mean_loss(&a, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));

    // The engine reads the quantised net and agrees with the float net in
    // every bucket the game passes through.
    let bytes = std::fs::read(dir.join("a").join("epoch-002.nnue")).unwrap();
    let q = chariot::nnue::Network::from_bytes(&bytes).unwrap();
    assert_eq!(q.buckets(), OUTPUT_BUCKETS);
    let mut worst = 0.0f32;
    let mut buckets = std::collections::BTreeSet::new();
    let mut pos = Position::startpos();
    for i in 0..300 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        buckets.insert(output_bucket(&pos));
        let fl = a.evaluate(&pos);
        let qu = q.evaluate(&q.refresh(&pos), &pos) as f32;
        worst = worst.max((fl - qu).abs());
        // Captures first, so that the material (and the bucket) changes.
        let capture = moves.iter().find(|&&m| pos.is_capture(m));
        pos.make_move(*capture.unwrap_or(&moves[(i * 7) % moves.len()]));
    }
    assert!(buckets.len() >= 4, "{buckets:?}");
    assert!(
        worst <= TOLERANCE_CP,
        "quantised and float nets differ by {worst} cp"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_symmetric_net_evaluates_mirror_images_alike() {
    let dir = scratch("sym");
    let data = self_play(&dir, 12, 4);
    let (train_set, _, _) = dataset::load(&[&data]).unwrap();
    let cfg = Config {
        symmetric: true,
        ..config(dir.join("s"), 2, 2)
    };
    let net = train::train(&cfg, &train_set, &train_set, None).unwrap();
    let untrained = train::FloatNet::random(HIDDEN, 1, 5);
    assert!(mean_loss(&net, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));
    let bytes = std::fs::read(dir.join("s").join("epoch-002.nnue")).unwrap();
    let q = chariot::nnue::Network::from_bytes(&bytes).unwrap();
    let quantised = |p: &Position| q.evaluate(&q.refresh(p), p);
    let mut pos = Position::startpos();
    let mut lopsided = 0;
    for i in 0..150 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mirrored = pos.file_mirrored();
        let (a, b) = (net.evaluate(&pos), net.evaluate(&mirrored));
        assert!((a - b).abs() < 0.01, "{a} against {b} for {pos:?}");
        assert_eq!(quantised(&pos), quantised(&mirrored), "{pos:?}");
        lopsided += usize::from(mirrored != pos);
        pos.make_move(moves[(i * 5) % moves.len()]);
    }
    assert!(
        lopsided > 100,
        "the playout was too symmetric to test anything"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_names_the_best_epoch_and_the_file_it_takes_when_built_in() {
    let dir = scratch("cli");
    let data = self_play(&dir, 24, 6);
    let out = dir.join("run");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
        .arg("train")
        .arg("--data")
        .arg(&data)
        .args([
            "--epochs",
            "2",
            "--batch",
            "256",
            "--lr",
            "0.01",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("train: lowest validation loss"))
        .unwrap_or_else(|| panic!("no best-epoch line in:\n{stderr}"));
    // The epoch it names, and the name under nets/ its hash gives.
    let epoch = line
        .split("after epoch ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no epoch in {line:?}"));
    let file = format!("epoch-{:03}.nnue", epoch.parse::<usize>().unwrap());
    let net = chariot::nnue::Network::from_bytes(&std::fs::read(out.join(&file)).unwrap()).unwrap();
    let builtin = format!(
        "({file}; built in, it is nets/{})",
        chariot::nets::committed_name(&net)
    );
    assert!(
        line.ends_with(&builtin),
        "{line:?} does not end with {builtin:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
