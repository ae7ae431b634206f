//! The trainer: deterministic for a seed whatever the thread count, a
//! resumed run equal to an uninterrupted one, the loss going down, and the
//! quantised net agreeing with the float net within a stated tolerance.

use chariot::eval::nnue::{output_bucket, View, HIDDEN, KING_BUCKETS, OUTPUT_BUCKETS};
use chariot::xiangqi::{Color, PieceKind, Position};
use chariot_tools::datagen::{self, Config as GenConfig};
use chariot_tools::dataset;
use chariot_tools::train::{self, mean_loss, Config, Shape, Start};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Quantisation error allowed, in centipawns: weights are rounded to 1/255
/// (hidden) and 1/64 (output), and the output is cut to whole units.
const TOLERANCE_CP: f32 = 12.0;
/// The same for bucketed nets after a short run (see their test).
const BUCKETED_TOLERANCE_CP: f32 = 18.0;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(out: PathBuf, epochs: usize, threads: usize) -> Config {
    Config {
        shape: Shape::plain(HIDDEN),
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

    let run = |out: &str, threads: usize, start: Start| {
        train::train(
            &config(dir.join(out), 3, threads),
            &train_set,
            &valid,
            start,
        )
        .unwrap()
    };
    let a = run("a", 1, Start::Random);
    let b = run("b", 2, Start::Random);
    assert!(a == b, "one thread and two trained different nets");
    // Resumed from the checkpoint after its second epoch, the run ends
    // with the same net.
    let c = run(
        "c",
        2,
        Start::Resume(&dir.join("a").join("checkpoint-002.ck")),
    );
    assert!(a == c, "a resumed run differs from an uninterrupted one");
    // Learning happened.
    let untrained = train::FloatNet::random(Shape::plain(HIDDEN), 5);
    assert!(mean_loss(&a, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));

    // The quantised net, read back from its file, agrees with the float net.
    let bytes = std::fs::read(dir.join("a").join("epoch-003.nnue")).unwrap();
    let q = chariot::eval::nnue::Network::from_bytes(&bytes).unwrap();
    let mut worst = 0.0f32;
    let mut pos = Position::startpos();
    for i in 0..200 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let fl = a.evaluate(&pos);
        let qu = q.evaluate_fresh(&pos) as f32;
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

// Seven training runs, two of them of six sets of inputs: the release run
// of the test suite has it.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn bucketed_nets_train_resume_and_quantise_faithfully() {
    let dir = scratch("buckets");
    let data = self_play(&dir, 24, 10);
    let (train_set, valid, _) = dataset::load(&[&data]).unwrap();
    // A plain run, whose checkpoint resumes no bucketed run.
    let plain = train::train(
        &config(dir.join("plain"), 1, 2),
        &train_set,
        &valid,
        Start::Random,
    )
    .unwrap();
    assert_eq!(plain.shape, Shape::plain(HIDDEN));
    let plain_ck = dir.join("plain").join("checkpoint-001.ck");
    for (king_buckets, buckets) in [
        (1, OUTPUT_BUCKETS),
        (KING_BUCKETS, 1),
        (KING_BUCKETS, OUTPUT_BUCKETS),
    ] {
        let shape = Shape {
            hidden: HIDDEN,
            king_buckets,
            buckets,
        };
        let name = format!("k{king_buckets}-o{buckets}");
        let cfg = |out: &str| Config {
            shape,
            ..config(dir.join(format!("{name}-{out}")), 2, 2)
        };
        let a = train::train(&cfg("a"), &train_set, &valid, Start::Random).unwrap();
        assert_eq!(a.shape, shape);
        let ck = dir.join(format!("{name}-a")).join("checkpoint-001.ck");
        let b = train::train(&cfg("b"), &train_set, &valid, Start::Resume(&ck)).unwrap();
        assert!(
            a == b,
            "{name}: a resumed run differs from an uninterrupted one"
        );
        assert!(train::train(&cfg("c"), &train_set, &valid, Start::Resume(&plain_ck)).is_err());
        let untrained = train::FloatNet::random(shape, 5);
        assert!(mean_loss(&a, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));

        // The engine reads the quantised net, and its accumulators, kept
        // incrementally, agree with the float net in every bucket and
        // every king's view the game passes through.
        let bytes = std::fs::read(dir.join(format!("{name}-a")).join("epoch-002.nnue")).unwrap();
        let q = chariot::eval::nnue::Network::from_bytes(&bytes).unwrap();
        assert_eq!((q.king_buckets(), q.buckets()), (king_buckets, buckets));
        let mut worst = 0.0f32;
        let mut seen = std::collections::BTreeSet::new();
        let mut pos = Position::startpos();
        let mut acc = q.refresh(&pos);
        for i in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let views = Color::ALL.map(|c| View::of_king(c, pos.king_square(c)));
            seen.insert((output_bucket(&pos), views[0].offset, views[1].mirror));
            let fl = a.evaluate(&pos);
            let qu = q.evaluate(&acc, &pos) as f32;
            worst = worst.max((fl - qu).abs());
            // Kings' moves and captures first, so that the views and the
            // material (and the output bucket) change.
            let king = moves
                .iter()
                .find(|&&m| i % 3 == 0 && pos.piece_at(m.from()).kind() == PieceKind::King);
            let capture = moves.iter().find(|&&m| pos.is_capture(m));
            pos.make_move(*king.or(capture).unwrap_or(&moves[(i * 7) % moves.len()]));
            q.update(&mut acc, &pos.last_change().unwrap(), &pos);
        }
        assert!(seen.len() >= 8, "{name}: {seen:?}");
        // Buckets the short run hardly visits (a king off its back rank, a
        // board nearly bare) keep much of their random start, whose larger
        // weights round less well: a looser bound. A wrong view would miss
        // by far more, and the inputs are checked exactly in the trainer's
        // own tests.
        assert!(
            worst <= BUCKETED_TOLERANCE_CP,
            "{name}: quantised and float nets differ by {worst} cp"
        );
    }
    // King buckets mirror the board already: no symmetric tie on top.
    let symmetric = Config {
        shape: Shape {
            king_buckets: KING_BUCKETS,
            ..Shape::plain(HIDDEN)
        },
        symmetric: true,
        ..config(dir.join("sym"), 1, 2)
    };
    assert!(train::train(&symmetric, &train_set, &valid, Start::Random).is_err());
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
    let net = train::train(&cfg, &train_set, &train_set, Start::Random).unwrap();
    let untrained = train::FloatNet::random(Shape::plain(HIDDEN), 5);
    assert!(mean_loss(&net, &train_set, 0.75, 2) < mean_loss(&untrained, &train_set, 0.75, 2));
    let bytes = std::fs::read(dir.join("s").join("epoch-002.nnue")).unwrap();
    let q = chariot::eval::nnue::Network::from_bytes(&bytes).unwrap();
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
        assert_eq!(
            q.evaluate_fresh(&pos),
            q.evaluate_fresh(&mirrored),
            "{pos:?}"
        );
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
    let net =
        chariot::eval::nnue::Network::from_bytes(&std::fs::read(out.join(&file)).unwrap()).unwrap();
    let builtin = format!(
        "({file}; built in, it is nets/{})",
        chariot::eval::nets::committed_name(&net)
    );
    assert!(
        line.ends_with(&builtin),
        "{line:?} does not end with {builtin:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_starts_a_run_from_the_built_in_net_or_a_checkpoint() {
    let dir = scratch("init");
    let data = self_play(&dir, 12, 7);
    let train = |extra: &[&str], out: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
            .arg("train")
            .arg("--data")
            .arg(&data)
            .args(["--epochs", "1", "--batch", "256", "--threads", "2"])
            .args(extra)
            .arg("--out")
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let trained = |extra: &[&str], out: &str| {
        let run = train(extra, out);
        assert!(
            run.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    };
    // A learning rate too small to move a weight by a quantisation step:
    // the net written is the built-in one with its output in all 8 buckets.
    trained(
        &[
            "--init",
            "<built-in>",
            "--output-buckets",
            "8",
            "--lr",
            "1e-9",
        ],
        "o8",
    );
    let bytes = std::fs::read(dir.join("o8").join("epoch-001.nnue")).unwrap();
    let o8 = chariot::eval::nnue::Network::from_bytes(&bytes).unwrap();
    let builtin = chariot::eval::nets::builtin_net().expect("the built-in net reads");
    assert_eq!(o8.buckets(), OUTPUT_BUCKETS);
    let mut pos = Position::startpos();
    let mut buckets = std::collections::BTreeSet::new();
    for i in 0..300 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        assert_eq!(
            o8.evaluate_fresh(&pos),
            builtin.evaluate_fresh(&pos),
            "{}",
            pos.to_fen()
        );
        buckets.insert(output_bucket(&pos));
        pos.make_move(moves[(i * 7) % moves.len()]);
    }
    assert!(buckets.len() >= 3, "{buckets:?}");
    // A run started from that run's checkpoint: at the same learning rate,
    // the same net again; twice as wide, a run of its own (a width other
    // than the build's is trained, not quantised).
    let checkpoint = dir.join("o8").join("checkpoint-001.ck");
    let checkpoint = checkpoint.to_str().unwrap();
    trained(
        &[
            "--init",
            checkpoint,
            "--output-buckets",
            "8",
            "--lr",
            "1e-9",
        ],
        "again",
    );
    let again = std::fs::read(dir.join("again").join("epoch-001.nnue")).unwrap();
    assert_eq!(
        chariot::eval::nnue::Network::from_bytes(&again).unwrap(),
        o8
    );
    let wide = (2 * HIDDEN).to_string();
    trained(
        &[
            "--init",
            checkpoint,
            "--output-buckets",
            "8",
            "--hidden",
            &wide,
        ],
        "wide",
    );
    // Its checkpoint reads, and is of the wider shape.
    let widened =
        train::FloatNet::from_checkpoint_file(&dir.join("wide").join("checkpoint-001.ck")).unwrap();
    assert_eq!(
        widened.shape,
        Shape {
            hidden: 2 * HIDDEN,
            king_buckets: 1,
            buckets: OUTPUT_BUCKETS
        }
    );
    // Refused, each with its reason: the classical evaluation, a file that
    // is no net, a missing checkpoint, a net narrowed (8 output buckets
    // into 1), and a resumed run as well.
    for (args, says) in [
        (
            vec!["--init", "/nonexistent.ck"],
            "cannot read /nonexistent.ck",
        ),
        (vec!["--init", checkpoint], "the net has 8 output buckets"),
        (vec!["--init", "<classical>"], "needs a net"),
        (
            vec!["--init", "/nonexistent.nnue"],
            "--init '/nonexistent.nnue' refused",
        ),
        (
            vec!["--init", "<built-in>", "--resume", "x.ck"],
            "cannot be used with",
        ),
    ] {
        let run = train(&args, "refused");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
