//! `chariot-tools spsa`: the options, a checked run, the progress bar, and
//! the report.

use super::params::{self, Param, DEFAULT_R_END};
use super::play::{Engines, Setup};
use super::report;
use super::state::State;
use super::tuner::Tuner;
use anyhow::{anyhow, bail, Context, Result};
use chariot_match::clock::TimeControl;
use chariot_match::engine::EngineSpec;
use chariot_match::game::GameConfig;
use chariot_match::{cli as match_cli, openings};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const ENGINE_HELP: &str = "The engine, a tuning build (cargo build --release --features \
tune), as chariot-match's KEY=VALUE words: cmd=PATH (required), option.NAME=VALUE \
(repeatable; usebook is false unless given), args=\"A B\", arg=A, dir=DIR, proto=ucci|uci. \
Both instances are started from it.";

/// `chariot-tools spsa …`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(long, short = 'e', value_name = "KEY=VALUE", num_args = 1..,
          required_unless_present = "report", help = ENGINE_HELP)]
    engine: Vec<String>,

    /// Game pairs in the run: the N of the schedule.
    #[arg(long, value_name = "N", required_unless_present = "report",
          value_parser = clap::value_parser!(u64).range(1..))]
    pairs: Option<u64>,

    /// Clock of each game: base seconds plus increment per move (5+0.05).
    #[arg(long, value_name = "BASE[+INC]", conflicts_with = "nodes")]
    tc: Option<String>,

    /// Nodes per move, instead of a clock.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,

    /// Parameters in OpenBench's format, a line each: NAME, int, START, MIN,
    /// MAX, C_END, R_END (`#` comments) [default: every tunable of
    /// src/search/params.rs from its value, with its range and c_end].
    #[arg(long, value_name = "FILE")]
    params: Option<PathBuf>,

    /// Tune only these parameters (names separated by commas).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    only: Vec<String>,

    /// r_end (a/c² at the end of the run) of the tunables; a --params file
    /// gives its own.
    #[arg(long, value_name = "R", default_value_t = DEFAULT_R_END, conflicts_with = "params")]
    r_end: f64,

    /// Seed of the pairs' Δ and of the order of the openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Pairs played at once.
    #[arg(short = 'j', long = "concurrency", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    concurrency: u16,

    /// Opening file, as chariot-match's --openings [default: its bundled
    /// balanced openings].
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// Resign adjudication, as chariot-match's --resign.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..,
          default_values = ["movecount=4", "score=1000", "twosided=true"])]
    resign: Vec<String>,

    /// Draw adjudication, as chariot-match's --draw.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..,
          default_values = ["movenumber=40", "movecount=10", "score=8"])]
    draw: Vec<String>,

    /// The state file, rewritten after every pair; a run started with an
    /// existing one resumes it [default: ~/.cache/chariot/spsa/spsa-sSEED.state].
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,

    /// Stop after starting this many pairs, keeping the state (to run in
    /// sessions).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    stop_after: Option<u64>,

    /// Print the report of a state file (and write STATE.table.txt and
    /// STATE.rs next to it); plays nothing.
    #[arg(long, value_name = "STATE", exclusive = true)]
    report: Option<PathBuf>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every pair has been played.
    Complete,
    /// `--stop-after` pairs were played.
    Paused,
    /// Ctrl-C or SIGTERM.
    Interrupted,
}

/// The parameters of the run.
fn parameters(args: &Args) -> Result<Vec<Param>> {
    let all = match &args.params {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            params::parse_file(&text, &path.display().to_string()).map_err(|e| anyhow!(e))?
        }
        None => params::from_tunables(args.r_end),
    };
    let chosen = params::select(all, &args.only).map_err(|e| anyhow!(e))?;
    // The tunables' r_end is --r-end's, not checked yet.
    for p in &chosen {
        p.check().map_err(|e| anyhow!(e))?;
    }
    Ok(chosen)
}

/// The settings that define a run besides the tuner's own, as text.
fn settings(spec: &EngineSpec, game: &GameConfig, openings: &str) -> Vec<String> {
    let mut lines = vec![
        format!("engine {} {}", spec.cmd.display(), spec.args.join(" "))
            .trim_end()
            .to_string(),
    ];
    lines.push(format!("protocol {}", spec.protocol));
    lines.extend(spec.options.iter().map(|(n, v)| format!("option {n}={v}")));
    lines.push(format!("limit {}", game.tc));
    lines.push(format!("openings {openings}"));
    if let Some(r) = &game.resign {
        lines.push(format!("resign {r}"));
    }
    if let Some(d) = &game.draw {
        lines.push(format!("draw {d}"));
    }
    lines
}

