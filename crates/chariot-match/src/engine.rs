//! Engine processes: how an engine is given on the command line, starting it
//! and its handshake, the options it advertises and the ones the user set,
//! and line-by-line talk over its pipes with deadlines.
//!
//! One reader thread per engine turns its stdout into time-stamped events on a
//! channel, so a silent or hung engine never blocks the runner, and the time
//! of a `bestmove` is the time it arrived, not the time it was looked at.
//! Another thread keeps the tail of the engine's stderr for crash reports.

use super::clock::TimeControl;
use super::dialect::{Dialect, Protocol, Ranks};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An engine as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name; `None` takes the engine's `id name`.
    pub name: Option<String>,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Rank numbering of the engine's moves; `None` detects it (1–10 for a UCI
    /// engine that has a `UCI_Variant` option, like Fairy-Stockfish).
    pub ranks: Option<Ranks>,
    /// UCCI time unit: milliseconds (`Some(true)`), seconds (`Some(false)`),
    /// or detected (`None`): milliseconds when the engine advertises
    /// `usemillisec`, or is Fairy-Stockfish (it has `UCI_Variant`), whose
    /// UCCI mode reads every time as milliseconds; seconds otherwise.
    pub millisec: Option<bool>,
    /// Options to set, in order: name and value (empty for a button).
    pub options: Vec<(String, String)>,
    /// This engine's own limit: a per-move limit (`depth=N` or `nodes=N`)
    /// in place of the match's `--depth` or `--nodes`, for a pool of
    /// opponents each searching as deep as its strength needs; or its own
    /// clock (`tc=BASE+INC`) in place of the match's `--tc`, for time odds.
    pub limit: Option<TimeControl>,
}

impl EngineSpec {
    /// Parses `key=value` words: `cmd=PATH` (required), `name=`, `dir=`,
    /// `args=` (split at spaces; may be repeated), `arg=` (one argument, may be
    /// repeated), `proto=ucci|uci`, `ranks=0|1|auto`, `units=ms|s|auto`,
    /// `depth=N` or `nodes=N` (this engine's own limit per move),
    /// `tc=[MOVES/]BASE[+INC]` (this engine's own clock), `option.NAME=VALUE`.
    /// `defaults` (from `--each`) come first, so the engine's own words win.
    pub fn parse(words: &[String], defaults: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: None,
            cmd: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Ucci,
            ranks: None,
            millisec: None,
            options: Vec::new(),
            limit: None,
        };
        let mut cmd = None;
        for word in defaults.iter().chain(words) {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!("engine setting '{word}' is not KEY=VALUE"));
            };
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "name" if !value.trim().is_empty() => spec.name = Some(value.trim().to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "args" => spec.args.extend(value.split_whitespace().map(String::from)),
                "arg" => spec.args.push(value.to_string()),
                "proto" | "protocol" => {
                    spec.protocol = Protocol::parse(value)
                        .ok_or_else(|| format!("proto={value}: expected ucci or uci"))?;
                }
                "ranks" => {
                    spec.ranks = match value {
                        "0" => Some(Ranks::FromZero),
                        "1" => Some(Ranks::FromOne),
                        "auto" => None,
                        _ => return Err(format!("ranks={value}: expected 0, 1 or auto")),
                    }
                }
                "depth" | "nodes" => {
                    let n = value
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("{key}={value}: expected a whole number above 0"))?;
                    spec.limit = Some(if key == "depth" {
                        TimeControl::Depth(u32::try_from(n).map_err(|_| {
                            format!("depth={value}: expected a whole number above 0")
                        })?)
                    } else {
                        TimeControl::Nodes(n)
                    });
                }
                "tc" => spec.limit = Some(TimeControl::parse_clock(value)?),
                "units" => {
                    spec.millisec = match value {
                        "ms" => Some(true),
                        "s" => Some(false),
                        "auto" => None,
                        _ => return Err(format!("units={value}: expected ms, s or auto")),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.trim().is_empty() => {
                        let name = name.trim().to_string();
                        spec.options.retain(|(n, _)| !same_option(n, &name));
                        spec.options.push((name, value.trim().to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine setting '{key}' (expected cmd, name, dir, args, arg, \
                             proto, ranks, units, depth, nodes, tc or option.NAME)"
                        ))
                    }
                },
            }
        }
        let cmd = cmd
            .filter(|c| !c.trim().is_empty())
            .ok_or("engine without cmd=PATH")?;
        spec.cmd = resolve_cmd(&cmd, spec.dir.as_deref());
        Ok(spec)
    }

    /// A name before the engine has told its own: the file name of the command.
    pub fn fallback_name(&self) -> String {
        self.cmd
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.cmd.display().to_string())
    }
}

