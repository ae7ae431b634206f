//! Fitting the engine's win/draw/loss model (`chariot::wdl`) to self-play
//! games (`chariot-tools wdl`), and checking it on games the fit never saw.
//!
//! Every game is replayed with the rules core. Each searched position (a
//! score recorded, the side to move not in check, the score neither a mate
//! nor a win by the rules) gives a sample: the score, the material on the
//! board, and how the game ended for the side to move. Every
//! `holdout`th game is held out. The 17 parameters (the coefficients of
//! `a(x)`, `b(x)` and `d(x)`, then `k`, `z`, and the second curve's `p`,
//! `a2` and `b2`) are fitted to the other games by maximum likelihood, in
//! three steps (`fit`): the first curve alone by Fisher scoring (Newton's
//! method with the expected Hessian, which is never indefinite); then both
//! curves, by Fisher scoring until a step gains little, and by Newton's
//! method with the exact Hessian to the end. Fisher scoring alone creeps:
//! the model is not the games' own, and for the second curve's spread the
//! expected curvature is far from the actual one, so that its steps
//! overshoot and zig-zag for hundreds of iterations. Every step is damped
//! as Levenberg and Marquardt do: a step that would not lower the negative
//! log-likelihood is refused and the damping raised. So is a step that
//! takes `a`, `b`, `a2` or `b2` below a centipawn anywhere in the range of
//! material the engine meets, `k` below zero, or `z` or `p` out of `0..1`:
//! the model must give every position odds of all three results, not only
//! the positions it was fitted to.
//!
//! On the held-out games, the positions are grouped by score (buckets of
//! `width` centipawns centred on multiples of it, the two tails beyond
//! `range` lumped together) and by material; each group's observed win,
//! draw and loss rates are set against the mean of the model's predictions
//! for its positions. Positions of one game are alike, so a few hundred
//! held-out games leave each bucket's rates several points of noise; with
//! `--cross-validate` each `holdout`th of the games is held out in turn and
//! predicted by the fit on the others, so that the table covers every game
//! (the constants printed stay those of the fit without the last share).
//! With `--engine-model` nothing is fitted: the engine's own model is judged
//! on every game, which tells whether a new net's games call for a new fit.

use crate::dataset::{replay_games, LoadReport};
use crate::gamefile::UNSCORED;
use anyhow::{bail, Result};
use chariot::search::{MAX_PLY, RULE_WIN};
use chariot::wdl::{compress, material, material_fraction, sigmoid, Model, MODEL, START_MATERIAL};
use chariot::xiangqi::{Color, Position};
use std::fmt::Write as _;
use std::path::Path;

/// How a game ended for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Loss = 0,
    Draw = 1,
    Win = 2,
}

/// One searched position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The search's score, side to move's view, centipawns.
    pub score: i16,
    /// Both sides' material (`chariot::wdl::material`).
    pub material: i32,
    pub result: Result3,
    /// The number of its game, which decides whether it is held out.
    pub game: u32,
}

impl Sample {
    /// The model's variable: the score as a float and the material fraction.
    fn point(&self) -> (f64, f64) {
        (f64::from(self.score), material_fraction(self.material))
    }
}

/// Whether a position of a game is a sample: searched, not in check, and
/// the score neither a mate nor a win by the rules (the engine calls those
/// certain without the model).
pub fn is_wdl_position(pos: &Position, score: i16) -> bool {
    score != UNSCORED && i32::from(score).abs() < RULE_WIN - MAX_PLY as i32 && !pos.in_check()
}

/// The samples of every game in `paths`, each with its game's number (0,
/// 1, … across the files in order).
pub fn load(paths: &[impl AsRef<Path>]) -> Result<(Vec<Sample>, LoadReport)> {
    let mut samples = Vec::new();
    let report = replay_games(paths, "wdl", |game, red, pos, _, score| {
        if is_wdl_position(pos, score) {
            let mover = match pos.side_to_move() {
                Color::Red => red,
                Color::Black => 2 - red,
            };
            samples.push(Sample {
                score,
                material: material(pos),
                result: [Result3::Loss, Result3::Draw, Result3::Win][mover as usize],
                game: game as u32,
            });
        }
    })?;
    Ok((samples, report))
}

/// The number of parameters: four coefficients each of `a`, `b` and `d`,
/// then `k`, `z`, `p`, `a2` and `b2`.
const N: usize = 17;

/// The model's terms at one point, in the order of the slopes of
/// [`Local`]: `a`, `b`, `d`, `k`, `z`, `p`, `a2`, `b2`.
const TERMS: usize = 8;

/// Odds at one point (win, draw, loss), with their first and second
/// derivatives in `K` variables, each again in win, draw, loss order.
#[derive(Clone, Copy, Debug)]
struct Odds<const K: usize> {
    odds: [f64; 3],
    slope: [[f64; 3]; K],
    curvature: [[[f64; 3]; K]; K],
}

/// The model's odds at one point, with their derivatives in its terms
/// (`TERMS`).
type Local = Odds<TERMS>;

/// `v` times `f`.
fn times(v: [f64; 3], f: f64) -> [f64; 3] {
    v.map(|x| f * x)
}

/// `v + w`.
fn plus(v: [f64; 3], w: [f64; 3]) -> [f64; 3] {
    [v[0] + w[0], v[1] + w[1], v[2] + w[2]]
}

