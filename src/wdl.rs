//! Win/draw/loss odds from a search score, as `UCI_ShowWDL` (`showwdl` in
//! UCCI) reports them: how often Chariot's own self-play games went on to be
//! won, drawn and lost from positions that searched to that score.
//!
//! The model is Stockfish's with more terms. With `s` the score in
//! centipawns from the side to move's view and `m` the material on the
//! board,
//!
//! ```text
//! t    = (s − d(m)) / (1 + k |s − d(m)| / 100)
//! win  = (1 − p) σ(( t − a(m)) / b(m)) + p σ(( t − a₂) / b₂)
//! loss = (1 − p) σ((−t − a(m)) / b(m)) + p σ((−t − a₂) / b₂)
//! draw = 1 − win − loss
//! ```
//!
//! where σ is the logistic function, and:
//!
//! - `a(m)` is the score at which the side to move wins half its games and
//!   `b(m)` how quickly the odds change with the score (Stockfish's two);
//! - `d(m)` is how far the search's score flatters the side to move: in
//!   Chariot's games a side scored level goes on to lose more often than
//!   it wins, so the odds are those of the score less `d`;
//! - `k` compresses large scores: a logistic curve sharp enough for the
//!   many level positions, nearly all drawn in an endgame, is otherwise
//!   too sure of the rarer big scores, some of which are misjudged;
//! - `p`, `a₂` and `b₂` make the odds a mixture of two such curves: a
//!   share `p` of the positions, at any material, follow a second curve
//!   whose threshold `a₂` and spread `b₂` are constants. Fitted, it is a
//!   narrow box (about one position in eight stays a draw until the score
//!   passes ±130 cp, with a sharp edge): a single logistic curve per
//!   material cannot be both as sure of a draw near a level score and as
//!   quick to give it up at ±300 cp as the games are;
//! - `z` is the share of exactly level scores (0) taken as drawn: such a
//!   score is often a draw the search has found (a repetition, the move
//!   limit); the rest follow the curves.
//!
//! `a`, `b` and `d` are cubics in `x`, the material of both sides as a
//! fraction of the start position's (`material`, clamped to
//! `MIN_MATERIAL`), so that the same score means a surer win in a bare
//! endgame than in the opening. Positive `a` and `a₂` keep the draw odds
//! positive; each curve's win odds grow with the score, so the mixture's
//! do too. Around `d` the model is symmetric: the odds of `d − u` are
//! those of `d + u` reversed. With `d`, `k`, `p` and `z` zero it is
//! Stockfish's.
//!
//! `chariot-tools wdl` fits all of them by maximum likelihood on self-play
//! games and prints the constants of [`MODEL`] and the calibration of the
//! fit on held-out games (docs/EVALUATION.md, "Win/draw/loss model").

use crate::search::decisive;
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

/// The model's parameters: the coefficients of `a(x)`, `b(x)` and `d(x)`,
/// constant term first, in centipawns, the compression `k` (at least
/// zero), the drawn share `z` of exactly level scores (`0..1`), and the
/// second curve: its share `p` (`0..1`), threshold `a2` and spread `b2`
/// (centipawns, positive).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
    pub d: [f64; 4],
    pub k: f64,
    pub z: f64,
    pub p: f64,
    pub a2: f64,
    pub b2: f64,
}

