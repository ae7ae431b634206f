//! Engine options: their table (UCCI and UCI spellings), the handshake lines,
//! and `setoption` in all the forms real clients send.

use super::command::Dialect;
use crate::book::BookPick;
use crate::settings::Level;
use crate::strength::{self, Strength};

/// How much the choice among near-equal moves may vary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Randomness {
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

/// Each grade: its name, the search's margin in centipawns, and the power
/// (in percent) a book move's weight is raised to for the weighted pick.
/// Up to `medium` the pick follows the book's own weights, as ElephantEye
/// plays its books whatever its randomness; `large` and `huge` flatten it.
/// (`bestbookmove` asks for the heaviest move instead.)
const RANDOMNESS: [(&str, Randomness, i32, u32); 6] = [
    ("none", Randomness::None, 0, 100),
    ("tiny", Randomness::Tiny, 4, 100),
    ("small", Randomness::Small, 10, 100),
    ("medium", Randomness::Medium, 20, 100),
    ("large", Randomness::Large, 40, 50),
    ("huge", Randomness::Huge, 80, 25),
];

impl Randomness {
    /// Centipawns within the best score a move may be picked at random.
    pub fn margin(self) -> i32 {
        RANDOMNESS
            .iter()
            .find(|(_, r, _, _)| *r == self)
            .map_or(0, |&(_, _, m, _)| m)
    }

    /// How a book move is chosen at this grade (unless `bestbookmove`).
    pub fn book_pick(self) -> BookPick {
        let percent = RANDOMNESS
            .iter()
            .find(|(_, r, _, _)| *r == self)
            .map_or(100, |&(_, _, _, p)| p);
        BookPick::Weighted { percent }
    }
}

/// The names of the grades of `idle`, `pruning` and `knowledge`.
const LEVELS: [&str; 4] = ["none", "small", "medium", "large"];

/// Current option values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub usemillisec: bool,
    pub hash_mb: u64,
    pub threads: u64,
    pub ponder: bool,
    pub batch: bool,
    pub debug: bool,
    pub usebook: bool,
    /// Always the heaviest book move instead of a weighted random pick.
    pub bestbookmove: bool,
    pub bookfiles: String,
    /// The evaluation: `<built-in>`, `<classical>` or a net file (what
    /// `nets::Evaluation::from_name` takes; after it is applied, the
    /// source of the evaluation in use).
    pub evalfile: String,
    pub randomness: Randomness,
    pub multipv: u64,
    /// `UCI_ShowWDL`: every `info … score` line also gives the win, draw
    /// and loss odds (`crate::wdl`).
    pub show_wdl: bool,
    pub move_overhead_ms: u64,
    /// ElephantEye's `idle` (how much CPU to leave to others): accepted and
    /// kept; Chariot never busy-waits, and a search uses what it is given.
    pub idle: Level,
    /// ElephantEye's `pruning`, passed to the engine's settings.
    pub pruning: Level,
    /// ElephantEye's `knowledge`, passed to the engine's settings.
    pub knowledge: Level,
    /// `UCI_LimitStrength`: play at `elo` (it overrides `skill`).
    pub limit_strength: bool,
    /// `UCI_Elo`: the level played with `limit_strength`.
    pub elo: u64,
    /// `Skill Level`: 0 to 19 are levels, 20 (the default) full strength.
    pub skill: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            usemillisec: true,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            ponder: false,
            batch: false,
            debug: false,
            usebook: true,
            bestbookmove: false,
            bookfiles: String::new(),
            evalfile: crate::eval::BUILTIN_NAME.to_string(),
            randomness: Randomness::None,
            multipv: 1,
            show_wdl: false,
            move_overhead_ms: 30,
            idle: Level::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            limit_strength: false,
            elo: u64::from(strength::DEFAULT_ELO),
            skill: u64::from(strength::MAX_SKILL),
        }
    }
}

const DEFAULT_HASH_MB: u64 = 16;