/// One logistic curve's odds at compressed score `t`, threshold `a` and
/// spread `b`, with their first and second derivatives in `a`, `b` and
/// `t` (in that order). The draw odds are `σ(−u) − σ(v)`, not
/// `1 − σ(u) − σ(v)`, which rounds to zero or below once a win is near
/// certain.
fn curve(t: f64, a: f64, b: f64) -> Odds<3> {
    let (u, v) = ((t - a) / b, (-t - a) / b);
    let (win, loss) = (sigmoid(u), sigmoid(v));
    let draw = sigmoid(-u) - loss;
    // σ' and σ'' at u and at v.
    let (gu, gv) = (win * (1.0 - win), loss * (1.0 - loss));
    let (hu, hv) = (gu * (1.0 - 2.0 * win), gv * (1.0 - 2.0 * loss));
    // u's and v's first and second derivatives in a, b and t.
    let bb = b * b;
    let du = [-1.0 / b, -u / b, 1.0 / b];
    let dv = [-1.0 / b, -v / b, -1.0 / b];
    let ddu = [
        [0.0, 1.0 / bb, 0.0],
        [1.0 / bb, 2.0 * u / bb, -1.0 / bb],
        [0.0, -1.0 / bb, 0.0],
    ];
    let ddv = [
        [0.0, 1.0 / bb, 0.0],
        [1.0 / bb, 2.0 * v / bb, 1.0 / bb],
        [0.0, 1.0 / bb, 0.0],
    ];
    let mut slope = [[0.0; 3]; 3];
    let mut curvature = [[[0.0; 3]; 3]; 3];
    for i in 0..3 {
        let (w, l) = (gu * du[i], gv * dv[i]);
        slope[i] = [w, -w - l, l];
        for j in 0..3 {
            let w = hu * du[i] * du[j] + gu * ddu[i][j];
            let l = hv * dv[i] * dv[j] + gv * ddv[i][j];
            curvature[i][j] = [w, -w - l, l];
        }
    }
    Odds {
        odds: [win, draw, loss],
        slope,
        curvature,
    }
}

/// The model's odds at score `s` where its cubics are `a`, `b` and `d`,
/// with their derivatives in its terms.
fn local(a: f64, b: f64, d: f64, model: &Model, s: f64) -> Local {
    let t = compress(s, d, model.k);
    let Odds {
        odds: first,
        slope: s1,
        curvature: c1,
    } = curve(t, a, b);
    let Odds {
        odds: second,
        slope: s2,
        curvature: c2,
    } = curve(t, model.a2, model.b2);
    let share = model.p;
    // The mixture's derivatives in a, b, t, p, a2 and b2 (in that order);
    // each curve's a, b and t are these indices.
    const T: usize = 2;
    let (one, two) = ([0, 1, T], [4, 5, T]);
    let mut slope = [[0.0; 3]; 6];
    let mut curv = [[[0.0; 3]; 6]; 6];
    for i in 0..3 {
        slope[one[i]] = plus(slope[one[i]], times(s1[i], 1.0 - share));
        slope[two[i]] = plus(slope[two[i]], times(s2[i], share));
        // d/dp of the mixture's slopes.
        curv[3][one[i]] = plus(curv[3][one[i]], times(s1[i], -1.0));
        curv[3][two[i]] = plus(curv[3][two[i]], s2[i]);
        for j in 0..3 {
            curv[one[i]][one[j]] = plus(curv[one[i]][one[j]], times(c1[i][j], 1.0 - share));
            curv[two[i]][two[j]] = plus(curv[two[i]][two[j]], times(c2[i][j], share));
        }
    }
    slope[3] = [0, 1, 2].map(|o| second[o] - first[o]);
    let by_share = curv[3];
    for (row, v) in curv.iter_mut().zip(by_share) {
        row[3] = v;
    }
    let odds = [0, 1, 2].map(|o| (1.0 - share) * first[o] + share * second[o]);
    // Through the compressed score t to the bias d and the compression k:
    // t = r / (1 + k |r| / 100) with r = s − d.
    let (r, scale) = (s - d, 1.0 + model.k * (s - d).abs() / 100.0);
    let cube = scale * scale * scale;
    let td = -1.0 / (scale * scale);
    let tk = -r * r.abs() / 100.0 / (scale * scale);
    let tdd = -2.0 * model.k * r.signum() / 100.0 / cube;
    let tdk = 2.0 * r.abs() / 100.0 / cube;
    let tkk = 2.0 * r * r * r / 1e4 / cube;
    // The mixture's indices as terms (t aside).
    let term = [0, 1, usize::MAX, 5, 6, 7];
    let mut out = Local {
        odds,
        slope: [[0.0; 3]; TERMS],
        curvature: [[[0.0; 3]; TERMS]; TERMS],
    };
    for i in (0..6).filter(|&i| i != T) {
        out.slope[term[i]] = slope[i];
        for j in (0..6).filter(|&j| j != T) {
            out.curvature[term[i]][term[j]] = curv[i][j];
        }
        for (through, dt) in [(2, td), (3, tk)] {
            out.curvature[term[i]][through] = times(curv[i][T], dt);
            out.curvature[through][term[i]] = times(curv[i][T], dt);
        }
    }
    out.slope[2] = times(slope[T], td);
    out.slope[3] = times(slope[T], tk);
    let tt = curv[T][T];
    out.curvature[2][2] = plus(times(tt, td * td), times(slope[T], tdd));
    out.curvature[3][3] = plus(times(tt, tk * tk), times(slope[T], tkk));
    out.curvature[2][3] = plus(times(tt, td * tk), times(slope[T], tdk));
    out.curvature[3][2] = out.curvature[2][3];
    if s != 0.0 {
        return out;
    }
    // A share z of the level scores drawn, the rest as above.
    const Z: usize = 4;
    let z = model.z;
    let level = out;
    out.odds = [
        (1.0 - z) * odds[0],
        z + (1.0 - z) * odds[1],
        (1.0 - z) * odds[2],
    ];
    for i in 0..TERMS {
        out.slope[i] = times(level.slope[i], 1.0 - z);
        for j in 0..TERMS {
            out.curvature[i][j] = times(level.curvature[i][j], 1.0 - z);
        }
    }
    for i in 0..TERMS {
        // d/dz of the slopes: minus the slopes before the share.
        out.curvature[Z][i] = times(level.slope[i], -1.0);
        out.curvature[i][Z] = times(level.slope[i], -1.0);
    }
    out.slope[Z] = [-odds[0], 1.0 - odds[1], -odds[2]];
    out.curvature[Z][Z] = [0.0; 3];
    out
}

