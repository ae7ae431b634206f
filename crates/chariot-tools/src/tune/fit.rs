//! The Texel method: fit the evaluation weights so that a sigmoid of the
//! evaluation predicts game results, by minimising the mean squared error
//! over quiet positions with Adam (full-batch gradient descent). The
//! evaluation is linear in its weights (`eval::trace`), so the gradient is
//! exact.

use anyhow::{bail, Context, Result};
use chariot::eval::{layout, params::WEIGHTS, trace, Score, PHASE_MAX};
use chariot::xiangqi::Position;
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;

/// One training position: its features and the game's result.
pub struct Sample {
    coefficients: Vec<(u16, i16)>,
    /// Middlegame share of the evaluation (phase / PHASE_MAX).
    mg: f64,
    /// Red's score in the game: 1, 0.5 or 0.
    result: f64,
}

/// Reads `<FEN> ; <Red's score>` lines; refuses bad lines by number.
pub fn load(text: &str) -> Result<Vec<Sample>> {
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, result) = line
            .rsplit_once(';')
            .with_context(|| format!("line {}: expected '<FEN> ; <result>'", n + 1))?;
        let result: f64 = result
            .trim()
            .parse()
            .ok()
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .with_context(|| format!("line {}: result must be 1, 0.5 or 0", n + 1))?;
        let pos = Position::from_fen(fen.trim()).with_context(|| format!("line {}", n + 1))?;
        samples.push(sample(&pos, result));
    }
    if samples.is_empty() {
        bail!("no training positions");
    }
    Ok(samples)
}

/// The quiet positions of game data (see `dataset::is_training_position`),
/// each with Red's score in its game. Damaged stretches are reported and
/// skipped.
pub fn load_games(bytes: &[u8]) -> Result<Vec<Sample>> {
    let (chunks, damage) = crate::gamefile::read_chunks(bytes);
    for d in &damage {
        eprintln!("tune fit: {d}; the rest is used");
    }
    let mut samples = Vec::new();
    for game in chunks.iter().flat_map(|c| &c.games) {
        let mut pos = game.start_position()?;
        let result = game.outcome.red_score() as f64;
        for &(m, score) in &game.moves {
            if !pos.is_legal(m) {
                bail!(
                    "a stored game plays the illegal move {m} in {}",
                    pos.to_fen()
                );
            }
            if crate::dataset::is_training_position(&pos, m, score) {
                samples.push(sample(&pos, result));
            }
            pos.make_move(m);
        }
    }
    if samples.is_empty() {
        bail!("no training positions");
    }
    Ok(samples)
}

fn sample(pos: &Position, result: f64) -> Sample {
    let t = trace(pos);
    Sample {
        coefficients: t.coefficients,
        mg: t.phase as f64 / PHASE_MAX as f64,
        result,
    }
}

fn sigmoid(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Red's evaluation of a sample under weights `w` (mg, eg interleaved).
fn evaluate(s: &Sample, w: &[f64]) -> f64 {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(p, c) in &s.coefficients {
        mg += w[2 * p as usize] * c as f64;
        eg += w[2 * p as usize + 1] * c as f64;
    }
    mg * s.mg + eg * (1.0 - s.mg)
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(evaluate(s, w), k)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scaling constant that best fits the current weights (golden-section search).
pub fn best_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05, 5.0);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The current weights as a flat (mg, eg) vector.
pub fn initial_weights() -> Vec<f64> {
    WEIGHTS
        .iter()
        .flat_map(|s| [s.mg as f64, s.eg as f64])
        .collect()
}

/// What a fit produced.
pub struct Fit {
    pub weights: Vec<Score>,
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
}

/// Fits the weights with `epochs` Adam steps of learning rate `rate`.
pub fn fit(samples: &[Sample], epochs: usize, rate: f64) -> Result<Fit> {
    let mut w = initial_weights();
    let k = best_k(samples, &w);
    let error_before = error(samples, &w, k);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let bar = ProgressBar::new(epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] epoch {pos}/{len} {msg}")
            .context("progress bar template")?
            .progress_chars("=> "),
    );
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; w.len()];
        for s in samples {
            let p = sigmoid(evaluate(s, &w), k);
            // d(error)/d(eval) for this sample.
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * scale;
            for &(i, c) in &s.coefficients {
                grad[2 * i as usize] += g * c as f64 * s.mg;
                grad[2 * i as usize + 1] += g * c as f64 * (1.0 - s.mg);
            }
        }
        let n = samples.len() as f64;
        for i in 0..w.len() {
            // The king's material never varies: keep it at zero.
            if i / 2 == layout::MATERIAL {
                continue;
            }
            let g = grad[i] / n;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(epoch as i32));
            let vh = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == epochs {
            bar.set_message(format!("error {:.6}", error(samples, &w, k)));
        }
        bar.inc(1);
    }
    bar.finish();
    let error_after = error(samples, &w, k);
    let weights = w
        .chunks(2)
        .map(|c| Score {
            mg: c[0].round() as i32,
            eg: c[1].round() as i32,
        })
        .collect();
    Ok(Fit {
        weights,
        k,
        error_before,
        error_after,
    })
}

/// The Rust source of `src/eval/params.rs` holding `weights`.
pub fn params_source(weights: &[Score], how: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Evaluation weights as (middlegame, endgame) pairs in centipawns (100 is\n");
    s.push_str("//! about a horse), in the order of `layout`. Written by `chariot tune fit`:\n");
    let _ = writeln!(s, "//! {how}");
    s.push_str("\nuse super::layout;\nuse super::Score;\n\n");
    s.push_str("const fn s(mg: i32, eg: i32) -> Score {\n    Score { mg, eg }\n}\n\n");
    s.push_str("/// Every weight, in the order of `layout`.\n");
    s.push_str("#[rustfmt::skip]\n");
    s.push_str("pub const WEIGHTS: [Score; layout::COUNT] = [\n");
    for (i, w) in weights.iter().enumerate() {
        let _ = writeln!(s, "    s({}, {}), // {}", w.mg, w.eg, layout::name(i));
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> String {
        // Red a rook up wins; an even start is drawn.
        let mut t = String::new();
        for _ in 0..20 {
            t.push_str("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1 ; 1\n");
            t.push_str("4k4/9/9/9/9/9/9/9/9/r2K5 w - - 0 1 ; 0\n");
            t.push_str(
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ; 0.5\n",
            );
        }
        t
    }

    #[test]
    fn loading_refuses_bad_lines_by_number() {
        assert!(load("garbage\n").is_err());
        let e = load("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1 ; 2\n").err();
        assert!(e.is_some_and(|e| e.to_string().contains("line 1")));
        assert_eq!(load(&data()).map(|s| s.len()).unwrap_or(0), 60);
    }

    #[test]
    fn fitting_lowers_the_error_and_writes_source() {
        let samples = load(&data()).expect("data");
        let f = fit(&samples, 50, 1.0).expect("fit");
        assert!(
            f.error_after < f.error_before,
            "{} {}",
            f.error_after,
            f.error_before
        );
        let src = params_source(&f.weights, "test");
        assert!(src.contains("pub const WEIGHTS"));
        assert_eq!(src.matches("\n    s(").count(), layout::COUNT);
    }
}
