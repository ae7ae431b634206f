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

#[derive(Clone, Copy)]
enum Kind {
    Check,
    Spin { min: u64, max: u64 },
    Combo,
    Button,
    Text,
}

/// One option: UCCI name, UCI name, kind.
struct Def {
    ucci: &'static str,
    uci: &'static str,
    kind: Kind,
}

const DEFS: [Def; 13] = [
    Def {
        ucci: "usemillisec",
        uci: "",
        kind: Kind::Check,
    },
    Def {
        ucci: "hashsize",
        uci: "Hash",
        kind: Kind::Spin { min: 0, max: 65536 },
    },
    Def {
        ucci: "threads",
        uci: "Threads",
        kind: Kind::Spin { min: 0, max: 256 },
    },
    Def {
        ucci: "ponder",
        uci: "Ponder",
        kind: Kind::Check,
    },
    Def {
        ucci: "batch",
        uci: "",
        kind: Kind::Check,
    },
    Def {
        ucci: "debug",
        uci: "",
        kind: Kind::Check,
    },
    Def {
        ucci: "newgame",
        uci: "",
        kind: Kind::Button,
    },
    Def {
        ucci: "",
        uci: "Clear Hash",
        kind: Kind::Button,
    },
    Def {
        ucci: "usebook",
        uci: "UseBook",
        kind: Kind::Check,
    },
    Def {
        ucci: "bookfiles",
        uci: "BookFiles",
        kind: Kind::Text,
    },
    Def {
        ucci: "randomness",
        uci: "Randomness",
        kind: Kind::Combo,
    },
    Def {
        ucci: "multipv",
        uci: "MultiPV",
        kind: Kind::Spin { min: 1, max: 128 },
    },
    Def {
        ucci: "moveoverhead",
        uci: "Move Overhead",
        kind: Kind::Spin { min: 0, max: 5000 },
    },
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
                Kind::Spin { min, max } => match dialect {
                    Dialect::Ucci => format!("type spin min {min} max {max} default {default}"),
                    // UCCI's 0 = "engine decides" has no UCI equivalent.
                    Dialect::Uci => {
                        let min = if d.ucci == "hashsize" || d.ucci == "threads" {
                            1
                        } else {
                            min
                        };
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
        match d.ucci {
            "usemillisec" => self.usemillisec.to_string(),
            "hashsize" => self.hash_mb.to_string(),
            "threads" => self.threads.to_string(),
            "ponder" => self.ponder.to_string(),
            "batch" => self.batch.to_string(),
            "debug" => self.debug.to_string(),
            "usebook" => self.usebook.to_string(),
            "bookfiles" => {
                if self.bookfiles.is_empty() {
                    "<empty>".to_string()
                } else {
                    self.bookfiles.clone()
                }
            }
            "randomness" => RANDOMNESS
                .iter()
                .find(|(_, r, _)| *r == self.randomness)
                .map_or("none", |(n, _, _)| n)
                .to_string(),
            "multipv" => self.multipv.to_string(),
            "moveoverhead" => self.move_overhead_ms.to_string(),
            _ => String::new(),
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
            return Err(OptionError::Unknown(crate::types::truncate(&name)));
        };
        let value = value.unwrap_or_default();
        let bad = |want| OptionError::BadValue {
            name: name.clone(),
            value: crate::types::truncate(&value),
            want,
        };
        match def.kind {
            Kind::Button => {
                return Ok(Effect::NewGame);
            }
            Kind::Check => {
                let b = parse_bool(&value).ok_or_else(|| bad("true or false"))?;
                match def.ucci {
                    "usemillisec" => self.usemillisec = b,
                    "ponder" => self.ponder = b,
                    "batch" => self.batch = b,
                    "usebook" => self.usebook = b,
                    _ => {
                        self.debug = b;
                        return Ok(Effect::Debug(b));
                    }
                }
            }
            Kind::Spin { min, max } => {
                let x: f64 = value.trim().parse().map_err(|_| bad("a number"))?;
                if x.is_nan() {
                    return Err(bad("a number"));
                }
                let v = (x.max(0.0).min(u64::MAX as f64) as u64).clamp(min, max);
                match def.ucci {
                    "hashsize" => {
                        // 0 means "engine decides".
                        self.hash_mb = if v == 0 { DEFAULT_HASH_MB } else { v };
                        return Ok(Effect::Resize);
                    }
                    "threads" => self.threads = v.max(1),
                    "multipv" => self.multipv = v,
                    _ => self.move_overhead_ms = v,
                }
            }
            Kind::Combo => {
                let v = value.trim().to_ascii_lowercase();
                self.randomness = RANDOMNESS
                    .iter()
                    .find(|(n, _, _)| *n == v)
                    .map(|&(_, r, _)| r)
                    .ok_or_else(|| bad("none, tiny, small, medium, large or huge"))?;
            }
            Kind::Text => {
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