/// Which option a table entry is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Id {
    UseMillisec,
    Hash,
    Threads,
    Ponder,
    Batch,
    Debug,
    NewGame,
    ClearHash,
    UseBook,
    BestBookMove,
    BookFiles,
    EvalFile,
    Randomness,
    MultiPv,
    ShowWdl,
    MoveOverhead,
    Promotion,
    Idle,
    Pruning,
    Knowledge,
    LimitStrength,
    Elo,
    Skill,
}

#[derive(Clone, Copy)]
enum Kind {
    Check,
    /// A number in `min..=max`. With `auto`, 0 means "engine decides" (the
    /// UCCI convention) and stands for `auto`; UCI, which has no such
    /// convention, is offered `1..=max`.
    Spin {
        min: u64,
        max: u64,
        auto: Option<u64>,
    },
    /// One of the listed words.
    Combo(&'static [&'static str]),
    Button,
    Text,
}

/// One option: which, UCCI name, UCI name (empty: not offered), kind.
struct Def {
    id: Id,
    ucci: &'static str,
    uci: &'static str,
    kind: Kind,
}

const fn def(id: Id, ucci: &'static str, uci: &'static str, kind: Kind) -> Def {
    Def {
        id,
        ucci,
        uci,
        kind,
    }
}

const fn spin(min: u64, max: u64) -> Kind {
    Kind::Spin {
        min,
        max,
        auto: None,
    }
}

const RANDOMNESS_NAMES: [&str; 6] = ["none", "tiny", "small", "medium", "large", "huge"];

/// The options in handshake order. `usemillisec` comes first (UCCILEAG
/// looks for it); the ElephantEye options that are not UCI's have no UCI
/// name but are accepted in both dialects like every other. UCI's own
/// options drop `UCI_` in UCCI's spelling.
#[rustfmt::skip]
const DEFS: [Def; 23] = [
    def(Id::UseMillisec, "usemillisec", "", Kind::Check),
    def(Id::Promotion, "promotion", "", Kind::Check),
    def(Id::Hash, "hashsize", "Hash", Kind::Spin { min: 0, max: 65536, auto: Some(DEFAULT_HASH_MB) }),
    def(Id::Threads, "threads", "Threads", Kind::Spin { min: 0, max: 256, auto: Some(1) }),
    def(Id::Ponder, "ponder", "Ponder", Kind::Check),
    def(Id::Batch, "batch", "Batch", Kind::Check),
    def(Id::Debug, "debug", "", Kind::Check),
    def(Id::NewGame, "newgame", "", Kind::Button),
    def(Id::ClearHash, "", "Clear Hash", Kind::Button),
    def(Id::UseBook, "usebook", "UseBook", Kind::Check),
    def(Id::BestBookMove, "bestbookmove", "BestBookMove", Kind::Check),
    def(Id::BookFiles, "bookfiles", "BookFiles", Kind::Text),
    def(Id::EvalFile, "evalfile", "EvalFile", Kind::Text),
    def(Id::Idle, "idle", "", Kind::Combo(&LEVELS)),
    def(Id::Pruning, "pruning", "", Kind::Combo(&LEVELS)),
    def(Id::Knowledge, "knowledge", "", Kind::Combo(&LEVELS)),
    def(Id::Randomness, "randomness", "Randomness", Kind::Combo(&RANDOMNESS_NAMES)),
    def(Id::MultiPv, "multipv", "MultiPV", spin(1, 128)),
    def(Id::ShowWdl, "showwdl", "UCI_ShowWDL", Kind::Check),
    def(Id::MoveOverhead, "moveoverhead", "Move Overhead", spin(0, 5000)),
    def(Id::LimitStrength, "limitstrength", "UCI_LimitStrength", Kind::Check),
    def(Id::Elo, "elo", "UCI_Elo", spin(strength::MIN_ELO as u64, strength::MAX_ELO as u64)),
    def(Id::Skill, "skilllevel", "Skill Level", spin(0, strength::MAX_SKILL as u64)),
];

/// What a `setoption` asks the engine to do besides storing a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A value was stored.
    Set,
    /// `newgame` / `Clear Hash`: forget everything learnt.
    NewGame,
    /// The hash size changed.
    Resize,
    /// The debug flag changed.
    Debug(bool),
    /// The book files changed (each path is to be checked).
    BookFiles,
    /// The evaluation file changed (to be loaded, or the built-in one).
    EvalFile,
}