/// The parameters as one vector: `a`'s, `b`'s, `d`'s, then `k`, `z`, `p`,
/// `a2` and `b2`.
fn to_vec(m: &Model) -> [f64; N] {
    let mut t = [0.0; N];
    for (chunk, c) in t.chunks_mut(4).zip([&m.a, &m.b, &m.d]) {
        chunk.copy_from_slice(c);
    }
    t[12..].copy_from_slice(&[m.k, m.z, m.p, m.a2, m.b2]);
    t
}

fn from_vec(t: &[f64; N]) -> Model {
    let mut m = Model {
        a: [0.0; 4],
        b: [0.0; 4],
        d: [0.0; 4],
        k: t[12],
        z: t[13],
        p: t[14],
        a2: t[15],
        b2: t[16],
    };
    for (chunk, c) in t.chunks(4).zip([&mut m.a, &mut m.b, &mut m.d]) {
        c.copy_from_slice(chunk);
    }
    m
}

/// The least of `a` and `b` over the whole range of material the engine
/// meets (checked at 65 points), and of the second curve's `a2` and `b2`.
fn lowest(model: &Model) -> f64 {
    let lo = material_fraction(0);
    (0..=64)
        .map(|i| {
            let (a, b, _) = model.params(lo + (1.0 - lo) * f64::from(i) / 64.0);
            a.min(b)
        })
        .fold(model.a2.min(model.b2), f64::min)
}

/// Whether `k` is not negative (which would stretch scores, and turn the
/// odds round beyond `100 / |k|`) and `z` and `p` are shares (`0..1`).
fn terms_in_range(model: &Model) -> bool {
    model.k >= 0.0 && (0.0..1.0).contains(&model.z) && (0.0..1.0).contains(&model.p)
}

/// Whether `a`, `b`, `a2` and `b2` are positive over the whole range of
/// material the engine meets, so that the model gives every position
/// positive odds of all three results, not just the positions it was
/// fitted to, and `k`, `z` and `p` are in range.
pub fn is_valid(model: &Model) -> bool {
    lowest(model) > 0.0 && terms_in_range(model)
}

/// The least `a`, `b`, `a2` and `b2` a fit may reach, centipawns: a margin
/// that keeps the printed constants, rounded to thousandths, valid.
const MARGIN: f64 = 1.0;

/// The negative log-likelihood of `samples` under `model`: infinite where
/// `a`, `b`, `a2` or `b2` falls below `MARGIN`, or `k`, `z` or `p` out of
/// range.
pub fn neg_log_likelihood(model: &Model, samples: &[Sample]) -> f64 {
    if lowest(model) < MARGIN || !terms_in_range(model) {
        return f64::INFINITY;
    }
    let mut sum = 0.0;
    for s in samples {
        let (score, x) = s.point();
        let (a, b, d) = model.params(x);
        sum -= local(a, b, d, model, score).odds[2 - s.result as usize].ln();
    }
    sum
}

/// The term of each parameter, and the power of the material fraction
/// that multiplies the term's slope: the cubics' four coefficients each,
/// then `k`, `z`, `p`, `a2` and `b2`.
const PARAMETER_TERMS: [(usize, i32); N] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 0),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (7, 0),
];

/// The negative log-likelihood's derivatives in the parameters.
struct Derivatives {
    grad: [f64; N],
    hessian: [[f64; N]; N],
    /// The Fisher information: the Hessian's expectation under the model.
    fisher: [[f64; N]; N],
}

/// The gradient of the negative log-likelihood with respect to the
/// parameters, its Hessian, and the Fisher information.
fn derivatives(model: &Model, samples: &[Sample]) -> Derivatives {
    let mut grad = [0.0; N];
    let mut hessian = [[0.0; N]; N];
    let mut fisher = [[0.0; N]; N];
    for s in samples {
        let (score, x) = s.point();
        let (a, b, d) = model.params(x);
        let here = local(a, b, d, model, score);
        let powers = [1.0, x, x * x, x * x * x];
        let factor = PARAMETER_TERMS.map(|(_, power)| powers[power as usize]);
        // Win, draw, loss: the outcome index of the odds.
        let observed = 2 - s.result as usize;
        for o in 0..3 {
            let p = here.odds[o];
            if p <= 0.0 {
                continue;
            }
            let j: [f64; N] =
                std::array::from_fn(|r| here.slope[PARAMETER_TERMS[r].0][o] * factor[r]);
            for r in 0..N {
                for c in r..N {
                    fisher[r][c] += j[r] * j[c] / p;
                }
            }
            if o != observed {
                continue;
            }
            for r in 0..N {
                grad[r] -= j[r] / p;
                let term = PARAMETER_TERMS[r].0;
                for c in r..N {
                    let second = here.curvature[term][PARAMETER_TERMS[c].0][o];
                    hessian[r][c] += j[r] * j[c] / (p * p) - second * factor[r] * factor[c] / p;
                }
            }
        }
    }
    for r in 0..N {
        for c in 0..r {
            hessian[r][c] = hessian[c][r];
            fisher[r][c] = fisher[c][r];
        }
    }
    Derivatives {
        grad,
        hessian,
        fisher,
    }
}

