//! Training positions from game-data files: every game replayed with the
//! rules core, its quiet scored positions kept (not in check, the move
//! played not a capture, no mate score), each with the search's score and
//! the game's result from the side to move's view.

use crate::gamefile::{self, UNSCORED};
use anyhow::{Context, Result};
use chariot::eval::nnue;
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

/// The input of the same piece on the square mirrored left to right (file
/// a ↔ i): the rules are symmetric, so a position and its mirror image have
/// the same value.
pub fn mirror_feature(f: u16) -> u16 {
    let sq = f % 90;
    f - sq + sq / 9 * 9 + (8 - sq % 9)
}

impl Dataset {
    /// Every position followed by its mirror image (left to right), unless
    /// the position is its own mirror image: twice the data for the price
    /// of the games, teaching the net that both wings are alike.
    pub fn with_mirrors(&self) -> Dataset {
        let mut out = Dataset::default();
        for i in 0..self.len() {
            let s = self.get(i);
            let (stm, score, result) = (s.stm, s.score, self.result[i]);
            out.push_inputs(s.red.iter().copied(), stm, score, result);
            let mut mirrored: Vec<u16> = s.red.iter().map(|&f| mirror_feature(f)).collect();
            let mut own: Vec<u16> = s.red.to_vec();
            own.sort_unstable();
            mirrored.sort_unstable();
            if mirrored != own {
                out.push_inputs(mirrored.into_iter(), stm, score, result);
            }
        }
        out
    }

    /// Appends a position: its Red-perspective inputs, the side to move,
    /// the score and the result (both from the side to move's view).
    fn push_inputs(&mut self, red: impl Iterator<Item = u16>, stm: Color, score: i16, result: u8) {
        self.features.extend(red);
        self.ends.push(self.features.len() as u32);
        self.stm.push(stm.index() as u8);
        self.score.push(score);
        self.result.push(result);
    }

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
        let stm = pos.side_to_move();
        let result = match stm {
            Color::Red => red_result,
            Color::Black => 2 - red_result,
        };
        let inputs = nnue::active_features(pos, Color::Red);
        self.push_inputs(inputs.into_iter().map(|f| f as u16), stm, score, result);
    }
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub games: usize,
    pub damaged_stretches: usize,
    pub illegal_games: usize,
}

/// Replays every game of the files in `paths`, in file order, with the
/// rules core: `visit(game, red_result, pos, played, score)` is called for
/// each position before its move, where `game` numbers the games from 0
/// across the files and `red_result` is the result in halves for Red (0
/// lost, 1 draw, 2 won). A game that starts from a bad position or plays an
/// illegal move is counted in the report and left (at that move); damaged
/// stretches of a file are reported on stderr, prefixed by `who`, and the
/// rest of the file is used.
pub fn replay_games(
    paths: &[impl AsRef<Path>],
    who: &str,
    mut visit: impl FnMut(usize, u8, &Position, Move, i16),
) -> Result<LoadReport> {
    let mut report = LoadReport::default();
    for path in paths {
        let path = path.as_ref();
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let (chunks, damage) = gamefile::read_chunks(&bytes);
        for d in &damage {
            eprintln!("{who}: {}: {d}; the rest is used", path.display());
        }
        report.damaged_stretches += damage.len();
        for game in chunks.iter().flat_map(|c| &c.games) {
            let number = report.games;
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
                visit(number, red_result, &pos, m, score);
                pos.make_move(m);
            }
        }
    }
    Ok(report)
}

/// Loads the quiet positions of every game in `paths`, split by game into a
/// training set and a validation set (every `VALIDATION_EVERY`th game).
pub fn load(paths: &[impl AsRef<Path>]) -> Result<(Dataset, Dataset, LoadReport)> {
    let mut train = Dataset::default();
    let mut valid = Dataset::default();
    let report = replay_games(paths, "train", |game, red_result, pos, played, score| {
        if is_training_position(pos, played, score) {
            let set = if game % VALIDATION_EVERY == VALIDATION_EVERY - 1 {
                &mut valid
            } else {
                &mut train
            };
            set.push(pos, score, red_result);
        }
    })?;
    Ok((train, valid, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions of seeded random playouts from the start.
    fn positions() -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(5);
        let mut out = Vec::new();
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..rng.random_range(0..80) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.random_range(0..moves.len())]);
                out.push(pos.clone());
            }
        }
        out
    }

    fn sorted(mut v: Vec<u16>) -> Vec<u16> {
        v.sort_unstable();
        v
    }

    #[test]
    fn a_mirrored_input_is_the_mirror_image_s_input() {
        for pos in positions() {
            let inputs = |p: &Position| {
                nnue::active_features(p, Color::Red)
                    .into_iter()
                    .map(|f| f as u16)
                    .collect::<Vec<_>>()
            };
            let mirrored: Vec<u16> = inputs(&pos).into_iter().map(mirror_feature).collect();
            assert_eq!(
                sorted(mirrored),
                sorted(inputs(&pos.file_mirrored())),
                "{}",
                pos.to_fen()
            );
        }
        for f in 0..nnue::INPUTS as u16 {
            assert_eq!(mirror_feature(mirror_feature(f)), f);
            assert_eq!(mirror_feature(f) / 90, f / 90, "same piece");
        }
    }

    #[test]
    fn with_mirrors_adds_each_mirror_image_once_with_its_labels() {
        let mut data = Dataset::default();
        let start = Position::startpos();
        data.push(&start, 12, 2);
        let mut moved = start.clone();
        moved.make_move(start.parse_move("b2e2").expect("legal"));
        data.push(&moved, -30, 0);
        let both = data.with_mirrors();
        // The start is its own mirror image; the other position is not.
        assert_eq!(both.len(), 3);
        let (m, mm) = (both.get(1), both.get(2));
        assert_eq!((m.stm, m.score, m.result), (Color::Black, -30, 1.0));
        assert_eq!((mm.stm, mm.score, mm.result), (m.stm, m.score, m.result));
        let expected: Vec<u16> = nnue::active_features(&moved.file_mirrored(), Color::Red)
            .into_iter()
            .map(|f| f as u16)
            .collect();
        assert_eq!(sorted(mm.red.to_vec()), sorted(expected));
        assert_eq!(both.get(0).red, data.get(0).red);
    }
}
