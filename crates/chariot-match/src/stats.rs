//! Match statistics: Elo with a 95% interval and the likelihood of
//! superiority as cutechess computes them, pentanomial statistics over game
//! pairs as fastchess keeps them, and the SPRT.
//!
//! Elo estimates never hold an infinite or NaN figure: where the usual
//! interval breaks down (no games, a perfect or a zero score, too few games
//! for the score, no spread at all) the estimate says so in words; see
//! `EloEstimate`. The report uses the pentanomial estimate when game pairs
//! exist (the two games of an opening are correlated, and pairs are the
//! independent samples) and the trinomial one otherwise.
//!
//! The SPRT is the generalised SPRT (GSPRT) in the logistic-Elo model, with
//! no BayesElo draw model: H0 "the expected score is `s0`" against H1 "it is
//! `s1`", `s0`/`s1` being the scores `elo0`/`elo1` imply. Its log-likelihood
//! ratio is computed exactly, as Michel Van den Bergh's LLRcalc does for
//! fishtest: for each hypothesis the maximum-likelihood distribution of the
//! samples with that expected score (`p_i / (1 + x(a_i − s))`, `x` found by
//! bisection), and `LLR = N·Σ p_i·ln(p1_i / p0_i)`. On ordinary data this
//! agrees within a few percent with the normal approximation fastchess
//! prints, `N·(s1 − s0)(2·s̄ − s0 − s1) / (2σ²)` (a test checks it), and
//! unlike that approximation it stays sound on degenerate runs (all draws,
//! all wins). The samples are game pairs (pentanomial, the default, as in
//! fastchess: the two games of an opening are correlated) or single games
//! (trinomial). Outcome classes never seen count as 0.001 samples, as
//! fishtest regularises them. Bounds: `ln(β/(1−α))` and `ln((1−β)/α)`.

use std::fmt;

/// What an empty outcome class counts as in the LLR (fishtest's `regularize`).
const REGULARISATION: f64 = 1e-3;

/// The normal quantile of 0.975.
const Z_975: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns -0.0 (an even score) into 0.0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to 1.2e-7 (Numerical Recipes' erfc by Chebyshev fit).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The sample count and the empirical distribution of `counts`, empty
/// classes counted as `REGULARISATION`; `None` without samples.
fn regularised(counts: &[u32]) -> Option<(f64, Vec<f64>)> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { REGULARISATION } else { f64::from(c) })
        .collect();
    let n: f64 = counts.iter().sum();
    Some((n, counts.iter().map(|c| c / n).collect()))
}

/// The maximum-likelihood distribution over the scores `xs` with expected
/// score `s`, relative to the empirical one `ps`, is `p_i / (1 + x (a_i − s))`
/// for the `x` that makes its mean `s`; returns that `x`. It is the root of
/// `Σ p_i (a_i − s) / (1 + x (a_i − s))`, which falls from +∞ to −∞ on the
/// interval where every denominator is positive. `None` unless `s` lies
/// strictly between the smallest and the largest score.
fn mle_multiplier(xs: &[f64], ps: &[f64], s: f64) -> Option<f64> {
    let d_max = xs.iter().map(|a| a - s).fold(f64::NEG_INFINITY, f64::max);
    let d_min = xs.iter().map(|a| a - s).fold(f64::INFINITY, f64::min);
    if !(d_max > 0.0 && d_min < 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        xs.iter()
            .zip(ps)
            .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / d_max, -1.0 / d_min);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The samples an estimate or an SPRT counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Game pairs (the two games of an opening, colours swapped), scored
    /// 0, ¼, ½, ¾ or 1 each.
    Pentanomial,
    /// Single games, scored 0, ½ or 1 each.
    Trinomial,
}

/// The SPRT's choice of samples (`--sprt … model=penta|tri`).
pub type SprtModel = Model;

/// The probability a two-sided 95% interval leaves out on each side.
const TAIL: f64 = 0.025;

