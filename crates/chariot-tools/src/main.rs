//! `chariot-tools`: Chariot's data and training tools. None of this is in
//! the engine binary.

use anyhow::{bail, Context, Result};
use chariot_tools::{
    book, datagen, dataset, gamefile, import, manifest, merge, openings, spsa, sync, train, tune,
    wdl,
};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "chariot-tools",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("CHARIOT_TOOLS_REV"), ")"),
    about = "Chariot's data and training tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games at fixed nodes per move, written as game data.
    Datagen {
        /// Games in the whole run (all shards together).
        #[arg(long, default_value_t = 100_000)]
        games: u64,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once (one per core).
        #[arg(long, default_value_t = default_threads())]
        threads: usize,
        /// This machine's part of the run: K/N plays the games g with g mod N = K - 1.
        #[arg(long, default_value = "1/1", value_parser = parse_shard)]
        shard: (u16, u16),
        /// Output file (resumed if it exists). Default: under the user's cache directory.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The evaluation both sides play with: `<built-in>`, `<classical>`
        /// or a net file (a new generation of data from a trained net).
        #[arg(long, default_value = chariot::eval::BUILTIN_NAME)]
        evalfile: String,
    },
    /// Trains the network evaluation on game data, writing a checkpoint and
    /// the quantised net (`epoch-NNN.nnue`) after every epoch.
    Train {
        /// Game-data files (from datagen).
        #[arg(long = "data", required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Hidden neurons per perspective (only the engine's size can be
        /// quantised; others are for measuring).
        #[arg(long, default_value_t = chariot::eval::nnue::HIDDEN)]
        hidden: usize,
        /// Output neurons, chosen by the rooks, horses and cannons left: 1,
        /// or 8 (`nnue::OUTPUT_BUCKETS`).
        #[arg(long, default_value_t = 1)]
        output_buckets: usize,
        /// Six sets of inputs chosen by each side's own king square (the
        /// palace's ranks, centre file or not; right of centre mirrored).
        #[arg(long, conflicts_with = "symmetric")]
        king_buckets: bool,
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        #[arg(long, default_value_t = 16384)]
        batch: usize,
        /// Adam's learning rate (cut to 30% at 60% of the epochs, 9% at 85%).
        #[arg(long, default_value_t = 0.001)]
        lr: f32,
        /// Weight of the search's score in the target; the rest is the result.
        #[arg(long, default_value_t = 0.75)]
        lambda: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = default_threads())]
        threads: usize,
        /// Output directory. Default: under the user's cache directory.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue from a checkpoint (`checkpoint-NNN.ck`).
        #[arg(long, conflicts_with = "init")]
        resume: Option<PathBuf>,
        /// Start from a net's weights (the last generation's: a file, or
        /// `<built-in>`; or a training checkpoint, `*.ck`, of any width)
        /// instead of random ones; a net with one output or one set of
        /// inputs is copied into every bucket the run asks for, and a
        /// narrower net gets silent new hidden neurons.
        #[arg(long)]
        init: Option<String>,
        /// Also train on each position's mirror image (left to right),
        /// doubling the training positions; validation stays on the games'
        /// own positions.
        #[arg(long, conflicts_with = "symmetric")]
        mirror: bool,
        /// Ties the weights of each input to those of its mirror image (left
        /// to right), so that the net evaluates a position and its mirror
        /// image alike, at no extra cost per epoch.
        #[arg(long)]
        symmetric: bool,
    },
    /// Tunes the classical evaluation's weights (Texel method).
    Tune {
        #[command(subcommand)]
        command: tune::cli::Command,
    },
    /// Checks a game-data file: chunks, games, positions, damage; with
    /// --manifest, also its size, checksum and counts against the
    /// manifest's entry of its name.
    Check {
        file: PathBuf,
        /// The data set's manifest (data/manifest.toml).
        #[arg(long, value_name = "FILE")]
        manifest: Option<PathBuf>,
    },
    /// The self-play data set of the manifest (data/manifest.toml): make
    /// the shards missing from a data directory again, or add new ones.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Merges the shards of a datagen run (`--shard K/N`) into the file one
    /// unsharded run writes, byte for byte; refuses shards of different
    /// runs or nets, a shard given twice, overlapping or missing games.
    Merge {
        /// The shards' files, in any order.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The merged file (must not exist yet).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Match games as game data: chariot-match's PGN keeps each engine's
    /// score after every move, so the games of two builds playing the same
    /// net train like self-play (book moves unscored; games lost on time,
    /// by an illegal move or a crash skipped).
    Import {
        /// PGN files written by chariot-match.
        #[arg(required = true, value_name = "PGN")]
        pgn: Vec<PathBuf>,
        /// The game-data file to write (must not exist yet).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Nodes per move the games were played at, recorded with them (0:
        /// not at a fixed node count).
        #[arg(long, default_value_t = 0)]
        nodes: u32,
        /// The evaluation the engines played with, recorded with the games:
        /// `<built-in>`, `<classical>` or a net file.
        #[arg(long, default_value = chariot::eval::BUILTIN_NAME)]
        evalfile: String,
    },
    /// A wide opening suite for chariot-match (`--openings FILE`): bundled
    /// openings continued by random plies, kept when a search finds them
    /// level. Deterministic engines at fixed nodes replay the same games
    /// from a small suite; thousands of openings keep a long match's games
    /// distinct.
    Openings {
        /// Openings wanted.
        #[arg(long, default_value_t = 4000)]
        count: usize,
        /// Random plies added to each bundled opening: MIN-MAX.
        #[arg(long, default_value = "2-4", value_parser = parse_range)]
        extra_plies: (usize, usize),
        /// Nodes of the search that judges each candidate.
        #[arg(long, default_value_t = 20_000)]
        nodes: u32,
        /// Keep openings the search scores within this many centipawns.
        #[arg(long, default_value_t = 60)]
        max_score: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The suite to start from (default: the bundled balanced openings).
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// The judging search's evaluation: `<built-in>`, `<classical>` or a net file.
        #[arg(long, default_value = chariot::eval::BUILTIN_NAME)]
        evalfile: String,
        /// The suite file to write (must not exist yet).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Opening books in ElephantEye's BOOK.DAT format: probe, stats, build.
    Book {
        #[command(subcommand)]
        command: book::Command,
    },
    /// SPSA tuning of the search's tunables: game pairs between two
    /// instances of a tuning build (--features tune) whose options differ
    /// by ±c_k along random signs; see docs/SEARCH.md.
    Spsa(spsa::cli::Args),
    /// Fits the engine's win/draw/loss model (UCI_ShowWDL) to self-play
    /// games and checks it on held-out games: prints the constants of
    /// chariot::wdl::MODEL and a calibration table; see docs/EVALUATION.md.
    #[command(alias = "fit-wdl")]
    Wdl {
        /// Game-data files (from datagen).
        #[arg(long = "data", required = true, num_args = 1..)]
        data: Vec<PathBuf>,
        #[command(flatten)]
        cfg: wdl::Config,
    },
}

/// Where the data set lives and how its shards are made.
#[derive(clap::Args)]
struct DataPlace {
    /// The data directory. Default: under the user's cache directory.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The manifest. Default: data/manifest.toml of the checkout the
    /// current directory is in.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Games played at once (one per core): they do not change the data.
    #[arg(long, default_value_t = default_threads())]
    jobs: usize,
    /// Run at normal priority, not under scripts/match/idle.sh.
    #[arg(long)]
    no_idle: bool,
}

#[derive(Subcommand)]
enum DataCommand {
    /// Checks every shard of the manifest in the data directory and makes
    /// again, at idle priority, each one missing or damaged, with the
    /// build that made it (built from its commit once, into the cache).
    Sync {
        #[command(flatten)]
        place: DataPlace,
        /// Only this shard (its file name).
        #[arg(long, value_name = "NAME")]
        only: Option<String>,
    },
    /// Makes the N shards of a datagen run, at idle priority, and adds each
    /// to the manifest as it is made. A new seed is played by this build
    /// (refused from a build with uncommitted changes, whose shards no
    /// commit could make again); a seed in the manifest goes on with its
    /// run's build, so the same command goes on after a stop.
    Add {
        #[command(flatten)]
        place: DataPlace,
        /// Games in the whole run (all shards together).
        #[arg(long)]
        games: u64,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u32,
        /// The run's seed (one of the manifest's goes on with its run).
        #[arg(long)]
        seed: u64,
        /// Shards the run is made in (shard K plays the games g with g mod
        /// N = K - 1), one after another.
        #[arg(long, default_value_t = 1)]
        shards: u16,
        /// The evaluation both sides play with: `<built-in>`, `<classical>`
        /// or a net file (found again by its hash by later syncs).
        #[arg(long, default_value = chariot::eval::BUILTIN_NAME)]
        evalfile: String,
        /// Record shards of a build with uncommitted changes, which only
        /// this very build can make again (for tests).
        #[arg(long)]
        allow_dirty: bool,
    },
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The evaluation `--evalfile NAME` chooses.
fn evaluation(name: &str) -> Result<chariot::eval::Evaluation> {
    chariot::eval::Evaluation::from_name(name)
        .map_err(|e| anyhow::anyhow!("--evalfile '{name}' refused: {e}"))
}

/// `MIN-MAX` (or a single number) as an inclusive range.
fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{s}' must be MIN-MAX with MIN <= MAX, or one number");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

fn parse_shard(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("shard '{s}' must be K/N with 1 <= K <= N");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u16, u16) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The user's cache directory for Chariot.
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("chariot")
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(if e.is::<sync::Stopped>() { 130 } else { 2 });
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Datagen {
            games,
            nodes,
            seed,
            threads,
            shard,
            out,
            evalfile,
        } => {
            if nodes == 0 {
                bail!("--nodes must be at least 1");
            }
            let eval = evaluation(&evalfile)?;
            let out = match out {
                Some(p) => p,
                None => {
                    let dir = cache_dir().join("data");
                    std::fs::create_dir_all(&dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                    // Data from a net carries the net's hash in its name.
                    let by = eval
                        .net
                        .as_ref()
                        .map_or(String::new(), |net| format!("-net{}", net.short_hash()));
                    dir.join(format!(
                        "selfplay{by}-s{seed}-n{nodes}-{}of{}.cxgd",
                        shard.0, shard.1
                    ))
                }
            };
            let cfg = datagen::Config {
                games,
                nodes,
                seed,
                threads: threads.clamp(1, 1024),
                shard,
                random_plies: (4, 10),
                out,
                net: eval.net.clone(),
            };
            let stop = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&stop);
            ctrlc::set_handler(move || {
                eprintln!("datagen: stopping; finishing the games in play");
                flag.store(true, Ordering::Relaxed);
            })
            .context("cannot install the Ctrl-C handler")?;
            eprintln!(
                "datagen: writing {}, playing with {}",
                cfg.out.display(),
                eval.describe()
            );
            datagen::generate(&cfg, &stop)
        }
        Command::Tune { command } => tune::cli::run(command),
        Command::Spsa(args) => {
            let stop = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&stop);
            ctrlc::set_handler(move || {
                if flag.swap(true, Ordering::SeqCst) {
                    eprintln!("spsa: interrupted again: exiting now (the state file is whole)");
                    std::process::exit(130);
                }
                eprintln!("spsa: stopping; the pairs in play are dropped (again to exit at once)");
            })
            .context("cannot install the Ctrl-C handler")?;
            if spsa::cli::run(args, &cache_dir().join("spsa"), &stop)?
                == spsa::cli::Outcome::Interrupted
            {
                std::process::exit(130);
            }
            Ok(())
        }
        Command::Book { command } => book::run(command),
        Command::Wdl { data, cfg } => {
            if !wdl::run(&data, &cfg)? {
                std::process::exit(1);
            }
            Ok(())
        }
        Command::Train {
            data,
            hidden,
            output_buckets,
            king_buckets,
            epochs,
            batch,
            lr,
            lambda,
            seed,
            threads,
            out,
            resume,
            init,
            mirror,
            symmetric,
        } => {
            let shape = train::Shape {
                hidden,
                king_buckets: if king_buckets {
                    chariot::eval::nnue::KING_BUCKETS
                } else {
                    1
                },
                buckets: output_buckets,
            };
            shape.check()?;
            if batch == 0 || epochs == 0 {
                bail!("--batch and --epochs must be at least 1");
            }
            if !((0.0..=1.0).contains(&lambda) && lr > 0.0 && lr < 1.0) {
                bail!("--lambda must be within 0..1 and --lr within (0, 1)");
            }
            let init = match &init {
                None => None,
                Some(name) if name.ends_with(".ck") => Some(
                    train::FloatNet::from_checkpoint_file(Path::new(name))
                        .map_err(|e| anyhow::anyhow!("--init '{name}' refused: {e:#}"))?,
                ),
                Some(name) => match chariot::eval::Evaluation::from_name(name)
                    .map_err(|e| anyhow::anyhow!("--init '{name}' refused: {e}"))?
                    .net
                {
                    Some(net) => Some(train::FloatNet::from_network(&net)),
                    None => bail!("--init needs a net, not the classical evaluation"),
                },
            };
            let started = std::time::Instant::now();
            let (mut train_set, valid, report) = dataset::load(&data)?;
            if mirror {
                train_set = train_set.with_mirrors();
            }
            eprintln!(
                "train: {} games, {} training{} and {} validation positions ({} games refused, {} damaged stretches) loaded in {:.1} s",
                report.games,
                train_set.len(),
                if mirror { " (with mirror images)" } else { "" },
                valid.len(),
                report.illegal_games,
                report.damaged_stretches,
                started.elapsed().as_secs_f64()
            );
            let cfg = train::Config {
                shape,
                epochs,
                batch,
                lr,
                lambda,
                seed,
                threads: threads.clamp(1, 1024),
                out: out.unwrap_or_else(|| cache_dir().join("train")),
                symmetric,
            };
            let start = match (&resume, &init) {
                (Some(path), _) => train::Start::Resume(path),
                (None, Some(net)) => train::Start::Init(net),
                (None, None) => train::Start::Random,
            };
            train::train(&cfg, &train_set, &valid, start)?;
            eprintln!(
                "train: done in {:.0} s; nets in {}",
                started.elapsed().as_secs_f64(),
                cfg.out.display()
            );
            Ok(())
        }
        Command::Import {
            pgn,
            out,
            nodes,
            evalfile,
        } => {
            let eval = evaluation(&evalfile)?;
            let run = gamefile::RunId {
                seed: 0,
                nodes,
                shard: (1, 1),
                eval: eval.net.as_ref().map_or(0, |net| net.hash()),
            };
            let done = import::import(&pgn, &out, run)?;
            println!(
                "{}: {} games ({} skipped, {} of them repeats), {} training positions, played with {}",
                out.display(),
                done.games,
                done.skipped,
                done.repeats,
                done.positions,
                eval.describe()
            );
            Ok(())
        }
        Command::Openings {
            count,
            extra_plies,
            nodes,
            max_score,
            seed,
            from,
            evalfile,
            out,
        } => {
            if nodes == 0 || count == 0 {
                bail!("--nodes and --count must be at least 1");
            }
            let eval = evaluation(&evalfile)?;
            let base =
                chariot_match::openings::load(from.as_deref()).map_err(|e| anyhow::anyhow!(e))?;
            let cfg = openings::Config {
                count,
                extra_plies,
                nodes,
                max_score,
                seed,
                net: eval.net.clone(),
            };
            // Refuse an existing file before the work, not after.
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&out)
                .with_context(|| format!("cannot create {} (never overwritten)", out.display()))?;
            let bar = indicatif::ProgressBar::new(count as u64);
            let made = openings::generate(&cfg, &base, &mut |n| bar.set_position(n as u64));
            bar.finish_and_clear();
            let made = match made {
                Ok(m) => m,
                Err(e) => {
                    let _ = std::fs::remove_file(&out);
                    return Err(e);
                }
            };
            let from_name = from.as_ref().map_or_else(
                || chariot_match::openings::DEFAULT_SUITE_NAME.to_string(),
                |p| p.display().to_string(),
            );
            let text = openings::suite_text(&cfg, &made, &eval.describe(), &from_name);
            use std::io::Write;
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("cannot write {}", out.display()))?;
            let mean = made.iter().map(|m| f64::from(m.score)).sum::<f64>() / made.len() as f64;
            println!(
                "{}: {} openings, mean score {mean:+.1} cp for the side to move",
                out.display(),
                made.len()
            );
            Ok(())
        }
        Command::Merge { files, out } => {
            let inputs = files
                .iter()
                .map(|f| {
                    std::fs::read(f)
                        .map(|bytes| (f.display().to_string(), bytes))
                        .with_context(|| format!("cannot read {}", f.display()))
                })
                .collect::<Result<Vec<_>>>()?;
            let merged = merge::merge(&inputs)?;
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&out)
                .with_context(|| {
                    format!(
                        "cannot create {} (the merge never overwrites a file)",
                        out.display()
                    )
                })?;
            use std::io::Write;
            file.write_all(&merged.bytes)
                .and_then(|()| file.sync_all())
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{}: {} games (seed {}, {} nodes, {}) from {} file{}",
                out.display(),
                merged.games,
                merged.run.seed,
                merged.run.nodes,
                if merged.run.eval == 0 {
                    "classical evaluation".to_string()
                } else {
                    format!("net {:016x}", merged.run.eval)
                },
                files.len(),
                if files.len() == 1 { "" } else { "s" }
            );
            Ok(())
        }
        Command::Data { command } => data(command),
        Command::Check { file, manifest } => {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let (chunks, damage) = gamefile::read_chunks(&bytes);
            let games: usize = chunks.iter().map(|c| c.games.len()).sum();
            let moves: usize = chunks
                .iter()
                .flat_map(|c| &c.games)
                .map(|g| g.moves.len())
                .sum();
            let quiet: u64 = chunks
                .iter()
                .flat_map(|c| &c.games)
                .map(datagen::count_quiet)
                .sum();
            println!(
                "{}: {} chunks, {games} games, {moves} moves, {quiet} training positions",
                file.display(),
                chunks.len()
            );
            for d in &damage {
                println!("damage: {d}");
            }
            if !damage.is_empty() {
                bail!(
                    "{} damaged stretch(es); the good chunks are still readable",
                    damage.len()
                );
            }
            if let Some(path) = manifest {
                let listed = manifest::Manifest::load(&path, false)?;
                let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
                let Some(shard) = name.as_deref().and_then(|n| listed.get(n)) else {
                    bail!(
                        "{}: no shard of that name in {}",
                        file.display(),
                        path.display()
                    );
                };
                manifest::verify(&bytes, shard, true).map_err(|e| {
                    anyhow::anyhow!("{}: does not match {}: {e}", file.display(), path.display())
                })?;
                println!(
                    "{}: matches {} (sha256 {}, made by {} at {})",
                    file.display(),
                    path.display(),
                    shard.sha256,
                    shard.net,
                    manifest::short_rev(&shard.rev)
                );
            }
            Ok(())
        }
    }
}