/// A `setoption` that was applied: its effect, and what the GUI should be
/// told when the value had to be changed to fit (a number out of range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub effect: Effect,
    pub note: Option<String>,
}

/// Why a `setoption` was not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    BadValue {
        name: String,
        value: String,
        want: &'static str,
    },
    /// A value Chariot understands but will not take.
    Refused {
        name: String,
        value: String,
        why: &'static str,
    },
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}' ignored"),
            OptionError::BadValue { name, value, want } => {
                write!(f, "option {name}: value '{value}' is not {want}; unchanged")
            }
            OptionError::Refused { name, value, why } => {
                write!(f, "option {name} {value} refused: {why}")
            }
        }
    }
}

/// Lower-case with spaces, underscores and dashes removed: `Move Overhead`,
/// `moveoverhead` and `move_overhead` all match.
fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn find(name: &str) -> Option<&'static Def> {
    let n = normalize(name);
    DEFS.iter().find(|d| {
        (!d.ucci.is_empty() && normalize(d.ucci) == n)
            || (!d.uci.is_empty() && normalize(d.uci) == n)
    })
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

impl Options {
    /// How a book move is chosen: the heaviest with `bestbookmove`, else
    /// by the randomness grade.
    pub fn book_pick(&self) -> BookPick {
        if self.bestbookmove {
            BookPick::Heaviest
        } else {
            self.randomness.book_pick()
        }
    }

    /// The strength level the options ask for (`None`: full strength).
    pub fn strength(&self) -> Option<Strength> {
        let small = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        Strength::from_options(self.limit_strength, small(self.elo), small(self.skill))
    }

    /// The `id` and `option` lines of the handshake, ending with `ucciok`/`uciok`.
    pub fn handshake(&self, dialect: Dialect) -> Vec<String> {
        let mut lines = vec![
            format!("id name {}", crate::engine_name()),
            "id copyright 2026 the Chariot developers".to_string(),
            "id author the Chariot developers".to_string(),
        ];
        if dialect == Dialect::Uci {
            lines.remove(1);
        }
        for d in &DEFS {
            let name = match dialect {
                Dialect::Ucci => d.ucci,
                Dialect::Uci => d.uci,
            };
            if name.is_empty() {
                continue;
            }
            let default = self.value_text(d);
            let body = match d.kind {
                Kind::Check => format!("type check default {default}"),
                Kind::Spin { min, max, auto } => match dialect {
                    Dialect::Ucci => format!("type spin min {min} max {max} default {default}"),
                    Dialect::Uci => {
                        let min = if auto.is_some() { 1 } else { min };
                        format!("type spin default {default} min {min} max {max}")
                    }
                },
                Kind::Combo(names) => {
                    // The default first: GUIs that mark no default (XBoard
                    // through uci2wb) send the first entry back.
                    let vars: Vec<String> = std::iter::once(default.as_str())
                        .chain(names.iter().copied().filter(|n| *n != default))
                        .map(|n| format!("var {n}"))
                        .collect();
                    format!("type combo default {default} {}", vars.join(" "))
                }
                Kind::Button => "type button".to_string(),
                Kind::Text => format!("type string default {default}"),
            };
            lines.push(match dialect {
                Dialect::Ucci => format!("option {name} {body}"),
                Dialect::Uci => format!("option name {name} {body}"),
            });
        }
        #[cfg(feature = "tune")]
        for t in crate::search::params::TUNABLES {
            let (name, value, min, max) =
                (t.name, crate::search::params::tunable(t.name), t.min, t.max);
            lines.push(match dialect {
                Dialect::Ucci => {
                    format!("option {name} type spin min {min} max {max} default {value}")
                }
                Dialect::Uci => {
                    format!("option name {name} type spin default {value} min {min} max {max}")
                }
            });
        }
        lines.push(
            match dialect {
                Dialect::Ucci => "ucciok",
                Dialect::Uci => "uciok",
            }
            .to_string(),
        );
        lines
    }

