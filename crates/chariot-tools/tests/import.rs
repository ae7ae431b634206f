//! `chariot-tools import` end to end: games written by chariot-match's own
//! PGN writer (scores in centipawns and mates, book moves, results by the
//! rules and by adjudication, games lost on time) read back from the
//! game-data file it makes, move by move and score by score.

mod common;

use chariot::search::MATE;
use chariot::xiangqi::rules::{self, MOVE_LIMIT_PLIES};
use chariot::xiangqi::Color;
use chariot_match::dialect::Score;
use chariot_match::game::{EndKind, GameRecord, PlayedMove};
use chariot_match::pgn::{write_game, Tags};
use chariot_tools::gamefile::{self, Outcome, UNSCORED};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A score as the game data stores it: centipawns, or a mate scored as the
/// search scores it (a mate in n moves is 2n - 1 plies for the winner, 2n
/// for the loser).
fn stored(score: Option<Score>) -> i16 {
    match score {
        None => UNSCORED,
        Some(Score::Cp(cp)) => cp as i16,
        Some(Score::Mate(n)) if n > 0 => (MATE - (2 * n - 1)) as i16,
        Some(Score::Mate(n)) => -(MATE - 2 * -n) as i16,
    }
}

/// Seeded games from chariot-match's bundled openings (book moves marked as
/// such) continued by random scored moves; the result is the rules' when
/// the last position is decided, a random one by adjudication otherwise,
/// and every fifth game is lost on time.
fn games(seed: u64, n: usize) -> Vec<GameRecord> {
    let openings = chariot_match::openings::load(None).expect("bundled suite");
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let opening = &openings[i % openings.len()];
            let (mut pos, mut moves) = common::after_book(opening);
            let mut verdict = None;
            for _ in 0..rng.random_range(1..60) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.random_range(0..legal.len())];
                let score = match rng.random_range(0..10) {
                    0 => None,
                    1 => Some(Score::Mate(rng.random_range(1..=20))),
                    2 => Some(Score::Mate(-rng.random_range(1..=20))),
                    _ => Some(Score::Cp(rng.random_range(-3000..=3000))),
                };
                pos.make_move(m);
                moves.push(PlayedMove {
                    mv: m,
                    book: false,
                    score,
                    depth: Some(rng.random_range(1..30)),
                    elapsed_ms: rng.random_range(0..5000),
                });
                verdict = rules::adjudicate(&pos, MOVE_LIMIT_PLIES);
                if verdict.is_some() {
                    break;
                }
            }
            let (winner, end) = match verdict {
                Some(v) => (v.winner, EndKind::Normal),
                None if i % 5 == 4 => (Some(Color::Black), EndKind::TimeForfeit),
                None => (
                    [Some(Color::Red), Some(Color::Black), None][rng.random_range(0..3)],
                    EndKind::Adjudication,
                ),
            };
            GameRecord {
                start_fen: opening.fen.clone(),
                opening_name: opening.name.clone(),
                moves,
                winner,
                end,
                reason: "test {reason}".to_string(),
                fault: None,
            }
        })
        .collect()
}

#[test]
fn match_games_read_back_move_by_move_and_score_by_score() {
    let dir = temp_dir("roundtrip");
    let mut played = games(7, 60);
    // And a mate (the tactics suite's line 43), ended by the rules.
    let mate = ["b7e7", "e9d9", "e7e8", "i7i4", "g9f9"];
    played.push(GameRecord {
        start_fen: "2r1kaR2/3na4/1R6c/3Np3p/9/C1P3B1P/P3P4/9/4A4/3A1KB2 w - - 0 1".to_string(),
        opening_name: None,
        moves: mate
            .iter()
            .zip([3, -2, 2, -1, 1])
            .map(|(m, n)| PlayedMove {
                mv: chariot::xiangqi::Move::parse_iccs(m).expect("a move"),
                book: false,
                score: Some(Score::Mate(n)),
                depth: Some(9),
                elapsed_ms: 10,
            })
            .collect(),
        winner: Some(Color::Red),
        end: EndKind::Normal,
        reason: "Red mates".to_string(),
        fault: None,
    });
    let tags = Tags {
        event: "import test",
        site: "here",
        date: "2026.11.27",
        round: "1",
        red: "a",
        black: "b",
        time_control: ["-"; 2],
    };
    // Two files, as two matches would write them, the second replaying
    // three games of the first (as deterministic engines at fixed nodes do
    // when an opening comes round again).
    let (first, second) = played.split_at(30);
    let replayed = second.iter().chain(&first[..3]);
    let text: String = first.iter().map(|g| write_game(&tags, g)).collect();
    std::fs::write(dir.join("a.pgn"), text).expect("write pgn");
    let text: String = replayed.map(|g| write_game(&tags, g)).collect();
    std::fs::write(dir.join("b.pgn"), text).expect("write pgn");
    let out = dir.join("games.cxgd");
    let run = |out: &PathBuf| {
        Command::new(env!("CARGO_BIN_EXE_chariot-tools"))
            .args(["import", "--nodes", "40000", "--out"])
            .arg(out)
            .arg(dir.join("a.pgn"))
            .arg(dir.join("b.pgn"))
            .output()
            .expect("chariot-tools runs")
    };
    let o = run(&out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");

    let kept: Vec<&GameRecord> = played
        .iter()
        .filter(|g| g.end != EndKind::TimeForfeit)
        .collect();
    let forfeits = played.len() - kept.len();
    assert!(forfeits > 0 && kept.iter().any(|g| g.end == EndKind::Normal));
    assert_eq!(
        stderr.matches("not over the board").count(),
        forfeits,
        "{stderr}"
    );

    let bytes = std::fs::read(&out).expect("read the data");
    let (chunks, damage) = gamefile::read_chunks(&bytes);
    assert!(damage.is_empty());
    assert!(chunks.iter().all(|c| c.header.run.nodes == 40000));
    let records: Vec<_> = chunks.iter().flat_map(|c| c.games.iter()).collect();
    assert_eq!(records.len(), kept.len());
    for (g, r) in kept.iter().zip(&records) {
        // The board and the side to move (the game data keeps no counters).
        let fen = r.start_position().expect("a start position").to_fen();
        let fields = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(&fen), fields(&g.start_fen));
        let expected: Vec<_> = g.moves.iter().map(|m| (m.mv, stored(m.score))).collect();
        assert_eq!(r.moves, expected);
        let outcome = match g.winner {
            Some(Color::Red) => Outcome::RedWins,
            Some(Color::Black) => Outcome::BlackWins,
            None => Outcome::Draw,
        };
        assert_eq!(r.outcome, outcome);
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&format!(
            "{} games ({} skipped, 3 of them repeats)",
            kept.len(),
            forfeits + 3
        )),
        "{stdout}"
    );

    // The file is never overwritten.
    let before = std::fs::read(&out).expect("read");
    let again = run(&out);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));
    assert_eq!(std::fs::read(&out).expect("read"), before);
    let _ = std::fs::remove_dir_all(&dir);
}
