//! The protocol front end: UCCI and the xiangqi dialect of UCI.
//!
//! ```text
//! stdin reader thread ──Line/Eof──►  controller (owns the state, the only   ◄──Info/Done── search thread
//!                                    writer to stdout)
//! ```
//! The controller never waits on the search: `go` hands a job to a search
//! thread, which reports `Info` and `Done` events back. While thinking,
//! `stop`, `ponderhit`, `isready`, `probe` and `quit` act at once; any other
//! command is queued and replayed in order after the `bestmove` (batch
//! semantics). A result found while pondering or in an infinite search is
//! held until `stop` or `ponderhit`. Exactly one `bestmove` follows each `go`.

pub mod command;
pub mod options;
mod reader;

use crate::bench::{self, BenchReport};
use crate::eval::evaluate_fresh;
use crate::search::tt::Bound;
use crate::search::{
    self, mate_plies, Clock, Info, Job, Limits, Outcome, Shared, Tables, MATE, MAX_DEPTH,
};
use command::{Base, Command, Dialect, GoParams, ParseError, PositionSpec};
use options::{Effect, Options};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use xiangqi::perft::PerftReport;
use xiangqi::position::Position;
use xiangqi::types::{Color, Move};

/// What the controller reacts to.
pub enum Event {
    /// A line from stdin (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than the reader keeps: its length and first words.
    Overlong {
        len: usize,
        head: String,
    },
    /// stdin closed.
    Eof,
    Info(Info),
    Done(Outcome),
    PerftDone(PerftReport),
    BenchDone(BenchReport),
}

/// Accept a draw offer when our score is at or below this (slightly worse:
/// an equal position is still worth playing on).
const DRAW_ACCEPT: i32 = -20;
/// Resign (UCCI only) when the search proves we are mated within this many plies...
const RESIGN_MATE_PLIES: i32 = 6;
/// ...or after this many searches in a row scored at or below `RESIGN_SCORE`.
const RESIGN_STREAK: u32 = 8;
const RESIGN_SCORE: i32 = -1000;
/// Largest `bench` depth accepted.
const MAX_BENCH_DEPTH: u32 = 30;
/// Largest `go perft` depth accepted.
const MAX_PERFT_DEPTH: u32 = 12;

/// What a thinking state runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RunKind {
    Search {
        infinite: bool,
        draw_offered: bool,
    },
    /// `go perft` or `bench`: no bestmove follows.
    Count,
}

/// The thinking state.
struct Running {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
    start: Instant,
    /// A perft or bench run rather than a search.
    counting: bool,
    infinite: bool,
    draw_offered: bool,
    /// A result that arrived while pondering or in infinite mode.
    held: Option<Outcome>,
    stop_requested: bool,
}

struct Controller {
    dialect: Option<Dialect>,
    options: Options,
    /// The position to search; `None` until a valid one arrives, and after
    /// any rejected `position`.
    position: Option<Position>,
    banned: Vec<Move>,
    running: Option<Running>,
    queue: VecDeque<String>,
    tx: Sender<Event>,
    eof: bool,
    quitting: bool,
    searches: u64,
    /// Hash table and move-ordering tables, kept between searches.
    tables: Arc<Tables>,
    /// Hash size in use, in MB (the option, capped by the memory available).
    hash_mb: usize,
    /// Searches in a row whose score was hopeless (for resigning).
    hopeless: u32,
}

/// Writes one protocol line to stdout and flushes it.
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the GUI is gone; stdin's EOF will end the loop.
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}

/// Runs the protocol on stdin/stdout until `quit` or EOF; returns the exit code.
pub fn run() -> i32 {
    let (tx, rx) = channel();
    reader::spawn(tx.clone());
    let mut c = Controller {
        dialect: None,
        options: Options::default(),
        position: Some(Position::startpos()),
        banned: Vec::new(),
        running: None,
        queue: VecDeque::new(),
        tx,
        eof: false,
        quitting: false,
        searches: 0,
        tables: Arc::new(Tables::new(Options::default().hash_mb as usize)),
        hash_mb: Options::default().hash_mb as usize,
        hopeless: 0,
    };
    c.event_loop(&rx);
    0
}