    fn value_text(&self, d: &Def) -> String {
        match d.id {
            Id::UseMillisec => self.usemillisec.to_string(),
            Id::Hash => self.hash_mb.to_string(),
            Id::Threads => self.threads.to_string(),
            Id::Ponder => self.ponder.to_string(),
            Id::Batch => self.batch.to_string(),
            Id::Debug => self.debug.to_string(),
            Id::UseBook => self.usebook.to_string(),
            Id::BestBookMove => self.bestbookmove.to_string(),
            Id::BookFiles if self.bookfiles.is_empty() => "<empty>".to_string(),
            Id::BookFiles => self.bookfiles.clone(),
            Id::EvalFile => self.evalfile.clone(),
            Id::Randomness => RANDOMNESS
                .iter()
                .find(|(_, r, _, _)| *r == self.randomness)
                .map_or("none", |(n, _, _, _)| n)
                .to_string(),
            Id::MultiPv => self.multipv.to_string(),
            Id::ShowWdl => self.show_wdl.to_string(),
            Id::MoveOverhead => self.move_overhead_ms.to_string(),
            Id::Promotion => "false".to_string(),
            Id::Idle => self.idle.name().to_string(),
            Id::Pruning => self.pruning.name().to_string(),
            Id::Knowledge => self.knowledge.name().to_string(),
            Id::LimitStrength => self.limit_strength.to_string(),
            Id::Elo => self.elo.to_string(),
            Id::Skill => self.skill.to_string(),
            Id::NewGame | Id::ClearHash => String::new(),
        }
    }