/// Solves `m x = y` by Gaussian elimination with partial pivoting; `None`
/// when `m` is singular.
fn solve(mut m: [[f64; N]; N], mut y: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        y.swap(col, pivot);
        let (top, below) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (i, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (r, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *r -= f * p;
            }
            y[col + 1 + i] -= f * y[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| m[row][k] * x[k]).sum();
        x[row] = (y[row] - rest) / m[row][row];
    }
    Some(x)
}

/// A fitted model, and how the fit went.
#[derive(Clone, Debug)]
pub struct Fit {
    pub model: Model,
    /// Mean negative log-likelihood per sample at the end.
    pub loss: f64,
    pub iterations: usize,
}

/// Where the fit starts: level odds a third each at score 0 (`a` = b ln 2),
/// the odds changing over about a pawn, no bias, and no second curve (its
/// share zero; its threshold and spread those it later starts from).
const START: Model = Model {
    a: [69.3, 0.0, 0.0, 0.0],
    b: [100.0, 0.0, 0.0, 0.0],
    d: [0.0; 4],
    k: 0.0,
    z: 0.0,
    p: 0.0,
    a2: SECOND.1,
    b2: SECOND.2,
};

/// The second curve where its fit starts, from the fit of the first
/// alone: a tenth of the positions, drawn up to two pawns with a sharper
/// edge than the first curve's.
const SECOND: (f64, f64, f64) = (0.1, 200.0, 50.0);

/// Fits the model to `samples` by maximum likelihood. Fails if there are
/// no samples, or if they lack a draw, a win or a loss (the likelihood then
/// has no maximum).
///
/// First the first curve alone (`p` held at zero: the single-curve
/// model), by Fisher scoring from `START`; then everything, the second
/// curve starting at `SECOND`, by Fisher scoring until a step gains less
/// than a millionth of the log-likelihood, then by Newton's method to the
/// end. Fitted from scratch at once, the two curves can settle in a poorer
/// maximum (the first curve giving up its draws to the second, its `a`
/// pressed against the margin); started by Newton's method from
/// `SECOND`, the second curve's share can fall to zero, where the
/// likelihood no longer depends on its threshold and spread and the fit
/// stops.
pub fn fit(samples: &[Sample]) -> Result<Fit> {
    for r in [Result3::Win, Result3::Draw, Result3::Loss] {
        if !samples.iter().any(|s| s.result == r) {
            bail!("the positions need wins, draws and losses to fit the model; there is no {r:?}");
        }
    }
    let mut one = [true; N];
    one[14..].fill(false);
    let first = maximise(to_vec(&START), &one, Curvature::Fisher, 1e-10, samples);
    let (p, a2, b2) = SECOND;
    let start = Model {
        p,
        a2,
        b2,
        ..from_vec(&first.0)
    };
    let all = [true; N];
    let scored = maximise(to_vec(&start), &all, Curvature::Fisher, 1e-6, samples);
    let (theta, nll, iterations) = maximise(scored.0, &all, Curvature::Newton, 1e-10, samples);
    Ok(Fit {
        model: from_vec(&theta),
        loss: nll / samples.len() as f64,
        iterations: first.2 + scored.2 + iterations,
    })
}

/// How `maximise` steps: by the Fisher information (robust far from the
/// maximum) or by the Hessian (fast near it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Curvature {
    Fisher,
    Newton,
}

/// Damped Fisher scoring or Newton's method from `theta`, moving only the
/// parameters marked in `free`, until an accepted step gains less than
/// `tolerance` of the negative log-likelihood: the parameters, the
/// negative log-likelihood and the iterations it took. The damping adds a
/// multiple of the Fisher information's diagonal, which is positive, so
/// that a damped step goes downhill even where the Hessian is not
/// positive definite.
fn maximise(
    mut theta: [f64; N],
    free: &[bool; N],
    curvature: Curvature,
    tolerance: f64,
    samples: &[Sample],
) -> ([f64; N], f64, usize) {
    let mut nll = neg_log_likelihood(&from_vec(&theta), samples);
    let mut damping = 1e-3;
    let mut iterations = 0;
    while iterations < 500 && damping < 1e12 {
        iterations += 1;
        let Derivatives {
            mut grad,
            hessian,
            fisher,
        } = derivatives(&from_vec(&theta), samples);
        let mut m = match curvature {
            Curvature::Fisher => fisher,
            Curvature::Newton => hessian,
        };
        for i in 0..N {
            if free[i] {
                m[i][i] += damping * fisher[i][i].max(1e-12);
            } else {
                // A held parameter: its row and column say "no step".
                m[i] = [0.0; N];
                for row in m.iter_mut() {
                    row[i] = 0.0;
                }
                m[i][i] = 1.0;
                grad[i] = 0.0;
            }
        }
        let Some(step) = solve(m, grad.map(|g| -g)) else {
            damping *= 10.0;
            continue;
        };
        let mut next = theta;
        for (t, d) in next.iter_mut().zip(step) {
            *t += d;
        }
        let next_nll = neg_log_likelihood(&from_vec(&next), samples);
        if next_nll < nll {
            let gain = nll - next_nll;
            (theta, nll) = (next, next_nll);
            damping = (damping / 10.0).max(1e-9);
            if gain < tolerance * nll {
                break;
            }
        } else {
            damping *= 10.0;
        }
    }
    (theta, nll, iterations)
}

