//! The protocol front end: UCCI and the xiangqi dialect of UCI.
//!
//! ```text
//! stdin reader thread ──Line/Eof──►  controller ──calls──► Engine ──► work thread
//!                                    (the only writer         ▲            │
//!                                     to stdout)   ◄─Outputs──┘◄──Event────┘
//! ```
//! The controller parses lines, calls the engine, and formats what the engine
//! answers; the engine (`crate::engine`) holds the position, the search and
//! the decisions around it. The controller never waits on the search: while
//! thinking, `stop`, `ponderhit`, `isready`, `probe` and `quit` act at once,
//! and every other line (a refused one included) is queued and replayed in
//! order after the `bestmove`. Exactly one `bestmove` follows each `go`.
//!
//! With `batch` on (UCCI's mode for scripts), only `quit` acts while
//! thinking; every other line waits its turn in the queue. When the turn of
//! a `stop`, `ponderhit`, `isready` or `probe` comes while the search waits
//! to be told (infinite, pondering), it acts then, so a script's
//! `go infinite` … `stop` works.
//!
//! The end of input means "no more commands", not `stop`: the queued lines
//! run in order, a search with a limit runs to it, and a search that would
//! only end when told (`go infinite`, a bare `go`, `go ponder` with no
//! `ponderhit` to come, a depth beyond `MAX_DEPTH`) is stopped and answers.
//! Then the controller is done.

pub mod command;
pub mod options;
mod reader;