    /// Applies the words of a `setoption` line, in any of the forms
    /// `name X value Y`, `X Y` (UCCI) or `X` (buttons). A number out of range
    /// is brought into range and the note says so.
    pub fn set(&mut self, words: &[String]) -> Result<Applied, OptionError> {
        let (name, value) = if words
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case("name"))
        {
            let v = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
            let end = v.unwrap_or(words.len());
            let value = v.map(|i| words[i + 1..].join(" "));
            (words[1..end].join(" "), value)
        } else {
            // Keyword-less form: the longest run of leading words naming an option.
            let split = (1..=words.len())
                .rev()
                .find(|&n| find(&words[..n].join(" ")).is_some())
                .unwrap_or(1.min(words.len()));
            let value = (split < words.len()).then(|| words[split..].join(" "));
            (words[..split].join(" "), value)
        };
        let Some(def) = find(&name) else {
            #[cfg(feature = "tune")]
            if let Some(applied) = set_tunable(&name, value.as_deref()) {
                return applied;
            }
            return Err(OptionError::Unknown(xiangqi::types::truncate(&name)));
        };
        let value = value.unwrap_or_default();
        let bad = |want| OptionError::BadValue {
            name: name.clone(),
            value: xiangqi::types::truncate(&value),
            want,
        };
        let check = || parse_bool(&value).ok_or_else(|| bad("true or false"));
        let level = || Level::parse(&value).ok_or_else(|| bad("none, small, medium or large"));
        let mut note = None;
        let mut number = || -> Result<u64, OptionError> {
            let Kind::Spin { min, max, auto } = def.kind else {
                return Err(bad("a number"));
            };
            let x: f64 = value.trim().parse().map_err(|_| bad("a number"))?;
            if x.is_nan() {
                return Err(bad("a number"));
            }
            let (v, why) = fit_spin(x, min, max, auto);
            note = why.map(|why| {
                format!(
                    "option {name} {}: {why}; using {v}",
                    xiangqi::types::truncate(value.trim())
                )
            });
            Ok(v)
        };
        let effect = match def.id {
            Id::NewGame | Id::ClearHash => Effect::NewGame,
            Id::UseMillisec => {
                self.usemillisec = check()?;
                Effect::Set
            }
            Id::Ponder => {
                self.ponder = check()?;
                Effect::Set
            }
            Id::Batch => {
                self.batch = check()?;
                Effect::Set
            }
            Id::BestBookMove => {
                self.bestbookmove = check()?;
                Effect::Set
            }
            Id::UseBook => {
                self.usebook = check()?;
                Effect::Set
            }
            Id::ShowWdl => {
                self.show_wdl = check()?;
                Effect::Set
            }
            Id::Debug => {
                self.debug = check()?;
                Effect::Debug(self.debug)
            }
            Id::Hash => {
                self.hash_mb = number()?;
                Effect::Resize
            }
            Id::Threads => {
                self.threads = number()?;
                Effect::Set
            }
            Id::MultiPv => {
                self.multipv = number()?;
                Effect::Set
            }
            Id::MoveOverhead => {
                self.move_overhead_ms = number()?;
                Effect::Set
            }
            Id::Randomness => {
                let v = value.trim().to_ascii_lowercase();
                self.randomness = RANDOMNESS
                    .iter()
                    .find(|(n, _, _, _)| *n == v)
                    .map(|&(_, r, _, _)| r)
                    .ok_or_else(|| bad("none, tiny, small, medium, large or huge"))?;
                Effect::Set
            }
            Id::BookFiles => {
                let v = value.trim();
                self.bookfiles = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
                Effect::BookFiles
            }
            Id::EvalFile => {
                self.evalfile = value.trim().to_string();
                Effect::EvalFile
            }
            Id::Promotion => {
                if check()? {
                    return Err(OptionError::Refused {
                        name: name.clone(),
                        value: xiangqi::types::truncate(value.trim()),
                        why: "Chariot plays standard xiangqi only, where advisors and elephants \
                              never promote; promotion stays false",
                    });
                }
                Effect::Set
            }
            Id::Idle => {
                self.idle = level()?;
                Effect::Set
            }
            Id::Pruning => {
                self.pruning = level()?;
                Effect::Set
            }
            Id::Knowledge => {
                self.knowledge = level()?;
                Effect::Set
            }
            Id::LimitStrength => {
                self.limit_strength = check()?;
                Effect::Set
            }
            Id::Elo => {
                self.elo = number()?;
                if !self.limit_strength {
                    let other = partner(def, &name, Id::LimitStrength);
                    let said = note.take().unwrap_or_else(|| {
                        format!(
                            "option {name} {}: kept",
                            xiangqi::types::truncate(value.trim())
                        )
                    });
                    note = Some(format!("{said}; it changes nothing until {other} is true"));
                }
                Effect::Set
            }
            Id::Skill => {
                self.skill = number()?;
                if self.limit_strength {
                    let (limit, elo) = (
                        partner(def, &name, Id::LimitStrength),
                        partner(def, &name, Id::Elo),
                    );
                    let said = note.take().unwrap_or_else(|| {
                        format!(
                            "option {name} {}: kept",
                            xiangqi::types::truncate(value.trim())
                        )
                    });
                    note = Some(format!(
                        "{said}; it changes nothing while {limit} is true ({elo} sets the level)"
                    ));
                }
                Effect::Set
            }
        };
        Ok(Applied { effect, note })
    }
}

/// The name of option `other` in the spelling (UCCI's or UCI's) that
/// `name`, the name the client gave `def`, is in.
fn partner(def: &Def, name: &str, other: Id) -> &'static str {
    let uci = !def.uci.is_empty() && normalize(name) == normalize(def.uci);
    DEFS.iter()
        .find(|d| d.id == other)
        .map_or("", |d| if uci { d.uci } else { d.ucci })
}

/// Brings a spin value into `min..=max` (whole numbers; with `auto`, 0 stands
/// for it): the value, and why it differs from `x` if it does.
fn fit_spin(x: f64, min: u64, max: u64, auto: Option<u64>) -> (u64, Option<String>) {
    let v = x.trunc().clamp(min as f64, max as f64) as u64;
    let v = match auto {
        Some(auto) if v == 0 => auto,
        _ => v,
    };
    let why = if x < min as f64 || x > max as f64 {
        Some(format!("out of range ({min} to {max})"))
    } else if x.fract() != 0.0 {
        Some("not a whole number".to_string())
    } else if auto.is_some() && x == 0.0 {
        Some("0 lets the engine decide".to_string())
    } else {
        None
    };
    (v, why)
}