/// A command with a slash is a path: relative to the engine's `dir` when one
/// is given (where the engine lives, as in cutechess and fastchess), else to
/// the current directory. A bare name is looked up in `PATH`.
fn resolve_cmd(cmd: &str, dir: Option<&Path>) -> PathBuf {
    let path = PathBuf::from(cmd);
    if !cmd.contains('/') || path.is_absolute() {
        return path;
    }
    let base = match dir {
        Some(d) => d.to_path_buf(),
        None => PathBuf::new(),
    };
    let joined = base.join(&path);
    if joined.is_absolute() {
        joined
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(&joined))
            .unwrap_or(joined)
    }
}

/// Option names compare without case, with `_` and spaces alike
/// (Fairy-Stockfish says `Skill_Level` in UCCI and `Skill Level` in UCI).
fn same_option(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c == '_' {
                    ' '
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    norm(a) == norm(b)
}

/// The type of an option an engine advertises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check,
    Spin { min: Option<i64>, max: Option<i64> },
    Combo(Vec<String>),
    Button,
    Text,
    Other(String),
}

/// An `option` line from the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Advertised {
    pub name: String,
    pub kind: OptionKind,
}

/// Reads an `option` line: `option NAME type …` (UCCI) or
/// `option name NAME WITH SPACES type …` (UCI). Either form is accepted from
/// either protocol.
pub fn parse_option_line(line: &str) -> Option<Advertised> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.first() != Some(&"option") {
        return None;
    }
    let type_at = tokens.iter().position(|&t| t == "type")?;
    let name_words = if tokens.get(1) == Some(&"name") && type_at > 2 {
        &tokens[2..type_at]
    } else {
        &tokens[1..type_at]
    };
    if name_words.is_empty() {
        return None;
    }
    let name = name_words.join(" ");
    let rest = &tokens[type_at + 1..];
    let after = |key: &str| -> Option<i64> {
        rest.iter()
            .position(|&t| t == key)
            .and_then(|i| rest.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    let kind = match rest.first().copied().unwrap_or("") {
        "check" => OptionKind::Check,
        "spin" => OptionKind::Spin {
            min: after("min"),
            max: after("max"),
        },
        "combo" => OptionKind::Combo(
            rest.windows(2)
                .filter(|w| w[0] == "var")
                .map(|w| w[1].to_string())
                .collect(),
        ),
        "button" => OptionKind::Button,
        "string" => OptionKind::Text,
        other => OptionKind::Other(other.to_string()),
    };
    Some(Advertised { name, kind })
}

/// One `setoption` to send: the engine's spelling of the name, and the value
/// (`None` for a button).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption {
    pub name: String,
    pub value: Option<String>,
}

/// Checks the user's options against what the engine advertises. Returns the
/// ones to send and a message for each one dropped.
pub fn validate_options(
    wanted: &[(String, String)],
    advertised: &[Advertised],
) -> (Vec<SetOption>, Vec<String>) {
    let mut send = Vec::new();
    let mut problems = Vec::new();
    for (name, value) in wanted {
        let Some(adv) = advertised.iter().find(|a| same_option(&a.name, name)) else {
            problems.push(format!("has no option '{name}'; not set"));
            continue;
        };
        let checked = match &adv.kind {
            OptionKind::Check => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" | "yes" => Ok(Some("true".to_string())),
                "false" | "off" | "0" | "no" => Ok(Some("false".to_string())),
                _ => Err("is a check option: expected true or false".to_string()),
            },
            OptionKind::Spin { min, max } => match value.parse::<i64>() {
                Err(_) => Err("is a spin option: expected a whole number".to_string()),
                Ok(v) if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) => Err(format!(
                    "must lie in {}..{}",
                    min.map_or("".into(), |m| m.to_string()),
                    max.map_or("".into(), |m| m.to_string())
                )),
                Ok(v) => Ok(Some(v.to_string())),
            },
            OptionKind::Combo(vars) => match vars.iter().find(|v| v.eq_ignore_ascii_case(value)) {
                Some(v) => Ok(Some(v.clone())),
                None => Err(format!("must be one of: {}", vars.join(", "))),
            },
            OptionKind::Button if value.is_empty() => Ok(None),
            OptionKind::Button => Err("is a button: give it no value (option.NAME=)".to_string()),
            OptionKind::Text | OptionKind::Other(_) => Ok(Some(value.clone())),
        };
        match checked {
            Ok(value) => send.push(SetOption {
                name: adv.name.clone(),
                value,
            }),
            Err(why) => problems.push(format!("option '{}' = '{value}' {why}; not set", adv.name)),
        }
    }
    (send, problems)
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Start(String),
    /// No answer in time.
    Timeout(String),
    /// The process exited or closed its pipes.
    Died(String),
    /// The engine cannot play xiangqi in this configuration.
    Unsupported(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Start(s)
            | EngineError::Timeout(s)
            | EngineError::Died(s)
            | EngineError::Unsupported(s) => f.write_str(s),
        }
    }
}

