//! Running a match: checking the engines, the schedule, `-j N` worker
//! threads (each owning its own engine processes, one game at a time), and
//! the collector on the calling thread that writes the PGN, the game lines,
//! the progress bar, the SPRT and the final table. Ctrl-C or a decided SPRT
//! stops the workers: games in progress are abandoned (and not counted),
//! engines are killed, and everything finished is kept and reported.

use super::cli::MatchConfig;
use super::engine::{validate_options, Engine};
use super::game::{self, GameRecord, Player};
use super::openings::{self, Opening};
use super::pgn;
use super::report::{self, EloBasis, Progress, Standing};
use super::schedule::{self, Format, GameSpec};
use super::stats::{Model, Penta, SprtState, Wdl};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use xiangqi::types::Color;

/// Ctrl-C presses seen by this process.
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// Installs the Ctrl-C handler once per process: the first press asks the
/// match to stop cleanly, the second exits at once.
fn install_ctrlc() {
    let result = ctrlc::set_handler(|| {
        if INTERRUPTS.fetch_add(1, Ordering::SeqCst) >= 1 {
            eprintln!("chariot-match: interrupted again: exiting now");
            std::process::exit(130);
        }
    });
    if let Err(e) = result {
        log::debug!("no Ctrl-C handler: {e}");
    }
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Completed,
    SprtDecided,
    Interrupted,
}

/// Starts each engine once to learn its name and options. Engines that fail
/// are reported and left out (`None`).
fn probe(cfg: &MatchConfig) -> Vec<Option<Player>> {
    let mut players: Vec<Option<Player>> = Vec::new();
    for (i, spec) in cfg.engines.iter().enumerate() {
        let label = spec.name.clone().unwrap_or_else(|| spec.fallback_name());
        match Engine::start(spec, &label, &[], cfg.game.ready_timeout) {
            Err(e) => {
                log::error!("engine #{} ({label}) left out: {e}", i + 1);
                players.push(None);
            }
            Ok(engine) => {
                let name = spec
                    .name
                    .clone()
                    .or_else(|| engine.id_name.clone())
                    .unwrap_or(label);
                let (options, problems) = validate_options(&spec.options, &engine.advertised);
                for p in problems {
                    log::warn!("engine {name} {p}");
                }
                log::info!(
                    "engine #{}: {name} ({}, moves with ranks {})",
                    i + 1,
                    engine.dialect.protocol,
                    match engine.dialect.ranks {
                        super::dialect::Ranks::FromZero => "0-9",
                        super::dialect::Ranks::FromOne => "1-10",
                    }
                );
                let mut spec = spec.clone();
                // Later starts use what was detected now.
                spec.ranks = Some(engine.dialect.ranks);
                engine.quit(Duration::from_millis(500));
                players.push(Some(Player {
                    name,
                    spec,
                    options,
                }));
            }
        }
    }
    // Distinct names, so the table and the PGN tell engines apart.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for p in players.iter_mut().flatten() {
        let n = seen.entry(p.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            p.name = format!("{} ({})", p.name, n);
        }
    }
    players
}

/// What the collector knows so far.
struct Tally {
    standings: Vec<Standing>,
    /// The first engine's results against all others (the progress bar's).
    first: Wdl,
    /// Results of half-finished pairs: first engine of the pairing's points.
    open_pairs: HashMap<(usize, usize), f64>,
    /// Pentanomial counts of pairing 0 (the SPRT's, with two engines).
    penta: Penta,
    done: usize,
}

impl Tally {
    fn add(&mut self, spec: &GameSpec, game: &GameRecord, first_of_pairing: usize) {
        self.standings[spec.red].add(game, Color::Red);
        self.standings[spec.black].add(game, Color::Black);
        if spec.red == 0 {
            self.first.add(game.points(Color::Red));
        } else if spec.black == 0 {
            self.first.add(game.points(Color::Black));
        }
        let side = if spec.red == first_of_pairing {
            Color::Red
        } else {
            Color::Black
        };
        let points = game.points(side);
        let second_of_pairing = if spec.red == first_of_pairing {
            spec.black
        } else {
            spec.red
        };
        match self.open_pairs.remove(&(spec.pairing, spec.pair)) {
            Some(other) => {
                self.standings[first_of_pairing].add_pair(other, points);
                self.standings[second_of_pairing].add_pair(1.0 - other, 1.0 - points);
                if spec.pairing == 0 {
                    self.penta.add(other, points);
                }
            }
            None => {
                self.open_pairs.insert((spec.pairing, spec.pair), points);
            }
        }
        self.done += 1;
    }
}