impl Controller {
    fn event_loop(&mut self, rx: &Receiver<Event>) {
        while let Ok(event) = rx.recv() {
            match event {
                Event::Line(line) => self.on_line(line),
                Event::Overlong { len, head } => {
                    let msg = format!("ignored a line of {len} bytes starting '{head}': too long");
                    if command::sets_position(&head) {
                        self.reject_position(&msg);
                    } else {
                        self.error(&msg);
                    }
                }
                Event::Eof => self.eof = true,
                Event::Info(info) => self.print_info(&info),
                Event::Done(outcome) => self.on_done(outcome),
                Event::PerftDone(report) => {
                    for line in report.lines() {
                        send(&line);
                    }
                    self.end_running();
                }
                Event::BenchDone(report) => {
                    for line in report.lines() {
                        send(&line);
                    }
                    self.end_running();
                }
            }
            self.drain_queue();
            if self.eof {
                // Nobody is left to send `stop`: endless searches end now.
                if let Some(r) = &self.running {
                    if !r.stop_requested && (r.infinite || r.shared.ponder.load(Ordering::Relaxed))
                    {
                        self.stop();
                    }
                }
            }
            if self.running.is_none() && (self.quitting || (self.eof && self.queue.is_empty())) {
                break;
            }
        }
        if self.quitting && self.dialect == Some(Dialect::Ucci) {
            send("bye");
        }
    }

    /// Reports an error on stderr and, after the handshake, to the GUI.
    fn error(&self, msg: &str) {
        log::error!("{msg}");
        match self.dialect {
            Some(Dialect::Ucci) => send(&format!("info message {msg}")),
            Some(Dialect::Uci) => send(&format!("info string {msg}")),
            None => {}
        }
    }

    fn on_line(&mut self, line: String) {
        if self.running.is_some() {
            self.on_line_thinking(line);
        } else if self.queue.is_empty() {
            self.execute(&line);
        } else {
            self.queue.push_back(line);
        }
    }

    /// Lines while thinking: the few that act now, the rest queued.
    fn on_line_thinking(&mut self, line: String) {
        match command::parse(&line) {
            Ok(Command::Stop) => self.stop(),
            Ok(Command::PonderHit { draw }) => self.ponderhit(draw),
            Ok(Command::IsReady) => send("readyok"),
            Ok(Command::Probe(spec)) => self.probe(&spec),
            Ok(Command::Quit) => {
                self.quitting = true;
                self.stop();
            }
            _ => self.queue.push_back(line),
        }
    }

    fn drain_queue(&mut self) {
        while self.running.is_none() && !self.quitting {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            self.execute(&line);
        }
    }

    /// Runs one command in the idle state.
    fn execute(&mut self, line: &str) {
        let cmd = match command::parse(line) {
            Ok(cmd) => cmd,
            Err(ParseError::Empty) => return,
            Err(e) => {
                if self.dialect.is_none() {
                    log::error!("{e}; expecting 'ucci' or 'uci' first");
                    return;
                }
                if command::sets_position(line) {
                    self.reject_position(&e.to_string());
                } else {
                    self.error(&e.to_string());
                }
                return;
            }
        };
        if self.dialect.is_none() && !matches!(cmd, Command::Handshake(_) | Command::Quit) {
            log::error!(
                "ignoring '{}' before the handshake: send 'ucci' or 'uci' first",
                xiangqi::types::truncate(line.trim())
            );
            return;
        }
        match cmd {
            Command::Handshake(d) => {
                self.dialect = Some(d);
                for l in self.options.handshake(d) {
                    send(&l);
                }
            }
            Command::IsReady => send("readyok"),
            Command::SetOption(words) => self.set_option(&words),
            Command::Position(spec) => {
                self.banned.clear();
                match self.build_position(&spec) {
                    Ok(pos) => self.position = Some(pos),
                    Err(msg) => self.reject_position(&msg),
                }
            }
            Command::BanMoves(moves) => self.ban(&moves),
            Command::Go(g) => self.go(&g),
            Command::PonderHit { .. } => self.error("ponderhit while not pondering: ignored"),
            Command::Stop => {
                if self.dialect == Some(Dialect::Ucci) {
                    send("nobestmove");
                }
            }
            Command::Probe(spec) => self.probe(&spec),
            Command::Quit => self.quitting = true,
            Command::NewGame => self.new_game(),
            Command::Debug(on) => self.set_debug(on),
            Command::Display => match &self.position {
                Some(pos) => {
                    for l in pos.to_string().lines() {
                        send(l);
                    }
                }
                None => self.error("no valid position is set"),
            },
            Command::Bench(depth) => self.bench(depth),
        }
    }

    /// Forgets the position after a rejected `position` line: nothing is
    /// searched until a valid one arrives.
    fn reject_position(&mut self, why: &str) {
        self.position = None;
        self.banned.clear();
        self.error(&format!(
            "{why}; no position is set until a valid one arrives"
        ));
    }