use crate::engine::{self, BestMove, Engine, GoRequest, Output};
use crate::eval::Evaluation;
use crate::search::tt::Bound;
use crate::search::{mate_plies, Clock, Info, Limits, MATE, MAX_DEPTH};
use command::{Command, Dialect, GoParams, ParseError, PositionSpec};
use options::{Applied, Effect, Options};
use std::collections::VecDeque;
use std::io::{IsTerminal, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use xiangqi::types::{Color, Move};

/// What the controller reacts to.
#[derive(Debug)]
pub enum Event {
    /// A line from stdin (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than the reader keeps: its length and first words.
    Overlong { len: usize, head: String },
    /// stdin closed.
    Eof,
    /// News from the engine's work thread.
    Engine(engine::Event),
}

/// An input line waiting for the engine to be idle.
enum Queued {
    Line(String),
    Overlong { len: usize, head: String },
}

/// The controller: dialect, options, the queue of input, the engine, and
/// where protocol lines go.
pub struct Controller {
    dialect: Option<Dialect>,
    options: Options,
    engine: Engine,
    queue: VecDeque<Queued>,
    eof: bool,
    quitting: bool,
    out: Box<dyn FnMut(&str) + Send>,
}

/// Writes one protocol line to stdout and flushes it.
fn send_stdout(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the GUI is gone; stdin's EOF will end the loop.
    let _ = writeln!(out, "{line}").and_then(|_| out.flush());
}

/// The line shown on stderr when the engine is started on a terminal: a
/// person, not a GUI, is typing.
pub fn terminal_hint() -> String {
    format!(
        "{}, a xiangqi engine: type 'ucci' or 'uci' to start, 'quit' to leave",
        crate::engine_name()
    )
}

/// Runs the protocol on stdin/stdout until `quit` or EOF; returns the exit code.
pub fn run() -> i32 {
    if std::io::stdin().is_terminal() {
        eprintln!("{}", terminal_hint());
    }
    let (tx, rx) = channel();
    reader::spawn(tx.clone());
    let mut c = Controller::new(tx, Box::new(send_stdout));
    c.event_loop(&rx);
    0
}

impl Controller {
    /// A controller whose engine reports through `tx` and whose protocol
    /// lines go to `out`.
    pub fn new(tx: Sender<Event>, out: Box<dyn FnMut(&str) + Send>) -> Controller {
        let notify: engine::Notify = Arc::new(move |e| {
            let _ = tx.send(Event::Engine(e));
        });
        let options = Options::default();
        let engine = Engine::new(options.hash_mb as usize, notify);
        let mut c = Controller {
            dialect: None,
            options,
            engine,
            queue: VecDeque::new(),
            eof: false,
            quitting: false,
            out,
        };
        c.apply_settings();
        c
    }

    /// Handles events until `quit`, or until the input has ended and the
    /// last command is done.
    pub fn event_loop(&mut self, rx: &Receiver<Event>) {
        while let Ok(event) = rx.recv() {
            if self.handle(event) {
                break;
            }
        }
        if self.quitting && self.dialect == Some(Dialect::Ucci) {
            self.send("bye");
        }
    }

    /// Handles one event; returns whether the controller is done.
    pub fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Line(line) => self.on_input(Queued::Line(line)),
            Event::Overlong { len, head } => self.on_input(Queued::Overlong { len, head }),
            Event::Eof => self.eof = true,
            Event::Engine(e) => {
                let out = self.engine.on_event(e);
                self.emit(out);
            }
        }
        self.drain_queue();
        if self.eof && self.engine.awaits_stop() {
            // No command is left to end it: it stops now and answers.
            let out = self.engine.stop();
            self.emit(out);
        }
        !self.engine.is_thinking() && (self.quitting || (self.eof && self.queue.is_empty()))
    }

    fn send(&mut self, line: &str) {
        (self.out)(line);
    }

    /// Reports an error on stderr and, after the handshake, to the GUI.
    fn error(&mut self, msg: &str) {
        log::error!("{msg}");
        self.tell_gui(msg);
    }

    /// Reports a value that was changed to fit (the engine carries on with
    /// it) on stderr and, after the handshake, to the GUI.
    fn warn(&mut self, msg: &str) {
        log::warn!("{msg}");
        self.tell_gui(msg);
    }

    fn tell_gui(&mut self, msg: &str) {
        match self.dialect {
            Some(Dialect::Ucci) => self.send(&format!("info message {msg}")),
            Some(Dialect::Uci) => self.send(&format!("info string {msg}")),
            None => {}
        }
    }

    fn on_input(&mut self, input: Queued) {
        if self.engine.is_thinking() {
            match input {
                Queued::Line(line) => self.on_line_thinking(line),
                overlong => self.queue.push_back(overlong),
            }
        } else if self.queue.is_empty() {
            self.execute(input);
        } else {
            self.queue.push_back(input);
        }
    }

    /// A line while thinking: it acts now if it may, else it is queued.
    fn on_line_thinking(&mut self, line: String) {
        match command::parse(&line) {
            Ok(cmd) if self.acts_while_thinking(&cmd, self.queue.is_empty()) => {
                self.act_while_thinking(cmd)
            }
            _ => self.queue.push_back(Queued::Line(line)),
        }
    }

    /// Whether `cmd` acts while the engine thinks rather than waiting for
    /// the `bestmove`; `next` says no line is queued before it. In batch
    /// mode only `quit` does, unless the search waits to be told (infinite,
    /// pondering): then the next line in order acts if it is one a thinking
    /// engine acts on, so that a script's `go infinite` … `stop` works.
    fn acts_while_thinking(&self, cmd: &Command, next: bool) -> bool {
        match cmd {
            Command::Quit => true,
            Command::Stop | Command::PonderHit { .. } | Command::IsReady | Command::Probe(_) => {
                !self.options.batch || (next && self.engine.awaits_stop())
            }
            _ => false,
        }
    }

    fn act_while_thinking(&mut self, cmd: Command) {
        match cmd {
            Command::Stop => {
                let out = self.engine.stop();
                self.emit(out);
            }
            Command::PonderHit { draw } => match self.engine.ponderhit(draw) {
                Ok(out) => self.emit(out),
                Err(e) => self.error(&e),
            },
            Command::IsReady => self.send("readyok"),
            Command::Probe(spec) => self.probe(&spec),
            Command::Quit => {
                self.quitting = true;
                let out = self.engine.stop();
                self.emit(out);
            }
            // `acts_while_thinking` admits no other command.
            _ => {}
        }
    }

    /// Runs the queued lines in order: each in the idle state, or, while a
    /// search runs, the one at the front if it acts while thinking.
    fn drain_queue(&mut self) {
        while !self.quitting {
            if !self.engine.is_thinking() {
                let Some(input) = self.queue.pop_front() else {
                    break;
                };
                self.execute(input);
                continue;
            }
            let front = match self.queue.front() {
                Some(Queued::Line(line)) => command::parse(line),
                _ => break,
            };
            match front {
                Ok(cmd) if self.acts_while_thinking(&cmd, true) => {
                    self.queue.pop_front();
                    self.act_while_thinking(cmd);
                }
                _ => break,
            }
        }
    }

    /// Runs one input in the idle state.
    fn execute(&mut self, input: Queued) {
        let line = match input {
            Queued::Line(line) => line,
            Queued::Overlong { len, head } => {
                let msg = format!("ignored a line of {len} bytes starting '{head}': too long");
                self.refuse(&head, &msg);
                return;
            }
        };
        let cmd = match command::parse(&line) {
            Ok(cmd) => cmd,
            Err(ParseError::Empty) => return,
            Err(e) => {
                self.refuse(&line, &e.to_string());
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
                    self.send(&l);
                }
            }
            Command::IsReady => self.send("readyok"),
            Command::SetOption(words) => self.set_option(&words),
            Command::Position(spec) => {
                if let Err(e) = self.engine.set_position(&spec) {
                    self.position_refused(&e.to_string());
                }
            }
            Command::BanMoves(moves) => {
                if let Err(e) = self.engine.ban(&moves) {
                    self.error(&e);
                }
            }
            Command::Go(g) => self.go(&g),
            Command::PonderHit { .. } => self.error("ponderhit while not pondering: ignored"),
            Command::Stop => {
                if self.dialect == Some(Dialect::Ucci) {
                    self.send("nobestmove");
                }
            }
            Command::Probe(spec) => self.probe(&spec),
            Command::Quit => self.quitting = true,
            Command::NewGame => self.engine.new_game(),
            Command::Debug(on) => self.set_debug(on),
            Command::Display => match self.engine.position().map(|p| p.to_string()) {
                Some(text) => {
                    for l in text.lines() {
                        self.send(l);
                    }
                }
                None => self.error("no valid position is set"),
            },
            Command::Bench(depth) => {
                let mut notes = Vec::new();
                let depth = depth.map_or(crate::bench::DEFAULT_DEPTH, |d| {
                    fit_whole(
                        &mut notes,
                        "bench depth",
                        d,
                        1,
                        crate::bench::MAX_DEPTH as u64,
                    ) as u32
                });
                for n in notes {
                    self.warn(&n);
                }
                let out = self.engine.bench(depth);
                self.emit(out);
            }
        }
    }

    /// A line that could not be understood (or was too long to keep).
    fn refuse(&mut self, line: &str, msg: &str) {
        if self.dialect.is_none() {
            log::error!("{msg}; expecting 'ucci' or 'uci' first");
        } else if command::sets_position(line) {
            self.position_refused(msg);
        } else {
            self.error(msg);
        }
    }

    /// A `position` that could not be set: nothing is searched until a valid
    /// one arrives.
    fn position_refused(&mut self, why: &str) {
        self.engine.clear_position();
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

    /// Takes the hash size set, within what the machine has.
    fn resize_hash(&mut self) {
        let asked = self.options.hash_mb as usize;
        let mb = match available_memory_mb() {
            Some(avail) if asked > avail / 4 => {
                self.error(&format!(
                    "hash size {asked} MB is more than a quarter of the memory available ({avail} MB): using {} MB",
                    avail / 4
                ));
                avail / 4
            }
            _ => asked,
        };
        self.engine.set_hash_mb(mb);
    }

    /// Passes the options that shape a search to the engine. Options come
    /// only when the engine is idle (a `setoption` sent while it thinks is
    /// queued), so each applies from the next `go`.
    fn apply_settings(&mut self) {
        let s = self.engine.settings_mut();
        s.threads = (self.options.threads as usize).max(1);
        s.multipv = (self.options.multipv as usize).max(1);
        s.randomness = self.options.randomness.margin();
        s.move_overhead_ms = self.options.move_overhead_ms;
        s.pruning = self.options.pruning;
        s.knowledge = self.options.knowledge;
        s.use_book = self.options.usebook;
        s.book_pick = self.options.book_pick();
        let strength = self.options.strength();
        if s.strength != strength {
            match strength {
                Some(level) => log::debug!("strength: {level}"),
                None => log::debug!("strength: full"),
            }
        }
        s.strength = strength;
    }

    fn set_option(&mut self, words: &[String]) {
        match self.options.set(words) {
            Ok(Applied { effect, note }) => {
                if let Some(note) = note {
                    self.warn(&note);
                }
                match effect {
                    Effect::NewGame => self.engine.new_game(),
                    Effect::Debug(on) => self.set_debug(on),
                    Effect::Resize => self.resize_hash(),
                    Effect::BookFiles => self.load_books(),
                    Effect::EvalFile => self.load_evalfile(),
                    Effect::Set => log::debug!("setoption {}", words.join(" ")),
                }
            }
            Err(e @ options::OptionError::Unknown(_)) => log::warn!("{e}"),
            Err(e) => self.error(&e.to_string()),
        }
        self.apply_settings();
    }

    /// Switches to the evaluation `evalfile` names: the built-in one, the
    /// classical one, or a net file. A file that cannot be used is
    /// reported in one line, and the evaluation in use stays.
    fn load_evalfile(&mut self) {
        let name = self.options.evalfile.clone();
        match Evaluation::from_name(&name) {
            Ok(eval) => {
                log::info!("evaluation: {}", eval.describe());
                self.engine.set_evaluation(eval);
            }
            Err(e) => self.error(&format!(
                "option evalfile '{name}' refused: {e}; the evaluation in use stays"
            )),
        }
        // The option shows what is really in use, by its canonical name.
        self.options.evalfile = self.engine.evaluation().source.clone();
    }

    /// Loads the books of the `bookfiles` list, each file at once, in
    /// place of the built-in book; an empty list returns to the built-in
    /// book. A file that cannot be read or is not a book gets one line, and
    /// the others load.
    fn load_books(&mut self) {
        let paths = book_paths(&self.options.bookfiles);
        if paths.is_empty() {
            self.engine.use_default_book();
            log::info!("books: the built-in book, if any");
            return;
        }
        let files = paths
            .iter()
            .map(|p| (shown_path(p), read_book_file(p)))
            .collect();
        for e in self.engine.set_book_files(files) {
            self.error(&format!("option bookfiles: {e}; carrying on without it"));
        }
        if self.engine.books().is_empty() {
            log::warn!("no book file loaded: no book in use");
        }
    }

    /// Answers `probe`: what the hash table holds for the position, on the
    /// `pophash` line, after an `info` line with the position's book moves
    /// if a book in use has it.
    fn probe(&mut self, spec: &PositionSpec) {
        let mut line = String::from("pophash");
        match self.engine.probe(spec) {
            Ok(p) => {
                if let Some((_, moves)) = &p.book {
                    let total: u32 = moves.iter().map(|&(_, w)| u32::from(w)).sum();
                    let list: Vec<String> = moves.iter().map(|(m, w)| format!("{m}:{w}")).collect();
                    self.tell_gui(&format!("book {} (total {total})", list.join(" ")));
                }
                if let Some(m) = p.best {
                    line.push_str(&format!(" bestmove {m}"));
                }
                if let Some((score, depth)) = p.lower {
                    line.push_str(&format!(" lowerbound {score} depth {depth}"));
                }
                if let Some((score, depth)) = p.upper {
                    line.push_str(&format!(" upperbound {score} depth {depth}"));
                }
            }
            Err(e) => self.error(&format!("probe: {e}")),
        }
        self.send(&line);
    }

    fn go(&mut self, g: &GoParams) {
        let (req, notes) = self.go_request(g);
        for n in notes {
            self.warn(&n);
        }
        let out = self.engine.go(req);
        self.emit(out);
    }

    /// Decodes a `go` line's numbers: UCCI's seconds (unless `usemillisec`),
    /// the clock of the side to move, and every number brought into range,
    /// with a note for each that had to change.
    fn go_request(&self, g: &GoParams) -> (GoRequest, Vec<String>) {
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        let unit = if dialect == Dialect::Ucci && !self.options.usemillisec {
            1000.0
        } else {
            1.0
        };
        let mut notes = Vec::new();
        let mut ms = |what: &str, v: Option<f64>| v.map(|x| fit_time(&mut notes, what, x, unit));
        let red_to_move = self
            .engine
            .position()
            .is_none_or(|p| p.side_to_move() == Color::Red);
        let (time, inc, opp) = if g.time.is_some() {
            (
                ms("time", g.time),
                ms("increment", g.increment),
                ms("opptime", g.opptime),
            )
        } else if red_to_move {
            (
                ms("wtime", g.wtime),
                ms("winc", g.winc),
                ms("btime", g.btime),
            )
        } else {
            (
                ms("btime", g.btime),
                ms("binc", g.binc),
                ms("wtime", g.wtime),
            )
        };
        let movetime_ms = ms("movetime", g.movetime);
        // UCCI `go depth 0`: a static evaluation and no move.
        let eval_only = dialect == Dialect::Ucci && g.depth == Some(0.0) && !g.infinite;
        let movestogo = match g.movestogo {
            Some(m) if m < 1.0 => {
                notes.push(format!(
                    "go movestogo {} is not a number of moves (at least 1); ignored",
                    shown(m)
                ));
                None
            }
            Some(m) => Some(fit_whole(&mut notes, "go movestogo", m, 1, 1000) as u32),
            None => None,
        };
        let clock = time.map(|time_ms| Clock {
            time_ms,
            inc_ms: inc.unwrap_or(0),
            movestogo,
            opp_time_ms: opp,
        });
        let mut whole = |what: &str, v: Option<f64>, min: u64, max: u64| {
            v.map(|x| fit_whole(&mut notes, what, x, min, max))
        };
        let depth = if eval_only {
            None
        } else {
            whole("go depth", g.depth, 1, MAX_DEPTH as u64).map(|d| d as u32)
        };
        let limits = Limits {
            depth,
            nodes: whole("go nodes", g.nodes, 1, MAX_NODES),
            movetime_ms,
            clock,
            mate: whole("go mate", g.mate, 1, MAX_MATE).map(|m| m as u32),
            infinite: g.infinite,
        };
        // `go depth 99999999999`: no limit the search will reach.
        let beyond_reach = g.depth.is_some_and(|d| d > f64::from(MAX_DEPTH))
            && Limits {
                depth: None,
                ..limits.clone()
            } == Limits::default();
        let req = GoRequest {
            limits,
            searchmoves: g.searchmoves.clone(),
            ponder: g.ponder,
            draw_offered: g.draw,
            perft: whole("go perft", g.perft, 0, xiangqi::perft::MAX_DEPTH as u64)
                .map(|d| d as u32),
            eval_only,
            beyond_reach,
        };
        (req, notes)
    }

    /// Formats what the engine says.
    fn emit(&mut self, outputs: Vec<Output>) {
        for o in outputs {
            match o {
                Output::Info(info) => self.print_info(&info),
                Output::BestMove(b) => self.print_bestmove(&b),
                Output::NoMove => {
                    let line = match self.dialect {
                        Some(Dialect::Uci) => "bestmove (none)",
                        _ => "nobestmove",
                    };
                    self.send(line);
                }
                Output::Eval(score) => {
                    let wdl = self.wdl_text(score);
                    self.send(&format!("info depth 0 score {score}{wdl}"));
                }
                Output::Book(b) => self.tell_gui(&format!(
                    "book move {} (weight {} of {})",
                    b.mv, b.weight, b.total
                )),
                Output::Lines(lines) => {
                    for l in lines {
                        self.send(&l);
                    }
                }
                Output::Error(msg) => self.error(&msg),
            }
        }
    }

    fn print_bestmove(&mut self, b: &BestMove) {
        let mut line = format!("bestmove {}", b.best);
        if let Some(p) = b.ponder {
            line.push_str(&format!(" ponder {p}"));
        }
        // Draw offers and resignation are UCCI's.
        if self.dialect != Some(Dialect::Uci) {
            if b.accept_draw {
                line.push_str(" draw");
            } else if b.resign {
                line.push_str(" resign");
            }
        }
        self.send(&line);
    }

    fn print_info(&mut self, info: &Info) {
        let uci = self.dialect == Some(Dialect::Uci);
        // UCCI has no bound marks: it shows exact scores, and bounds that
        // prove a mate (a lower bound that mates, an upper bound that is
        // mated; a stopped iteration's or an aspiration pass's): the mate
        // is certain, in at most the moves the score says.
        let mate = mate_plies(info.score).map(i32::signum);
        let shown = match info.bound {
            Some(Bound::Lower) => mate == Some(1),
            Some(Bound::Upper) => mate == Some(-1),
            None | Some(Bound::Exact) => true,
        };
        if !uci && !shown {
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
        let wdl = self.wdl_text(info.score);
        let bound = match info.bound {
            Some(Bound::Lower) if uci => " lowerbound",
            Some(Bound::Upper) if uci => " upperbound",
            _ => "",
        };
        self.send(&format!(
            "info depth {} seldepth {}{multipv} score {score}{wdl}{bound} nodes {} nps {nps} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.nodes,
            info.hashfull,
            info.time_ms,
            pv.join(" ")
        ));
    }

    /// ` wdl W D L`, the odds in per mille of `score` (side to move's view)
    /// in the position searched, when `UCI_ShowWDL` is on; else nothing.
    fn wdl_text(&self, score: i32) -> String {
        match self.engine.position() {
            Some(pos) if self.options.show_wdl => {
                let [w, d, l] = crate::wdl::wdl(score, pos);
                format!(" wdl {w} {d} {l}")
            }
            _ => String::new(),
        }
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

/// Largest `go nodes` taken.
const MAX_NODES: u64 = 1_000_000_000_000_000_000;
/// Longest `go mate` taken, in moves.
const MAX_MATE: u64 = 50;
/// Longest time taken from a `go` line, in milliseconds (about 31 years).
const MAX_TIME_MS: f64 = 1e12;

/// A number as the GUI sent it, short even when absurd.
fn shown(x: f64) -> String {
    if x.abs() < 1e15 {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// A whole number from the GUI brought into `min..=max`, with a note in
/// `notes` when it had to change.
fn fit_whole(notes: &mut Vec<String>, what: &str, x: f64, min: u64, max: u64) -> u64 {
    let v = clamp(x.trunc(), min as f64, max as f64) as u64;
    if x.is_nan() || x < min as f64 || x > max as f64 {
        notes.push(format!(
            "{what} {} is out of range ({min} to {max}); using {v}",
            shown(x)
        ));
    } else if x.fract() != 0.0 {
        notes.push(format!(
            "{what} {} is not a whole number; using {v}",
            shown(x)
        ));
    }
    v
}

/// A time from a `go` line in milliseconds (`unit` per unit sent), with a
/// note in `notes` when it is negative or absurdly long.
fn fit_time(notes: &mut Vec<String>, what: &str, x: f64, unit: f64) -> u64 {
    let ms = clamp(x * unit, 0.0, MAX_TIME_MS);
    if x < 0.0 {
        notes.push(format!("go {what} {} is negative; using 0", shown(x)));
    } else if x * unit > MAX_TIME_MS {
        notes.push(format!(
            "go {what} {} is more than {MAX_TIME_MS:e} ms; using {MAX_TIME_MS:e} ms",
            shown(x)
        ));
    }
    ms as u64
}

/// The paths of a `bookfiles` value: ElephantEye's `;`-separated list,
/// each path trimmed, empty ones dropped.
fn book_paths(value: &str) -> Vec<&str> {
    value
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// A path as messages show it: at most 200 characters.
fn shown_path(path: &str) -> String {
    if path.chars().count() > 200 {
        format!("{}…", path.chars().take(200).collect::<String>())
    } else {
        path.to_string()
    }
}

/// The bytes of a book file, or why they cannot be had: only a regular
/// file is read (not a directory, a device or a pipe, which could block or
/// never end), and not one larger than any book.
fn read_book_file(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let max = crate::book::MAX_BOOK_BYTES;
    let path = crate::gui_text::on_disk(path);
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("the file does not exist".into())
        }
        Err(e) => return Err(format!("cannot read it ({e})")),
        Ok(m) if m.is_dir() => return Err("it is a directory".into()),
        Ok(m) if !m.is_file() => return Err("it is not a regular file".into()),
        Ok(m) if m.len() > max => {
            return Err(format!(
                "it has {} bytes, more than any book ({} MB at most)",
                m.len(),
                max >> 20
            ))
        }
        Ok(_) => {}
    }
    let mut bytes = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read it ({e})"))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "it has more than {} MB, more than any book",
            max >> 20
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests;