/// The model fitted by `chariot-tools wdl` on 13,482 games (1,774,172
/// positions) of the fifth-generation net's self-play at 5,000 nodes a
/// move, every tenth of 14,980 games held out (docs/EVALUATION.md,
/// "Win/draw/loss model").
pub const MODEL: Model = Model {
    a: [344.587, -672.269, 478.292, -115.471],
    b: [61.916, -153.282, 709.148, -471.011],
    d: [-0.659, 2.153, 51.353, -32.801],
    k: 0.0356,
    z: 0.1130,
    p: 0.1301,
    a2: 133.221,
    b2: 26.906,
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

/// A score less the bias `d`, compressed by `k`: `t / (1 + k |t| / 100)`
/// with `t = score − d`.
pub fn compress(score: f64, d: f64, k: f64) -> f64 {
    let t = score - d;
    t / (1.0 + k * t.abs() / 100.0)
}

/// The logistic function.
pub fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

impl Model {
    /// `a`, `b` and `d` at material fraction `x`.
    pub fn params(&self, x: f64) -> (f64, f64, f64) {
        (cubic(&self.a, x), cubic(&self.b, x), cubic(&self.d, x))
    }

    /// The odds of a win, a draw and a loss for the side to move at score
    /// `score` (centipawns) with material fraction `x`.
    pub fn probabilities(&self, score: f64, x: f64) -> [f64; 3] {
        let (a, b, d) = self.params(x);
        let t = compress(score, d, self.k);
        let (p, q) = (self.p, 1.0 - self.p);
        let win = q * sigmoid((t - a) / b) + p * sigmoid((t - self.a2) / self.b2);
        let loss = q * sigmoid((-t - a) / b) + p * sigmoid((-t - self.a2) / self.b2);
        if score == 0.0 {
            let keep = 1.0 - self.z;
            return [keep * win, 1.0 - keep * (win + loss), keep * loss];
        }
        [win, 1.0 - win - loss, loss]
    }

    /// The odds in per mille, summing to 1000, of a search score (mate
    /// scores and wins by the rules are certain) with `material` on the
    /// board.
    pub fn per_mille(&self, score: i32, material: i32) -> [u32; 3] {
        if decisive(score) {
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
        // The draw odds are positive wherever `a` and `a2` are, so the rounded win
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
    use crate::search::{MATE, RULE_WIN};

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
            let (a, b, _) = MODEL.params(material_fraction(m));
            assert!(a > 0.0 && b > 0.0, "material {m}: a {a}, b {b}");
        }
        // The second curve's, the compression and the shares, checked as
        // the tests compile.
        const {
            assert!(MODEL.a2 > 0.0 && MODEL.b2 > 0.0 && MODEL.k >= 0.0);
            assert!(MODEL.p >= 0.0 && MODEL.p < 1.0 && MODEL.z >= 0.0 && MODEL.z < 1.0);
        }
    }

    #[test]
    fn the_odds_mix_two_curves() {
        // A share p of the odds are those of the second curve alone, the
        // rest those of the first (the second's share set to zero).
        let first = Model { p: 0.0, ..MODEL };
        let second = Model {
            p: 0.0,
            a: [MODEL.a2, 0.0, 0.0, 0.0],
            b: [MODEL.b2, 0.0, 0.0, 0.0],
            ..MODEL
        };
        for m in [0, 900, START_MATERIAL] {
            let x = material_fraction(m);
            for s in [-700.0, -160.0, -3.0, 0.0, 45.0, 150.0, 320.0] {
                let mixed = MODEL.probabilities(s, x);
                let (one, two) = (first.probabilities(s, x), second.probabilities(s, x));
                for i in 0..3 {
                    let expected = (1.0 - MODEL.p) * one[i] + MODEL.p * two[i];
                    assert!(
                        (mixed[i] - expected).abs() < 1e-12,
                        "material {m}, score {s}"
                    );
                }
            }
        }
    }

    #[test]
    fn odds_sum_to_1000_and_are_symmetric_about_the_bias() {
        for m in materials() {
            let x = material_fraction(m);
            let (_, _, d) = MODEL.params(x);
            for s in (-3000..=3000).step_by(7) {
                assert_eq!(
                    MODEL.per_mille(s, m).iter().sum::<u32>(),
                    1000,
                    "score {s}, material {m}"
                );
                // Away from the exactly level score, which has its own
                // draws, the odds of d + u are those of d - u reversed.
                let u = f64::from(s) + 0.5;
                let above = MODEL.probabilities(d + u, x);
                let below = MODEL.probabilities(d - u, x);
                for i in 0..3 {
                    assert!(
                        (above[i] - below[2 - i]).abs() < 1e-9,
                        "u {u}, material {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_better_score_never_wins_less_or_loses_more() {
        for m in materials() {
            let mut last = MODEL.per_mille(-3000, m);
            // The exactly level score stands apart: its own draws lower
            // both its wins and its losses.
            for s in (-2999..=3000).filter(|&s| s != 0) {
                let wdl = MODEL.per_mille(s, m);
                assert!(
                    wdl[0] >= last[0] && wdl[2] <= last[2],
                    "score {s}, material {m}"
                );
                last = wdl;
            }
            // Thirty pawns up: the compression leaves a draw in a thousand
            // at most, and no loss.
            assert!(last[0] >= 999 && last[2] == 0, "material {m}: {last:?}");
            let level = MODEL.per_mille(0, m);
            let (above, below) = (MODEL.per_mille(1, m), MODEL.per_mille(-1, m));
            assert!(
                level[1] > 0 && level[0] <= above[0] && level[2] <= below[2],
                "material {m}: {level:?}"
            );
        }
    }

    #[test]
    fn an_exactly_level_score_is_likelier_drawn() {
        for m in materials() {
            let [_, draw, _] = MODEL.per_mille(0, m);
            let [_, near, _] = MODEL.per_mille(1, m);
            assert!(draw >= near, "material {m}: {draw} against {near} at 1 cp");
        }
        let plain = Model { z: 0.0, ..MODEL };
        let [w, d, l] = MODEL.probabilities(0.0, 1.0);
        let [pw, pd, pl] = plain.probabilities(0.0, 1.0);
        let keep = 1.0 - MODEL.z;
        assert!((w - keep * pw).abs() < 1e-12 && (l - keep * pl).abs() < 1e-12);
        assert!((d - (MODEL.z + keep * pd)).abs() < 1e-12);
    }

    #[test]
    fn the_compression_and_the_bias_shape_the_score() {
        assert_eq!(compress(250.0, 50.0, 0.0), 200.0);
        assert_eq!(compress(-150.0, 50.0, 0.5), -200.0 / 2.0);
        assert_eq!(compress(50.0, 50.0, 3.0), 0.0);
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
