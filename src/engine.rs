//! The engine's heart, with no I/O: the position and the moves banned in
//! it, the tables kept between searches, the search in progress, and every
//! decision around a search (which root moves, the seed, when a result is
//! held, when there is no move, when to resign or accept a draw, how a
//! strength level limits it), and the opening books (which are in use,
//! when a `go` is answered from them).
//!
//! The protocol front end parses lines into calls on an `Engine` and formats
//! what comes back. Work runs on its own thread and reports `Event`s through
//! the notifier the engine was built with; the front end hands each event
//! back to `Engine::on_event`, which turns it into `Output`s.

use crate::bench::{self, BenchReport};
use crate::book::{self, BookChoice, NamedBook};
use crate::eval::{evaluate_fresh, Evaluation};
use crate::search::tt::{score_from_tt, Bound};
use crate::search::{self, mate_plies, Info, Job, Limits, Outcome, RootChoice, Shared, Tables};
use crate::settings::Settings;
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use xiangqi::perft::PerftReport;
use xiangqi::{FenError, IllegalMove, Move, Position};

/// Accept a draw offer when our score is at or below this (slightly worse:
/// an equal position is still worth playing on).
const DRAW_ACCEPT: i32 = -20;
/// Resign when the search proves we are mated within this many plies...
const RESIGN_MATE_PLIES: i32 = 6;
/// ...or after this many searches in a row scored at or below `RESIGN_SCORE`.
const RESIGN_STREAK: u32 = 8;
const RESIGN_SCORE: i32 = -1000;

/// What work running on its own thread reports.
#[derive(Debug)]
pub enum Event {
    Info(Info),
    Done(Outcome),
    PerftDone(PerftReport),
    BenchDone(BenchReport),
}

/// Where the engine's threads send their events.
pub type Notify = Arc<dyn Fn(Event) + Send + Sync>;

/// What the engine has to say.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Progress of the search.
    Info(Info),
    /// The move about to be played comes from an opening book (its
    /// `BestMove` follows, at once or, when pondering, at `ponderhit`).
    Book(BookChoice),
    /// The answer to a `go`.
    BestMove(BestMove),
    /// The answer to a `go` that has no move to play.
    NoMove,
    /// The static evaluation (UCCI `go depth 0`).
    Eval(i32),
    /// Text of a perft or bench run, a line each.
    Lines(Vec<String>),
    /// Something the user should hear about; the engine carries on.
    Error(String),
}

/// A search's move and what goes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub best: Move,
    pub ponder: Option<Move>,
    /// The opponent offered a draw and we accept it.
    pub accept_draw: bool,
    /// The game is lost beyond doubt (a short mate, or hopeless for long).
    pub resign: bool,
}

/// A position given as a base (`None`: the start) and moves in ICCS text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionSpec {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// Why a position was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Fen(FenError),
    /// Move `index` (1-based) of the list cannot be played.
    Move {
        index: usize,
        error: IllegalMove,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "position refused: {e}"),
            PositionError::Move { index, error } => {
                write!(f, "position refused: move {index} of the list: {error}")
            }
        }
    }
}

/// One `go`: the limits (already in milliseconds), the moves it may choose
/// from, and what kind of search it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoRequest {
    pub limits: Limits,
    /// Only these moves (ICCS), if any are given (UCI `searchmoves`).
    pub searchmoves: Vec<String>,
    /// Think on the opponent's time until `ponderhit`.
    pub ponder: bool,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offered: bool,
    /// Count move paths to this depth instead of searching.
    pub perft: Option<u32>,
    /// Only evaluate the position: no search, no move (UCCI `go depth 0`).
    pub eval_only: bool,
    /// The only limit asked for is beyond the engine's reach (a depth past
    /// `MAX_DEPTH`, searched as `MAX_DEPTH`): in practice the search runs
    /// until stopped, and the end of input stops it.
    pub beyond_reach: bool,
}