/// What the reader thread reports.
enum Event {
    Line(String, Instant),
    Eof,
}

/// The result of waiting for a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    /// A line and the time it arrived.
    Line(String, Instant),
    /// Nothing before the deadline.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Eof,
}

/// Longest output line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Stderr lines kept for crash reports.
const STDERR_TAIL: usize = 5;

/// A running engine process. Dropping it kills the process.
pub struct Engine {
    /// The name used in messages.
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    eof: bool,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Set when the engine's stderr is closed (all of it is in the tail).
    stderr_closed: Arc<AtomicBool>,
    pub dialect: Dialect,
    /// The engine's `id name`.
    pub id_name: Option<String>,
    pub advertised: Vec<Advertised>,
}

impl Engine {
    /// Starts the engine, boots it, configures it for xiangqi and sets
    /// `options`. Every wait is bounded by `timeout`.
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        options: &[SetOption],
        timeout: Duration,
    ) -> Result<Engine, EngineError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal reaches the runner
        // only, which then stops the engines itself.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| {
            let dir = spec
                .dir
                .as_ref()
                .map(|d| format!(" in {}", d.display()))
                .unwrap_or_default();
            EngineError::Start(format!("cannot start '{}'{dir}: {e}", spec.cmd.display()))
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Start(format!(
                "cannot open the pipes of '{}'",
                spec.cmd.display()
            )));
        };
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name(format!("{label} stdout"))
            .spawn(move || read_lines(stdout, |line| tx.send(line).is_ok()));
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_closed = Arc::new(AtomicBool::new(false));
        let tail = Arc::clone(&stderr_tail);
        let closed = Arc::clone(&stderr_closed);
        let err_label = label.to_string();
        let spawned_err = std::thread::Builder::new()
            .name(format!("{label} stderr"))
            .spawn(move || {
                read_lines(stderr, |event| {
                    match event {
                        Event::Line(line, _) => {
                            log::debug!("{err_label} stderr: {line}");
                            if let Ok(mut t) = tail.lock() {
                                if t.len() == STDERR_TAIL {
                                    t.pop_front();
                                }
                                t.push_back(line);
                            }
                        }
                        Event::Eof => closed.store(true, Ordering::SeqCst),
                    }
                    true
                })
            });
        let mut engine = Engine {
            label: label.to_string(),
            child,
            stdin: Some(stdin),
            lines: rx,
            eof: false,
            stderr_tail,
            stderr_closed,
            dialect: Dialect {
                protocol: spec.protocol,
                ranks: spec.ranks.unwrap_or(Ranks::FromZero),
                millisec: spec.protocol == Protocol::Uci,
            },
            id_name: None,
            advertised: Vec::new(),
        };
        if spawned.is_err() || spawned_err.is_err() {
            return Err(EngineError::Start(format!(
                "{label}: cannot start a reader thread"
            )));
        }
        engine.boot(spec, timeout)?;
        for o in options {
            let line = engine.dialect.setoption(&o.name, o.value.as_deref());
            engine.send(&line)?;
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    /// `ucci`/`uci` up to `ucciok`/`uciok`, then the settings every game needs.
    fn boot(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineError> {
        let protocol = spec.protocol;
        self.send(protocol.boot())?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Recv::Line(line, _) => {
                    let line = line.trim();
                    if line == protocol.boot_ok() {
                        break;
                    }
                    if let Some(name) = line.strip_prefix("id name ") {
                        self.id_name = Some(name.trim().to_string());
                    } else if let Some(adv) = parse_option_line(line) {
                        self.advertised.push(adv);
                    }
                }
                Recv::Timeout => {
                    return Err(EngineError::Timeout(format!(
                        "{}: no '{}' within {:.1} s of '{}'",
                        self.label,
                        protocol.boot_ok(),
                        timeout.as_secs_f64(),
                        protocol.boot()
                    )))
                }
                Recv::Eof => return Err(self.died(&format!("before '{}'", protocol.boot_ok()))),
            }
        }
        match protocol {
            Protocol::Ucci => {
                // As the UCCI league runner does: milliseconds if the engine
                // can, no pondering, no promotion variant.
                if self.has_option("usemillisec") && spec.millisec != Some(false) {
                    self.send("setoption usemillisec true")?;
                    self.dialect.millisec = true;
                } else {
                    self.dialect.millisec = spec
                        .millisec
                        .unwrap_or_else(|| self.has_option("UCI_Variant"));
                }
                if self.has_option("promotion") {
                    self.send("setoption promotion false")?;
                }
                if self.has_option("ponder") {
                    self.send("setoption ponder false")?;
                }
            }
            Protocol::Uci => {
                if let Some(adv) = self.option("UCI_Variant").cloned() {
                    if let OptionKind::Combo(vars) = &adv.kind {
                        if !vars.iter().any(|v| v == "xiangqi") {
                            return Err(EngineError::Unsupported(format!(
                                "{}: its UCI_Variant option has no 'xiangqi'",
                                self.label
                            )));
                        }
                    }
                    self.send("setoption name UCI_Variant value xiangqi")?;
                    if spec.ranks.is_none() {
                        self.dialect.ranks = Ranks::FromOne;
                    }
                }
            }
        }
        Ok(())
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// The advertised option with this name, if any.
    pub fn option(&self, name: &str) -> Option<&Advertised> {
        self.advertised.iter().find(|a| same_option(&a.name, name))
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.option(name).is_some()
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} <- {line}", self.label);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.died(&format!("before '{line}'")));
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        match ok {
            Ok(()) => Ok(()),
            Err(_) => {
                self.stdin = None;
                Err(self.died(&format!("when sent '{line}'")))
            }
        }
    }

    /// The next line, waiting at most until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if self.eof {
            return Recv::Eof;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(line, at)) => {
                log::trace!("{} -> {line}", self.label);
                Recv::Line(line, at)
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Recv::Eof
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
        }
    }

    /// Throws away output that arrived while the engine had nothing to say
    /// (a second `bestmove` from a confused engine must not answer the next
    /// `go`). Returns false if the engine has closed its output.
    pub fn drain(&mut self) -> bool {
        loop {
            match self.recv(Instant::now()) {
                Recv::Line(line, _) => {
                    log::debug!("{}: ignored '{line}' between moves", self.label)
                }
                Recv::Timeout => return true,
                Recv::Eof => return false,
            }
        }
    }

    /// `isready` and wait for `readyok`, skipping anything else (such as a
    /// late `bestmove`).
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Recv::Line(line, _) if line.trim() == "readyok" => return Ok(()),
                Recv::Line(..) => {}
                Recv::Timeout => {
                    return Err(EngineError::Timeout(format!(
                        "{}: no 'readyok' within {:.1} s of 'isready'",
                        self.label,
                        timeout.as_secs_f64()
                    )))
                }
                Recv::Eof => return Err(self.died("before 'readyok'")),
            }
        }
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if let Some(cmd) = self.dialect.newgame(self.has_option("newgame")) {
            self.send(&cmd)?;
        }
        self.sync(timeout)
    }

    /// A description of the engine's death: exit status and last stderr lines.
    pub fn died(&mut self, when: &str) -> EngineError {
        // Give the process a moment to be reaped and its last words on
        // stderr a moment to be read.
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            let status = self.child.try_wait();
            let heard_all = self.stderr_closed.load(Ordering::SeqCst);
            match status {
                Ok(Some(status)) if heard_all => break Some(status),
                Ok(found) if Instant::now() >= deadline => break found,
                Err(_) => break None,
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        let status = match status {
            Some(s) => format!("exited ({s})"),
            None => "closed its output".to_string(),
        };
        let tail: Vec<String> = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        let stderr = if tail.is_empty() {
            String::new()
        } else {
            format!("; its stderr ended: {}", tail.join(" | "))
        };
        EngineError::Died(format!("{}: {status} {when}{stderr}", self.label))
    }

    /// Asks the engine to quit, then kills it if it has not exited within
    /// `wait`.
    pub fn quit(mut self, wait: Duration) {
        if self.send("quit").is_ok() {
            let deadline = Instant::now() + wait;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads lines (lossy UTF-8, `\r\n` or `\n`, at most `MAX_LINE` bytes kept
/// of each) and hands them to `sink` until EOF or until `sink` says stop.
fn read_lines(stream: impl Read, mut sink: impl FnMut(Event) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = match (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => 0,
        };
        if n == 0 {
            let _ = sink(Event::Eof);
            return;
        }
        let at = Instant::now();
        if buf.last() != Some(&b'\n') && n == MAX_LINE {
            // Overlong: drop the rest of the line.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                match (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut rest)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) if rest.last() == Some(&b'\n') => break,
                    Ok(_) => {}
                }
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']).to_string();
        if !sink(Event::Line(line, at)) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn engine_specs() {
        let spec = EngineSpec::parse(
            &words("cmd=/usr/games/fairy-stockfish name=fsf proto=uci option.Skill_Level=3 option.Hash=32"),
            &words("option.Hash=16 proto=ucci"),
        )
        .unwrap();
        assert_eq!(spec.cmd, PathBuf::from("/usr/games/fairy-stockfish"));
        assert_eq!(spec.name.as_deref(), Some("fsf"));
        assert_eq!(spec.protocol, Protocol::Uci);
        assert_eq!(
            spec.options,
            vec![
                ("Skill_Level".to_string(), "3".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
        let spec =
            EngineSpec::parse(&words("cmd=./eng dir=/opt/e args=-a arg=b ranks=1"), &[]).unwrap();
        assert_eq!(spec.cmd, PathBuf::from("/opt/e/./eng"));
        assert_eq!(spec.args, vec!["-a", "b"]);
        assert_eq!(spec.ranks, Some(Ranks::FromOne));
        let spec = EngineSpec::parse(&words("cmd=x depth=3"), &words("nodes=500")).unwrap();
        assert_eq!(spec.limit, Some(TimeControl::Depth(3)));
        let spec = EngineSpec::parse(&words("cmd=x nodes=60000"), &[]).unwrap();
        assert_eq!(spec.limit, Some(TimeControl::Nodes(60000)));
        // Time odds: this engine's own clock, the last limit word winning.
        let spec = EngineSpec::parse(&words("cmd=x nodes=5 tc=1+0.01"), &[]).unwrap();
        assert_eq!(
            spec.limit,
            Some(TimeControl::Clock {
                base_ms: 1000,
                inc_ms: 10,
                moves: 0
            })
        );
        let ms = EngineSpec::parse(&words("cmd=x units=ms"), &[]).unwrap();
        assert_eq!(ms.millisec, Some(true));
        assert!(EngineSpec::parse(&words("cmd=x units=minutes"), &[]).is_err());
        let spec = EngineSpec::parse(&words("cmd=chariot"), &[]).unwrap();
        assert_eq!(spec.cmd, PathBuf::from("chariot"));
        assert_eq!(spec.fallback_name(), "chariot");
        for bad in [
            "name=x",
            "cmd=",
            "cmd=x proto=xboard",
            "cmd=x ranks=2",
            "cmd=x foo=1",
            "cmd=x junk",
            "cmd=x option.=1",
            "cmd=x tc=0+1",
            "cmd=x tc=fast",
            "cmd=x depth=0",
            "cmd=x depth=-2",
            "cmd=x nodes=many",
            "cmd=x depth=99999999999",
        ] {
            assert!(EngineSpec::parse(&words(bad), &[]).is_err(), "{bad}");
        }
    }

    #[test]
    fn option_lines() {
        assert_eq!(
            parse_option_line("option Skill_Level type spin default 20 min -20 max 20"),
            Some(Advertised {
                name: "Skill_Level".into(),
                kind: OptionKind::Spin {
                    min: Some(-20),
                    max: Some(20)
                }
            })
        );
        assert_eq!(
            parse_option_line("option name Clear Hash type button"),
            Some(Advertised {
                name: "Clear Hash".into(),
                kind: OptionKind::Button
            })
        );
        assert_eq!(
            parse_option_line("option randomness type combo default none var none var tiny"),
            Some(Advertised {
                name: "randomness".into(),
                kind: OptionKind::Combo(vec!["none".into(), "tiny".into()])
            })
        );
        assert_eq!(parse_option_line("option type check"), None);
        assert_eq!(parse_option_line("option usemillisec check"), None);
        assert_eq!(parse_option_line("id name x"), None);
    }

    #[test]
    fn options_are_checked_against_the_engine() {
        let adv: Vec<Advertised> = [
            "option Skill_Level type spin default 20 min -20 max 20",
            "option name Ponder type check default false",
            "option name Clear Hash type button",
            "option style type combo default normal var solid var normal var risky",
            "option bookfiles type string default",
        ]
        .iter()
        .filter_map(|l| parse_option_line(l))
        .collect();
        let want = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let (send, problems) = validate_options(
            &want(&[
                ("skill level", "-5"),
                ("Ponder", "ON"),
                ("Clear_Hash", ""),
                ("style", "RISKY"),
                ("bookfiles", "a.obk;b.obk"),
            ]),
            &adv,
        );
        assert!(problems.is_empty(), "{problems:?}");
        let sent: Vec<(String, Option<String>)> =
            send.into_iter().map(|o| (o.name, o.value)).collect();
        assert_eq!(
            sent,
            vec![
                ("Skill_Level".into(), Some("-5".into())),
                ("Ponder".into(), Some("true".into())),
                ("Clear Hash".into(), None),
                ("style".into(), Some("risky".into())),
                ("bookfiles".into(), Some("a.obk;b.obk".into())),
            ]
        );
        let (send, problems) = validate_options(
            &want(&[
                ("Skill_Level", "99"),
                ("Skill_Level", "lots"),
                ("Ponder", "maybe"),
                ("Clear Hash", "1"),
                ("style", "wild"),
                ("Hash", "64"),
            ]),
            &adv,
        );
        assert!(send.is_empty());
        assert_eq!(problems.len(), 6, "{problems:?}");
        assert!(problems[0].contains("-20..20"));
        assert!(problems[5].contains("no option 'Hash'"));
    }

    /// An engine in sh that answers every `go` twice.
    #[cfg(unix)]
    #[test]
    fn stray_output_between_moves_is_drained() {
        let script = "while read -r l; do case \"$l\" in \
                      ucci) echo 'id name doubler'; echo ucciok ;; \
                      isready) echo readyok ;; \
                      go*) echo 'bestmove a3a4'; echo 'bestmove a3a4' ;; \
                      quit) exit 0 ;; esac; done";
        let spec = EngineSpec::parse(&words("cmd=sh arg=-c"), &[]).map(|mut s| {
            s.args.push(script.to_string());
            s
        });
        let spec = spec.unwrap();
        let mut e = Engine::start(&spec, "doubler", &[], Duration::from_secs(5)).unwrap();
        assert_eq!(e.id_name.as_deref(), Some("doubler"));
        e.send("go depth 1").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        match e.recv(deadline) {
            Recv::Line(l, _) => assert_eq!(l, "bestmove a3a4"),
            other => panic!("{other:?}"),
        }
        // The second answer arrives too; draining drops it.
        e.sync(Duration::from_secs(5)).unwrap();
        e.send("go depth 1").unwrap();
        std::thread::sleep(Duration::from_millis(100));
        assert!(e.drain());
        assert_eq!(
            e.recv(Instant::now() + Duration::from_millis(100)),
            Recv::Timeout
        );
        e.send("quit").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while e.drain() {
            assert!(Instant::now() < deadline, "no EOF after quit");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(matches!(e.died("after quit"), EngineError::Died(m) if m.contains("exited")));
    }

    #[test]
    fn long_and_odd_lines_are_read_safely() {
        let mut input = Vec::new();
        input.extend_from_slice(b"first\r\n");
        input.extend(std::iter::repeat_n(b'x', MAX_LINE * 3));
        input.extend_from_slice(b"\nbad \xff utf8\nlast");
        let mut got = Vec::new();
        read_lines(&input[..], |e| {
            got.push(match e {
                Event::Line(l, _) => l,
                Event::Eof => "<eof>".to_string(),
            });
            true
        });
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], "first");
        assert_eq!(got[1].len(), MAX_LINE);
        assert_eq!(got[2], "bad \u{fffd} utf8");
        assert_eq!(got[3], "last");
        assert_eq!(got[4], "<eof>");
    }
}