/// The constants of a model as Rust source, for `chariot::wdl::MODEL`.
pub fn rust_constants(m: &Model) -> String {
    let list = |c: &[f64; 4]| {
        c.iter()
            .map(|v| format!("{v:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const MODEL: Model = Model {{\n    a: [{}],\n    b: [{}],\n    d: [{}],\n    k: {:.4},\n    z: {:.4},\n    p: {:.4},\n    a2: {:.3},\n    b2: {:.3},\n}};",
        list(&m.a),
        list(&m.b),
        list(&m.d),
        m.k,
        m.z,
        m.p,
        m.a2,
        m.b2
    )
}

/// A held-out position and the odds a model fitted without its game gives
/// it, in win, draw, loss order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Predicted {
    pub sample: Sample,
    pub odds: [f64; 3],
}

/// The odds `model` gives each of `samples`.
pub fn predict(model: &Model, samples: &[Sample]) -> Vec<Predicted> {
    samples
        .iter()
        .map(|&sample| {
            let (score, x) = sample.point();
            Predicted {
                sample,
                odds: model.probabilities(score, x),
            }
        })
        .collect()
}

/// One group of held-out positions: how many, the mean predicted odds and
/// the observed rates, both in win, draw, loss order.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub label: String,
    pub positions: usize,
    pub predicted: [f64; 3],
    pub observed: [f64; 3],
}

impl Group {
    /// The largest |predicted − observed| of the three, in percentage
    /// points.
    pub fn error_points(&self) -> f64 {
        (0..3)
            .map(|i| 100.0 * (self.predicted[i] - self.observed[i]).abs())
            .fold(0.0, f64::max)
    }
}

/// Groups positions by `key` (below `keys`; groups in key order, empty
/// ones left out), each labelled by `label`.
fn groups(
    positions: &[Predicted],
    keys: usize,
    key: impl Fn(&Sample) -> usize,
    label: impl Fn(usize) -> String,
) -> Vec<Group> {
    let mut sums = vec![(0usize, [0.0f64; 3], [0usize; 3]); keys];
    for p in positions {
        let g = &mut sums[key(&p.sample)];
        g.0 += 1;
        for (sum, odds) in g.1.iter_mut().zip(p.odds) {
            *sum += odds;
        }
        g.2[2 - p.sample.result as usize] += 1;
    }
    sums.into_iter()
        .enumerate()
        .filter(|(_, (n, _, _))| *n > 0)
        .map(|(k, (n, p, o))| Group {
            label: label(k),
            positions: n,
            predicted: p.map(|v| v / n as f64),
            observed: o.map(|v| v as f64 / n as f64),
        })
        .collect()
}

/// Positions by score: buckets `width` wide centred on the multiples of
/// `width` within `range`, and the two tails beyond.
pub fn score_buckets(positions: &[Predicted], width: i32, range: i32) -> Vec<Group> {
    let k = range / width;
    let half = width / 2;
    let index = |s: &Sample| {
        let b = (i32::from(s.score) + half).div_euclid(width);
        (b.clamp(-k - 1, k + 1) + k + 1) as usize
    };
    let label = |i: usize| {
        let b = i as i32 - k - 1;
        let lo = b * width - half;
        if b < -k {
            format!("< {}", lo + width)
        } else if b > k {
            format!(">= {lo}")
        } else {
            format!("{lo} .. {}", lo + width - 1)
        }
    };
    groups(positions, (2 * k + 3) as usize, index, label)
}

/// Positions by material, in `bands` equal bands from none to the start
/// position's.
pub fn material_bands(positions: &[Predicted], bands: usize) -> Vec<Group> {
    let width = START_MATERIAL as usize / bands + 1;
    let index = |s: &Sample| (s.material.max(0) as usize / width).min(bands - 1);
    let label = |i: usize| {
        let hi = ((i + 1) * width - 1).min(START_MATERIAL as usize);
        format!("{} .. {hi}", i * width)
    };
    groups(positions, bands, index, label)
}

/// A table of groups: positions, predicted and observed W/D/L in
/// percentage points, and the largest difference.
pub fn render(title: &str, groups: &[Group]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{title:>16} {:>9}   {:>5} {:>5} {:>5}   {:>5} {:>5} {:>5}   {:>5}",
        "positions", "W", "D", "L", "W", "D", "L", "|err|"
    );
    let units = format!("{:>46}{:>20}", "predicted %", "observed %");
    let _ = writeln!(out, "{units}");
    for g in groups {
        let p = g.predicted.map(|v| 100.0 * v);
        let o = g.observed.map(|v| 100.0 * v);
        let _ = writeln!(
            out,
            "{:>16} {:>9}   {:>5.1} {:>5.1} {:>5.1}   {:>5.1} {:>5.1} {:>5.1}   {:>5.1}",
            g.label,
            g.positions,
            p[0],
            p[1],
            p[2],
            o[0],
            o[1],
            o[2],
            g.error_points()
        );
    }
    out
}