/// A tuning build's hidden option: the search tunable `name` set to
/// `value` (a number, rounded; brought into the tunable's range with a
/// note). `None` if no tunable has that name.
#[cfg(feature = "tune")]
fn set_tunable(name: &str, value: Option<&str>) -> Option<Result<Applied, OptionError>> {
    use crate::search::params;
    let t = params::TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))?;
    let text = value.unwrap_or_default().trim();
    let x = match text.parse::<f64>() {
        Ok(x) if x.is_finite() => x.round(),
        _ => {
            return Some(Err(OptionError::BadValue {
                name: t.name.to_string(),
                value: xiangqi::types::truncate(text),
                want: "a number",
            }))
        }
    };
    let asked = x.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
    let taken = params::set_tunable(t.name, asked)?;
    let note = (f64::from(taken) != x).then(|| {
        format!(
            "option {} {text} is out of range ({} to {}); using {taken}",
            t.name, t.min, t.max
        )
    });
    Some(Ok(Applied {
        effect: Effect::Set,
        note,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(o: &mut Options, line: &str) -> Result<Applied, OptionError> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        o.set(&words)
    }

    /// The effect of a `setoption` that needed no note.
    fn set(o: &mut Options, line: &str) -> Result<Effect, OptionError> {
        applied(o, line).map(|a| {
            assert_eq!(a.note, None, "{line}");
            a.effect
        })
    }

    /// The note of a `setoption` whose value had to be changed.
    fn note(o: &mut Options, line: &str) -> String {
        match applied(o, line) {
            Ok(Applied {
                note: Some(note), ..
            }) => note,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_form_sets_options() {
        let mut o = Options::default();
        assert_eq!(set(&mut o, "usemillisec false"), Ok(Effect::Set));
        assert!(!o.usemillisec);
        assert_eq!(set(&mut o, "name Move Overhead value 100"), Ok(Effect::Set));
        assert_eq!(o.move_overhead_ms, 100);
        assert_eq!(set(&mut o, "Move Overhead 7"), Ok(Effect::Set));
        assert_eq!(o.move_overhead_ms, 7);
        assert_eq!(set(&mut o, "hashsize 64"), Ok(Effect::Resize));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(set(&mut o, "newgame"), Ok(Effect::NewGame));
        assert_eq!(set(&mut o, "name Clear Hash"), Ok(Effect::NewGame));
        assert_eq!(set(&mut o, "randomness Small"), Ok(Effect::Set));
        assert_eq!(o.randomness, Randomness::Small);
        assert_eq!(
            o.randomness.book_pick(),
            BookPick::Weighted { percent: 100 }
        );
        assert_eq!(
            Randomness::None.book_pick(),
            BookPick::Weighted { percent: 100 }
        );
        assert_eq!(
            Randomness::Huge.book_pick(),
            BookPick::Weighted { percent: 25 }
        );
        assert!(!Options::default().bestbookmove);
        assert_eq!(set(&mut o, "bestbookmove true"), Ok(Effect::Set));
        assert!(o.bestbookmove);
        assert_eq!(o.book_pick(), BookPick::Heaviest);
        assert_eq!(
            Randomness::Medium.book_pick(),
            BookPick::Weighted { percent: 100 }
        );
        assert!(Options::default().usebook, "usebook is on by default");
        assert!(matches!(
            set(&mut o, "ponder maybe"),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            set(&mut o, "name Frobnicate value 3"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(set(&mut o, "debug on"), Ok(Effect::Debug(true)));
        assert_eq!(set(&mut o, "bookfiles a.obk;b.obk"), Ok(Effect::BookFiles));
        assert_eq!(o.bookfiles, "a.obk;b.obk");
        assert_eq!(set(&mut o, "bookfiles <empty>"), Ok(Effect::BookFiles));
        assert_eq!(o.bookfiles, "");
        assert!(!o.show_wdl, "UCI_ShowWDL is off by default");
        assert_eq!(set(&mut o, "name UCI_ShowWDL value true"), Ok(Effect::Set));
        assert!(o.show_wdl);
        assert_eq!(set(&mut o, "showwdl false"), Ok(Effect::Set));
        assert!(!o.show_wdl);
        assert!(matches!(
            set(&mut o, "showwdl perhaps"),
            Err(OptionError::BadValue { .. })
        ));
    }

    #[test]
    fn numbers_out_of_range_are_fitted_and_said() {
        let mut o = Options::default();
        let cases = [
            (
                "name Hash value 99999999",
                "option Hash 99999999: out of range (0 to 65536); using 65536",
            ),
            (
                "hashsize 0",
                "option hashsize 0: 0 lets the engine decide; using 16",
            ),
            (
                "threads 0",
                "option threads 0: 0 lets the engine decide; using 1",
            ),
            (
                "threads -2",
                "option threads -2: out of range (0 to 256); using 1",
            ),
            (
                "name MultiPV value 0",
                "option MultiPV 0: out of range (1 to 128); using 1",
            ),
            (
                "name MultiPV value -3",
                "option MultiPV -3: out of range (1 to 128); using 1",
            ),
            (
                "multipv 2.5",
                "option multipv 2.5: not a whole number; using 2",
            ),
            (
                "moveoverhead 1e9",
                "option moveoverhead 1e9: out of range (0 to 5000); using 5000",
            ),
        ];
        for (line, want) in cases {
            assert_eq!(note(&mut o, line), want);
        }
        assert_eq!(
            (o.hash_mb, o.threads, o.multipv, o.move_overhead_ms),
            (16, 1, 2, 5000)
        );
        assert!(matches!(
            set(&mut o, "hashsize nan"),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(set(&mut o, "hashsize 1"), Ok(Effect::Resize));
    }

    #[test]
    fn elephanteye_options() {
        let mut o = Options::default();
        // The league runner's `promotion false` is standard xiangqi: silent.
        assert_eq!(set(&mut o, "promotion false"), Ok(Effect::Set));
        assert_eq!(set(&mut o, "name promotion value off"), Ok(Effect::Set));
        let refused = set(&mut o, "promotion true").expect_err("refused");
        assert!(matches!(refused, OptionError::Refused { .. }));
        assert!(
            refused
                .to_string()
                .starts_with("option promotion true refused: Chariot plays standard xiangqi"),
            "{refused}"
        );
        assert!(matches!(
            set(&mut o, "promotion perhaps"),
            Err(OptionError::BadValue { .. })
        ));
        for grade in ["none", "small", "medium", "large"] {
            assert_eq!(set(&mut o, &format!("idle {grade}")), Ok(Effect::Set));
        }
        assert_eq!(o.idle, Level::Large);
        assert_eq!(set(&mut o, "pruning small"), Ok(Effect::Set));
        assert_eq!(set(&mut o, "name knowledge value None"), Ok(Effect::Set));
        assert_eq!((o.pruning, o.knowledge), (Level::Small, Level::None));
        assert!(matches!(
            set(&mut o, "pruning huge"),
            Err(OptionError::BadValue { .. })
        ));
        assert_eq!(o.pruning, Level::Small);
    }

    #[test]
    fn handshakes() {
        let o = Options::default();
        let ucci = o.handshake(Dialect::Ucci);
        assert_eq!(ucci[3], "option usemillisec type check default true");
        assert_eq!(ucci.last().map(String::as_str), Some("ucciok"));
        for line in [
            "option promotion type check default false",
            "option idle type combo default none var none var small var medium var large",
            "option pruning type combo default large var large var none var small var medium",
            "option knowledge type combo default large var large var none var small var medium",
            "option randomness type combo default none var none var tiny var small var medium var large var huge",
        ] {
            assert!(ucci.iter().any(|l| l == line), "{line} in {ucci:?}");
        }
        // Each combo lists its default first, whatever the value set.
        let mut low = Options::default();
        assert_eq!(set(&mut low, "pruning small"), Ok(Effect::Set));
        assert!(low.handshake(Dialect::Ucci).contains(
            &"option pruning type combo default small var small var none var medium var large"
                .to_string()
        ));
        for line in ucci.iter().chain(&o.handshake(Dialect::Uci)) {
            if let Some((_, rest)) = line.split_once(" type combo default ") {
                let words: Vec<&str> = rest.split(' ').collect();
                assert_eq!(words.get(1..3), Some(&["var", words[0]][..]), "{line}");
            }
        }
        assert!(ucci.contains(&"option showwdl type check default false".to_string()));
        let uci = o.handshake(Dialect::Uci);
        assert!(uci.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(uci.contains(&"option name UCI_ShowWDL type check default false".to_string()));
        for (dialect, lines) in [
            (
                &ucci,
                [
                    "option limitstrength type check default false",
                    "option elo type spin min 790 max 2980 default 1500",
                    "option skilllevel type spin min 0 max 20 default 20",
                ],
            ),
            (
                &uci,
                [
                    "option name UCI_LimitStrength type check default false",
                    "option name UCI_Elo type spin default 1500 min 790 max 2980",
                    "option name Skill Level type spin default 20 min 0 max 20",
                ],
            ),
        ] {
            for line in lines {
                assert!(dialect.iter().any(|l| l == line), "{line} in {dialect:?}");
            }
        }
        assert!(!uci
            .iter()
            .any(|l| l.contains("promotion") || l.contains("pruning")));
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
        let names: Vec<&str> = RANDOMNESS.iter().map(|(n, _, _, _)| *n).collect();
        assert_eq!(names, RANDOMNESS_NAMES);
        let levels: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(levels, LEVELS);
    }

    #[test]
    fn strength_options_in_both_spellings() {
        let mut o = Options::default();
        assert_eq!(o.strength(), None, "full strength by default");
        // UCI_Elo alone changes nothing, and says so in the spelling used.
        assert_eq!(
            note(&mut o, "name UCI_Elo value 1200"),
            "option UCI_Elo 1200: kept; it changes nothing until UCI_LimitStrength is true"
        );
        assert_eq!(
            note(&mut o, "elo 1300"),
            "option elo 1300: kept; it changes nothing until limitstrength is true"
        );
        assert_eq!(o.strength(), None);
        assert_eq!(
            set(&mut o, "name UCI_LimitStrength value true"),
            Ok(Effect::Set)
        );
        assert_eq!(o.strength(), Some(Strength::from_elo(1300)));
        // Both dialects' spellings name the same options.
        assert_eq!(set(&mut o, "limitstrength false"), Ok(Effect::Set));
        assert_eq!(set(&mut o, "name Skill Level value 3"), Ok(Effect::Set));
        assert_eq!(o.strength(), Strength::from_skill(3));
        assert_eq!(set(&mut o, "skilllevel 20"), Ok(Effect::Set));
        assert_eq!(o.strength(), None);
        assert_eq!(set(&mut o, "skill_level 0"), Ok(Effect::Set));
        assert_eq!(o.strength(), Strength::from_skill(0));
        // Out of range: brought into range, and said in one line.
        assert_eq!(
            set(&mut o, "name UCI_LimitStrength value on"),
            Ok(Effect::Set)
        );
        assert_eq!(
            note(&mut o, "name UCI_Elo value 5000"),
            "option UCI_Elo 5000: out of range (790 to 2980); using 2980"
        );
        assert_eq!(
            note(&mut o, "elo -1"),
            "option elo -1: out of range (790 to 2980); using 790"
        );
        assert_eq!(o.strength(), Some(Strength::from_elo(790)));
        // The skill level waits while UCI_LimitStrength rules.
        assert_eq!(
            note(&mut o, "name Skill Level value 25"),
            "option Skill Level 25: out of range (0 to 20); using 20; it changes nothing \
             while UCI_LimitStrength is true (UCI_Elo sets the level)"
        );
        assert_eq!(o.strength(), Some(Strength::from_elo(790)));
        assert_eq!(set(&mut o, "limitstrength false"), Ok(Effect::Set));
        assert_eq!(
            note(&mut o, "skilllevel -3"),
            "option skilllevel -3: out of range (0 to 20); using 0"
        );
        assert_eq!(o.strength(), Strength::from_skill(0));
        assert!(matches!(
            set(&mut o, "elo strong"),
            Err(OptionError::BadValue { .. })
        ));
    }
}
