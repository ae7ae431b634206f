//! Result files: what one shard of a match (or a whole match) has played,
//! kept so that a killed run loses nothing it finished, a rerun plays only
//! the games that are missing, and `chariot-match merge` can report on the
//! shards together as one run.
//!
//! The format is line-based UTF-8 text, versioned by its first line:
//!
//! ```text
//! chariot-match results 1
//! # comment lines (starting with #) are allowed in the header
//! shard 2/4
//! setting engines 2
//! setting engine.1 cmd=/usr/local/bin/chariot proto=ucci ranks=auto units=auto option.usebook=false
//! setting name.1 Chariot 1.0.0 (net d738824c3562)
//! …                                    (one `setting KEY VALUE` per line)
//! end settings
//! game 3 red=1 black=2 opening=17 result=1-0 end=normal fault=-
//! reason Red mates
//! | [Event "Chariot match"]
//! | …                                  (the game's PGN, a line per `|` line)
//! |
//! end game 3
//! game 4 …
//! ```
//!
//! The settings are everything that defines the match: the engines and
//! their options (as given, and the names they play under), the format,
//! games per pairing, the opening suite (its size and a hash of its
//! content, not its path), the shuffle seed, the time or node limit, the
//! grace and timeouts, the move limits, the adjudication rules and the SPRT
//! bounds. Shards whose settings differ in any line are of different
//! matches. Settings values and the reason escape `\` as `\\` and line
//! breaks as `\n`.
//!
//! A game's record gives its number in the unsharded schedule, its engines
//! (1-based, in `--engine` order), its opening's index in the (shuffled)
//! suite order, the result, the PGN `Termination` (`end=`), the fault that
//! lost it if any (`fault=red:crash`, `black:time`, `red:illegal`,
//! `black:hang`, or `-`), the reason in words, and its PGN. Each record is
//! written with one write and flushed to disk before the next game is
//! reported, so a killed process leaves at worst a torn last record: the
//! reader drops it (a record counts only with its `end game N` line and
//! that line's newline), and a rerun cuts it off before appending.

use super::cli::MatchConfig;
use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::game::{EndKind, Fault, GameRecord};
use super::openings::Opening;
use super::schedule::{Format, GameSpec};
use super::shard::Shard;
use super::stats::SprtModel;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use xiangqi::types::Color;

/// The first line of a result file of the version written here.
pub const FIRST_LINE: &str = "chariot-match results 1";
const PREFIX: &str = "chariot-match results ";

/// The settings that define a match, in a fixed order: `(key, value)`.
pub type Settings = Vec<(String, String)>;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Its number in the unsharded schedule (1-based).
    pub number: usize,
    /// Engine indices (0-based).
    pub red: usize,
    pub black: usize,
    /// Index into the suite.
    pub opening: usize,
    pub winner: Option<Color>,
    pub end: EndKind,
    pub fault: Option<(Color, Fault)>,
    pub reason: String,
    /// The game's PGN text, ending with a blank line.
    pub pgn: String,
}

impl GameResult {
    /// The result of the game `spec` played as `record`, with its PGN.
    pub fn of(spec: &GameSpec, record: &GameRecord, pgn: String) -> GameResult {
        GameResult {
            number: spec.number,
            red: spec.red,
            black: spec.black,
            opening: spec.opening,
            winner: record.winner,
            end: record.end,
            fault: record.fault,
            reason: record.reason.clone(),
            pgn,
        }
    }