    fn set_debug(&mut self, on: bool) {
        self.options.debug = on;
        if std::env::var_os("RUST_LOG").is_none() {
            log::set_max_level(if on {
                log::LevelFilter::Debug
            } else {
                log::LevelFilter::Warn
            });
        }
    }

    fn new_game(&mut self) {
        log::debug!("new game: fresh tables");
        self.fresh_tables();
        self.hopeless = 0;
    }

    /// Replaces the hash and history tables by empty ones. A fresh zeroed
    /// table costs nothing up front, unlike clearing a big one word by word.
    fn fresh_tables(&mut self) {
        // Free the old table before allocating the new one.
        self.tables = Arc::new(Tables::new(0));
        self.tables = Arc::new(Tables::new(self.hash_mb));
        log::debug!("hash table: {} MB", self.tables.tt.megabytes());
    }

    /// Takes the hash size set, within what the machine has.
    fn resize_hash(&mut self) {
        let asked = self.options.hash_mb as usize;
        self.hash_mb = match available_memory_mb() {
            Some(avail) if asked > avail / 4 => {
                self.error(&format!(
                    "hash size {asked} MB is more than a quarter of the memory available ({avail} MB): using {} MB",
                    avail / 4
                ));
                avail / 4
            }
            _ => asked,
        };
        self.fresh_tables();
    }

    fn set_option(&mut self, words: &[String]) {
        match self.options.set(words) {
            Ok(Effect::NewGame) => self.new_game(),
            Ok(Effect::Debug(on)) => self.set_debug(on),
            Ok(Effect::Resize) => self.resize_hash(),
            Ok(Effect::Set) => log::debug!("setoption {}", words.join(" ")),
            Err(e @ options::OptionError::Unknown(_)) => log::warn!("{e}"),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Builds the position of a `position`/`probe` command, or says why not.
    fn build_position(&self, spec: &PositionSpec) -> Result<Position, String> {
        let mut pos = match &spec.base {
            Base::Startpos => Position::startpos(),
            Base::Fen(fen) => {
                Position::from_fen(fen).map_err(|e| format!("position refused: {e}"))?
            }
        };
        for (i, text) in spec.moves.iter().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("position refused: move {} of the list: {e}", i + 1))?;
            pos.make_move(m);
        }
        Ok(pos)
    }

    fn ban(&mut self, moves: &[String]) {
        let Some(pos) = &self.position else {
            self.error("banmoves: no valid position is set");
            return;
        };
        let mut bad = Vec::new();
        for text in moves {
            match pos.parse_move(text) {
                Ok(m) => {
                    if !self.banned.contains(&m) {
                        self.banned.push(m);
                    }
                }
                Err(e) => bad.push(e.to_string()),
            }
        }
        if !bad.is_empty() {
            self.error(&format!("banmoves: ignored {}", bad.join("; ")));
        }
    }

