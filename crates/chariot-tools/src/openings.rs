//! Wide opening suites for engine matches (`chariot-tools openings`).
//!
//! Two deterministic engines at a fixed node count play the same game
//! whenever an opening comes round again with the same colours, so a match
//! from the 64 bundled openings holds at most 128 distinct games however
//! long it runs, and its error bar counts the repeats as news. A suite of
//! thousands of openings keeps every game of a long match distinct.
//!
//! Each opening is a bundled one continued by a few random legal plies,
//! kept when a search of the position it reaches scores it level (within
//! `max_score` centipawns), the side to move is not in check, the game is
//! not over and no earlier opening reached the same position. Candidate `i`
//! depends only on the seed and `i`, so a suite is reproducible.

use crate::datagen::search_nodes;
use anyhow::{bail, Result};
use chariot::eval::nnue::Network;
use chariot::search::{Shared, Tables};
use chariot::xiangqi::rules::{self, MOVE_LIMIT_PLIES};
use chariot::xiangqi::START_FEN;
use chariot_match::openings::Opening;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::sync::Arc;

/// How to make a suite.
#[derive(Clone, Debug)]
pub struct Config {
    /// Openings wanted.
    pub count: usize,
    /// Random plies added to a bundled opening (inclusive range).
    pub extra_plies: (usize, usize),
    /// Nodes of the search that judges each candidate.
    pub nodes: u32,
    /// The largest score (either side's) an opening is kept with.
    pub max_score: i32,
    pub seed: u64,
    /// The evaluation of the judging search (`None`: the classical one).
    pub net: Option<Arc<Network>>,
}

/// One opening of a suite, as a suite line: `startpos moves … # name +n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    pub line: String,
    /// The judging search's score, side to move's view.
    pub score: i32,
}

/// Candidates tried per opening wanted before giving up.
const TRIES_PER_OPENING: usize = 20;

/// Makes `cfg.count` openings from `base` (the bundled suite, or another).
/// `progress` is called with the openings made so far after each one.
pub fn generate(
    cfg: &Config,
    base: &[Opening],
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Made>> {
    if base.is_empty() {
        bail!("no opening to start from");
    }
    if cfg.extra_plies.0 > cfg.extra_plies.1 {
        bail!(
            "extra plies {}-{}: the first must not exceed the second",
            cfg.extra_plies.0,
            cfg.extra_plies.1
        );
    }
    let tables = Arc::new(Tables::new(4));
    let shared = Shared::default();
    let mut seen = HashSet::new();
    let mut made = Vec::new();
    let tries = cfg.count.saturating_mul(TRIES_PER_OPENING);
    for i in 0..tries as u64 {
        if made.len() == cfg.count {
            break;
        }
        let mut rng = StdRng::seed_from_u64(cfg.seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let opening = &base[rng.random_range(0..base.len())];
        let mut pos = opening.start();
        let mut moves = opening.moves.clone();
        for &m in &opening.moves {
            pos.make_move(m);
        }
        let extra = rng.random_range(cfg.extra_plies.0..=cfg.extra_plies.1);
        for _ in 0..extra {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            pos.make_move(m);
            moves.push(m);
        }
        // A side left without moves is a verdict of the rules too.
        if pos.in_check() || rules::adjudicate(&pos, MOVE_LIMIT_PLIES).is_some() {
            continue;
        }
        if !seen.insert(pos.key()) {
            continue;
        }
        tables.clear();
        let legal = pos.legal_moves();
        let (_, score) = search_nodes(&pos, &legal, cfg.nodes, &tables, &cfg.net, &shared);
        if score.abs() > cfg.max_score {
            continue;
        }
        let setup = if opening.fen == START_FEN {
            "startpos".to_string()
        } else {
            format!("fen {}", opening.fen)
        };
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let name = opening.name.as_deref().unwrap_or("opening");
        made.push(Made {
            line: format!("{setup} moves {} # {name} +{extra}", moves.join(" ")),
            score,
        });
        progress(made.len());
    }
    if made.len() < cfg.count {
        bail!(
            "only {} of {} openings after {tries} candidates: widen --max-score or --extra-plies",
            made.len(),
            cfg.count
        );
    }
    Ok(made)
}

/// The suite file: a header saying how it was made (the evaluation and
/// the suite it started from as named), then one opening per line.
pub fn suite_text(cfg: &Config, made: &[Made], evaluation: &str, from: &str) -> String {
    let mut text = format!(
        "# {} openings from `chariot-tools openings --count {} --extra-plies {}-{} \
         --nodes {} --max-score {} --seed {}` ({evaluation}, from {from}).\n\
         # Each is a bundled opening and a few random plies that a search finds level.\n",
        made.len(),
        cfg.count,
        cfg.extra_plies.0,
        cfg.extra_plies.1,
        cfg.nodes,
        cfg.max_score,
        cfg.seed
    );
    for m in made {
        text.push_str(&m.line);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use chariot_match::openings::{load, parse_suite};

    fn config(count: usize, seed: u64) -> Config {
        Config {
            count,
            extra_plies: (2, 4),
            nodes: 300,
            max_score: 80,
            seed,
            net: None,
        }
    }

    #[test]
    fn a_suite_is_level_distinct_reproducible_and_loads() {
        let base = load(None).expect("the bundled suite");
        let made = generate(&config(40, 3), &base, &mut |_| {}).expect("a suite");
        assert_eq!(made.len(), 40);
        assert!(made.iter().all(|m| m.score.abs() <= 80));
        let text: String = made.iter().map(|m| format!("{}\n", m.line)).collect();
        let (openings, problems) = parse_suite(&text, "made");
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(openings.len(), 40);
        // Distinct positions, each a bundled opening and 2-4 plies more.
        let mut keys = HashSet::new();
        for o in &openings {
            let mut pos = o.start();
            for &m in &o.moves {
                pos.make_move(m);
            }
            assert!(keys.insert(pos.key()), "{o:?}");
            let from = base
                .iter()
                .find(|b| o.moves.starts_with(&b.moves) && o.moves.len() - b.moves.len() <= 4);
            assert!(from.is_some(), "{o:?}");
            assert!(!pos.in_check());
        }
        assert_eq!(
            generate(&config(40, 3), &base, &mut |_| {}).expect("again"),
            made
        );
        assert_ne!(
            generate(&config(40, 4), &base, &mut |_| {}).expect("another seed"),
            made
        );
    }

    #[test]
    fn impossible_requests_fail_with_a_reason() {
        let base = load(None).expect("the bundled suite");
        let mut cfg = config(5, 1);
        cfg.max_score = -1;
        let e = generate(&cfg, &base, &mut |_| {}).unwrap_err().to_string();
        assert!(e.contains("only 0 of 5"), "{e}");
        cfg.max_score = 80;
        cfg.extra_plies = (4, 2);
        assert!(generate(&cfg, &base, &mut |_| {}).is_err());
        assert!(generate(&config(5, 1), &[], &mut |_| {}).is_err());
    }
}