/// Runs the command; `cache` is the default directory of state files.
pub fn run(args: Args, cache: &Path, stop: &AtomicBool) -> Result<Outcome> {
    if let Some(path) = &args.report {
        let state =
            State::load(path)?.ok_or_else(|| anyhow!("no state file {}", path.display()))?;
        report::report(&state, path)?;
        return Ok(Outcome::Complete);
    }
    chariot_match::report::init_logging();
    let pairs = args.pairs.ok_or_else(|| anyhow!("give --pairs"))?;
    let tc = match (&args.tc, args.nodes) {
        (Some(tc), _) => TimeControl::parse_clock(tc).map_err(|e| anyhow!("--tc: {e}"))?,
        (None, Some(n)) => TimeControl::Nodes(n),
        (None, None) => bail!("give --tc BASE[+INC] or --nodes N"),
    };
    let params = parameters(&args)?;
    let spec = EngineSpec::parse(&args.engine, &["option.usebook=false".to_string()])
        .map_err(|e| anyhow!("--engine: {e}"))?;
    if let Some((name, _)) = spec
        .options
        .iter()
        .find(|(n, _)| params.iter().any(|p| p.name.eq_ignore_ascii_case(n)))
    {
        bail!("--engine: option.{name} is a tuned parameter; leave it out or tune without it (--only)");
    }
    // chariot-match's defaults, but for the adjudication of its recipes.
    let game = GameConfig {
        tc,
        grace: Duration::from_millis(200),
        hang_timeout: Duration::from_secs(60),
        ready_timeout: Duration::from_secs(10),
        move_limit_plies: chariot::xiangqi::rules::MOVE_LIMIT_PLIES,
        max_plies: Some(600),
        resign: Some(match_cli::parse_resign(&args.resign).map_err(|e| anyhow!(e))?),
        draw: Some(match_cli::parse_draw(&args.draw).map_err(|e| anyhow!(e))?),
    };
    let suite = openings::load(args.openings.as_deref()).map_err(|e| anyhow!(e))?;
    let suite_name = args.openings.as_ref().map_or_else(
        || openings::DEFAULT_SUITE_NAME.to_string(),
        |p| p.display().to_string(),
    );

    let path = match &args.state {
        Some(p) => p.clone(),
        None => cache.join(format!("spsa-s{}.state", args.seed)),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let wanted = State {
        settings: settings(&spec, &game, &suite_name),
        tuner: Tuner::new(params, pairs, args.seed, suite.len()),
    };
    let mut state = match State::load(&path)? {
        Some(saved) => {
            if let Some(why) = saved.differs_from(&wanted) {
                bail!(
                    "the state file {} is another run's ({why}); give the same settings, or another --state",
                    path.display()
                );
            }
            eprintln!(
                "spsa: resuming {}: {} of {} pairs done",
                path.display(),
                saved.tuner.finished(),
                pairs
            );
            saved
        }
        None => wanted,
    };
    if state.tuner.is_complete() {
        eprintln!("spsa: the run is complete");
        report::report(&state, &path)?;
        return Ok(Outcome::Complete);
    }

    let setup = Setup::probe(game, &spec, &state.tuner.params, suite).map_err(|e| anyhow!(e))?;
    state.save(&path)?;
    eprintln!(
        "spsa: {pairs} pairs at {}, {} parameter(s), {} at once, openings from {suite_name}; state in {}",
        setup.game.tc,
        state.tuner.params.len(),
        args.concurrency,
        path.display()
    );

    let terminal = std::io::stderr().is_terminal();
    let bar = progress_bar(&state, terminal);
    let remaining = state.tuner.schedule.pairs - state.tuner.finished();
    let workers = u64::from(args.concurrency)
        .min(remaining)
        .min(args.stop_after.unwrap_or(u64::MAX));
    let players = (0..workers).map(|_| Engines::new(&setup)).collect();
    super::drive(
        &mut state,
        players,
        args.stop_after,
        stop,
        |s, pair, points| {
            s.save(&path)?;
            bar.set_position(s.tuner.finished());
            bar.set_message(wdl_text(s));
            // Without a terminal (a run in the background), a line per pair.
            if !terminal {
                let opening = &setup.openings[pair.opening];
                let plus = points[0] + points[1];
                eprintln!(
                    "spsa: pair {} of {pairs} ({}): θ+ {plus} - {} θ−; {}",
                    pair.k,
                    opening.name.as_deref().unwrap_or(&opening.source),
                    2.0 - plus,
                    wdl_text(s)
                );
            }
            Ok(())
        },
    )?;
    bar.finish_and_clear();

    let outcome = if state.tuner.is_complete() {
        Outcome::Complete
    } else if stop.load(Ordering::SeqCst) {
        Outcome::Interrupted
    } else {
        Outcome::Paused
    };
    match outcome {
        Outcome::Complete => eprintln!("spsa: the run is complete"),
        _ => eprintln!(
            "spsa: stopped after {} of {pairs} pairs; the same command resumes it",
            state.tuner.finished()
        ),
    }
    report::report(&state, &path)?;
    Ok(outcome)
}

fn wdl_text(s: &State) -> String {
    let w = s.tuner.wdl;
    format!("θ+ W {} D {} L {}", w.wins, w.draws, w.losses)
}

/// Pairs done of all, with the time to go and θ+'s results; drawn only on
/// a terminal.
fn progress_bar(state: &State, terminal: bool) -> ProgressBar {
    let target = if terminal {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(state.tuner.schedule.pairs), target)
        .with_position(state.tuner.finished());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} pairs, ETA {eta}  {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(wdl_text(state));
    // The pairs of earlier sessions say nothing of this one's speed.
    bar.reset_eta();
    bar
}
