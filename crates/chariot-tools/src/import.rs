//! Match games as game data (`chariot-tools import`): the PGN that
//! chariot-match writes carries each engine's score after every move
//! (`{+0.35/12 0.512s}`), so the games of a match between two builds that
//! play with the same net are training data like datagen's, searched
//! deeper. Opening moves (`{book}`) and moves without a score are stored
//! unscored, as datagen stores its random opening moves.
//!
//! A game whose result was not decided over the board (a time forfeit, an
//! illegal move, a crashed engine: any `[Termination]` but `normal` and
//! `adjudication`) is skipped, with its reason; so is a repeat of a game
//! already read. Two deterministic engines at a fixed node count replay the
//! same game whenever an opening comes round again with the same colours, so
//! a long match from a small opening suite holds few distinct games.

use crate::datagen::{count_quiet, CHUNK_GAMES};
use crate::gamefile::{self, Ending, GameRecord, Outcome, RunId, UNSCORED};
use crate::pgn::{self, Game};
use anyhow::{bail, Context, Result};
use chariot::search::MATE;
use chariot::xiangqi::rules::{self, MOVE_LIMIT_PLIES};
use chariot::xiangqi::Move;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The score a move's comment gives, in centipawns from the mover's side:
/// `+0.35/12 0.512s` is 35, `+M5` a mate in 5 moves (9 plies) and `-M3` one
/// in 3 against (6 plies), scored as the search scores mates. `UNSCORED`
/// for `book`, `-` (no score) or anything else.
pub fn score_of(comment: &str) -> i16 {
    let Some(first) = comment.split_whitespace().next() else {
        return UNSCORED;
    };
    let text = first.split('/').next().unwrap_or(first);
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'+') => (1, &text[1..]),
        Some(b'-') => (-1, &text[1..]),
        _ => return UNSCORED,
    };
    if let Some(moves) = rest.strip_prefix('M') {
        let Ok(moves) = moves.parse::<i32>() else {
            return UNSCORED;
        };
        if !(1..=250).contains(&moves) {
            return UNSCORED;
        }
        // The winner moves first: a mate in n is 2n - 1 plies away for the
        // side giving it, 2n for the side receiving it.
        let plies = if sign > 0 { 2 * moves - 1 } else { 2 * moves };
        return (sign * (MATE - plies)) as i16;
    }
    // Pawns with two decimals; the engine's centipawns are its own units.
    let Ok(pawns) = rest.parse::<f64>() else {
        return UNSCORED;
    };
    let cp = (pawns * 100.0).round();
    if !cp.is_finite() || cp.abs() >= f64::from(MATE) {
        return UNSCORED;
    }
    (f64::from(sign) * cp) as i16
}

/// A PGN game as a game-data record, or why it cannot be one.
pub fn record(game: &Game) -> Result<GameRecord, String> {
    if let Some(t) = &game.termination {
        if !["normal", "adjudication"].contains(&t.as_str()) {
            return Err(format!(
                "ended by \"{}\", not over the board",
                chariot::xiangqi::types::truncate(t)
            ));
        }
    }
    let outcome = match game.outcome {
        pgn::Outcome::RedWins => Outcome::RedWins,
        pgn::Outcome::BlackWins => Outcome::BlackWins,
        pgn::Outcome::Draw => Outcome::Draw,
    };
    let mut pos = game.start.clone();
    for &m in &game.moves {
        pos.make_move(m);
    }
    // Ended by the rules, or else by a resignation or an adjudication.
    let ending = match rules::adjudicate(&pos, MOVE_LIMIT_PLIES) {
        Some(v) => {
            if Outcome::from_winner(v.winner) != outcome {
                return Err(format!(
                    "the result ({:?}) disagrees with the rules' verdict on the last position ({:?})",
                    game.outcome,
                    v.reason
                ));
            }
            Ending::from_rules(v.reason)
        }
        None if outcome == Outcome::Draw => Ending::AdjudicatedDraw,
        None => Ending::AdjudicatedWin,
    };
    let moves = game
        .moves
        .iter()
        .zip(&game.comments)
        .map(|(&m, c)| (m, c.as_deref().map_or(UNSCORED, score_of)))
        .collect();
    Ok(GameRecord::new(&game.start, outcome, ending, moves))
}

/// What an import wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    pub games: u64,
    /// Games skipped for any reason, repeats included.
    pub skipped: u64,
    /// Games that repeat one read before them, move for move.
    pub repeats: u64,
    /// Training positions among the games' moves (`count_quiet`).
    pub positions: u64,
}

