//! Training positions from game-data files: every game replayed with the
//! rules core, its quiet scored positions kept (not in check, the move
//! played not a capture, no mate score), each with the search's score and
//! the game's result from the side to move's view.

use crate::gamefile::{self, UNSCORED};
use anyhow::{Context, Result};
use chariot::nnue;
use chariot::search::{MAX_PLY, RULE_WIN};
use chariot::xiangqi::{Color, Move, Position};
use std::path::Path;

/// Whether a position of a game is kept for training: searched (not a
/// random opening move), not in check, the move played not a capture, and
/// the score neither a mate nor a win by the rules.
pub fn is_training_position(pos: &Position, played: Move, score: i16) -> bool {
    score != UNSCORED
        && (score as i32).abs() < RULE_WIN - MAX_PLY as i32
        && !pos.in_check()
        && !pos.is_capture(played)
}

/// Every `VALIDATION_EVERY`th game is held out for validation.
pub const VALIDATION_EVERY: usize = 20;

/// Positions, stored compactly: the active inputs from Red's perspective
/// (Black's are derived), the side to move, the score and the result.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Inputs of every position, one after another.
    features: Vec<u16>,
    /// Where each position's inputs end in `features`.
    ends: Vec<u32>,
    /// 0 when Red is to move, 1 for Black.
    stm: Vec<u8>,
    /// The search's score, side to move's view, centipawns.
    score: Vec<i16>,
    /// The result, side to move's view, in halves (0 lost, 1 draw, 2 won).
    result: Vec<u8>,
}

/// One position, borrowed from a dataset.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Inputs from Red's perspective.
    pub red: &'a [u16],
    pub stm: Color,
    pub score: i16,
    /// 0, ½ or 1 for the side to move.
    pub result: f32,
}

/// The input index of a Red-perspective input seen from Black's side.
pub fn black_feature(red: u16) -> u16 {
    let red = red as usize;
    let (block, sq) = (red / 90, red % 90);
    let (own, kind) = (block / 7, block % 7);
    let flipped = (9 - sq / 9) * 9 + sq % 9;
    (((1 - own) * 7 + kind) * 90 + flipped) as u16
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, i: usize) -> Sample<'_> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Sample {
            red: &self.features[start..self.ends[i] as usize],
            stm: if self.stm[i] == 0 {
                Color::Red
            } else {
                Color::Black
            },
            score: self.score[i],
            result: self.result[i] as f32 / 2.0,
        }
    }

    fn push(&mut self, pos: &Position, score: i16, red_result: u8) {
        for f in nnue::active_features(pos, Color::Red) {
            self.features.push(f as u16);
        }
        self.ends.push(self.features.len() as u32);
        let stm = pos.side_to_move();
        self.stm.push(stm.index() as u8);
        self.score.push(score);
        self.result.push(match stm {
            Color::Red => red_result,
            Color::Black => 2 - red_result,
        });
    }
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub games: usize,
    pub damaged_stretches: usize,
    pub illegal_games: usize,
}

/// Loads the quiet positions of every game in `paths`, split by game into a
/// training set and a validation set (every `VALIDATION_EVERY`th game).
pub fn load(paths: &[impl AsRef<Path>]) -> Result<(Dataset, Dataset, LoadReport)> {
    let mut train = Dataset::default();
    let mut valid = Dataset::default();
    let mut report = LoadReport::default();
    for path in paths {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let (chunks, damage) = gamefile::read_chunks(&bytes);
        for d in &damage {
            eprintln!("train: {}: {d}; the rest is used", path.display());
        }
        report.damaged_stretches += damage.len();
        for game in chunks.iter().flat_map(|c| &c.games) {
            let set = if report.games % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
                &mut valid
            } else {
                &mut train
            };
            report.games += 1;
            let Ok(mut pos) = game.start_position() else {
                report.illegal_games += 1;
                continue;
            };
            let red_result = game.outcome as u8;
            for &(m, score) in &game.moves {
                if !pos.is_legal(m) {
                    report.illegal_games += 1;
                    break;
                }
                if is_training_position(&pos, m, score) {
                    set.push(&pos, score, red_result);
                }
                pos.make_move(m);
            }
        }
    }
    Ok((train, valid, report))
}