/// What the results say about the Elo difference: an estimate with a finite
/// 95% interval, or the reason there is none, which `Display` puts in words
/// short enough for the table's column ("games" become "pairs" for the
/// pentanomial estimate):
///
/// - ordinary: `+70.4 ± 70.6`;
/// - no samples: `no games`;
/// - one sample, or the normal interval of the score reaching 0% or 100%
///   (few games, or few losses or wins for the score): `+88.7 (too few
///   games)`;
/// - every sample alike, neither won nor lost, so no spread to measure:
///   `+0.0 (all draws)`, `+190.8 (all pairs WD)`;
/// - a perfect score: `> +570 (no losses)`, the lower end of the exact 95%
///   interval, or `no losses yet` while that end is below 0 (under 6
///   samples); a zero score: `< -570 (no wins)` or `no wins yet`.
///
/// Nothing infinite or NaN is ever printed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Single games or game pairs.
    pub model: Model,
    /// How many games or pairs it is from.
    pub samples: u32,
    pub kind: EloKind,
}

/// See `EloEstimate`. Every number in it is finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EloKind {
    /// The Elo difference and the half-width of its 95% interval.
    Interval { elo: f64, margin: f64 },
    /// An Elo difference without an interval: a single sample, or so few
    /// for the score that the normal 95% interval of the score reaches 0 or
    /// 1 (an infinite Elo): more games, not better formulas, are the cure.
    TooFew { elo: f64 },
    /// Every sample scored the same, strictly between 0 and 1 (all games
    /// drawn; all pairs LD, all DD+WL or all WD): the variance is zero, and
    /// a "± 0.0" would claim a certainty the games do not give.
    NoSpread { elo: f64 },
    /// Every sample won: the Elo has no finite estimate. `bound` is the
    /// lower end of the exact 95% interval (see `perfect_score_bound`).
    NoLosses { bound: f64 },
    /// Every sample lost; `bound` is the upper end of the 95% interval.
    NoWins { bound: f64 },
    /// No samples at all.
    Empty,
}

/// The Elo the exact 95% interval of a perfect score over `n` samples
/// starts at. A sample is a score in [0, 1], so one with mean `μ` is 1 with
/// probability at most `μ`, and `n` of them are all 1 with probability at
/// most `μⁿ`; `μⁿ ≥ 0.025` gives `μ ≥ 0.025^(1/n)`. On wins and losses alone
/// this is the Clopper–Pearson interval. It is above 0 Elo from 6 samples
/// on (+28), +140 at 10, +570 at 100.
pub fn perfect_score_bound(n: u32) -> f64 {
    elo_from_score(TAIL.powf(1.0 / f64::from(n.max(1))))
}

impl EloEstimate {
    /// The Elo difference, when it is finite.
    pub fn elo(&self) -> Option<f64> {
        match self.kind {
            EloKind::Interval { elo, .. } | EloKind::TooFew { elo } | EloKind::NoSpread { elo } => {
                Some(elo)
            }
            _ => None,
        }
    }

    /// The half-width of the 95% interval, when there is one.
    pub fn margin(&self) -> Option<f64> {
        match self.kind {
            EloKind::Interval { margin, .. } => Some(margin),
            _ => None,
        }
    }

    fn unit(&self) -> &'static str {
        match self.model {
            Model::Trinomial => "games",
            Model::Pentanomial => "pairs",
        }
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.kind {
            EloKind::Interval { elo, margin } => format!("{elo:+.1} ± {margin:.1}"),
            EloKind::TooFew { elo } => format!("{elo:+.1} (too few {})", self.unit()),
            EloKind::NoSpread { elo } => {
                let what = match self.model {
                    Model::Trinomial => "all draws",
                    // Pairs scoring ½, 1 or 1½ of 2 points.
                    Model::Pentanomial => match (score_from_elo(elo) * 4.0).round() as i32 {
                        1 => "all pairs LD",
                        2 => "all pairs DD+WL",
                        _ => "all pairs WD",
                    },
                };
                format!("{elo:+.1} ({what})")
            }
            // A bound that says nothing about which side is stronger (fewer
            // than 6 samples) is left out.
            EloKind::NoLosses { bound } if bound.round() > 0.0 => {
                format!("> {bound:+.0} (no losses)")
            }
            EloKind::NoLosses { .. } => "no losses yet".to_string(),
            EloKind::NoWins { bound } if bound.round() < 0.0 => {
                format!("< {bound:+.0} (no wins)")
            }
            EloKind::NoWins { .. } => "no wins yet".to_string(),
            EloKind::Empty => format!("no {}", self.unit()),
        };
        f.pad(&text)
    }
}