/// Reads the games of the PGN `files` and writes those that can be game
/// data to `out`, a new file (never overwritten), in chunks marked `run`.
/// Skipped games are reported on stderr with their reasons.
pub fn import(files: &[PathBuf], out: &Path, run: RunId) -> Result<Imported> {
    let mut records = Vec::new();
    let mut done = Imported::default();
    // Each distinct game read: its start position's key and its moves.
    let mut seen: HashSet<(u64, Vec<Move>)> = HashSet::new();
    for path in files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let file = pgn::read(&String::from_utf8_lossy(&bytes))
            .with_context(|| format!("{} is not PGN with ICCS moves", path.display()))?;
        if file.games.is_empty() && file.skipped.is_empty() {
            bail!("{}: no games found", path.display());
        }
        let mut skipped = file.skipped.len() as u64;
        for s in &file.skipped {
            eprintln!("import: {}: skipped {s}", path.display());
        }
        let before = records.len();
        let mut repeats = 0;
        for game in &file.games {
            // Repeats are common (see the module comment): counted, not listed.
            let key = (game.start.key(), game.moves.clone());
            if seen.contains(&key) {
                repeats += 1;
                continue;
            }
            match record(game) {
                Ok(r) => {
                    seen.insert(key);
                    records.push(r);
                }
                Err(reason) => {
                    skipped += 1;
                    let s = pgn::Skipped {
                        number: game.number,
                        line: game.line,
                        reason,
                    };
                    eprintln!("import: {}: skipped {s}", path.display());
                }
            }
        }
        eprintln!(
            "import: {}: {} games kept, {repeats} repeats of games kept, {skipped} skipped",
            path.display(),
            records.len() - before
        );
        done.skipped += skipped + repeats;
        done.repeats += repeats;
    }
    if records.is_empty() {
        bail!("no game could be imported");
    }
    let mut bytes = Vec::new();
    for (i, chunk) in records.chunks(CHUNK_GAMES).enumerate() {
        let first = u32::try_from(i * CHUNK_GAMES).context("too many games for one file")?;
        bytes.extend(gamefile::encode_chunk(run, first, chunk));
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .with_context(|| {
            format!(
                "cannot create {} (import never overwrites a file)",
                out.display()
            )
        })?;
    file.write_all(&bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", out.display()))?;
    done.games = records.len() as u64;
    done.positions = records.iter().map(count_quiet).sum();
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::count_quiet;

    #[test]
    fn scores_from_comments() {
        assert_eq!(score_of("+0.35/12 0.51s"), 35);
        assert_eq!(score_of("-1.20/9 1.23s"), -120);
        assert_eq!(score_of("+0.00/8 0.03s"), 0);
        assert_eq!(score_of("-0.03/8"), -3);
        assert_eq!(score_of("+M5/14 0.02s"), (MATE - 9) as i16);
        assert_eq!(score_of("-M3/9 0.02s"), -(MATE - 6) as i16);
        for text in [
            "book",
            "-",
            "- 0.10s",
            "",
            "+",
            "+abc/3",
            "+M0/3",
            "+M/3",
            "+1e9/3",
            "+NaN/2",
            "0.35/12",
            "+M99999999999/3",
        ] {
            assert_eq!(score_of(text), UNSCORED, "{text}");
        }
    }

    #[test]
    fn a_match_game_becomes_a_record() {
        // The tactics suite's mate in 3 (line 43), played out from its FEN.
        let text = "[Event \"m\"]\n[Result \"1-0\"]\n[Variant \"xiangqi\"]\n\
                    [FEN \"2r1kaR2/3na4/1R6c/3Np3p/9/C1P3B1P/P3P4/9/4A4/3A1KB2 w - - 0 1\"]\n\
                    [Termination \"normal\"]\n\n1. b7e7 {+M3/9 0.02s} e9d9 {-M2/9 0.01s} \
                    2. e7e8 {+M2/7 0.01s} i7i4 {-M1/3 0.01s} 3. g9f9 {+M1/1 0.01s} \
                    {Red mates} 1-0\n";
        let file = pgn::read(text).unwrap();
        assert_eq!(file.skipped, vec![]);
        let rec = record(&file.games[0]).unwrap();
        assert_eq!(rec.outcome, Outcome::RedWins);
        assert_eq!(rec.ending, Ending::Checkmate);
        assert_eq!(rec.moves.len(), 5);
        assert_eq!(rec.moves[0].1, (MATE - 5) as i16);
        assert_eq!(rec.moves[1].1, -(MATE - 4) as i16);
        // Mate scores are no training positions.
        assert_eq!(count_quiet(&rec), 0);
    }

    #[test]
    fn quiet_scored_moves_are_training_positions_and_book_moves_are_not() {
        let text = "[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]\n\n\
                    1. h2e2 {book} h9g7 {book} 2. h0g2 {+0.35/12 0.51s} i9h9 {-0.20/11 0.40s} \
                    {Draw by adjudication} 1/2-1/2\n";
        let rec = record(&pgn::read(text).unwrap().games[0]).unwrap();
        assert_eq!(rec.ending, Ending::AdjudicatedDraw);
        let scores: Vec<i16> = rec.moves.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [UNSCORED, UNSCORED, 35, -20]);
        assert_eq!(count_quiet(&rec), 2);
    }

    #[test]
    fn games_not_decided_over_the_board_are_refused() {
        let game = |termination: &str, result: &str| {
            let text = format!(
                "[Result \"{result}\"]\n[Termination \"{termination}\"]\n\n1. h2e2 {{+0.30/9}} {result}\n"
            );
            record(&pgn::read(&text).unwrap().games[0])
        };
        for t in ["time forfeit", "rules infraction", "abandoned"] {
            let e = game(t, "0-1").unwrap_err();
            assert!(e.contains("not over the board"), "{e}");
        }
        assert!(game("normal", "0-1").is_ok());
        // A result the rules contradict: Red is not mated here.
        let mate_claimed = "[Result \"0-1\"]\n[FEN \"2r1kaR2/3na4/1R6c/3Np3p/9/C1P3B1P/P3P4/9/4A4/3A1KB2 w - - 0 1\"]\n\n\
                            1. b7e7 e9d9 2. e7e8 i7i4 3. g9f9 0-1\n";
        let e = record(&pgn::read(mate_claimed).unwrap().games[0]).unwrap_err();
        assert!(e.contains("disagrees"), "{e}");
    }
}
