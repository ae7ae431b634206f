//! Running a match: checking the engines, the schedule, `-j N` worker
//! threads (each owning its own engine processes, one game at a time), and
//! the collector on the calling thread that writes the PGN, the game lines,
//! the progress bar, the SPRT and the final table. Ctrl-C or a decided SPRT
//! stops the workers: games in progress are abandoned (and not counted),
//! engines are killed, and everything finished is kept and reported.

use super::cli::MatchConfig;
use super::clock::TimeControl;
use super::engine::{validate_options, Engine};
use super::game::{self, GameRecord, Player};
use super::openings::{self, Opening};
use super::pgn;
use super::report::{self, EloBasis, Progress, Standing};
use super::results::{self, GameResult};
use super::schedule::{self, Format, GameSpec};
use super::shard::Shard;
use super::stats::{Model, Penta, Sprt, SprtState, Wdl};
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

/// What the collector knows so far: the standings, the pairs, the SPRT.
/// `chariot-match merge` tallies the shards' games with it too, in game
/// order, so that its report is the one a single run would print.
pub struct Tally {
    pub standings: Vec<Standing>,
    /// The first engine's results against all others (the progress bar's).
    pub first: Wdl,
    /// Results of half-finished pairs: first engine of the pairing's points.
    open_pairs: HashMap<(usize, usize), f64>,
    /// Pentanomial counts of pairing 0 (the SPRT's, with two engines).
    pub penta: Penta,
    pub done: usize,
    /// Where the SPRT first decided: its verdict, LLR and the games then.
    pub sprt_result: Option<(SprtState, f64, usize)>,
}

impl Tally {
    pub fn new(engines: usize) -> Tally {
        Tally {
            standings: vec![Standing::default(); engines],
            first: Wdl::default(),
            open_pairs: HashMap::new(),
            penta: Penta::default(),
            done: 0,
            sprt_result: None,
        }
    }

