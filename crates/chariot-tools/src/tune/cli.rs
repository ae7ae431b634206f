//! `chariot-tools tune gen …` and `chariot-tools tune fit …`.

use super::{datagen, fit};
use anyhow::{Context, Result};
use clap::Subcommand;
use std::io::Write;

/// `chariot-tools tune …`.
#[derive(Subcommand)]
pub enum Command {
    /// Play self-play games and write their quiet positions with results.
    Gen {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = 2000)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Output file.
        #[arg(long)]
        out: String,
    },
    /// Fit the weights to a data file and write src/eval/params.rs.
    Fit {
        /// Data file from `tune gen`.
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
        Command::Gen {
            games,
            nodes,
            seed,
            threads,
            out,
        } => {
            let cfg = datagen::GenConfig {
                games,
                nodes: nodes.max(1),
                seed,
                threads: threads.clamp(1, 256),
                random_plies: (6, 10),
                max_plies: 400,
            };
            let file =
                std::fs::File::create(&out).with_context(|| format!("cannot create {out}"))?;
            let mut w = std::io::BufWriter::new(file);
            let n = datagen::generate(&cfg, &mut w)?;
            w.flush()?;
            eprintln!("tune gen: {n} positions from {games} games written to {out}");
        }
        Command::Fit {
            data,
            epochs,
            rate,
            out,
        } => {
            let text =
                std::fs::read_to_string(&data).with_context(|| format!("cannot read {data}"))?;
            let samples = fit::load(&text)?;
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