/// The group with the largest error among those of at least `min`
/// positions.
pub fn worst(groups: &[Group], min: usize) -> Option<&Group> {
    groups
        .iter()
        .filter(|g| g.positions >= min)
        .max_by(|a, b| a.error_points().total_cmp(&b.error_points()))
}

/// What `chariot-tools wdl` was asked (its options besides `--data`).
#[derive(Clone, Debug, clap::Args)]
pub struct Config {
    /// Every Nth game is held out of the fit and checked.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Also fit without each other Nth of the games in turn, so that
    /// every game is held out once and the table covers them all.
    #[arg(long)]
    pub cross_validate: bool,
    /// Fit nothing: judge the engine's own model (`chariot::wdl::MODEL`)
    /// on every game, to see whether it still fits a new net's games.
    #[arg(long, conflicts_with = "cross_validate")]
    pub engine_model: bool,
    /// Width of the score buckets of the table, centipawns.
    #[arg(long, default_value_t = 50)]
    pub width: i32,
    /// Scores beyond plus or minus this are lumped into two tails.
    #[arg(long, default_value_t = 1000)]
    pub range: i32,
    /// Buckets of fewer held-out positions are shown but not judged.
    #[arg(long, default_value_t = 1000)]
    pub min_positions: usize,
    /// Largest |predicted - observed| accepted in a judged bucket, in
    /// percentage points; beyond it the command fails (exit status 1).
    #[arg(long, default_value_t = 3.0)]
    pub max_error: f64,
}

/// The samples of fold `fold` of `folds` (the games whose number is
/// `fold` modulo `folds`), and the others.
fn split(samples: &[Sample], folds: usize, fold: usize) -> (Vec<Sample>, Vec<Sample>) {
    samples
        .iter()
        .partition(|s| s.game as usize % folds == fold)
}

