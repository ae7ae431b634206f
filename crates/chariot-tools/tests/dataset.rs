//! The data set's manifest and `chariot-tools data`: a tiny run added to a
//! manifest, its shards lost, damaged or half made, and made again byte for
//! byte by `data sync`; a damaged shard caught by `check --manifest`; a
//! remade shard that differs from the manifest, and a bad manifest, each
//! refused in one line.

use chariot::eval::nnue::{Network, HIDDEN, INPUTS};
use chariot_tools::gamefile::{encode_chunk, read_chunks};
use chariot_tools::manifest::{sha256_hex, Manifest};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tools(args: &[&str]) -> Output {
    tools_with_cache(args, None)
}

/// chariot-tools with `cache` as the user's cache directory (its nets/,
/// train/ and builds/ under `chariot/`).
fn tools_with_cache(args: &[&str], cache: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_chariot-tools"));
    if let Some(dir) = cache {
        cmd.env("XDG_CACHE_HOME", dir);
    }
    let out = cmd.args(args).output().expect("chariot-tools runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{}",
        text(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line starting "error:" on stderr, which must be the only one.
fn error_line(out: &Output) -> String {
    assert!(!out.status.success(), "{}", stdout(out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    errors[0].to_string()
}

/// `data add` of seed 5 at 100 nodes in two shards into `manifest`. A
/// build with uncommitted changes records them too (`--allow-dirty`): the
/// same binary makes them again.
fn add(dir: &Path, manifest: &Path, games: &str) -> Output {
    tools(&[
        "data",
        "add",
        "--dir",
        dir.to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
        "--seed",
        "5",
        "--games",
        games,
        "--nodes",
        "100",
        "--shards",
        "2",
        "--jobs",
        "1",
        "--no-idle",
        "--allow-dirty",
    ])
}

fn sync(dir: &Path, manifest: &Path) -> Output {
    tools(&[
        "data",
        "sync",
        "--dir",
        dir.to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
        "--jobs",
        "2",
        "--no-idle",
    ])
}

#[test]
fn lost_damaged_and_half_made_shards_are_made_again_byte_for_byte() {
    let root = scratch("sync");
    let (dir, manifest) = (root.join("data"), root.join("manifest.toml"));
    let out = add(&dir, &manifest, "4");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out).matches("added to the manifest").count(), 2);
    let listed = Manifest::load(&manifest, false).unwrap();
    assert_eq!(listed.shard.len(), 2);
    let mut original = Vec::new();
    for s in &listed.shard {
        let bytes = std::fs::read(dir.join(&s.name)).unwrap();
        assert_eq!(
            (bytes.len() as u64, sha256_hex(&bytes)),
            (s.bytes, s.sha256.clone())
        );
        assert_eq!(s.games, 2);
        assert!(s.positions > 0);
        assert!(s.name.contains("-s5-n100-g4-k0"), "{}", s.name);
        let check = tools(&[
            "check",
            dir.join(&s.name).to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
        ]);
        assert!(check.status.success(), "{check:?}");
        original.push(bytes);
    }
    let (first, second) = (&listed.shard[0].name, &listed.shard[1].name);

    // The first shard lost, and a stopped sync's partial file of it holding
    // its first game only; the second damaged by one byte.
    std::fs::remove_file(dir.join(first)).unwrap();
    let chunk = &read_chunks(&original[0]).0[0];
    let one = encode_chunk(chunk.header.run, 0, &chunk.games[..1]);
    std::fs::write(dir.join(format!("{first}.partial")), one).unwrap();
    let mut damaged = original[1].clone();
    let mid = damaged.len() / 2;
    damaged[mid] ^= 0x10;
    std::fs::write(dir.join(second), &damaged).unwrap();
    let check = tools(&[
        "check",
        dir.join(second).to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
    ]);
    assert!(error_line(&check).contains("damaged"));

    let out = sync(&dir, &manifest);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout(&out).matches("made again").count(),
        3,
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read(dir.join(first)).unwrap(), original[0]);
    assert_eq!(std::fs::read(dir.join(second)).unwrap(), original[1]);
    assert_eq!(
        std::fs::read(dir.join(format!("{second}.damaged"))).unwrap(),
        damaged
    );
    assert!(!dir.join(format!("{first}.partial")).exists());

    // Everything present: nothing is played.
    let out = sync(&dir, &manifest);
    assert!(
        stdout(&out).contains("2 present, 0 made again, 0 failed"),
        "{out:?}"
    );

    // The same add again goes on with the run: nothing to do. The seed in
    // a run of other settings is refused.
    let out = add(&dir, &manifest, "4");
    assert_eq!(stdout(&out).matches(": present").count(), 2, "{out:?}");
    let out = add(&dir, &manifest, "6");
    assert!(error_line(&out).contains("seed 5 is in the manifest already"));
    assert_eq!(Manifest::load(&manifest, false).unwrap(), listed);

    // A manifest whose checksum the build does not make: one line, the
    // made file kept aside, the other shard still checked.
    let text = std::fs::read_to_string(&manifest).unwrap();
    let wrong = "0".repeat(64);
    std::fs::write(&manifest, text.replace(&listed.shard[1].sha256, &wrong)).unwrap();
    std::fs::remove_file(dir.join(second)).unwrap();
    let out = sync(&dir, &manifest);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error:") && l.contains(second))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("does not make the same data again"),
        "{stderr}"
    );
    assert!(
        stdout(&out).contains("1 present, 0 made again, 1 failed"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read(dir.join(format!("{second}.mismatch"))).unwrap(),
        original[1]
    );
    assert!(!dir.join(second).exists());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_net_given_as_a_file_is_found_again_by_its_hash() {
    let root = scratch("net");
    let (dir, manifest, cache) = (root.join("data"), root.join("m.toml"), root.join("cache"));
    // A made-up net, so that none in the repository's nets/ is it.
    let made_up = Network {
        hidden_weights: (0..INPUTS * HIDDEN).map(|i| (i % 7) as i16 - 3).collect(),
        hidden_bias: vec![8; HIDDEN],
        output_weights: (0..2 * HIDDEN).map(|i| (i % 5) as i16 - 2).collect(),
        output_bias: vec![0],
    };
    let net = root.join("gen8.nnue");
    std::fs::write(&net, made_up.to_bytes()).unwrap();
    let id = made_up.short_hash();
    let out = tools(&[
        "data",
        "add",
        "--dir",
        dir.to_str().unwrap(),
        "--manifest",
        manifest.to_str().unwrap(),
        "--seed",
        "11",
        "--games",
        "1",
        "--nodes",
        "100",
        "--evalfile",
        net.to_str().unwrap(),
        "--no-idle",
        "--allow-dirty",
    ]);
    assert!(out.status.success(), "{out:?}");
    let shard = Manifest::load(&manifest, false).unwrap().shard[0].clone();
    assert_eq!(shard.net, id);
    let original = std::fs::read(dir.join(&shard.name)).unwrap();
    std::fs::remove_file(dir.join(&shard.name)).unwrap();
    // The net file gone from where it was given: a one-line error naming it.
    let kept = cache.join("chariot/nets");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::rename(&net, root.join("elsewhere.bin")).unwrap();
    let sync = |cache: &Path| {
        tools_with_cache(
            &[
                "data",
                "sync",
                "--dir",
                dir.to_str().unwrap(),
                "--manifest",
                manifest.to_str().unwrap(),
                "--no-idle",
            ],
            Some(cache),
        )
    };
    let out = sync(&cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("needs the net {id}")) && stderr.contains("chariot/nets"),
        "{stderr}"
    );
    // Under another name in the cache's nets/: found by its hash.
    std::fs::rename(root.join("elsewhere.bin"), kept.join("any-name.nnue")).unwrap();
    let out = sync(&cache);
    assert!(stdout(&out).contains("1 made again"), "{out:?}");
    assert_eq!(std::fs::read(dir.join(&shard.name)).unwrap(), original);
    let _ = std::fs::remove_dir_all(&root);
}

const GOOD: &str = r#"
[[shard]]
name = "d738824c3562-9af9af5a1b2c-s9-n5000-g64000-k03of32.cxgd"
net = "d738824c3562"
rev = "9af9af5a1b2c3d4e5f60718293a4b5c6d7e8f901"
args = ["--games", "64000", "--nodes", "5000", "--seed", "9", "--shard", "3/32", "--evalfile", "<built-in>"]
games = 2000
positions = 230000
bytes = 30000000
sha256 = "e36546fd0de752c890cc095463d023152dafe806f1c42ee6b2767571f538853c"
"#;

#[test]
fn the_repositorys_manifest_is_whole() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/manifest.toml");
    let m = Manifest::load(&path, false).unwrap_or_else(|e| panic!("{e:#}"));
    // Written as `data add` writes it: the header, then the entries.
    assert_eq!(
        m.to_text().unwrap(),
        std::fs::read_to_string(&path).unwrap()
    );
}

#[test]
fn a_bad_manifest_is_refused_in_one_line_naming_its_line() {
    let m = Manifest::parse(GOOD, "m.toml").unwrap();
    assert_eq!(m.shard[0].run().unwrap().shard, (3, 32));
    // The written form reads back the same.
    assert_eq!(Manifest::parse(&m.to_text().unwrap(), "m.toml").unwrap(), m);
    assert_eq!(Manifest::parse("", "m.toml").unwrap().shard.len(), 0);
    let cases = [
        ("games = 2000", "games = \"many\"", "line 7"),
        ("games = 2000", "games = 2000\nsize = 1", "line 8"),
        ("games = 2000", "games = 2000 x", "line 7"),
        ("games = 2000", "games = 1999", "line 3"),
        ("\"3/32\"", "\"3/31\"", "line 3"),
        ("\"--seed\"", "\"--threads\"", "line 3"),
        ("net = \"d738824c3562\"", "net = \"D738824C3562\"", "line 3"),
        ("sha256 = \"e3", "sha256 = \"", "line 3"),
    ];
    for (from, to, line) in cases {
        let text = GOOD.replace(from, to);
        let e = Manifest::parse(&text, "m.toml").unwrap_err().to_string();
        assert!(
            !e.contains('\n') && e.starts_with("m.toml") && e.contains(line),
            "{to}: {e}"
        );
    }
    let twice = format!("{GOOD}{GOOD}");
    let e = Manifest::parse(&twice, "m.toml").unwrap_err().to_string();
    assert!(e.contains("listed twice"), "{e}");

    // And from the command line: exit status 2, one line, no panic.
    let root = scratch("bad");
    let manifest = root.join("manifest.toml");
    std::fs::write(
        &manifest,
        GOOD.replace("positions = 230000", "positions = -"),
    )
    .unwrap();
    let out = sync(&root, &manifest);
    assert_eq!(out.status.code(), Some(2));
    assert!(error_line(&out).contains("manifest.toml line 8"), "{out:?}");
    let _ = std::fs::remove_dir_all(&root);
}