/// The PGN file, appended to; a failure to write is reported once and the
/// match goes on.
struct PgnOut {
    file: Option<File>,
    path: String,
}

impl PgnOut {
    fn open(path: &std::path::Path) -> Result<PgnOut, String> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open PGN file {}: {e}", path.display()))?;
        Ok(PgnOut {
            file: Some(file),
            path: path.display().to_string(),
        })
    }

    fn write(&mut self, text: &str) {
        if let Some(f) = self.file.as_mut() {
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                log::error!(
                    "cannot write to {}: {e}; no more games will be saved",
                    self.path
                );
                self.file = None;
            }
        }
    }
}

/// Runs the match. Returns how it ended, or a message when it cannot start.
pub fn run(cfg: MatchConfig) -> Result<Outcome, String> {
    install_ctrlc();
    let interrupts_at_start = INTERRUPTS.load(Ordering::SeqCst);
    let openings = openings::load(cfg.openings.as_deref())?;
    let mut order: Vec<usize> = (0..openings.len()).collect();
    if let Some(seed) = cfg.shuffle {
        order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
        log::info!("openings shuffled with seed {seed}");
    }

    let probed = probe(&cfg);
    if matches!(cfg.format, Format::Gauntlet) && probed.first().is_some_and(Option::is_none) {
        return Err("the gauntlet's first engine cannot play".to_string());
    }
    if cfg.sprt.is_some() && probed.iter().any(Option::is_none) {
        return Err("an SPRT needs both engines".to_string());
    }
    let players: Vec<Player> = probed.into_iter().flatten().collect();
    if players.len() < 2 {
        return Err("fewer than two engines can play".to_string());
    }
    let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    let games = schedule::schedule(cfg.format, players.len(), cfg.games_per_pairing, &order);
    let pairings = schedule::pairings(cfg.format, players.len());
    let mut pgn_out = PgnOut::open(&cfg.pgn)?;
    log::info!(
        "{} games: {} {}, {} per pairing, {} openings from {}, {}, {} at once; PGN to {}",
        games.len(),
        players.len(),
        match cfg.format {
            Format::RoundRobin => "engines round robin",
            Format::Gauntlet => "engines in a gauntlet",
        },
        cfg.games_per_pairing,
        openings.len(),
        cfg.openings
            .as_ref()
            .map_or(openings::DEFAULT_SUITE_NAME.to_string(), |p| p
                .display()
                .to_string()),
        cfg.game.tc,
        cfg.concurrency,
        cfg.pgn.display()
    );

    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(GameSpec, GameRecord)>();
    let mut tally = Tally {
        standings: vec![Standing::default(); players.len()],
        first: Wdl::default(),
        open_pairs: HashMap::new(),
        penta: Penta::default(),
        done: 0,
    };
    let progress = Progress::new(games.len());
    let tc_tag = cfg.game.tc.pgn_tag();
    let date = pgn::today();
    let mut outcome = Outcome::Completed;
    let mut sprt_result = None;
    // The Elo of the report is pentanomial unless the SPRT is trinomial.
    let pairs_wanted = cfg.sprt.is_none_or(|s| s.model == Model::Pentanomial);

    std::thread::scope(|scope| {
        let workers = cfg.concurrency.min(games.len()).max(1);
        for w in 0..workers {
            let tx = tx.clone();
            let (stop, next, games, players, openings, gcfg) =
                (&stop, &next, &games, &players, &openings, &cfg.game);
            let spawned = std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || {
                    worker(gcfg, players, openings, games, next, stop, tx)
                });
            if let Err(e) = spawned {
                log::error!("cannot start worker thread {w}: {e}");
            }
        }
        drop(tx);
        loop {
            let (spec, record) = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(done) => done,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if INTERRUPTS.load(Ordering::SeqCst) > interrupts_at_start
                        && !stop.load(Ordering::SeqCst)
                    {
                        log::warn!("interrupted: stopping; games in progress are abandoned (Ctrl-C again to exit at once)");
                        outcome = Outcome::Interrupted;
                        stop.store(true, Ordering::SeqCst);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let first = pairings.get(spec.pairing).map_or(spec.red, |p| p.0);
            tally.add(&spec, &record, first);
            let (red, black) = (&names[spec.red], &names[spec.black]);
            pgn_out.write(&pgn::write_game(
                &pgn::Tags {
                    event: &cfg.event,
                    site: &cfg.site,
                    date: &date,
                    round: &spec.number.to_string(),
                    red,
                    black,
                    time_control: &tc_tag,
                },
                &record,
            ));
            report::say(&format!(
                "Finished game {} ({red} vs {black}): {} {{{}}}",
                spec.number,
                record.result(),
                record.reason
            ));
            let first_basis = EloBasis::choose(&tally.standings[..1], pairs_wanted);
            let mut message = format!(
                "{} +{} ={} -{}  Elo {}",
                names[0],
                tally.first.wins,
                tally.first.draws,
                tally.first.losses,
                tally.standings[0].elo(first_basis.model())
            );
            if let Some(sprt) = cfg.sprt {
                let llr = sprt.llr_of(&tally.first, &tally.penta);
                let (lo, hi) = sprt.bounds();
                message.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
                let state = sprt.state(llr);
                if state != SprtState::Continue && sprt_result.is_none() {
                    sprt_result = Some((state, llr, tally.done));
                    if cfg.sprt_stops {
                        if outcome == Outcome::Completed {
                            outcome = Outcome::SprtDecided;
                        }
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            progress.update(tally.done, message);
        }
    });
    progress.finish();

    // The report.
    let total = games.len();
    match outcome {
        Outcome::Completed => report::say(&format!("\nMatch finished: {} games", tally.done)),
        Outcome::SprtDecided => report::say(&format!(
            "\nSPRT decided after {} games (of at most {total})",
            tally.done
        )),
        Outcome::Interrupted => report::say(&format!(
            "\nMatch interrupted: {} of {total} games finished",
            tally.done
        )),
    }
    let basis = EloBasis::choose(&tally.standings, pairs_wanted);
    report::say(report::table(&names, &tally.standings, basis).trim_end());
    if players.len() == 2 {
        report::say(&report::pairs_line(
            &names[0],
            &names[1],
            &tally.standings[0],
            basis,
        ));
    }
    if let Some(sprt) = cfg.sprt {
        let llr = sprt.llr_of(&tally.first, &tally.penta);
        let (lo, hi) = sprt.bounds();
        let all_games = llr;
        let verdict = match sprt_result.map(|(s, _, _)| s).unwrap_or(sprt.state(llr)) {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "no decision yet",
        };
        let llr = sprt_result.map_or(llr, |(_, l, _)| l);
        let mut verdict = verdict.to_string();
        if let (false, Some((_, _, at))) = (cfg.sprt_stops, sprt_result) {
            verdict.push_str(&format!(
                " after {at} games; all {} games: LLR {all_games:.3}",
                tally.done
            ));
        }
        report::say(&format!(
            "SPRT ({}, elo0={} elo1={} alpha={} beta={}): LLR {llr:.3}, bounds [{lo:.3}, {hi:.3}]: {verdict}",
            match sprt.model {
                Model::Pentanomial => "pentanomial",
                Model::Trinomial => "trinomial",
            },
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta
        ));
    }
    report::say(&format!("Games saved to {}", cfg.pgn.display()));
    Ok(outcome)
}

/// A worker: takes the next game from the schedule until none is left or
/// the match stops. Its engine processes live across its games.
fn worker(
    cfg: &game::GameConfig,
    players: &[Player],
    openings: &[Opening],
    games: &[GameSpec],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: mpsc::Sender<(GameSpec, GameRecord)>,
) {
    let mut slots: Vec<Option<Engine>> = players.iter().map(|_| None).collect();
    while !stop.load(Ordering::SeqCst) {
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(&spec) = games.get(i) else { break };
        let (Some(opening), true) = (openings.get(spec.opening), spec.red != spec.black) else {
            continue;
        };
        let mut red = slots[spec.red].take();
        let mut black = slots[spec.black].take();
        let record = game::play(
            cfg,
            [&players[spec.red], &players[spec.black]],
            [&mut red, &mut black],
            opening,
            stop,
        );
        slots[spec.red] = red;
        slots[spec.black] = black;
        match record {
            Some(record) => {
                if tx.send((spec, record)).is_err() {
                    break;
                }
            }
            None => break,
        }
    }
    let polite = !stop.load(Ordering::SeqCst);
    for engine in slots.into_iter().flatten() {
        if polite {
            engine.quit(Duration::from_millis(500));
        }
        // Otherwise dropping kills it at once.
    }
}