/// Loads, fits and reports (on stdout); with `engine_model`, judges the
/// engine's model on every game instead. Returns whether every score bucket
/// of at least `min_positions` positions is within `max_error`.
pub fn run(paths: &[impl AsRef<Path>], cfg: &Config) -> Result<bool> {
    if cfg.holdout < 2 {
        bail!("--holdout must be at least 2 (every Nth game is held out)");
    }
    if cfg.width < 2 || cfg.range < cfg.width {
        bail!("--width must be at least 2 and --range at least the width");
    }
    let started = std::time::Instant::now();
    let (samples, report) = load(paths)?;
    eprintln!(
        "wdl: {} games ({} refused, {} damaged stretches), {} positions, loaded in {:.1} s",
        report.games,
        report.illegal_games,
        report.damaged_stretches,
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    let positions = if cfg.engine_model {
        println!(
            "the engine's model (chariot::wdl::MODEL) on all {} positions of {} games: log-loss {:.4}\n",
            samples.len(),
            report.games,
            neg_log_likelihood(&MODEL, &samples) / samples.len().max(1) as f64
        );
        predict(&MODEL, &samples)
    } else {
        fit_and_predict(&samples, report.games, cfg)?
    };
    Ok(judge(&positions, cfg))
}

/// Fits the model without every `holdout`th game and prints its constants;
/// returns its predictions for those games (for all, each by the fit
/// without its share, with `--cross-validate`).
fn fit_and_predict(samples: &[Sample], games: usize, cfg: &Config) -> Result<Vec<Predicted>> {
    // The 10th, 20th, … game with `holdout` 10.
    let last = cfg.holdout - 1;
    let (held, fit_set) = split(samples, cfg.holdout, last);
    if held.is_empty() {
        bail!("no held-out positions: more games are needed");
    }
    let fitted = fit(&fit_set)?;
    let held_games = games / cfg.holdout;
    let held_nll = neg_log_likelihood(&fitted.model, &held);
    println!(
        "fitted on {} positions of {} games ({} iterations): log-loss {:.4}; on the {} positions of the {held_games} held-out games: {:.4}",
        fit_set.len(),
        games - held_games,
        fitted.iterations,
        fitted.loss,
        held.len(),
        held_nll / held.len() as f64
    );
    println!("\n{}\n", rust_constants(&fitted.model));
    let mut positions = predict(&fitted.model, &held);
    if cfg.cross_validate {
        // The negative log-likelihood of every game under the fit that did
        // not see it.
        let mut nll = held_nll;
        for fold in 0..last {
            let (held, rest) = split(samples, cfg.holdout, fold);
            let model = fit(&rest)?.model;
            nll += neg_log_likelihood(&model, &held);
            positions.extend(predict(&model, &held));
        }
        println!(
            "cross-validated: each game predicted by the fit without its 1/{} of the games, {} positions of {} games, log-loss {:.4}\n",
            cfg.holdout,
            positions.len(),
            games,
            nll / positions.len() as f64
        );
    } else {
        println!(
            "held out: one game in {}, {} positions of {held_games} games\n",
            cfg.holdout,
            positions.len()
        );
    }
    Ok(positions)
}

/// Prints the calibration tables of `positions` by score and by material,
/// and whether every score bucket of at least `min_positions` is within
/// `max_error`, which it returns.
fn judge(positions: &[Predicted], cfg: &Config) -> bool {
    let buckets = score_buckets(positions, cfg.width, cfg.range);
    print!("{}", render("score (cp)", &buckets));
    println!();
    print!("{}", render("material", &material_bands(positions, 4)));
    println!();
    let sparse: Vec<&str> = buckets
        .iter()
        .filter(|g| g.positions < cfg.min_positions)
        .map(|g| g.label.as_str())
        .collect();
    if !sparse.is_empty() {
        println!(
            "score buckets of fewer than {} positions (not judged): {}",
            cfg.min_positions,
            sparse.join(", ")
        );
    }
    let Some(w) = worst(&buckets, cfg.min_positions) else {
        println!(
            "no score bucket has {} positions: nothing judged",
            cfg.min_positions
        );
        return false;
    };
    let holds = w.error_points() <= cfg.max_error;
    println!(
        "largest |predicted - observed| in score buckets of at least {} positions: {:.1} points (bucket {}): {} {} points",
        cfg.min_positions,
        w.error_points(),
        w.label,
        if holds { "within" } else { "beyond" },
        cfg.max_error
    );
    holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// `n` positions with scores in ±`spread` and material across the
    /// model's range, their results drawn from `model`'s odds.
    fn synthetic(model: &Model, n: usize, spread: i16, seed: u64) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let score = rng.random_range(-spread..=spread);
                let material = rng.random_range(0..=START_MATERIAL);
                let p = model.probabilities(f64::from(score), material_fraction(material));
                let r: f64 = rng.random();
                let result = if r < p[0] {
                    Result3::Win
                } else if r < p[0] + p[1] {
                    Result3::Draw
                } else {
                    Result3::Loss
                };
                Sample {
                    score,
                    material,
                    result,
                    game: 0,
                }
            })
            .collect()
    }

    const TRUE: Model = Model {
        a: [120.0, -60.0, 150.0, -40.0],
        b: [60.0, 20.0, 40.0, 10.0],
        d: [25.0, -10.0, 5.0, 0.0],
        k: 0.2,
        z: 0.3,
        p: 0.25,
        a2: 300.0,
        b2: 30.0,
    };

    #[test]
    fn the_slopes_and_curvatures_are_those_of_the_odds() {
        for (a, b, d, k, z, p, a2, b2, s) in [
            (100.0, 80.0, 0.0, 0.0, 0.2, 0.1, 150.0, 30.0, 30.0),
            (60.0, 150.0, 20.0, 0.3, 0.0, 0.3, 80.0, 200.0, -400.0),
            (200.0, 50.0, -15.0, 1.5, 0.4, 0.05, 300.0, 20.0, 0.0),
            (90.0, 70.0, 10.0, 0.1, 0.1, 0.5, 120.0, 60.0, 250.0),
            (40.0, 130.0, 5.0, 0.05, 0.2, 0.2, 140.0, 30.0, 135.0),
            (50.0, 140.0, 20.0, 0.04, 0.15, 0.12, 145.0, 30.0, 0.0),
        ] {
            let at = |v: [f64; TERMS]| {
                let model = Model {
                    k: v[3],
                    z: v[4],
                    p: v[5],
                    a2: v[6],
                    b2: v[7],
                    ..TRUE
                };
                local(v[0], v[1], v[2], &model, s)
            };
            let point = [a, b, d, k, z, p, a2, b2];
            let here = at(point);
            assert!((here.odds.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let h = 1e-5;
            let close =
                |numeric: f64, exact: f64| (numeric - exact).abs() < 1e-7 * exact.abs().max(1e-2);
            for n in 0..TERMS {
                let shifted = |delta: f64| {
                    let mut v = point;
                    v[n] += delta;
                    at(v)
                };
                let (up, down) = (shifted(h), shifted(-h));
                for o in 0..3 {
                    let numeric = (up.odds[o] - down.odds[o]) / (2.0 * h);
                    let exact = here.slope[n][o];
                    assert!(
                        close(numeric, exact),
                        "term {n}, outcome {o}: {numeric} vs {exact}"
                    );
                    for m in 0..TERMS {
                        let numeric = (up.slope[m][o] - down.slope[m][o]) / (2.0 * h);
                        let exact = here.curvature[m][n][o];
                        let mirror = here.curvature[n][m][o];
                        assert!(
                            close(numeric, exact) && close(mirror, exact),
                            "terms {m} and {n}, outcome {o}: {numeric} vs {exact} and {mirror}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_likelihoods_derivatives_are_its_slopes() {
        // The gradient and Hessian of the negative log-likelihood in the
        // 17 parameters, against differences of the likelihood and of the
        // gradient; the Fisher information is symmetric.
        let samples = synthetic(&TRUE, 300, 500, 5);
        let theta = to_vec(&TRUE);
        let Derivatives {
            grad,
            hessian,
            fisher,
        } = derivatives(&TRUE, &samples);
        for r in 0..N {
            let h = 1e-5 * theta[r].abs().max(1e-2);
            let shifted = |delta: f64| {
                let mut v = theta;
                v[r] += delta;
                from_vec(&v)
            };
            let (up, down) = (shifted(h), shifted(-h));
            let numeric = (neg_log_likelihood(&up, &samples) - neg_log_likelihood(&down, &samples))
                / (2.0 * h);
            assert!(
                (numeric - grad[r]).abs() < 1e-5 * grad[r].abs().max(1.0),
                "parameter {r}: {numeric} vs {}",
                grad[r]
            );
            let (g_up, g_down) = (
                derivatives(&up, &samples).grad,
                derivatives(&down, &samples).grad,
            );
            for c in 0..N {
                let numeric = (g_up[c] - g_down[c]) / (2.0 * h);
                let exact = hessian[c][r];
                assert!(
                    (numeric - exact).abs() < 1e-5 * exact.abs().max(1.0),
                    "parameters {c} and {r}: {numeric} vs {exact}"
                );
                assert_eq!(fisher[r][c], fisher[c][r]);
            }
        }
    }

    #[test]
    fn the_fitted_odds_are_the_engines_odds() {
        // The fitter computes the odds again, with their slopes; they must
        // be the model's, the exactly level score included.
        for m in [0, 700, 1400, START_MATERIAL] {
            let x = material_fraction(m);
            let (a, b, d) = TRUE.params(x);
            for s in [-900.0, -120.0, -1.0, 0.0, 1.0, 37.0, 290.0, 450.0] {
                let fitted = local(a, b, d, &TRUE, s).odds;
                let engine = TRUE.probabilities(s, x);
                assert!(
                    fitted
                        .iter()
                        .zip(engine)
                        .all(|(f, e)| (f - e).abs() < 1e-12),
                    "material {m}, score {s}: {fitted:?} against {engine:?}"
                );
            }
        }
    }

    /// Run by the release pass of the tests (scripts/test.sh): the fit of
    /// 250,000 samples in 17 parameters takes seconds optimised and
    /// minutes in a debug build.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn the_fit_recovers_the_model_that_made_the_data() {
        let samples = synthetic(&TRUE, 250_000, 600, 3);
        let fit = fit(&samples).expect("fit");
        for i in 0..=10 {
            let x = material_fraction(i * START_MATERIAL / 10);
            let (a, b, d) = fit.model.params(x);
            let (ta, tb, td) = TRUE.params(x);
            assert!((a - ta).abs() < 0.1 * ta, "x {x}: a {a} vs {ta}");
            assert!((b - tb).abs() < 0.1 * tb, "x {x}: b {b} vs {tb}");
            assert!((d - td).abs() < 8.0, "x {x}: d {d} vs {td}");
        }
        assert!((fit.model.k - TRUE.k).abs() < 0.05, "k {}", fit.model.k);
        assert!((fit.model.z - TRUE.z).abs() < 0.1, "z {}", fit.model.z);
        assert!((fit.model.p - TRUE.p).abs() < 0.05, "p {}", fit.model.p);
        assert!(
            (fit.model.a2 - TRUE.a2).abs() < 0.1 * TRUE.a2,
            "a2 {}",
            fit.model.a2
        );
        assert!(
            (fit.model.b2 - TRUE.b2).abs() < 0.3 * TRUE.b2,
            "b2 {}",
            fit.model.b2
        );
        // The truth is no likelier than the maximum found.
        assert!(fit.loss <= neg_log_likelihood(&TRUE, &samples) / samples.len() as f64);
        assert!(fit.iterations < 500);
        assert!(is_valid(&fit.model));
    }

    #[test]
    fn a_fit_needs_every_result() {
        let mut samples = synthetic(&TRUE, 1000, 300, 4);
        samples.retain(|s| s.result != Result3::Draw);
        assert!(fit(&samples).is_err());
        assert!(fit(&[]).is_err());
    }

    #[test]
    fn buckets_count_rates_and_tails() {
        let s = |score: i16, result| Sample {
            score,
            material: START_MATERIAL,
            result,
            game: 0,
        };
        let samples = [
            s(0, Result3::Draw),
            s(24, Result3::Win),
            s(-25, Result3::Loss),
            s(-26, Result3::Loss),
            s(25, Result3::Draw),
            s(500, Result3::Win),
            s(-4000, Result3::Loss),
        ];
        let buckets = score_buckets(&predict(&TRUE, &samples), 50, 100);
        let labels: Vec<&str> = buckets.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(
            labels,
            ["< -125", "-75 .. -26", "-25 .. 24", "25 .. 74", ">= 125"]
        );
        let counts: Vec<usize> = buckets.iter().map(|g| g.positions).collect();
        assert_eq!(counts, [1, 1, 3, 1, 1]);
        let middle = &buckets[2];
        let third = 1.0 / 3.0;
        assert_eq!(middle.observed, [third, third, third]);
        let x = material_fraction(START_MATERIAL);
        let mean: Vec<f64> = (0..3)
            .map(|i| {
                [0.0, 24.0, -25.0]
                    .iter()
                    .map(|&sc| TRUE.probabilities(sc, x)[i])
                    .sum::<f64>()
                    / 3.0
            })
            .collect();
        for (p, m) in middle.predicted.iter().zip(&mean) {
            assert!((p - m).abs() < 1e-12);
        }
        let expected = (0..3)
            .map(|i| 100.0 * (mean[i] - third).abs())
            .fold(0.0, f64::max);
        assert!((middle.error_points() - expected).abs() < 1e-9);
        // Only buckets big enough are judged.
        assert_eq!(
            worst(&buckets, 3).map(|g| g.label.as_str()),
            Some("-25 .. 24")
        );
        assert!(worst(&buckets, 4).is_none());
        let table = render("score (cp)", &buckets);
        assert_eq!(table.lines().count(), 2 + buckets.len());
        assert!(table.contains("-25 .. 24"), "{table}");
    }

    #[test]
    fn bands_cover_all_material() {
        let samples: Vec<Sample> = [0, 529, 530, START_MATERIAL]
            .into_iter()
            .map(|material| Sample {
                score: 0,
                material,
                result: Result3::Draw,
                game: 0,
            })
            .collect();
        let bands = material_bands(&predict(&TRUE, &samples), 4);
        let labels: Vec<&str> = bands.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["0 .. 530", "1593 .. 2120"]);
        assert_eq!(bands[0].positions, 3);
    }
}
