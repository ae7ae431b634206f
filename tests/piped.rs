//! Scripts piped into the compiled binary, as `chariot < commands.txt`
//! runs them: the whole input is written at once and closed, so the end of
//! input arrives while the first search is still running. Every valid `go`
//! must get one legal `bestmove`, in order, searched to its limit, and the
//! process must exit 0.
//!
//! The fuzz test's size is `CHARIOT_FUZZ_SCRIPTS` scripts (default 20) of
//! about 30 pairs each; its seed is printed, and `CHARIOT_FUZZ_SEED` replays one.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
mod common;

use common::{assert_legal, pipe};
use std::time::Duration;
use xiangqi::Position;

/// Each search's answer in order: the deepest `info depth` it printed and
/// its `bestmove` line.
fn answers(lines: &[String]) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    let mut depth = 0;
    for l in lines {
        if let Some(rest) = l.strip_prefix("info depth ") {
            let d = rest.split_whitespace().next().and_then(|d| d.parse().ok());
            depth = depth.max(d.unwrap_or(0));
        } else if l.starts_with("bestmove") || l == "nobestmove" {
            found.push((depth, l.clone()));
            depth = 0;
        }
    }
    found
}

#[test]
fn a_piped_script_runs_every_search_to_its_depth() {
    // The example: both searches reach depth 10.
    let run = pipe(
        b"ucci\nsetoption usebook false\nposition startpos\ngo depth 10\n\
          position startpos moves h2e2\ngo depth 10\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = answers(&run.stdout);
    assert_eq!(found.len(), 2, "{:?}", run.stdout);
    assert_eq!(found[0].0, 10, "{:?}", run.stdout);
    assert_eq!(found[1].0, 10, "{:?}", run.stdout);
    assert_legal(&found[0].1, &Position::startpos());
    let mut pos = Position::startpos();
    pos.make_move(pos.parse_move("h2e2").unwrap());
    assert_legal(&found[1].1, &pos);
}

#[test]
fn searches_with_no_limit_end_with_the_input() {
    for (handshake, book) in [
        ("ucci", "setoption usebook false"),
        ("uci", "setoption name UseBook value false"),
    ] {
        for go in [
            "go infinite",
            "go",
            "go depth infinite",
            "go ponder",
            "go ponder wtime 60000 btime 60000",
            "go depth 99999999999",
        ] {
            let script = format!("{handshake}\n{book}\nposition startpos\n{go}\n");
            let run = pipe(script.as_bytes());
            assert_eq!(run.code, 0, "{go}: {}", run.stderr);
            let found = answers(&run.stdout);
            assert_eq!(found.len(), 1, "{go}: {:?}", run.stdout);
            assert_legal(&found[0].1, &Position::startpos());
            // Generous: the machine is shared (the proof measures it).
            assert!(
                run.after_eof < Duration::from_secs(5),
                "{go}: {:?}",
                run.after_eof
            );
        }
    }
}

/// A position reached by a random game from the start, with moves left to
/// play, written as a `position` command one of the two ways GUIs do.
fn random_position(rng: &mut StdRng) -> (String, Position) {
    loop {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let plies = rng.random_range(0..60);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            moves.push(m.to_string());
            pos.make_move(m);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        let line = if rng.random_bool(0.5) || moves.is_empty() {
            format!("position startpos moves {}", moves.join(" "))
        } else {
            // A FEN of the position part-way, and the moves since.
            let cut = rng.random_range(0..=moves.len());
            let mut start = Position::startpos();
            for m in &moves[..cut] {
                start.make_move(start.parse_move(m).unwrap());
            }
            format!(
                "position fen {} moves {}",
                start.to_fen(),
                moves[cut..].join(" ")
            )
        };
        return (line.trim_end().to_string(), pos);
    }
}

/// A line that is no command: broken commands, unknown words, binary
/// garbage. None of them sets or clears a position, so they may stand
/// between a `position` and its `go`.
fn garbage(rng: &mut StdRng) -> Vec<u8> {
    const BROKEN: [&str; 12] = [
        "go depth",
        "go depth many",
        "go nodes -",
        "go movetime",
        "go sideways",
        "setoption",
        "setoption name",
        "gogo depth 3",
        "positio startpos",
        "xyzzy",
        "bestmove h2e2",
        "   ",
    ];
    if rng.random_bool(0.5) {
        return BROKEN[rng.random_range(0..BROKEN.len())]
            .as_bytes()
            .to_vec();
    }
    // Bytes that start with no letter, so that no command can be read.
    let len = rng.random_range(1..200);
    let mut bytes = vec![rng.random_range(0x80..=0xffu8)];
    bytes.extend((1..len).map(|_| match rng.random_range(0u8..=255) {
        b'\n' => b' ',
        b => b,
    }));
    bytes
}

#[test]
fn fuzz_piped_scripts_answer_every_valid_go_in_order() {
    let scripts: u64 = std::env::var("CHARIOT_FUZZ_SCRIPTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let seeds: Vec<u64> = match std::env::var("CHARIOT_FUZZ_SEED") {
        Ok(seed) => vec![seed.parse().expect("CHARIOT_FUZZ_SEED is a number")],
        Err(_) => (0..scripts).map(|i| 0x5eed_0000 + i).collect(),
    };
    for seed in seeds {
        eprintln!("piped fuzz script, seed {seed}");
        let mut rng = StdRng::seed_from_u64(seed);
        let uci = rng.random_bool(0.5);
        let mut script: Vec<u8> = if uci {
            b"uci\nsetoption name UseBook value false\n".to_vec()
        } else {
            b"ucci\nsetoption usebook false\n".to_vec()
        };
        if rng.random_bool(0.5) {
            let name = if uci { "name Batch value" } else { "batch" };
            script.extend(format!("setoption {name} true\n").as_bytes());
        }
        let mut expected = Vec::new();
        for _ in 0..rng.random_range(20..40) {
            while rng.random_bool(0.3) {
                script.extend(garbage(&mut rng));
                script.push(b'\n');
            }
            let (line, pos) = random_position(&mut rng);
            script.extend(line.as_bytes());
            script.push(b'\n');
            if rng.random_bool(0.2) {
                script.extend(garbage(&mut rng));
                script.push(b'\n');
            }
            let depth = rng.random_range(1..=5u32);
            script.extend(format!("go depth {depth}\n").as_bytes());
            expected.push((depth, pos));
        }
        let run = pipe(&script);
        assert_eq!(run.code, 0, "seed {seed}: {}", run.stderr);
        let found = answers(&run.stdout);
        assert_eq!(found.len(), expected.len(), "seed {seed}: {:?}", run.stdout);
        for (i, ((depth, pos), (reached, line))) in expected.iter().zip(&found).enumerate() {
            assert_legal(line, pos);
            assert_eq!(
                reached,
                depth,
                "seed {seed}, go {i} in {}: {line}",
                pos.to_fen()
            );
        }
    }
}