/// What the hash table holds for a position (`probe`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProbeResult {
    pub best: Option<Move>,
    /// Lower and upper bounds of the score, each with its depth.
    pub lower: Option<(i32, u32)>,
    pub upper: Option<(i32, u32)>,
    /// The book moves of the position (when books are in use and one has
    /// the position): the book's name, and every legal move it holds with
    /// its weight, heaviest first.
    pub book: Option<(String, Vec<(Move, u16)>)>,
}

/// What runs on the worker thread.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RunKind {
    Search {
        infinite: bool,
        draw_offered: bool,
        /// At a strength level: no resignation, no accepted draw.
        limited: bool,
        /// Its only limit is beyond reach (`GoRequest::beyond_reach`).
        beyond_reach: bool,
    },
    /// `go perft` or `bench`: no bestmove follows.
    Count,
}

/// The thinking state.
struct Running {
    shared: Arc<Shared>,
    /// Closed by the worker thread when the work is done.
    done: Option<Receiver<()>>,
    start: Instant,
    kind: RunKind,
    /// A result that arrived while pondering or in an infinite search.
    held: Option<Outcome>,
    stop_requested: bool,
}

impl Running {
    /// A search that does not end by itself: infinite, or pondering.
    fn endless(&self) -> bool {
        matches!(self.kind, RunKind::Search { infinite: true, .. })
            || self.shared.ponder.load(Ordering::Relaxed)
    }
}

/// The engine.
pub struct Engine {
    /// The position to search; `None` until a valid one arrives, and after
    /// any refused one.
    position: Option<Position>,
    banned: Vec<Move>,
    settings: Settings,
    /// Hash table and move-ordering tables, kept between searches.
    tables: Arc<Tables>,
    hash_mb: usize,
    running: Option<Running>,
    /// The thread searches, counts and benchmarks run on, started once.
    worker: Option<Worker>,
    notify: Notify,
    searches: u64,
    /// Searches in a row whose score was hopeless (for resigning).
    hopeless: u32,
    /// The evaluation in use: a network, or the classical evaluation.
    eval: Evaluation,
    /// The book used when no book files are set: the built-in one.
    default_book: Option<NamedBook>,
    /// The books of the `bookfiles` list that loaded, in its order; `None`
    /// when no list is set (the default book is used).
    book_files: Option<Vec<NamedBook>>,
}

impl Engine {
    /// An engine at the start position with `hash_mb` of hash, reporting
    /// through `notify`.
    pub fn new(hash_mb: usize, notify: Notify) -> Engine {
        Engine {
            position: Some(Position::startpos()),
            banned: Vec::new(),
            settings: Settings::default(),
            tables: Arc::new(Tables::new(hash_mb)),
            hash_mb,
            running: None,
            worker: None,
            notify,
            searches: 0,
            hopeless: 0,
            eval: Evaluation::builtin(),
            default_book: book::builtin(),
            book_files: None,
        }
    }

    /// The books in use, in the order they are consulted: the `bookfiles`
    /// that loaded, or else the default (built-in) book.
    pub fn books(&self) -> &[NamedBook] {
        match &self.book_files {
            Some(list) => list,
            None => self.default_book.as_slice(),
        }
    }

    /// Replaces the books by those of a `bookfiles` list: each file's name
    /// and its bytes (or why they could not be read), in order. The list
    /// replaces the default book, even when none of its files loads. Each
    /// file that does not load is left out and named in one line of the
    /// answer; the others load. Never panics, whatever the bytes.
    pub fn set_book_files(&mut self, files: Vec<(String, Result<Vec<u8>, String>)>) -> Vec<String> {
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for (name, bytes) in files {
            match book::load(&name, bytes) {
                Ok(book) => {
                    log::info!(
                        "book '{name}': {} moves in {} positions",
                        book.book.len(),
                        book.book.positions()
                    );
                    loaded.push(book);
                }
                Err(e) => errors.push(format!("'{name}' not loaded: {e}")),
            }
        }
        self.book_files = Some(loaded);
        errors
    }