/// Elo and its 95% interval from samples with scores `xs` (0 and 1 among
/// them) seen `counts` times. The interval is cutechess's and fastchess's:
/// the normal interval of the mean score, `mean ± 1.96·sd/√n` (the variance
/// over `n`, not `n − 1`), mapped through the Elo curve, half its width taken
/// as the margin. Where that cannot give a finite interval the estimate says
/// why (see `EloKind`) instead of printing an infinite or a zero margin.
/// Nothing is regularised here (no fraction of a draw or a pair is added):
/// the interval of all draws, or the Elo of a perfect score, would then be
/// the pseudo-count's figure and not the games'. The SPRT's 0.001 per empty
/// class, by contrast, only keeps its logarithms finite.
fn estimate(model: Model, xs: &[f64], counts: &[u32]) -> EloEstimate {
    let samples = counts.iter().fold(0u32, |n, &c| n.saturating_add(c));
    let kind = estimate_kind(samples, xs, counts);
    EloEstimate {
        model,
        samples,
        kind,
    }
}

fn estimate_kind(samples: u32, xs: &[f64], counts: &[u32]) -> EloKind {
    if samples == 0 {
        return EloKind::Empty;
    }
    let seen: Vec<f64> = xs
        .iter()
        .zip(counts)
        .filter(|(_, &c)| c > 0)
        .map(|(&x, _)| x)
        .collect();
    if let [only] = seen[..] {
        return if only >= 1.0 {
            EloKind::NoLosses {
                bound: perfect_score_bound(samples),
            }
        } else if only <= 0.0 {
            EloKind::NoWins {
                bound: -perfect_score_bound(samples),
            }
        } else if samples < 2 {
            EloKind::TooFew {
                elo: elo_from_score(only),
            }
        } else {
            EloKind::NoSpread {
                elo: elo_from_score(only),
            }
        };
    }
    let n: f64 = counts.iter().map(|&c| f64::from(c)).sum();
    let mean = xs
        .iter()
        .zip(counts)
        .map(|(x, &c)| x * f64::from(c))
        .sum::<f64>()
        / n;
    let var = xs
        .iter()
        .zip(counts)
        .map(|(x, &c)| f64::from(c) * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    let sd = (var / n).sqrt();
    let elo = elo_from_score(mean);
    let (lo, hi) = (mean - Z_975 * sd, mean + Z_975 * sd);
    if !(lo > 0.0 && hi < 1.0) {
        return EloKind::TooFew { elo };
    }
    let margin = (elo_from_score(hi) - elo_from_score(lo)) / 2.0;
    if !(elo.is_finite() && margin.is_finite()) {
        // Not reached: 0 < lo < mean < hi < 1.
        return EloKind::TooFew { elo };
    }
    EloKind::Interval { elo, margin }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game in [0, 1]; NaN without games.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    pub fn add(&mut self, result: f64) {
        if result > 0.75 {
            self.wins += 1;
        } else if result < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Elo ± 95% interval from single games (cutechess).
    pub fn elo(&self) -> EloEstimate {
        estimate(
            Model::Trinomial,
            &[1.0, 0.5, 0.0],
            &[self.wins, self.draws, self.losses],
        )
    }

    /// Likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses (`½·(1 + erf((W − L)/√(2(W + L))))`).
    /// NaN without decisive games.
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return f64::NAN;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The same results from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Game pairs (the two games of one opening, colours swapped) by the points
/// one side scored in them: 0, ½, 1, 1½, 2 (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    /// Records a pair from its two results (1, ½ or 0 each).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Elo ± 95% interval from pair scores (fastchess's pentanomial figures).
    pub fn elo(&self) -> EloEstimate {
        estimate(Model::Pentanomial, &[0.0, 0.25, 0.5, 0.75, 1.0], &self.0)
    }
}

/// An SPRT: H0 `elo ≤ elo0` against H1 `elo ≥ elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H0 accepted: the change is not the improvement sought.
    AcceptH0,
    /// H1 accepted.
    AcceptH1,
}

impl Sprt {
    /// Checks the parameters.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err("SPRT Elo bounds beyond ±1000 make no sense".to_string());
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!(
                    "SPRT {name} must lie strictly between 0 and 0.5 (got {p})"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The GSPRT log-likelihood ratio from samples with scores `xs` seen
    /// `counts` times. Zero before the first sample.
    fn llr(&self, xs: &[f64], counts: &[u32]) -> f64 {
        let Some((n, ps)) = regularised(counts) else {
            return 0.0;
        };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        let (Some(x0), Some(x1)) = (mle_multiplier(xs, &ps, s0), mle_multiplier(xs, &ps, s1))
        else {
            return 0.0;
        };
        // p1_i / p0_i = (1 + x0 (a_i - s0)) / (1 + x1 (a_i - s1)).
        n * xs
            .iter()
            .zip(&ps)
            .map(|(a, p)| p * ((1.0 + x0 * (a - s0)) / (1.0 + x1 * (a - s1))).ln())
            .sum::<f64>()
    }

    /// LLR over single games.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr(&[1.0, 0.5, 0.0], &[wdl.wins, wdl.draws, wdl.losses])
    }

    /// LLR over game pairs.
    pub fn llr_pentanomial(&self, penta: &Penta) -> f64 {
        self.llr(&[0.0, 0.25, 0.5, 0.75, 1.0], &penta.0)
    }

    /// The LLR of the configured model.
    pub fn llr_of(&self, wdl: &Wdl, penta: &Penta) -> f64 {
        match self.model {
            SprtModel::Pentanomial => self.llr_pentanomial(penta),
            SprtModel::Trinomial => self.llr_trinomial(wdl),
        }
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Reference values worked out by hand from the formulas (and checked
    /// with Python's math module).
    #[test]
    fn elo_from_scores() {
        assert!(close(elo_from_score(0.6), 70.436_504, 1e-5));
        assert!(close(elo_from_score(0.75), 190.848_502, 1e-5));
        assert!(close(elo_from_score(0.45), -34.860_070, 1e-5));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn error_function() {
        // erf(0.5), erf(1), erf(2) from tables.
        assert!(close(erf(0.5), 0.520_499_878, 2e-7));
        assert!(close(erf(1.0), 0.842_700_793, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265, 2e-7));
        assert!(close(erf(0.0), 0.0, 2e-7));
    }

    #[test]
    fn elo_intervals_like_cutechess() {
        // 60 wins, 40 losses: mean 0.6, variance 0.24, sd 0.04899.
        let e = wdl(60, 0, 40).elo();
        assert_eq!((e.model, e.samples), (Model::Trinomial, 100));
        assert!(close(e.elo().unwrap(), 70.436_504, 1e-4));
        assert!(close(e.margin().unwrap(), 70.571_180, 1e-3), "{e:?}");
        let e = wdl(30, 40, 30).elo();
        assert!(close(e.elo().unwrap(), 0.0, 1e-9));
        assert!(close(e.margin().unwrap(), 53.157_980, 1e-3), "{e:?}");
        let e = wdl(45, 30, 25).elo();
        assert!(close(e.elo().unwrap(), 70.436_504, 1e-4));
        assert!(close(e.margin().unwrap(), 58.231_091, 1e-3), "{e:?}");
        assert_eq!(wdl(60, 0, 40).elo().to_string(), "+70.4 ± 70.6");
        assert_eq!(wdl(40, 0, 60).elo().to_string(), "-70.4 ± 70.6");
        // Two wins and two losses: the "± 798.1", a (wide) interval.
        assert_eq!(wdl(2, 0, 2).elo().to_string(), "+0.0 ± 798.1");
        // Ten losses in a thousand games are enough for an upper end.
        assert_eq!(wdl(990, 0, 10).elo().to_string(), "+798.3 ± 126.1");
        // Padding applies to the whole text (the table's column).
        assert_eq!(format!("{:>14}", wdl(60, 0, 40).elo()), "  +70.4 ± 70.6");
    }

    /// Every case without a finite interval, in the words the table prints.
    #[test]
    fn elo_edge_cases_in_words() {
        // No games.
        let e = wdl(0, 0, 0).elo();
        assert_eq!((e.kind, e.samples), (EloKind::Empty, 0));
        assert_eq!((e.elo(), e.margin()), (None, None));
        assert_eq!(e.to_string(), "no games");
        // One game.
        assert_eq!(wdl(1, 0, 0).elo().to_string(), "no losses yet");
        assert_eq!(wdl(0, 0, 1).elo().to_string(), "no wins yet");
        let e = wdl(0, 1, 0).elo();
        assert_eq!(e.kind, EloKind::TooFew { elo: 0.0 });
        assert_eq!(e.to_string(), "+0.0 (too few games)");
        // All wins: a bound once it says something (from 6 games).
        assert_eq!(wdl(5, 0, 0).elo().to_string(), "no losses yet");
        assert_eq!(wdl(6, 0, 0).elo().to_string(), "> +28 (no losses)");
        let e = wdl(100, 0, 0).elo();
        let EloKind::NoLosses { bound } = e.kind else {
            panic!("{e:?}")
        };
        // 0.025^(1/100) = 0.963783, +570.0 Elo.
        assert!(close(bound, 570.0, 0.1), "{bound}");
        assert_eq!((e.elo(), e.margin()), (None, None));
        assert_eq!(e.to_string(), "> +570 (no losses)");
        // All losses.
        assert_eq!(wdl(0, 0, 100).elo().to_string(), "< -570 (no wins)");
        assert_eq!(wdl(0, 0, 3).elo().to_string(), "no wins yet");
        // All draws: no spread, and no "± 0.0".
        let e = wdl(0, 50, 0).elo();
        assert_eq!(e.kind, EloKind::NoSpread { elo: 0.0 });
        assert_eq!(e.to_string(), "+0.0 (all draws)");
        assert_eq!(wdl(0, 2, 0).elo().to_string(), "+0.0 (all draws)");
        // The "+88.7 ± +inf": 2 wins, a draw and a loss.
        assert_eq!(wdl(2, 1, 1).elo().to_string(), "+88.7 (too few games)");
        assert_eq!(wdl(1, 0, 1).elo().to_string(), "+0.0 (too few games)");
        // Lopsided: one loss in a hundred games (the normal interval ends
        // past 100%), and three; four losses are enough.
        assert_eq!(wdl(99, 0, 1).elo().to_string(), "+798.3 (too few games)");
        assert_eq!(wdl(1, 0, 99).elo().to_string(), "-798.3 (too few games)");
        assert_eq!(wdl(97, 0, 3).elo().to_string(), "+603.9 (too few games)");
        assert_eq!(wdl(96, 0, 4).elo().to_string(), "+552.1 ± 345.4");
    }

    /// Whatever the counts, nothing infinite or NaN, and an interval only
    /// with a finite, positive margin.
    #[test]
    fn elo_is_never_infinite_or_nan() {
        let check = |e: EloEstimate| {
            let text = e.to_string();
            assert!(
                !text.contains("inf") && !text.contains("NaN") && !text.contains(" - "),
                "{e:?}: {text}"
            );
            assert!(e.elo().is_none_or(f64::is_finite), "{e:?}");
            assert!(e.margin().is_none_or(|m| m.is_finite() && m > 0.0), "{e:?}");
            match e.kind {
                EloKind::NoLosses { bound } | EloKind::NoWins { bound } => {
                    assert!(bound.is_finite(), "{e:?}")
                }
                _ => {}
            }
        };
        for w in 0..8 {
            for d in 0..8 {
                for l in 0..8 {
                    check(wdl(w, d, l).elo());
                }
            }
        }
        for c in 0..4u32.pow(5) {
            let counts: [u32; 5] = std::array::from_fn(|i| (c / 4u32.pow(i as u32)) % 4);
            check(Penta(counts).elo());
        }
        for n in [1, 10, 1000, 1_000_000, u32::MAX] {
            check(wdl(n, 0, 0).elo());
            check(Penta([n, 0, 0, 0, 0]).elo());
        }
        check(wdl(u32::MAX, u32::MAX, 1).elo());
        check(Penta([1, u32::MAX, u32::MAX, u32::MAX, u32::MAX]).elo());
    }

    #[test]
    fn likelihood_of_superiority() {
        assert!(close(wdl(10, 7, 5).los(), 0.901_647, 1e-6));
        assert!(close(wdl(45, 30, 25).los(), 0.991_586, 1e-6));
        assert!(close(wdl(30, 9, 30).los(), 0.5, 1e-7));
        assert!(wdl(0, 5, 0).los().is_nan());
        assert!(close(wdl(10, 7, 5).flipped().los(), 1.0 - 0.901_647, 1e-6));
    }

    /// fastchess's normal approximation of the LLR, for comparison.
    fn llr_normal_approx(s: &Sprt, xs: &[f64], counts: &[u32]) -> f64 {
        let (n, ps) = regularised(counts).unwrap();
        let mean: f64 = xs.iter().zip(&ps).map(|(a, p)| a * p).sum();
        let var: f64 = xs
            .iter()
            .zip(&ps)
            .map(|(a, p)| p * (a - mean).powi(2))
            .sum();
        let (s0, s1) = (score_from_elo(s.elo0), score_from_elo(s.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Trinomial).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        let s2 = Sprt::new(0.0, 5.0, 0.05, 0.1, SprtModel::Trinomial).unwrap();
        let (lo, hi) = s2.bounds();
        assert!(close(lo, -2.251_292, 1e-6) && close(hi, 2.890_372, 1e-6));
        // Wins and losses only: the constrained maximum-likelihood
        // distributions are Bernoulli(s0) and Bernoulli(s1), so by hand
        // LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)) = 0.534231 for 60-40 and
        // [0, 10] (the regularised 0.001 draws move it by 5e-6).
        let s10 = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Trinomial).unwrap();
        assert!(close(s10.llr_trinomial(&wdl(60, 0, 40)), 0.534_231, 2e-5));
        // Further values from an independent implementation (Python).
        assert!(close(
            s.llr_trinomial(&wdl(100, 100, 100)),
            -0.046_596,
            1e-5
        ));
        let llr = s.llr_trinomial(&wdl(1200, 1000, 1000));
        assert!(close(llr, 3.705_550, 1e-5));
        assert_eq!(s.state(llr), SprtState::AcceptH1);
        assert!(close(
            s10.llr_trinomial(&wdl(300, 400, 200)),
            4.519_097,
            1e-5
        ));
        // All draws: evidence against a gain, but not overwhelming.
        assert!(close(s.llr_trinomial(&wdl(0, 50, 0)), -0.717_864, 1e-5));
        assert_eq!(s.llr_trinomial(&wdl(0, 0, 0)), 0.0);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.0), SprtState::Continue);
        // On ordinary data the normal approximation agrees within 5%.
        const T: [f64; 3] = [1.0, 0.5, 0.0];
        for (sprt, counts) in [
            (s, [1200, 1000, 1000]),
            (s10, [300, 400, 200]),
            (s10, [60, 0, 40]),
            (s, [100, 100, 100]),
        ] {
            let exact = sprt.llr(&T, &counts);
            let approx = llr_normal_approx(&sprt, &T, &counts);
            assert!(
                (exact - approx).abs() <= 0.05 * exact.abs(),
                "{counts:?}: {exact} vs {approx}"
            );
        }
    }

    #[test]
    fn pentanomial() {
        let mut p = Penta::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(0.0, 0.5);
        p.add(0.0, 0.0);
        assert_eq!(p.0, [1, 1, 2, 0, 1]);
        assert_eq!(p.pairs(), 5);
        let p = Penta([10, 60, 200, 80, 20]);
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Pentanomial).unwrap();
        assert!(close(s.llr_pentanomial(&p), 1.430_508, 1e-5));
        assert!(close(s.llr_of(&Wdl::default(), &p), 1.430_508, 1e-5));
        let approx = llr_normal_approx(&s, &[0.0, 0.25, 0.5, 0.75, 1.0], &p.0);
        assert!(close(approx, 1.444_217, 1e-5));
        let s = Sprt::new(-5.0, 0.0, 0.05, 0.05, SprtModel::Pentanomial).unwrap();
        assert!(close(
            s.llr_pentanomial(&Penta([5, 30, 100, 50, 15])),
            1.528_743,
            1e-5
        ));
        // Nothing but won pairs: the maximum-likelihood distributions put
        // s0 (s1) on WW and the rest on LL, so each pair adds ln(s1/s0):
        // ln(0.909091/0.5) = 0.597837 for [0, 400], 0.014316 for [0, 5].
        let s = Sprt::new(0.0, 400.0, 0.05, 0.05, SprtModel::Pentanomial).unwrap();
        assert!(close(
            s.llr_pentanomial(&Penta([0, 0, 0, 0, 5])),
            5.0 * 0.597_837,
            2e-3
        ));
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Pentanomial).unwrap();
        assert!(close(
            s.llr_pentanomial(&Penta([0, 0, 0, 0, 2])),
            0.028_604,
            1e-5
        ));
        let e = Penta([10, 60, 200, 80, 20]).elo();
        assert_eq!((e.model, e.samples), (Model::Pentanomial, 370));
        assert!(
            close(e.elo().unwrap(), 18.798_625, 1e-4)
                && close(e.margin().unwrap(), 14.766_237, 1e-3),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "+18.8 ± 14.8");
    }

    /// The pentanomial estimate's cases without a finite interval.
    #[test]
    fn pentanomial_edge_cases_in_words() {
        assert_eq!(Penta::default().elo().to_string(), "no pairs");
        // One pair of each kind.
        assert_eq!(Penta([1, 0, 0, 0, 0]).elo().to_string(), "no wins yet");
        assert_eq!(
            Penta([0, 1, 0, 0, 0]).elo().to_string(),
            "-190.8 (too few pairs)"
        );
        assert_eq!(
            Penta([0, 0, 1, 0, 0]).elo().to_string(),
            "+0.0 (too few pairs)"
        );
        assert_eq!(
            Penta([0, 0, 0, 1, 0]).elo().to_string(),
            "+190.8 (too few pairs)"
        );
        assert_eq!(Penta([0, 0, 0, 0, 1]).elo().to_string(), "no losses yet");
        // Every pair alike: the "± 0.0" (two pairs won once each,
        // beside the trinomial "± 798.1" of the same four games).
        let e = Penta([0, 0, 2, 0, 0]).elo();
        assert_eq!(e.kind, EloKind::NoSpread { elo: 0.0 });
        assert_eq!(e.to_string(), "+0.0 (all pairs DD+WL)");
        assert_eq!(
            Penta([0, 5, 0, 0, 0]).elo().to_string(),
            "-190.8 (all pairs LD)"
        );
        assert_eq!(
            Penta([0, 0, 0, 7, 0]).elo().to_string(),
            "+190.8 (all pairs WD)"
        );
        // Only won pairs: the bound counts pairs, not games.
        assert_eq!(Penta([0, 0, 0, 0, 5]).elo().to_string(), "no losses yet");
        assert_eq!(
            Penta([0, 0, 0, 0, 10]).elo().to_string(),
            "> +140 (no losses)"
        );
        assert_eq!(
            Penta([100, 0, 0, 0, 0]).elo().to_string(),
            "< -570 (no wins)"
        );
        // Lopsided: 20 WW, 2 WD and a DD+WL (the interval ends past 100%);
        // 9 WW and an LD; 57 WW, 30 WD, 10 DD+WL, 2 LD and an LL.
        assert_eq!(
            Penta([0, 0, 1, 2, 20]).elo().to_string(),
            "+537.0 (too few pairs)"
        );
        assert_eq!(
            Penta([0, 1, 0, 0, 9]).elo().to_string(),
            "+436.4 (too few pairs)"
        );
        assert_eq!(
            Penta([0, 0, 0, 1, 1]).elo().to_string(),
            "+338.0 (too few pairs)"
        );
        let e = Penta([1, 2, 10, 30, 57]).elo();
        assert!(close(e.elo().unwrap(), 301.331_067, 1e-4), "{e:?}");
        assert!(close(e.margin().unwrap(), 56.242_483, 1e-3), "{e:?}");
        assert_eq!(e.to_string(), "+301.3 ± 56.2");
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, SprtModel::Pentanomial).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, SprtModel::Pentanomial).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7, SprtModel::Pentanomial).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05, SprtModel::Pentanomial).is_err());
    }
}
