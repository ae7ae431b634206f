//! Win/draw/loss odds from a search score, as `UCI_ShowWDL` (`showwdl` in
//! UCCI) reports them: how often Chariot's own self-play games went on to be
//! won, drawn and lost from positions that searched to that score.
//!
//! The model is Stockfish's. With `s` the score in centipawns from the side
//! to move's view and `m` the material on the board,
//!
//! ```text
//! win  = σ(( s − a(m)) / b(m))
//! loss = σ((−s − a(m)) / b(m))
//! draw = 1 − win − loss
//! ```
//!
//! where σ is the logistic function: `a(m)` is the score at which the side
//! to move wins half its games, `b(m)` how quickly the odds change with the
//! score. Both are cubics in `x`, the material of both sides as a fraction
//! of the start position's (`material`, clamped to `MIN_MATERIAL`), so that
//! the same score means a surer win in a bare endgame than in the opening.
//! A positive `a` keeps the draw odds positive; the model is symmetric by
//! construction: the odds of `−s` are those of `s` reversed.
//!
//! `chariot-tools wdl` fits `a` and `b` by maximum likelihood on self-play
//! games and prints the constants of [`MODEL`] and the calibration of the
//! fit on held-out games (docs/EVALUATION.md, "Win/draw/loss model").

use crate::search::{mate_plies, MAX_PLY, RULE_WIN};
use xiangqi::types::{Color, PieceKind, EXCHANGE_VALUES};
use xiangqi::Position;

/// The material of both sides in the start position, by the exchange
/// values of the rules core (rook 200, horse and cannon 100, advisor and
/// elephant 40, pawn 20): the unit of the model's material measure.
pub const START_MATERIAL: i32 = 2120;

/// Less material than this counts as this much: few games get there, and
/// the fitted cubics are not trusted beyond their data.
pub const MIN_MATERIAL: i32 = 300;

/// The material of both sides, by the rules core's exchange values.
pub fn material(pos: &Position) -> i32 {
    let mut sum = 0;
    for c in Color::ALL {
        for kind in PieceKind::ALL {
            sum += EXCHANGE_VALUES[kind.index()] * pos.pieces(c, kind).count() as i32;
        }
    }
    sum
}

/// The model's parameters: the coefficients of `a(x)` and `b(x)`, constant
/// term first, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// The model fitted by `chariot-tools wdl` on 3,053 games of the built-in
/// (third-generation) net's self-play at 5,000 nodes a move
/// (docs/EVALUATION.md, "Win/draw/loss model").
pub const MODEL: Model = Model {
    a: [358.921, -838.570, 783.432, -247.545],
    b: [62.104, -60.528, 302.102, -149.660],
};

/// The model's material variable: `material` clamped to
/// `MIN_MATERIAL..=START_MATERIAL`, as a fraction of `START_MATERIAL`.
pub fn material_fraction(material: i32) -> f64 {
    f64::from(material.clamp(MIN_MATERIAL, START_MATERIAL)) / f64::from(START_MATERIAL)
}

/// `c[0] + c[1] x + c[2] x² + c[3] x³`.
pub fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

/// The logistic function.
pub fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

impl Model {
    /// `a` and `b` at material fraction `x`.
    pub fn params(&self, x: f64) -> (f64, f64) {
        (cubic(&self.a, x), cubic(&self.b, x))
    }

    /// The odds of a win, a draw and a loss for the side to move at score
    /// `score` (centipawns) with material fraction `x`.
    pub fn probabilities(&self, score: f64, x: f64) -> [f64; 3] {
        let (a, b) = self.params(x);
        let win = sigmoid((score - a) / b);
        let loss = sigmoid((-score - a) / b);
        [win, 1.0 - win - loss, loss]
    }

    /// The odds in per mille, summing to 1000, of a search score (mate
    /// scores and wins by the rules are certain) with `material` on the
    /// board.
    pub fn per_mille(&self, score: i32, material: i32) -> [u32; 3] {
        let decisive = mate_plies(score).is_some() || score.abs() >= RULE_WIN - MAX_PLY as i32;
        if decisive {
            return if score > 0 {
                [1000, 0, 0]
            } else {
                [0, 0, 1000]
            };
        }
        let [win, _, loss] = self.probabilities(f64::from(score), material_fraction(material));
        let (w, l) = (
            (1000.0 * win).round() as u32,
            (1000.0 * loss).round() as u32,
        );
        // The draw odds are positive wherever `a` is, so the rounded win
        // and loss odds never sum past 1000; the bound is for safety.
        let l = l.min(1000 - w);
        [w, 1000 - w - l, l]
    }
}

/// The fitted model's odds, in per mille, of `score` (side to move's view)
/// in position `pos`.
pub fn wdl(score: i32, pos: &Position) -> [u32; 3] {
    MODEL.per_mille(score, material(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    /// Material from the least the model tells apart to the start's.
    fn materials() -> impl Iterator<Item = i32> {
        (0..=START_MATERIAL).step_by(20)
    }

    #[test]
    fn the_start_position_has_the_start_material() {
        assert_eq!(material(&Position::startpos()), START_MATERIAL);
        let bare = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").expect("fen");
        assert_eq!(material(&bare), 0);
        assert_eq!(material_fraction(0), material_fraction(MIN_MATERIAL));
    }

    #[test]
    fn the_fitted_curves_keep_draws_possible() {
        for m in materials() {
            let (a, b) = MODEL.params(material_fraction(m));
            assert!(a > 0.0 && b > 0.0, "material {m}: a {a}, b {b}");
        }
    }

    #[test]
    fn odds_sum_to_1000_and_are_symmetric() {
        for m in materials() {
            for s in (-3000..=3000).step_by(7) {
                let wdl = MODEL.per_mille(s, m);
                assert_eq!(wdl.iter().sum::<u32>(), 1000, "score {s}, material {m}");
                let mut reversed = MODEL.per_mille(-s, m);
                reversed.reverse();
                assert_eq!(wdl, reversed, "score {s}, material {m}");
            }
        }
    }

    #[test]
    fn a_better_score_never_wins_less_or_loses_more() {
        for m in materials() {
            let mut last = MODEL.per_mille(-3000, m);
            for s in -2999..=3000 {
                let wdl = MODEL.per_mille(s, m);
                assert!(
                    wdl[0] >= last[0] && wdl[2] <= last[2],
                    "score {s}, material {m}"
                );
                last = wdl;
            }
            assert_eq!(last, [1000, 0, 0], "material {m}");
            let level = MODEL.per_mille(0, m);
            assert!(
                level[1] > 0 && level[0] == level[2],
                "material {m}: {level:?}"
            );
        }
    }

    #[test]
    fn mates_and_wins_by_the_rules_are_certain() {
        for m in [0, START_MATERIAL] {
            for score in [MATE - 1, MATE - 41, RULE_WIN - 3] {
                assert_eq!(MODEL.per_mille(score, m), [1000, 0, 0]);
                assert_eq!(MODEL.per_mille(-score, m), [0, 0, 1000]);
            }
        }
    }
}