    /// Forgets the `bookfiles` list: the default (built-in) book is used.
    pub fn use_default_book(&mut self) {
        self.book_files = None;
    }

    /// Sets the book used when no `bookfiles` are set (`Engine::new` takes
    /// the built-in one; tests and programs embedding the engine may give
    /// another, or none).
    pub fn set_default_book(&mut self, book: Option<NamedBook>) {
        self.default_book = book;
    }

    /// Evaluates with `eval` from now on.
    pub fn set_evaluation(&mut self, eval: Evaluation) {
        self.eval = eval;
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> &Evaluation {
        &self.eval
    }

    /// The static evaluation of a position for the side to move.
    pub fn static_eval(&self, pos: &Position) -> i32 {
        match &self.eval.net {
            Some(net) => net.evaluate_fresh(pos),
            None => evaluate_fresh(pos),
        }
    }

    /// The position that `go` would search.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// Whether a search, perft or bench is running.
    pub fn is_thinking(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the work in progress ends only when told: a search that is
    /// infinite, pondering, or limited only beyond reach. (Counts, bench
    /// and searches with a limit they will reach end by themselves.)
    pub fn awaits_stop(&self) -> bool {
        self.running.as_ref().is_some_and(|r| {
            r.endless()
                || matches!(
                    r.kind,
                    RunKind::Search {
                        beyond_reach: true,
                        ..
                    }
                )
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// Sets the position, or refuses it and keeps none: nothing is searched
    /// until a valid one arrives. Banned moves are forgotten either way.
    pub fn set_position(&mut self, spec: &PositionSpec) -> Result<(), PositionError> {
        self.banned.clear();
        self.position = None;
        self.position = Some(build_position(spec)?);
        Ok(())
    }

    /// Forgets the position (the GUI sent one that could not be read).
    pub fn clear_position(&mut self) {
        self.position = None;
        self.banned.clear();
    }

    /// Bans moves in the current position until the next `position`. Moves
    /// that cannot be read are reported and ignored.
    pub fn ban(&mut self, moves: &[String]) -> Result<(), String> {
        let Some(pos) = &self.position else {
            return Err("banmoves: no valid position is set".into());
        };
        let mut bad = Vec::new();
        for text in moves {
            match pos.parse_move(text) {
                Ok(m) if !self.banned.contains(&m) => self.banned.push(m),
                Ok(_) => {}
                Err(e) => bad.push(e.to_string()),
            }
        }
        if bad.is_empty() {
            Ok(())
        } else {
            Err(format!("banmoves: ignored {}", bad.join("; ")))
        }
    }

    /// A new game: fresh tables, no resignation streak.
    pub fn new_game(&mut self) {
        log::debug!("new game: fresh tables");
        self.fresh_tables();
        self.hopeless = 0;
    }

    /// Takes a new hash size (fresh tables).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.fresh_tables();
    }

    /// Replaces the hash and history tables by empty ones. A fresh zeroed
    /// table costs nothing up front, unlike clearing a big one word by word.
    fn fresh_tables(&mut self) {
        // Free the old table before allocating the new one.
        self.tables = Arc::new(Tables::new(0));
        self.tables = Arc::new(Tables::new(self.hash_mb));
        log::debug!("hash table: {} MB", self.tables.tt.megabytes());
    }

    /// What the hash table holds for a position.
    pub fn probe(&self, spec: &PositionSpec) -> Result<ProbeResult, PositionError> {
        let pos = build_position(spec)?;
        let mut result = ProbeResult::default();
        if let Some(e) = self.tables.tt.probe(pos.key()) {
            if !e.mv.is_null() && pos.is_legal(e.mv) {
                result.best = Some(e.mv);
            }
            // Scores as seen from this position (mate distances from here).
            let score = score_from_tt(e.score, 0);
            if matches!(e.bound, Bound::Lower | Bound::Exact) {
                result.lower = Some((score, e.depth));
            }
            if matches!(e.bound, Bound::Upper | Bound::Exact) {
                result.upper = Some((score, e.depth));
            }
        }
        if self.settings.use_book {
            result.book =
                book::probe(self.books(), &pos).map(|(name, moves)| (name.to_string(), moves));
        }
        Ok(result)
    }

    /// Starts the fixed benchmark search.
    pub fn bench(&mut self, depth: u32) -> Vec<Output> {
        let net = self.eval.net.clone();
        self.launch(
            Arc::new(Shared::default()),
            RunKind::Count,
            move |shared, _| Event::BenchDone(bench::run(depth, net, shared)),
        )
    }

    /// Starts a search (or a perft count, or an evaluation). What can be
    /// answered at once is returned; a search's answer comes by `on_event`.
    pub fn go(&mut self, req: GoRequest) -> Vec<Output> {
        let Some(pos) = self.position.clone() else {
            return vec![
                Output::Error("go: no valid position is set".into()),
                Output::NoMove,
            ];
        };
        if let Some(depth) = req.perft {
            let mut pos = pos;
            return self.launch(Arc::new(Shared::default()), RunKind::Count, move |s, _| {
                Event::PerftDone(PerftReport::run(&mut pos, depth, &s.stop))
            });
        }
        let mut out = Vec::new();
        // Root moves: legal, not banned, and among `searchmoves` if given.
        let legal = pos.legal_moves();
        let mut root: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .collect();
        if !req.searchmoves.is_empty() {
            let mut wanted = Vec::new();
            for text in &req.searchmoves {
                match pos.parse_move(text) {
                    Ok(m) => wanted.push(m),
                    Err(e) => out.push(Output::Error(format!("searchmoves: {e}"))),
                }
            }
            root.retain(|m| wanted.contains(m));
        }
        if root.is_empty() {
            // Not an error: the GUI is told by the missing move.
            log::debug!(
                "go: {}",
                if legal.is_empty() {
                    "no legal move in this position"
                } else {
                    "every legal move is banned or excluded"
                }
            );
            out.push(Output::NoMove);
            return out;
        }
        if req.eval_only {
            out.push(Output::Eval(self.static_eval(&pos)));
            out.push(Output::NoMove);
            return out;
        }
        let mut limits = req.limits;
        if limits == Limits::default() {
            // A bare `go` searches until stopped.
            limits.infinite = true;
        }
        self.searches += 1;
        if self.settings.use_book && book_may_answer(&limits) {
            let seed = self.random_seed();
            let how = self.settings.book_pick;
            if let Some(choice) = book::choose(self.books(), &pos, &root, how, seed) {
                out.extend(self.answer_from_book(choice, req.ponder, req.draw_offered));
                return out;
            }
        }
        let strength = self.settings.strength;
        let choice = match strength {
            Some(s) => RootChoice::Weighted {
                margin: s.margin,
                temperature: s.temperature,
            },
            None if self.settings.randomness > 0 => RootChoice::Uniform {
                margin: self.settings.randomness,
            },
            None => RootChoice::Best,
        };
        let seed = if choice == RootChoice::Best {
            0
        } else {
            self.random_seed()
        };
        let kind = RunKind::Search {
            infinite: limits.infinite,
            draw_offered: req.draw_offered,
            limited: strength.is_some(),
            beyond_reach: req.beyond_reach,
        };
        let job = Job {
            pos,
            limits,
            root_moves: root,
            multipv: self.settings.multipv.max(1),
            choice,
            node_budget: strength.map(|s| s.nodes),
            move_overhead_ms: self.settings.move_overhead_ms,
            seed,
            threads: match strength {
                Some(_) => 1,
                None => self.settings.threads.max(1),
            },
            tables: Arc::clone(&self.tables),
            net: self.eval.net.clone(),
            selectivity: self.settings.pruning.selectivity(),
            knowledge: self.settings.knowledge.knowledge(),
        };
        let shared = Arc::new(Shared::default());
        shared.ponder.store(req.ponder, Ordering::Relaxed);
        let notify = Arc::clone(&self.notify);
        out.extend(self.launch(shared, kind, move |shared, start| {
            let mut report = |info: Info| notify(Event::Info(info));
            Event::Done(search::search(job, shared, start, &mut report))
        }));
        out
    }

    /// The seed of this `go`'s random choices: from the fixed seed if one
    /// is set, else from the clock; either way mixed with the number of
    /// `go`s so far.
    fn random_seed(&self) -> u64 {
        let base = self.settings.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        });
        splitmix64(base ^ splitmix64(self.searches))
    }

    /// Plays a book move: its `info` at once, then the `bestmove` at once,
    /// or, for `go ponder`, held until `ponderhit` (or `stop`) as a
    /// search's result would be.
    fn answer_from_book(
        &mut self,
        choice: BookChoice,
        ponder: bool,
        draw_offered: bool,
    ) -> Vec<Output> {
        log::debug!(
            "book move {} (weight {} of {}, {} choices) from {}",
            choice.mv,
            choice.weight,
            choice.total,
            choice.choices,
            choice.source
        );
        self.hopeless = 0;
        let (best, expected) = (choice.mv, choice.ponder);
        let mut out = vec![Output::Book(choice)];
        if ponder {
            let shared = Arc::new(Shared::default());
            shared.ponder.store(true, Ordering::Relaxed);
            let kind = RunKind::Search {
                infinite: false,
                draw_offered,
                limited: self.settings.strength.is_some(),
                beyond_reach: false,
            };
            let outcome = Outcome {
                best: Some(best),
                ponder: expected,
                ..Outcome::default()
            };
            out.extend(self.launch(shared, kind, move |_, _| Event::Done(outcome)));
        } else {
            out.push(Output::BestMove(BestMove {
                best,
                ponder: expected,
                accept_draw: false,
                resign: false,
            }));
        }
        out
    }

    /// Starts `work` on the worker thread and enters the thinking state;
    /// its result is sent as an event.
    fn launch<F>(&mut self, shared: Arc<Shared>, kind: RunKind, work: F) -> Vec<Output>
    where
        F: FnOnce(&Shared, Instant) -> Event + Send + 'static,
    {
        let start = Instant::now();
        let notify = Arc::clone(&self.notify);
        let thread_shared = Arc::clone(&shared);
        let (finished, done) = channel::<()>();
        let job: Box<dyn FnOnce() + Send> = Box::new(move || {
            notify(work(&thread_shared, start));
            drop(finished);
        });
        let sent = match &self.worker {
            Some(w) => w.run(job),
            None => Worker::start()
                .and_then(|w| w.run(job).map(|()| w))
                .map(|w| {
                    self.worker = Some(w);
                }),
        };
        match sent {
            Ok(()) => {
                self.running = Some(Running {
                    shared,
                    done: Some(done),
                    start,
                    kind,
                    held: None,
                    stop_requested: false,
                });
                Vec::new()
            }
            Err(e) => {
                self.worker = None;
                let mut out = vec![Output::Error(format!("go: cannot start a thread: {e}"))];
                if kind != RunKind::Count {
                    out.push(Output::NoMove);
                }
                out
            }
        }
    }

    /// Stops the work in progress; a held result is answered now.
    pub fn stop(&mut self) -> Vec<Output> {
        let Some(r) = &mut self.running else {
            return Vec::new();
        };
        r.stop_requested = true;
        r.shared.stop.store(true, Ordering::Relaxed);
        match r.held.take() {
            Some(held) => self.finish(held),
            None => Vec::new(),
        }
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&mut self, draw_offered: bool) -> Result<Vec<Output>, String> {
        let Some(r) = &mut self.running else {
            return Err("ponderhit while not pondering: ignored".into());
        };
        let RunKind::Search {
            infinite,
            draw_offered: offered,
            ..
        } = &mut r.kind
        else {
            return Err("ponderhit while not pondering: ignored".into());
        };
        if !r.shared.ponder.load(Ordering::Relaxed) {
            return Err("ponderhit while not pondering: ignored".into());
        }
        *offered |= draw_offered;
        let infinite = *infinite;
        let elapsed = r.start.elapsed().as_millis() as u64;
        r.shared.clock_start_ms.store(elapsed, Ordering::Relaxed);
        r.shared.ponder.store(false, Ordering::Relaxed);
        // A search that already ended while pondering answers now (unless it
        // is an infinite one, which waits for stop).
        Ok(match (infinite, r.held.take()) {
            (false, Some(held)) => self.finish(held),
            (true, held) => {
                r.held = held;
                Vec::new()
            }
            (false, None) => Vec::new(),
        })
    }

    /// Handles an event from the worker thread.
    pub fn on_event(&mut self, event: Event) -> Vec<Output> {
        match event {
            Event::Info(info) => vec![Output::Info(info)],
            Event::Done(outcome) => {
                let Some(r) = &mut self.running else {
                    return Vec::new();
                };
                if r.endless() && !r.stop_requested {
                    r.held = Some(outcome);
                    Vec::new()
                } else {
                    self.finish(outcome)
                }
            }
            Event::PerftDone(report) => {
                self.end_running();
                vec![Output::Lines(report.lines())]
            }
            Event::BenchDone(report) => {
                self.end_running();
                vec![Output::Lines(report.lines())]
            }
        }
    }

    /// The answer of a finished search; back to idle.
    fn finish(&mut self, outcome: Outcome) -> Vec<Output> {
        let (draw_offered, limited) = match self.running.as_ref().map(|r| r.kind) {
            Some(RunKind::Search {
                draw_offered,
                limited,
                ..
            }) => (draw_offered, limited),
            _ => (false, false),
        };
        self.end_running();
        let Some(best) = outcome.best else {
            return vec![Output::NoMove];
        };
        self.hopeless = if outcome.score <= RESIGN_SCORE {
            self.hopeless + 1
        } else {
            0
        };
        let mated_soon =
            mate_plies(outcome.score).is_some_and(|p| p < 0 && -p <= RESIGN_MATE_PLIES);
        // A strength level plays on: a person may still swindle it.
        let accept_draw = !limited && draw_offered && outcome.score <= DRAW_ACCEPT;
        let resign = !limited && !accept_draw && (mated_soon || self.hopeless >= RESIGN_STREAK);
        vec![Output::BestMove(BestMove {
            best,
            ponder: outcome.ponder,
            accept_draw,
            resign,
        })]
    }

    fn end_running(&mut self) {
        if let Some(mut r) = self.running.take() {
            // Closed (an error) when the work is done.
            if let Some(done) = r.done.take() {
                let _ = done.recv();
            }
        }
    }
}

/// The engine's worker thread: runs each piece of work it is sent, in
/// turn, until the engine is dropped.
struct Worker {
    jobs: Option<Sender<Box<dyn FnOnce() + Send>>>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    fn start() -> std::io::Result<Worker> {
        let (jobs, inbox) = channel::<Box<dyn FnOnce() + Send>>();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(search::SEARCH_STACK)
            .spawn(move || inbox.into_iter().for_each(|job| job()))?;
        Ok(Worker {
            jobs: Some(jobs),
            handle: Some(handle),
        })
    }

    fn run(&self, job: Box<dyn FnOnce() + Send>) -> std::io::Result<()> {
        self.jobs
            .as_ref()
            .and_then(|j| j.send(job).ok())
            .ok_or_else(|| std::io::Error::other("the search thread has ended"))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        drop(self.jobs.take());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(r) = &self.running {
            r.shared.stop.store(true, Ordering::Relaxed);
        }
        self.end_running();
    }
}

/// Whether a `go` with these limits may be answered from the books: a move
/// to play in a game (by clock, movetime, depth or nodes) may; an analysis
/// (`go infinite`, a bare `go`) and a mate search (`go mate`) search.
/// `go perft`, UCCI's `go depth 0` (an evaluation) and `bench` never reach
/// the books.
fn book_may_answer(limits: &Limits) -> bool {
    !limits.infinite && limits.mate.is_none()
}

/// SplitMix64's finalizer: spreads a seed's bits.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Builds a position from its base and moves, or says why not. The FEN is
/// read leniently: fields after the sixth (UCCI league runners send
/// `<FEN> - - 0 1`) are ignored with a warning on stderr.
pub fn build_position(spec: &PositionSpec) -> Result<Position, PositionError> {
    let mut pos = match &spec.fen {
        None => Position::startpos(),
        Some(fen) => {
            let read = Position::from_fen_lenient(fen).map_err(PositionError::Fen)?;
            if !read.ignored.is_empty() {
                log::warn!(
                    "FEN fields 7 and after ignored: '{}'",
                    xiangqi::types::truncate(&read.ignored.join(" "))
                );
            }
            read.position
        }
    };
    for (i, text) in spec.moves.iter().enumerate() {
        let m = pos.parse_move(text).map_err(|error| PositionError::Move {
            index: i + 1,
            error,
        })?;
        pos.make_move(m);
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strength::Strength;
    use std::sync::mpsc::{channel, Receiver};
    use std::time::Duration;

    fn engine() -> (Engine, Receiver<Event>) {
        let (tx, rx) = channel();
        let tx = std::sync::Mutex::new(tx);
        let notify: Notify = Arc::new(move |e| {
            let _ = tx.lock().map(|t| t.send(e));
        });
        // Without the built-in book: these tests are about searches.
        let mut e = Engine::new(1, notify);
        e.set_default_book(None);
        (e, rx)
    }

    /// Feeds the engine its events until a search answers.
    fn answer(e: &mut Engine, rx: &Receiver<Event>) -> Vec<Output> {
        loop {
            let ev = rx.recv_timeout(Duration::from_secs(60)).expect("an event");
            let out = e.on_event(ev);
            if out
                .iter()
                .any(|o| matches!(o, Output::BestMove(_) | Output::NoMove))
            {
                return out;
            }
        }
    }

    fn spec(fen: &str, moves: &[&str]) -> PositionSpec {
        PositionSpec {
            fen: Some(fen.into()),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn positions_are_refused_with_a_typed_reason() {
        let (mut e, _rx) = engine();
        let bad_fen = e.set_position(&spec("banana", &[]));
        assert!(matches!(bad_fen, Err(PositionError::Fen(_))));
        assert!(e.position().is_none());
        let start = xiangqi::START_FEN;
        let bad_move = e.set_position(&spec(start, &["h2e2", "a0a1", "h9g7"]));
        assert!(
            matches!(bad_move, Err(PositionError::Move { index: 2, .. })),
            "{bad_move:?}"
        );
        assert!(e.position().is_none());
        assert_eq!(
            e.ban(&["h2e2".into()]),
            Err("banmoves: no valid position is set".into())
        );
        assert_eq!(
            e.go(GoRequest::default()),
            [
                Output::Error("go: no valid position is set".into()),
                Output::NoMove
            ]
        );
        e.set_position(&spec(start, &["h2e2"])).unwrap();
        assert!(e.ban(&["h9g7".into(), "h2e2".into()]).is_err());
    }

    #[test]
    fn fens_are_read_leniently_and_real_errors_refused() {
        let league = format!("{} - - 0 1", xiangqi::START_FEN);
        let pos = build_position(&spec(&league, &["h2e2"])).expect("league FEN");
        assert_eq!(
            pos.to_fen(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
        );
        let forgot_moves = format!("{} h2e2 h9g7", xiangqi::START_FEN);
        let err = build_position(&spec(&forgot_moves, &[])).expect_err("moves without 'moves'");
        assert_eq!(
            err.to_string(),
            "position refused: FEN field 7 'h2e2' looks like a move; a move list must follow the word 'moves'"
        );
    }

    #[test]
    fn eval_only_answers_at_once_without_a_move() {
        let (mut e, _rx) = engine();
        let out = e.go(GoRequest {
            eval_only: true,
            ..GoRequest::default()
        });
        assert!(
            matches!(out[..], [Output::Eval(_), Output::NoMove]),
            "{out:?}"
        );
        assert!(!e.is_thinking());
    }

    #[test]
    fn resigns_when_mated_soon_and_accepts_draws_only_when_worse() {
        // Red to move is mated next move whatever it plays: its king can
        // only step to f0, and then b5-b0 mates (the rook on a1 holds rank 1).
        let (mut e, rx) = engine();
        e.set_position(&spec("3k5/9/9/9/1r7/9/9/9/r8/4K4 w - - 0 1", &[]))
            .unwrap();
        let go = GoRequest {
            limits: Limits {
                depth: Some(4),
                ..Limits::default()
            },
            draw_offered: true,
            ..GoRequest::default()
        };
        let out = e.go(go.clone());
        assert!(out.is_empty());
        let out = answer(&mut e, &rx);
        let Some(Output::BestMove(b)) = out.last() else {
            panic!("{out:?}")
        };
        // A lost position accepts the draw offered rather than resigning.
        assert!(b.accept_draw && !b.resign, "{b:?}");
        let out = e.go(GoRequest {
            draw_offered: false,
            ..go.clone()
        });
        assert!(out.is_empty());
        let out = answer(&mut e, &rx);
        let Some(Output::BestMove(b)) = out.last() else {
            panic!("{out:?}")
        };
        assert!(b.resign && !b.accept_draw, "{b:?}");
        // The start position: neither.
        e.set_position(&PositionSpec::default()).unwrap();
        e.go(go);
        let out = answer(&mut e, &rx);
        let Some(Output::BestMove(b)) = out.last() else {
            panic!("{out:?}")
        };
        assert!(!b.resign && !b.accept_draw, "{b:?}");
    }

    /// Feeds the engine its events until a search is done: its outcome.
    fn outcome(e: &mut Engine, rx: &Receiver<Event>) -> Outcome {
        loop {
            let ev = rx.recv_timeout(Duration::from_secs(60)).expect("an event");
            let done = match &ev {
                Event::Done(o) => Some(o.clone()),
                _ => None,
            };
            e.on_event(ev);
            if let Some(o) = done {
                return o;
            }
        }
    }

    #[test]
    fn a_strength_level_keeps_to_its_node_budget_after_the_first_iteration() {
        let (mut e, rx) = engine();
        e.settings_mut().seed = Some(3);
        let middlegame = spec(
            xiangqi::START_FEN,
            &["h2e2", "h9g7", "h0g2", "g6g5", "i0h0", "i9h9"],
        );
        e.set_position(&middlegame).unwrap();
        let deep = GoRequest {
            limits: Limits {
                depth: Some(30),
                ..Limits::default()
            },
            ..GoRequest::default()
        };
        let level = Strength::from_elo(2000);
        e.settings_mut().strength = Some(level);
        e.go(deep.clone());
        let o = outcome(&mut e, &rx);
        // Re-searches may enter a node or two after the limit: each
        // returns at once, having seen the stop.
        assert!(o.nodes <= level.nodes + 2 && o.depth >= 2, "{o:?}");
        // The GUI's node limit binds too, from the first node.
        e.go(GoRequest {
            limits: Limits {
                nodes: Some(5),
                ..Limits::default()
            },
            ..GoRequest::default()
        });
        assert!(outcome(&mut e, &rx).nodes <= 5 + 2);
        // A budget smaller than one ply: the first iteration completes.
        e.settings_mut().strength = Some(Strength { nodes: 1, ..level });
        e.go(deep);
        let o = outcome(&mut e, &rx);
        assert_eq!(o.depth, 1, "{o:?}");
        let pos = build_position(&middlegame).unwrap();
        assert!(o.best.is_some_and(|m| pos.is_legal(m)), "{o:?}");
    }
}
