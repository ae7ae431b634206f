//! Engine options: their table (UCCI and UCI spellings), the handshake lines,
//! and `setoption` in all the forms real clients send.

use super::command::Dialect;

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

const RANDOMNESS: [(&str, Randomness, i32); 6] = [
    ("none", Randomness::None, 0),
    ("tiny", Randomness::Tiny, 4),
    ("small", Randomness::Small, 10),
    ("medium", Randomness::Medium, 20),
    ("large", Randomness::Large, 40),
    ("huge", Randomness::Huge, 80),
];

impl Randomness {
    /// Centipawns within the best score a move may be picked at random.
    pub fn margin(self) -> i32 {
        RANDOMNESS
            .iter()
            .find(|(_, r, _)| *r == self)
            .map_or(0, |&(_, _, m)| m)
    }
}

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
    pub bookfiles: String,
    pub randomness: Randomness,
    pub multipv: u64,
    pub move_overhead_ms: u64,
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
            usebook: false,
            bookfiles: String::new(),
            randomness: Randomness::None,
            multipv: 1,
            move_overhead_ms: 30,
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
    BookFiles,
    Randomness,
    MultiPv,
    MoveOverhead,
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
    Combo,
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

#[rustfmt::skip]
const DEFS: [Def; 13] = [
    def(Id::UseMillisec, "usemillisec", "", Kind::Check),
    def(Id::Hash, "hashsize", "Hash", Kind::Spin { min: 0, max: 65536, auto: Some(DEFAULT_HASH_MB) }),
    def(Id::Threads, "threads", "Threads", Kind::Spin { min: 0, max: 256, auto: Some(1) }),
    def(Id::Ponder, "ponder", "Ponder", Kind::Check),
    def(Id::Batch, "batch", "", Kind::Check),
    def(Id::Debug, "debug", "", Kind::Check),
    def(Id::NewGame, "newgame", "", Kind::Button),
    def(Id::ClearHash, "", "Clear Hash", Kind::Button),
    def(Id::UseBook, "usebook", "UseBook", Kind::Check),
    def(Id::BookFiles, "bookfiles", "BookFiles", Kind::Text),
    def(Id::Randomness, "randomness", "Randomness", Kind::Combo),
    def(Id::MultiPv, "multipv", "MultiPV", spin(1, 128)),
    def(Id::MoveOverhead, "moveoverhead", "Move Overhead", spin(0, 5000)),
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
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}' ignored"),
            OptionError::BadValue { name, value, want } => {
                write!(f, "option {name}: value '{value}' is not {want}; unchanged")
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
    /// The `id` and `option` lines of the handshake, ending with `ucciok`/`uciok`.
    pub fn handshake(&self, dialect: Dialect) -> Vec<String> {
        let mut lines = vec![
            format!("id name {}", crate::ENGINE_NAME),
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
                Kind::Combo => {
                    let vars: Vec<String> = RANDOMNESS
                        .iter()
                        .map(|(n, _, _)| format!("var {n}"))
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
            Id::BookFiles if self.bookfiles.is_empty() => "<empty>".to_string(),
            Id::BookFiles => self.bookfiles.clone(),
            Id::Randomness => RANDOMNESS
                .iter()
                .find(|(_, r, _)| *r == self.randomness)
                .map_or("none", |(n, _, _)| n)
                .to_string(),
            Id::MultiPv => self.multipv.to_string(),
            Id::MoveOverhead => self.move_overhead_ms.to_string(),
            Id::NewGame | Id::ClearHash => String::new(),
        }
    }

    /// Applies the words of a `setoption` line, in any of the forms
    /// `name X value Y`, `X Y` (UCCI) or `X` (buttons).
    pub fn set(&mut self, words: &[String]) -> Result<Effect, OptionError> {
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
            return Err(OptionError::Unknown(xiangqi::types::truncate(&name)));
        };
        let value = value.unwrap_or_default();
        let bad = |want| OptionError::BadValue {
            name: name.clone(),
            value: xiangqi::types::truncate(&value),
            want,
        };
        let check = || parse_bool(&value).ok_or_else(|| bad("true or false"));
        let number = || -> Result<u64, OptionError> {
            let Kind::Spin { min, max, auto } = def.kind else {
                return Err(bad("a number"));
            };
            let x: f64 = value.trim().parse().map_err(|_| bad("a number"))?;
            if x.is_nan() {
                return Err(bad("a number"));
            }
            let v = (x.max(0.0).min(u64::MAX as f64) as u64).clamp(min, max);
            Ok(match auto {
                Some(auto) if v == 0 => auto,
                _ => v,
            })
        };
        match def.id {
            Id::NewGame | Id::ClearHash => return Ok(Effect::NewGame),
            Id::UseMillisec => self.usemillisec = check()?,
            Id::Ponder => self.ponder = check()?,
            Id::Batch => self.batch = check()?,
            Id::UseBook => self.usebook = check()?,
            Id::Debug => {
                self.debug = check()?;
                return Ok(Effect::Debug(self.debug));
            }
            Id::Hash => {
                self.hash_mb = number()?;
                return Ok(Effect::Resize);
            }
            Id::Threads => self.threads = number()?,
            Id::MultiPv => self.multipv = number()?,
            Id::MoveOverhead => self.move_overhead_ms = number()?,
            Id::Randomness => {
                let v = value.trim().to_ascii_lowercase();
                self.randomness = RANDOMNESS
                    .iter()
                    .find(|(n, _, _)| *n == v)
                    .map(|&(_, r, _)| r)
                    .ok_or_else(|| bad("none, tiny, small, medium, large or huge"))?;
            }
            Id::BookFiles => {
                let v = value.trim();
                self.bookfiles = if v == "<empty>" {
                    String::new()
                } else {
                    v.to_string()
                };
            }
        }
        Ok(Effect::Set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(o: &mut Options, line: &str) -> Result<Effect, OptionError> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        o.set(&words)
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
        assert_eq!(set(&mut o, "name Hash value 99999999"), Ok(Effect::Resize));
        assert_eq!(o.hash_mb, 65536);
        assert_eq!(set(&mut o, "newgame"), Ok(Effect::NewGame));
        assert_eq!(set(&mut o, "name Clear Hash"), Ok(Effect::NewGame));
        assert_eq!(set(&mut o, "randomness Small"), Ok(Effect::Set));
        assert_eq!(o.randomness, Randomness::Small);
        assert_eq!(set(&mut o, "name MultiPV value -3"), Ok(Effect::Set));
        assert_eq!(o.multipv, 1);
        assert!(matches!(
            set(&mut o, "ponder maybe"),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            set(&mut o, "name Frobnicate value 3"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(set(&mut o, "debug on"), Ok(Effect::Debug(true)));
    }

    #[test]
    fn handshakes() {
        let o = Options::default();
        let ucci = o.handshake(Dialect::Ucci);
        assert_eq!(ucci[3], "option usemillisec type check default true");
        assert_eq!(ucci.last().map(String::as_str), Some("ucciok"));
        let uci = o.handshake(Dialect::Uci);
        assert!(uci.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
    }
}