    /// Answers `probe`: what the hash table holds for the position.
    fn probe(&self, spec: &PositionSpec) {
        let pos = match self.build_position(spec) {
            Ok(pos) => pos,
            Err(msg) => {
                self.error(&format!("probe: {msg}"));
                send("pophash");
                return;
            }
        };
        let mut line = String::from("pophash");
        if let Some(e) = self.tables.tt.probe(pos.key()) {
            if !e.mv.is_null() && pos.is_legal(e.mv) {
                line.push_str(&format!(" bestmove {}", e.mv));
            }
            // Scores as seen from this position (mate distances from here).
            let score = search::tt::score_from_tt(e.score, 0);
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {score} depth {}", e.depth));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {score} depth {}", e.depth));
            }
        }
        send(&line);
    }

    fn bench(&mut self, depth: Option<f64>) {
        let depth = depth.map_or(bench::DEFAULT_DEPTH, |d| {
            clamp(d, 1.0, MAX_BENCH_DEPTH as f64) as u32
        });
        self.launch(
            Arc::new(Shared::default()),
            RunKind::Count,
            move |shared, _, tx| {
                let report = bench::run(depth, shared);
                let _ = tx.send(Event::BenchDone(report));
            },
        );
    }

    /// `nobestmove` (UCCI) or `bestmove (none)` (UCI).
    fn no_move(&self) {
        send(match self.dialect {
            Some(Dialect::Uci) => "bestmove (none)",
            _ => "nobestmove",
        });
    }

    fn go(&mut self, g: &GoParams) {
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        let Some(pos) = self.position.clone() else {
            self.error("go: no valid position is set");
            self.no_move();
            return;
        };
        if let Some(depth) = g.perft {
            let depth = clamp(depth, 0.0, MAX_PERFT_DEPTH as f64) as u32;
            self.start_perft(pos, depth);
            return;
        }
        // Root moves: legal, not banned, and among `searchmoves` if given.
        let legal = pos.legal_moves();
        let mut root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .collect();
        if !g.searchmoves.is_empty() {
            let mut wanted = Vec::new();
            for text in &g.searchmoves {
                match pos.parse_move(text) {
                    Ok(m) => wanted.push(m),
                    Err(e) => self.error(&format!("searchmoves: {e}")),
                }
            }
            root.retain(|m| wanted.contains(m));
        }
        if root.is_empty() {
            let why = if legal.is_empty() {
                "no legal move in this position"
            } else {
                "every legal move is banned or excluded"
            };
            // Not an error: the GUI is told by nobestmove / bestmove (none).
            log::debug!("go: {why}");
            self.no_move();
            return;
        }
        if dialect == Dialect::Ucci && g.depth == Some(0.0) && !g.infinite {
            // UCCI `go depth 0`: a static evaluation and no move.
            send(&format!("info depth 0 score {}", evaluate_fresh(&pos)));
            self.no_move();
            return;
        }

        let unit = if dialect == Dialect::Ucci && !self.options.usemillisec {
            1000.0
        } else {
            1.0
        };
        let ms = |v: Option<f64>| v.map(|x| clamp(x * unit, 0.0, 1e12) as u64);
        let (time, inc, opp) = if g.time.is_some() {
            (ms(g.time), ms(g.increment), ms(g.opptime))
        } else {
            match pos.side_to_move() {
                Color::Red => (ms(g.wtime), ms(g.winc), ms(g.btime)),
                Color::Black => (ms(g.btime), ms(g.binc), ms(g.wtime)),
            }
        };
        let clock = time.map(|time_ms| Clock {
            time_ms,
            inc_ms: inc.unwrap_or(0),
            movestogo: g.movestogo.map(|m| clamp(m, 1.0, 1000.0) as u32),
            opp_time_ms: opp,
        });
        let mut limits = Limits {
            depth: g.depth.map(|d| clamp(d, 1.0, MAX_DEPTH as f64) as u32),
            nodes: g.nodes.map(|n| clamp(n, 1.0, 1e18) as u64),
            movetime_ms: ms(g.movetime),
            clock,
            mate: g.mate.map(|m| clamp(m, 1.0, 50.0) as u32),
            infinite: g.infinite,
        };
        if limits == (Limits::default()) {
            // A bare `go` searches until stopped.
            limits.infinite = true;
        }
        self.searches += 1;
        let seed = if self.options.randomness == options::Randomness::None {
            0
        } else {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(self.searches, |d| d.as_nanos() as u64 ^ self.searches)
        };
        let job = Job {
            pos,
            limits: limits.clone(),
            root_moves: root,
            multipv: self.options.multipv as usize,
            randomness: self.options.randomness.margin(),
            move_overhead_ms: self.options.move_overhead_ms,
            seed,
            threads: (self.options.threads as usize).max(1),
            tables: Arc::clone(&self.tables),
        };
        let shared = Arc::new(Shared::default());
        shared.ponder.store(g.ponder, Ordering::Relaxed);
        let kind = RunKind::Search {
            infinite: limits.infinite,
            draw_offered: g.draw,
        };
        self.launch(shared, kind, move |shared, start, tx| {
            let mut report = |info: Info| {
                let _ = tx.send(Event::Info(info));
            };
            let outcome = search::search(job, shared, start, &mut report);
            let _ = tx.send(Event::Done(outcome));
        });
    }

    fn start_perft(&mut self, mut pos: Position, depth: u32) {
        self.launch(
            Arc::new(Shared::default()),
            RunKind::Count,
            move |shared, _, tx| {
                let report = PerftReport::run(&mut pos, depth, &shared.stop);
                let _ = tx.send(Event::PerftDone(report));
            },
        );
    }

    /// Starts `work` on its own thread and enters the thinking state.
    fn launch<F>(&mut self, shared: Arc<Shared>, kind: RunKind, work: F)
    where
        F: FnOnce(&Shared, Instant, &Sender<Event>) + Send + 'static,
    {
        let start = Instant::now();
        let tx = self.tx.clone();
        let thread_shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(search::SEARCH_STACK)
            .spawn(move || work(&thread_shared, start, &tx));
        let handle = match spawned {
            Ok(handle) => handle,
            Err(e) => {
                self.error(&format!("go: cannot start a thread: {e}"));
                if kind != RunKind::Count {
                    self.no_move();
                }
                return;
            }
        };
        let (infinite, draw_offered) = match kind {
            RunKind::Search {
                infinite,
                draw_offered,
            } => (infinite, draw_offered),
            RunKind::Count => (false, false),
        };
        self.running = Some(Running {
            shared,
            handle: Some(handle),
            start,
            counting: kind == RunKind::Count,
            infinite,
            draw_offered,
            held: None,
            stop_requested: false,
        });
    }

    fn stop(&mut self) {
        let Some(r) = &mut self.running else {
            return;
        };
        r.stop_requested = true;
        r.shared.stop.store(true, Ordering::Relaxed);
        if let Some(held) = r.held.take() {
            self.finish(held);
        }
    }

    fn ponderhit(&mut self, draw: bool) {
        let Some(r) = &mut self.running else {
            return;
        };
        if r.counting || !r.shared.ponder.load(Ordering::Relaxed) {
            self.error("ponderhit while not pondering: ignored");
            return;
        }
        r.draw_offered |= draw;
        let elapsed = r.start.elapsed().as_millis() as u64;
        r.shared.clock_start_ms.store(elapsed, Ordering::Relaxed);
        r.shared.ponder.store(false, Ordering::Relaxed);
        // A search that already ended while pondering answers now (unless it
        // is an infinite one, which waits for stop).
        if !r.infinite {
            if let Some(held) = r.held.take() {
                self.finish(held);
            }
        }
    }

    fn on_done(&mut self, outcome: Outcome) {
        let Some(r) = &mut self.running else {
            return;
        };
        let endless = r.infinite || r.shared.ponder.load(Ordering::Relaxed);
        if endless && !r.stop_requested {
            r.held = Some(outcome);
        } else {
            self.finish(outcome);
        }
    }

    /// Prints the bestmove line of a finished search and returns to idle.
    fn finish(&mut self, outcome: Outcome) {
        let draw_offered = self.running.as_ref().is_some_and(|r| r.draw_offered);
        self.end_running();
        let Some(best) = outcome.best else {
            self.no_move();
            return;
        };
        let mut line = format!("bestmove {best}");
        if let Some(p) = outcome.ponder {
            line.push_str(&format!(" ponder {p}"));
        }
        self.hopeless = if outcome.score <= RESIGN_SCORE {
            self.hopeless + 1
        } else {
            0
        };
        if self.dialect != Some(Dialect::Uci) {
            let mated_soon =
                mate_plies(outcome.score).is_some_and(|p| p < 0 && -p <= RESIGN_MATE_PLIES);
            if draw_offered && outcome.score <= DRAW_ACCEPT {
                line.push_str(" draw");
            } else if mated_soon || self.hopeless >= RESIGN_STREAK {
                line.push_str(" resign");
            }
        }
        send(&line);
    }

    fn end_running(&mut self) {
        if let Some(mut r) = self.running.take() {
            if let Some(h) = r.handle.take() {
                let _ = h.join();
            }
        }
    }

    fn print_info(&self, info: &Info) {
        let uci = self.dialect == Some(Dialect::Uci);
        if info.bound.is_some() && !uci {
            // UCCI has no bound marks: only exact scores are shown.
            return;
        }
        let nps = info.nodes.saturating_mul(1000) / info.time_ms.max(1);
        let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
        let multipv = if self.options.multipv > 1 {
            format!(" multipv {}", info.multipv)
        } else {
            String::new()
        };
        let score = match self.dialect {
            Some(Dialect::Uci) => match mate_plies(info.score) {
                Some(p) if p > 0 => format!("mate {}", (p + 1) / 2),
                Some(p) => format!("mate -{}", (-p + 1) / 2),
                None => format!("cp {}", info.score),
            },
            _ => info.score.clamp(-MATE, MATE).to_string(),
        };
        let bound = match info.bound {
            Some(Bound::Lower) => " lowerbound",
            Some(Bound::Upper) => " upperbound",
            _ => "",
        };
        send(&format!(
            "info depth {} seldepth {}{multipv} score {score}{bound} nodes {} nps {nps} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.nodes,
            info.hashfull,
            info.time_ms,
            pv.join(" ")
        ));
    }
}

/// Memory the system says is available, in megabytes (Linux; `None` elsewhere).
fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Clamps a number from the GUI into range (NaN becomes the minimum).
fn clamp(x: f64, min: f64, max: f64) -> f64 {
    if x.is_nan() {
        min
    } else {
        x.clamp(min, max)
    }
}