/// `chariot-tools data sync|add`.
fn data(command: DataCommand) -> Result<()> {
    let (DataCommand::Sync { place, .. } | DataCommand::Add { place, .. }) = &command;
    let here = std::env::current_dir().context("cannot read the current directory")?;
    let manifest_path = match &place.manifest {
        Some(p) => p.clone(),
        None => sync::repo_of(&here)
            .context("not inside a git checkout: give --manifest")?
            .join("data/manifest.toml"),
    };
    let dir = place
        .dir
        .clone()
        .unwrap_or_else(|| cache_dir().join("data"));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let maker = sync::Maker {
        dir,
        cache: cache_dir(),
        repo: sync::repo_of(&manifest_path).or_else(|| sync::repo_of(&here)),
        jobs: place.jobs.clamp(1, 1024),
        idle: !place.no_idle,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        eprintln!("data: stopping; the games in play are finished and kept");
        flag.store(true, Ordering::Relaxed);
    })
    .context("cannot install the Ctrl-C handler")?;
    let say = |name: &str, outcome: &sync::Outcome, shard: &manifest::Shard| {
        let what = match outcome {
            sync::Outcome::Present => return println!("{name}: present"),
            sync::Outcome::Remade => "made again, its sha256 as listed",
            sync::Outcome::Added => "made and added to the manifest",
        };
        println!(
            "{name}: {what}: {} games, {} positions, {} bytes",
            shard.games, shard.positions, shard.bytes
        );
    };
    match command {
        DataCommand::Sync { only, .. } => {
            let listed = manifest::Manifest::load(&manifest_path, false)?;
            let shards: Vec<&manifest::Shard> = match &only {
                Some(name) => vec![listed
                    .get(name)
                    .with_context(|| format!("no shard {name} in {}", manifest_path.display()))?],
                None => listed.shard.iter().collect(),
            };
            let (mut present, mut remade, mut failed) = (0, 0, 0);
            for shard in &shards {
                if stop.load(Ordering::Relaxed) {
                    return Err(sync::Stopped.into());
                }
                match maker.ensure(shard, &stop) {
                    Ok(outcome) => {
                        say(&shard.name, &outcome, shard);
                        if outcome == sync::Outcome::Present {
                            present += 1;
                        } else {
                            remade += 1;
                        }
                    }
                    Err(e) if e.is::<sync::Stopped>() => return Err(e),
                    Err(e) => {
                        eprintln!("error: {}: {e:#}", shard.name);
                        failed += 1;
                    }
                }
            }
            println!(
                "data sync: {} shard{} in {}: {present} present, {remade} made again, {failed} failed",
                shards.len(),
                if shards.len() == 1 { "" } else { "s" },
                maker.dir.display()
            );
            if failed > 0 {
                bail!("{failed} shard(s) not made (above)");
            }
            Ok(())
        }
        DataCommand::Add {
            games,
            nodes,
            seed,
            shards,
            evalfile,
            allow_dirty,
            ..
        } => {
            if shards == 0 || games < u64::from(shards) || nodes == 0 {
                bail!("--shards and --nodes must be at least 1, and --games at least --shards");
            }
            let eval = evaluation(&evalfile)?;
            let net = eval
                .net
                .as_ref()
                .map_or(manifest::CLASSICAL.to_string(), |n| n.short_hash());
            let run = manifest::Run {
                games,
                nodes,
                seed,
                shard: (1, shards),
                evalfile,
            };
            eprintln!(
                "data: seed {seed}, {games} games in {shards} shard(s) at {nodes} nodes, into {} and {}",
                maker.dir.display(),
                manifest_path.display()
            );
            maker.add(
                &manifest_path,
                &run,
                &net,
                allow_dirty,
                &stop,
                &mut |n, o, s| say(n, o, s),
            )
        }
    }
}