    /// A game record with what the standings count (result and fault), to
    /// tally the game again.
    pub fn outcome(&self) -> GameRecord {
        GameRecord {
            start_fen: String::new(),
            opening_name: None,
            moves: Vec::new(),
            winner: self.winner,
            end: self.end,
            reason: self.reason.clone(),
            fault: self.fault,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The record as written to the file.
    pub fn record(&self) -> String {
        let fault = match self.fault {
            None => "-".to_string(),
            Some((side, f)) => format!("{}:{}", side_word(side), fault_word(f)),
        };
        let mut out = format!(
            "game {} red={} black={} opening={} result={} end={} fault={fault}\nreason {}\n",
            self.number,
            self.red + 1,
            self.black + 1,
            self.opening,
            self.result(),
            end_word(self.end),
            escape(&self.reason)
        );
        for line in self.pgn.strip_suffix('\n').unwrap_or(&self.pgn).split('\n') {
            if line.is_empty() {
                out.push_str("|\n");
            } else {
                out.push_str("| ");
                out.push_str(line);
                out.push('\n');
            }
        }
        out.push_str(&format!("end game {}\n", self.number));
        out
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn fault_word(f: Fault) -> &'static str {
    match f {
        Fault::Crash => "crash",
        Fault::TimeForfeit => "time",
        Fault::Illegal => "illegal",
        Fault::Hang => "hang",
    }
}

/// The `end=` word: the PGN `Termination` without spaces.
fn end_word(e: EndKind) -> &'static str {
    match e {
        EndKind::Normal => "normal",
        EndKind::Adjudication => "adjudication",
        EndKind::TimeForfeit => "time-forfeit",
        EndKind::RulesInfraction => "rules-infraction",
        EndKind::Abandoned => "abandoned",
    }
}

fn parse_end(s: &str) -> Option<EndKind> {
    [
        EndKind::Normal,
        EndKind::Adjudication,
        EndKind::TimeForfeit,
        EndKind::RulesInfraction,
        EndKind::Abandoned,
    ]
    .into_iter()
    .find(|e| end_word(*e) == s)
}

fn parse_fault(s: &str) -> Option<Option<(Color, Fault)>> {
    if s == "-" {
        return Some(None);
    }
    let (side, kind) = s.split_once(':')?;
    let side = [Color::Red, Color::Black]
        .into_iter()
        .find(|c| side_word(*c) == side)?;
    let kind = [
        Fault::Crash,
        Fault::TimeForfeit,
        Fault::Illegal,
        Fault::Hang,
    ]
    .into_iter()
    .find(|f| fault_word(*f) == kind)?;
    Some(Some((side, kind)))
}

/// `\` as `\\`, line breaks as `\n` and `\r`.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The settings of a match: `names` are the names its engines play under
/// (after asking them), `openings` the suite it plays from.
pub fn match_settings(cfg: &MatchConfig, names: &[String], openings: &[Opening]) -> Settings {
    let mut s: Settings = Vec::new();
    let mut put = |k: &str, v: String| s.push((k.to_string(), v));
    put("engines", cfg.engines.len().to_string());
    for (i, e) in cfg.engines.iter().enumerate() {
        put(&format!("engine.{}", i + 1), engine_words(e));
    }
    for (i, n) in names.iter().enumerate() {
        put(&format!("name.{}", i + 1), n.clone());
    }
    put(
        "format",
        match cfg.format {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
        .to_string(),
    );
    put("games", cfg.games_per_pairing.to_string());
    put(
        "openings",
        format!("{} fnv1a64:{:016x}", openings.len(), suite_hash(openings)),
    );
    put(
        "shuffle",
        cfg.shuffle
            .map_or("none".to_string(), |seed| seed.to_string()),
    );
    let g = &cfg.game;
    put("limit", g.tc.to_string());
    put("grace-ms", g.grace.as_millis().to_string());
    put("hang-timeout-ms", g.hang_timeout.as_millis().to_string());
    put(
        "handshake-timeout-ms",
        g.ready_timeout.as_millis().to_string(),
    );
    put("move-limit-plies", g.move_limit_plies.to_string());
    put(
        "max-plies",
        g.max_plies.map_or("none".to_string(), |p| p.to_string()),
    );
    put(
        "resign",
        g.resign.map_or("none".to_string(), |r| r.to_string()),
    );
    put("draw", g.draw.map_or("none".to_string(), |d| d.to_string()));
    put(
        "sprt",
        cfg.sprt.map_or("none".to_string(), |p| {
            format!(
                "elo0={} elo1={} alpha={} beta={} model={}",
                p.elo0,
                p.elo1,
                p.alpha,
                p.beta,
                match p.model {
                    SprtModel::Pentanomial => "penta",
                    SprtModel::Trinomial => "tri",
                }
            )
        }),
    );
    s
}

/// An engine as the words that define it.
fn engine_words(e: &EngineSpec) -> String {
    let mut w = vec![format!("cmd={}", e.cmd.display())];
    if let Some(n) = &e.name {
        w.push(format!("name={n}"));
    }
    if let Some(d) = &e.dir {
        w.push(format!("dir={}", d.display()));
    }
    w.extend(e.args.iter().map(|a| format!("arg={a}")));
    w.push(format!("proto={}", e.protocol));
    w.push(format!(
        "ranks={}",
        match e.ranks {
            None => "auto",
            Some(super::dialect::Ranks::FromZero) => "0",
            Some(super::dialect::Ranks::FromOne) => "1",
        }
    ));
    w.push(format!(
        "units={}",
        match e.millisec {
            None => "auto",
            Some(true) => "ms",
            Some(false) => "s",
        }
    ));
    match e.limit {
        Some(TimeControl::Depth(d)) => w.push(format!("depth={d}")),
        Some(TimeControl::Nodes(n)) => w.push(format!("nodes={n}")),
        Some(tc @ TimeControl::Clock { .. }) => w.push(format!("tc={}", tc.pgn_tag())),
        _ => {}
    }
    w.extend(e.options.iter().map(|(k, v)| format!("option.{k}={v}")));
    w.join(" ")
}

/// FNV-1a (64 bits) of the suite's openings: start, moves, name. Enough to
/// tell suites apart; the path a suite was read from does not count.
fn suite_hash(openings: &[Opening]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        let moves: Vec<String> = o.moves.iter().map(|m| m.to_string()).collect();
        let text = format!(
            "{}\t{}\t{}\n",
            o.fen,
            moves.join(" "),
            o.name.as_deref().unwrap_or("")
        );
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The header of a result file: the version line, the shard, the settings.
pub fn header(shard: Shard, settings: &Settings) -> String {
    let mut out = format!(
        "{FIRST_LINE}\n# chariot-match: the settings of one match, then every finished game of this shard (docs/CLUSTER.md)\nshard {shard}\n"
    );
    for (k, v) in settings {
        out.push_str(&format!("setting {k} {}\n", escape(v)));
    }
    out.push_str("end settings\n");
    out
}

/// A result file as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultFile {
    pub shard: Shard,
    pub settings: Settings,
    /// Its complete records, in file order.
    pub games: Vec<GameResult>,
    /// Bytes up to the end of the last complete record.
    pub good_len: usize,
    /// Whether a torn record (or line) follows them.
    pub torn: bool,
}

impl ResultFile {
    /// The numbers of its games.
    pub fn numbers(&self) -> BTreeSet<usize> {
        self.games.iter().map(|g| g.number).collect()
    }
}

/// Reads result-file text. A torn tail (a record without its final line)
/// is dropped and reported in `torn`; anything else out of place is an
/// error naming the line.
pub fn parse(text: &str) -> Result<ResultFile, String> {
    // Complete lines only, each with the offset just past its newline.
    let mut lines = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find('\n') {
        lines.push((&text[at..at + i], at + i + 1));
        at += i + 1;
    }
    let partial_tail = at < text.len();
    let mut it = lines.iter().enumerate().peekable();
    let bad = |n: usize, what: &str| format!("line {}: {what}", n + 1);

    match it.next() {
        Some((_, (l, _))) if *l == FIRST_LINE => {}
        Some((_, (l, _))) if l.starts_with(PREFIX) => {
            return Err(format!(
                "a result file of format '{}', and this chariot-match reads '{FIRST_LINE}'",
                l.trim()
            ))
        }
        _ => {
            return Err(format!(
                "not a chariot-match result file (its first line is not '{FIRST_LINE}')"
            ))
        }
    }
    let mut shard = None;
    let mut settings = Settings::new();
    let mut good_len;
    loop {
        let Some((n, (line, end))) = it.next() else {
            return Err(
                "the settings end before 'end settings' (the file is cut short)".to_string(),
            );
        };
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if *line == "end settings" {
            good_len = *end;
            break;
        }
        if let Some(s) = line.strip_prefix("shard ") {
            shard = Some(Shard::parse(s).map_err(|e| bad(n, &e))?);
        } else if let Some(rest) = line.strip_prefix("setting ") {
            let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
            settings.push((k.to_string(), unescape(v)));
        } else {
            return Err(bad(n, &format!("'{line}' is not a setting")));
        }
    }
    let shard = shard.ok_or("the header has no 'shard K/N' line")?;

    let mut games = Vec::new();
    let mut numbers = BTreeSet::new();
    let mut torn = partial_tail;
    'records: while let Some((n, (line, _))) = it.next() {
        let game = parse_game_line(line).map_err(|e| bad(n, &e))?;
        let Some((_, (reason_line, _))) = it.next() else {
            torn = true;
            break;
        };
        let reason = reason_line
            .strip_prefix("reason ")
            .or_else(|| (*reason_line == "reason").then_some(""))
            .ok_or_else(|| bad(n + 1, "expected 'reason …' after a game line"))?;
        let mut pgn = String::new();
        loop {
            let Some((m, (l, end))) = it.next() else {
                torn = true;
                break 'records;
            };
            if let Some(p) = l.strip_prefix("| ") {
                pgn.push_str(p);
                pgn.push('\n');
            } else if *l == "|" {
                pgn.push('\n');
            } else if *l == format!("end game {}", game.number) {
                good_len = *end;
                break;
            } else {
                return Err(bad(
                    m,
                    &format!("expected a PGN line '| …' or 'end game {}'", game.number),
                ));
            }
        }
        if !numbers.insert(game.number) {
            return Err(bad(n, &format!("game {} is recorded twice", game.number)));
        }
        games.push(GameResult {
            reason: unescape(reason),
            pgn,
            ..game
        });
    }
    Ok(ResultFile {
        shard,
        settings,
        games,
        good_len,
        torn,
    })
}

/// Reads `game N red=R black=B opening=O result=R end=E fault=F`.
fn parse_game_line(line: &str) -> Result<GameResult, String> {
    let mut words = line.split(' ');
    if words.next() != Some("game") {
        return Err(format!("expected a 'game N …' record, found '{line}'"));
    }
    let number: usize = words
        .next()
        .and_then(|w| w.parse().ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("'{line}': no game number"))?;
    let mut g = GameResult {
        number,
        red: usize::MAX,
        black: usize::MAX,
        opening: usize::MAX,
        winner: None,
        end: EndKind::Normal,
        fault: None,
        reason: String::new(),
        pgn: String::new(),
    };
    let mut seen = 0;
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("game {number}: '{w}' is not KEY=VALUE"))?;
        let index = || -> Result<usize, String> {
            v.parse::<usize>()
                .ok()
                .filter(|&i| i > 0)
                .map(|i| i - 1)
                .ok_or_else(|| format!("game {number}: {k}={v} is not an engine number"))
        };
        match k {
            "red" => g.red = index()?,
            "black" => g.black = index()?,
            "opening" => {
                g.opening = v
                    .parse()
                    .map_err(|_| format!("game {number}: opening={v} is not a number"))?
            }
            "result" => {
                g.winner = match v {
                    "1-0" => Some(Color::Red),
                    "0-1" => Some(Color::Black),
                    "1/2-1/2" => None,
                    _ => return Err(format!("game {number}: result={v}")),
                }
            }
            "end" => g.end = parse_end(v).ok_or_else(|| format!("game {number}: end={v}"))?,
            "fault" => {
                g.fault = parse_fault(v).ok_or_else(|| format!("game {number}: fault={v}"))?
            }
            _ => return Err(format!("game {number}: unknown field '{k}'")),
        }
        seen += 1;
    }
    if seen != 6 || g.red == usize::MAX || g.black == usize::MAX || g.opening == usize::MAX {
        return Err(format!(
            "game {number}: a record needs red=, black=, opening=, result=, end= and fault="
        ));
    }
    Ok(g)
}