    /// Counts a finished game; `first_of_pairing` is the pairing's first
    /// engine.
    pub fn add(&mut self, spec: &GameSpec, game: &GameRecord, first_of_pairing: usize) {
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

    /// The SPRT's LLR after the games so far; remembers where it first
    /// decided, and says whether that was now.
    pub fn check_sprt(&mut self, sprt: &Sprt) -> (f64, bool) {
        let llr = sprt.llr_of(&self.first, &self.penta);
        let state = sprt.state(llr);
        let now = state != SprtState::Continue && self.sprt_result.is_none();
        if now {
            self.sprt_result = Some((state, llr, self.done));
        }
        (llr, now)
    }
}

/// The line printed for each finished game.
pub fn game_line(number: usize, red: &str, black: &str, result: &str, reason: &str) -> String {
    format!("Finished game {number} ({red} vs {black}): {result} {{{reason}}}")
}

/// Under time odds (an engine with its own clock, `tc=`), the line that says
/// so: `time odds: chariot 1+0.01 s, the others 10+0.1 s`; `None` when every
/// engine plays the match's limit.
fn time_odds(cfg: &MatchConfig, players: &[Player]) -> Option<String> {
    let own: Vec<String> = players
        .iter()
        .filter(|p| matches!(p.spec.limit, Some(TimeControl::Clock { .. })))
        .filter(|p| game::limit_of(&cfg.game, p) != cfg.game.tc)
        .map(|p| format!("{} {}", p.name, game::limit_of(&cfg.game, p)))
        .collect();
    if own.is_empty() {
        return None;
    }
    let others = if own.len() + 1 == players.len() {
        "the other"
    } else {
        "the others"
    };
    Some(format!(
        "time odds: {}, {others} {}",
        own.join(", "),
        cfg.game.tc
    ))
}

/// Prints the final report: the heading, the table, the pairs line of a
/// two-engine match, and the SPRT's verdict. `stops` says whether the SPRT
/// was to stop the match.
pub fn print_report(
    heading: &str,
    names: &[String],
    tally: &Tally,
    sprt: Option<Sprt>,
    stops: bool,
) {
    report::say(heading);
    // The Elo of the report is pentanomial unless the SPRT is trinomial.
    let pairs_wanted = sprt.is_none_or(|s| s.model == Model::Pentanomial);
    let basis = EloBasis::choose(&tally.standings, pairs_wanted);
    report::say(report::table(names, &tally.standings, basis).trim_end());
    if names.len() == 2 {
        report::say(&report::pairs_line(
            &names[0],
            &names[1],
            &tally.standings[0],
            basis,
        ));
    }
    if let Some(sprt) = sprt {
        let llr = sprt.llr_of(&tally.first, &tally.penta);
        let (lo, hi) = sprt.bounds();
        let all_games = llr;
        let sprt_result = tally.sprt_result;
        let verdict = match sprt_result.map(|(s, _, _)| s).unwrap_or(sprt.state(llr)) {
            SprtState::AcceptH1 => "H1 accepted",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::Continue => "no decision yet",
        };
        let llr = sprt_result.map_or(llr, |(_, l, _)| l);
        let mut verdict = verdict.to_string();
        if let (false, Some((_, _, at))) = (stops, sprt_result) {
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

/// The order the suite's openings are played in: as in the file, or
/// shuffled by `shuffle`'s seed (the same order for every shard).
pub fn opening_order(count: usize, shuffle: Option<u64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    if let Some(seed) = shuffle {
        order.shuffle(&mut rand::rngs::StdRng::seed_from_u64(seed));
    }
    order
}

/// Runs the match. Returns how it ended, or a message when it cannot start.
pub fn run(cfg: MatchConfig) -> Result<Outcome, String> {
    install_ctrlc();
    let interrupts_at_start = INTERRUPTS.load(Ordering::SeqCst);
    let openings = openings::load(cfg.openings.as_deref())?;
    let order = opening_order(openings.len(), cfg.shuffle);
    if let Some(seed) = cfg.shuffle {
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
    let full = schedule::schedule(cfg.format, players.len(), cfg.games_per_pairing, &order);
    let mine = cfg.shard.select(&full);
    let pairings = schedule::pairings(cfg.format, players.len());
    let first_of = |spec: &GameSpec| pairings.get(spec.pairing).map_or(spec.red, |p| p.0);
    let mut tally = Tally::new(players.len());

    // The result file: games an earlier run of this shard finished are
    // counted, not played again.
    let mut results = None;
    let mut done = HashMap::new();
    if let Some(path) = &cfg.results {
        if players.len() != cfg.engines.len() {
            return Err(format!(
                "keeping results ({}) needs every engine: the schedule is the whole match's",
                path.display()
            ));
        }
        let settings = results::match_settings(&cfg, &names, &openings);
        let opened = results::Writer::open(path, cfg.shard, &settings)?;
        for g in opened.done {
            let spec = mine.iter().find(|s| s.number == g.number);
            match spec {
                Some(s) if (s.red, s.black, s.opening) == (g.red, g.black, g.opening) => {
                    done.insert(g.number, g);
                }
                _ => {
                    return Err(format!(
                        "{}: game {} is not one of shard {}'s games as scheduled; give another --results",
                        path.display(),
                        g.number,
                        cfg.shard
                    ))
                }
            }
        }
        for spec in mine.iter().filter(|s| done.contains_key(&s.number)) {
            tally.add(spec, &done[&spec.number].outcome(), first_of(spec));
            if let Some(sprt) = cfg.sprt {
                tally.check_sprt(&sprt);
            }
        }
        results = Some(opened.writer);
    }
    let mut games: Vec<GameSpec> = mine
        .iter()
        .filter(|s| !done.contains_key(&s.number))
        .copied()
        .collect();
    let mut outcome = Outcome::Completed;
    if let (Some((_, _, at)), true) = (tally.sprt_result, cfg.sprt_stops) {
        log::info!("the SPRT decided after {at} of the games already played: nothing to play");
        games.clear();
        outcome = Outcome::SprtDecided;
    }
    let mut pgn_out = PgnOut::open(&cfg.pgn)?;
    log::info!(
        "{} games: {} {}, {} per pairing, {} openings from {}, {}, {} at once; PGN to {}",
        full.len(),
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
    let odds = time_odds(&cfg, &players);
    if let Some(odds) = &odds {
        log::info!("{odds}");
    }
    if cfg.shard != Shard::WHOLE {
        log::info!(
            "shard {}: {} of the {} games (numbers {})",
            cfg.shard,
            mine.len(),
            full.len(),
            results::ranges(mine.iter().map(|g| g.number))
        );
    }
    if let Some(path) = &cfg.results {
        log::info!(
            "results kept in {}: {} already there, {} to play",
            path.display(),
            report::count(done.len(), "game"),
            games.len()
        );
    }

    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(GameSpec, GameRecord)>();
    let progress = Progress::new(mine.len());
    let tc_tags: Vec<String> = players
        .iter()
        .map(|p| game::limit_of(&cfg.game, p).pgn_tag())
        .collect();
    let date = pgn::today();
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
            tally.add(&spec, &record, first_of(&spec));
            let (red, black) = (&names[spec.red], &names[spec.black]);
            let text = pgn::write_game(
                &pgn::Tags {
                    event: &cfg.event,
                    site: &cfg.site,
                    date: &date,
                    round: &spec.number.to_string(),
                    red,
                    black,
                    time_control: [&tc_tags[spec.red], &tc_tags[spec.black]],
                },
                &record,
            );
            if let Some(r) = results.as_mut() {
                r.write(&GameResult::of(&spec, &record, text.clone()));
            }
            pgn_out.write(&text);
            report::say(&game_line(
                spec.number,
                red,
                black,
                record.result(),
                &record.reason,
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
                let (llr, decided_now) = tally.check_sprt(&sprt);
                let (lo, hi) = sprt.bounds();
                message.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
                if decided_now && cfg.sprt_stops {
                    if outcome == Outcome::Completed {
                        outcome = Outcome::SprtDecided;
                    }
                    stop.store(true, Ordering::SeqCst);
                }
            }
            progress.update(tally.done, message);
        }
    });
    progress.finish();

    // The report.
    let total = mine.len();
    let whose = if cfg.shard == Shard::WHOLE {
        "Match".to_string()
    } else {
        format!("Shard {} of the match", cfg.shard)
    };
    let heading = match outcome {
        Outcome::Completed => format!("\n{whose} finished: {} games", tally.done),
        Outcome::SprtDecided => format!(
            "\nSPRT decided after {} games (of at most {total})",
            tally.done
        ),
        Outcome::Interrupted => format!(
            "\n{whose} interrupted: {} of {total} games finished",
            tally.done
        ),
    };
    let heading = match &odds {
        Some(odds) => format!("{heading} ({odds})"),
        None => heading,
    };
    print_report(&heading, &names, &tally, cfg.sprt, cfg.sprt_stops);
    report::say(&format!("Games saved to {}", cfg.pgn.display()));
    if let Some(path) = &cfg.results {
        report::say(&format!("Results kept in {}", path.display()));
    }
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
