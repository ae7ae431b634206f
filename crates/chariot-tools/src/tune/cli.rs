//! `chariot-tools tune fit …`.

use super::fit;
use anyhow::{Context, Result};
use clap::Subcommand;

/// `chariot-tools tune …`.
#[derive(Subcommand)]
pub enum Command {
    /// Fit the weights to a data file and write src/eval/params.rs.
    Fit {
        /// Game data from `chariot-tools datagen` (its quiet positions are
        /// used), or text lines `<FEN> ; <Red's score: 1, 0.5 or 0>`.
        #[arg(long)]
        data: String,
        #[arg(long, default_value_t = 400)]
        epochs: usize,
        /// Adam learning rate, in centipawns.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// Where to write the weights (Rust source).
        #[arg(long, default_value = "src/eval/params.rs")]
        out: String,
    },
}

/// Runs a `tune` command.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Fit {
            data,
            epochs,
            rate,
            out,
        } => {
            let bytes = std::fs::read(&data).with_context(|| format!("cannot read {data}"))?;
            let samples = if bytes.starts_with(&crate::gamefile::MAGIC) {
                fit::load_games(&bytes)?
            } else {
                fit::load(&String::from_utf8_lossy(&bytes))?
            };
            let f = fit::fit(&samples, epochs, rate)?;
            let how = format!(
                "{} positions of {data}, {epochs} epochs at rate {rate}; K = {:.4}, error {:.6} -> {:.6}",
                samples.len(),
                f.k,
                f.error_before,
                f.error_after
            );
            std::fs::write(&out, fit::params_source(&f.weights, &how))
                .with_context(|| format!("cannot write {out}"))?;
            eprintln!("tune fit: {how}; weights written to {out}");
        }
    }
    Ok(())
}