/// Reads the result file at `path`.
pub fn read(path: &Path) -> Result<ResultFile, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "{}: not a chariot-match result file (not UTF-8 text)",
            path.display()
        )
    })?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A result file being written by a running match.
pub struct Writer {
    file: Option<File>,
    path: PathBuf,
}

/// What a run finds in its result file before it starts.
pub struct Opened {
    pub writer: Writer,
    /// The games already played, from an earlier run of the same shard.
    pub done: Vec<GameResult>,
}

impl Writer {
    /// Opens `path` for the shard `shard` of the match `settings`: creates
    /// it with its header, or resumes it when it holds the same shard of the
    /// same match (cutting off a torn last record). Refuses a file of
    /// another shard or another match, in one line.
    pub fn open(path: &Path, shard: Shard, settings: &Settings) -> Result<Opened, String> {
        let shown = path.display();
        let head = header(shard, settings);
        let existing = match std::fs::read(path) {
            // Empty, or a header cut short as this run would write it.
            Ok(bytes) if head.as_bytes().starts_with(&bytes) => None,
            Ok(_) => Some(read(path)?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(format!("cannot read {shown}: {e}")),
        };
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open the result file {shown}: {e}"))?;
        let done = match existing {
            None => {
                file.set_len(0)
                    .map_err(|e| format!("cannot write {shown}: {e}"))?;
                write_synced(&mut file, &head).map_err(|e| format!("cannot write {shown}: {e}"))?;
                Vec::new()
            }
            Some(old) => {
                if old.shard != shard {
                    return Err(format!(
                        "{shown} holds shard {} and this run is shard {shard}: give another --results",
                        old.shard
                    ));
                }
                if let Some(why) = differ(&old.settings, settings) {
                    return Err(format!(
                        "{shown} is of another match ({why}): give another --results or the same settings"
                    ));
                }
                if old.torn {
                    log::warn!(
                        "{shown}: a torn last record (the run was stopped while writing it) is cut off"
                    );
                    file.set_len(old.good_len as u64)
                        .map_err(|e| format!("cannot cut the torn end off {shown}: {e}"))?;
                }
                old.games
            }
        };
        Ok(Opened {
            writer: Writer {
                file: Some(file),
                path: path.to_path_buf(),
            },
            done,
        })
    }

    /// Appends a finished game. A failure is reported once, and the match
    /// goes on without its result file.
    pub fn write(&mut self, game: &GameResult) {
        if let Some(f) = self.file.as_mut() {
            if let Err(e) = write_synced(f, &game.record()) {
                log::error!(
                    "cannot write to {}: {e}; no more results will be kept there",
                    self.path.display()
                );
                self.file = None;
            }
        }
    }
}

fn write_synced(f: &mut File, text: &str) -> std::io::Result<()> {
    f.write_all(text.as_bytes())?;
    f.flush()?;
    f.sync_data()
}

/// The first difference between two matches' settings, in words; `None`
/// when they are the same match.
pub fn differ(a: &Settings, b: &Settings) -> Option<String> {
    let value = |s: &Settings, k: &str| s.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let keys: Vec<&String> = a.iter().chain(b).map(|(k, _)| k).collect();
    for k in keys {
        let (x, y) = (value(a, k), value(b, k));
        if x != y {
            let show = |v: Option<String>| v.map_or("absent".to_string(), |v| format!("'{v}'"));
            return Some(format!(
                "{k} is {} in one and {} in the other",
                show(x),
                show(y)
            ));
        }
    }
    None
}

/// Game numbers as short ranges: `5, 9-12, 20`.
pub fn ranges(numbers: impl IntoIterator<Item = usize>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    let flush = |parts: &mut Vec<String>, run: (usize, usize)| {
        parts.push(if run.0 == run.1 {
            run.0.to_string()
        } else {
            format!("{}-{}", run.0, run.1)
        })
    };
    for n in numbers {
        run = match run {
            Some((a, b)) if n == b + 1 => Some((a, n)),
            Some(r) => {
                flush(&mut parts, r);
                Some((n, n))
            }
            None => Some((n, n)),
        };
    }
    if let Some(r) = run {
        flush(&mut parts, r);
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        vec![
            ("engines".into(), "2".into()),
            ("engine.1".into(), "cmd=/bin/a\\b odd\nname".into()),
            ("games".into(), "4".into()),
        ]
    }

    fn game(number: usize) -> GameResult {
        GameResult {
            number,
            red: 0,
            black: 1,
            opening: 3,
            winner: Some(Color::Black),
            end: EndKind::TimeForfeit,
            fault: Some((Color::Red, Fault::TimeForfeit)),
            reason: "Red (a) loses on time: 12 ms\\x".into(),
            pgn: "[Event \"x\"]\n[Round \"3\"]\n\n1. h2e2 {book} 0-1\n\n".into(),
        }
    }

    #[test]
    fn round_trip() {
        let mut text = header(Shard { k: 2, n: 4 }, &settings());
        text.push_str(&game(3).record());
        let mut g = game(7);
        g.winner = None;
        g.fault = None;
        g.end = EndKind::Normal;
        text.push_str(&g.record());
        let f = parse(&text).unwrap();
        assert_eq!(f.shard, Shard { k: 2, n: 4 });
        assert_eq!(f.settings, settings());
        assert_eq!(f.games, vec![game(3), g]);
        assert_eq!(f.good_len, text.len());
        assert!(!f.torn);
    }

    #[test]
    fn a_torn_tail_is_dropped_and_reported() {
        let head = header(Shard { k: 1, n: 2 }, &settings());
        let whole = format!("{head}{}", game(1).record());
        let next = game(2).record();
        // Cut the second record at every byte: the first is always kept.
        for cut in 0..next.len() {
            let text = format!("{whole}{}", &next[..cut]);
            let f = parse(&text).unwrap();
            assert_eq!(f.games, vec![game(1)], "cut at {cut}");
            assert_eq!(f.good_len, whole.len());
            assert_eq!(f.torn, cut > 0);
        }
    }

    #[test]
    fn damage_and_other_files_are_refused() {
        let head = header(Shard { k: 1, n: 2 }, &settings());
        for (text, needle) in [
            ("".to_string(), "not a chariot-match result file"),
            ("[Event \"x\"]\n".to_string(), "not a chariot-match result file"),
            ("chariot-match results 9\n".to_string(), "format 'chariot-match results 9'"),
            (format!("{FIRST_LINE}\nshard 1/2\n"), "cut short"),
            (format!("{FIRST_LINE}\nsetting a b\nend settings\n"), "no 'shard K/N'"),
            (format!("{FIRST_LINE}\nshard 3/2\nend settings\n"), "line 2"),
            (format!("{head}hello\n"), "expected a 'game N"),
            (format!("{head}game 1 red=1 black=2\nreason x\nend game 1\n"), "a record needs"),
            (format!("{head}game 1 red=1 black=2 opening=0 result=1-0 end=normal fault=blue:crash\n"), "fault=blue:crash"),
            (format!("{head}{}{}", game(2).record(), game(2).record()), "recorded twice"),
            (format!("{head}game 1 red=1 black=2 opening=0 result=1-0 end=normal fault=-\nreason x\nhello\n"), "expected a PGN line"),
        ] {
            match parse(&text) {
                Ok(f) => panic!("accepted {text:?}: {f:?}"),
                Err(e) => assert!(e.contains(needle), "{text:?}: {e}"),
            }
        }
    }

    #[test]
    fn a_writer_resumes_its_own_file_and_refuses_others() {
        let dir = std::env::temp_dir().join(format!("chariot-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.results");
        let shard = Shard { k: 1, n: 2 };
        // A header cut short (killed while starting) is written again.
        let head = header(shard, &settings());
        std::fs::write(&path, &head[..head.len() / 2]).unwrap();
        let mut w = Writer::open(&path, shard, &settings()).unwrap();
        assert!(w.done.is_empty());
        w.writer.write(&game(1));
        drop(w);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{head}{}", game(1).record())
        );
        // Resumed: the game is there.
        let w = Writer::open(&path, shard, &settings()).unwrap();
        assert_eq!(w.done, vec![game(1)]);
        drop(w);
        // Another shard, another match, something else: refused.
        let other = Writer::open(&path, Shard { k: 2, n: 2 }, &settings()).err();
        assert!(other
            .unwrap()
            .contains("holds shard 1/2 and this run is shard 2/2"));
        let mut changed = settings();
        changed[2].1 = "6".into();
        let other = Writer::open(&path, shard, &changed).err();
        assert!(other
            .unwrap()
            .contains("is of another match (games is '4' in one and '6' in the other)"));
        std::fs::write(&path, "[Event \"x\"]\n").unwrap();
        let other = Writer::open(&path, shard, &settings()).err();
        assert!(other.unwrap().contains("not a chariot-match result file"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[Event \"x\"]\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn differences_in_words() {
        let a = settings();
        assert_eq!(differ(&a, &a), None);
        let mut b = a.clone();
        b[2].1 = "6".into();
        assert_eq!(
            differ(&a, &b).unwrap(),
            "games is '4' in one and '6' in the other"
        );
        b.push(("sprt".into(), "x".into()));
        b[2].1 = "4".into();
        assert_eq!(
            differ(&a, &b).unwrap(),
            "sprt is absent in one and 'x' in the other"
        );
    }

    #[test]
    fn short_ranges() {
        assert_eq!(ranges([1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
        assert_eq!(ranges([4]), "4");
        assert_eq!(ranges([]), "");
    }
}
