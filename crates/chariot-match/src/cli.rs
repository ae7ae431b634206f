//! The command line of `chariot-match` (clap) and its translation into a
//! checked match configuration. Every mistake is reported in one line naming
//! the argument.

use super::adjudicate::{DrawRule, ResignRule};
use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::game::GameConfig;
use super::schedule::Format;
use super::shard::Shard;
use super::stats::{Sprt, SprtModel};
use clap::{ArgAction, ArgGroup, CommandFactory, FromArgMatches, Parser};
use std::path::PathBuf;
use std::time::Duration;

const ENGINE_HELP: &str = "An engine, as KEY=VALUE words: cmd=PATH (required), name=NAME, \
dir=DIR (working directory; a relative cmd with a slash is taken from there), args=\"A B\", \
arg=A, proto=ucci|uci (default ucci), ranks=0|1|auto (move text ranks; auto is 1-10 for UCI \
engines with a UCI_Variant option such as Fairy-Stockfish), depth=N or nodes=N (this engine's \
own limit per move, in place of the match's --depth or --nodes), tc=[MOVES/]BASE[+INC] (this \
engine's own clock, in place of the match's --tc: time odds), option.NAME=VALUE (repeatable; \
checked against the options the engine advertises). Give --engine once per engine.";

const EXAMPLES: &str = "Examples:
  chariot-match --engine cmd=target/release/chariot --engine cmd=/usr/games/fairy-stockfish \\
      name=fsf option.Skill_Level=0 --games 20 --tc 5+0.05 -j 2
  chariot-match --engine cmd=./new --engine cmd=./old --tc 10+0.1 -j 2 \\
      --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
  chariot-match --engine cmd=./new --engine cmd=./old --nodes 5000 --games 2000 --shard 3/8
  chariot-match merge match-*-of-8.results --pgn match.pgn    # the shards as one run

`chariot-match merge --help` tells more of merging; docs/CLUSTER.md of Slurm and GNU parallel.";

/// Engine-vs-engine matches for xiangqi engines speaking UCCI or UCI.
#[derive(Parser, Debug)]
#[command(
    name = "chariot-match",
    version,
    about = "Engine-vs-engine xiangqi matches: round robin or gauntlet, clocks, rules adjudication, PGN, Elo and SPRT",
    after_help = EXAMPLES,
    group(ArgGroup::new("limit").required(true).args(["tc", "st", "depth", "nodes"]))
)]
pub struct Cli {
    #[arg(long = "engine", short = 'e', value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append, required = true, help = ENGINE_HELP)]
    pub engine: Vec<String>,

    /// The `--engine` words grouped by occurrence (filled by `parse_args`).
    #[arg(skip)]
    pub engine_groups: Vec<Vec<String>>,

    /// Settings for every engine, applied before each engine's own.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    pub each: Vec<String>,

    /// Pairing: every engine against every other, or the first against the rest.
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    pub format: Format,

    /// Games per pairing; each opening is played twice, colours swapped
    /// [default: 2, or 100000 with --sprt].
    #[arg(long, short = 'g', value_name = "N")]
    pub games: Option<u32>,

    /// Opening file: a FEN or `startpos` per line, optionally followed by
    /// `moves m1 m2 ...` (ICCS, ranks 0-9); `#` comments [default: the
    /// bundled suite of balanced openings].
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,

    /// Play the openings in a random order (see --seed) instead of file order.
    #[arg(long)]
    pub shuffle: bool,

    /// Seed for --shuffle [default: from the clock].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Clock: base seconds plus increment per move (10+0.1, 1:30+1, 60), or
    /// MOVES/BASE for a base that comes again every MOVES moves (40/120).
    #[arg(long, value_name = "[MOVES/]BASE[+INC]")]
    pub tc: Option<String>,

    /// Fixed time per move, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub st: Option<String>,

    /// Fixed search depth per move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,

    /// Fixed node count per move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// Milliseconds an engine has to answer `stop` once its time is up; then
    /// it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub grace: u64,

    /// Under --depth/--nodes: seconds a move may take before the engine is
    /// stopped and, if still silent, counted as hung.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub hang_timeout: f64,

    /// Seconds an engine has to answer `ucci`/`uci` and `isready`.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub handshake_timeout: f64,

    /// Plies without a capture that draw the game (120: the 60-move rule).
    #[arg(long, value_name = "PLIES", default_value_t = xiangqi::rules::MOVE_LIMIT_PLIES)]
    pub move_limit: u32,

    /// Full moves (book moves included) after which a game is adjudicated a
    /// draw; 0 for no limit.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub maxmoves: u32,

    /// Resign adjudication: movecount=N score=CP [twosided=true]. A side whose
    /// score is at or below -CP for N consecutive moves loses.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub resign: Option<Vec<String>>,

    /// Draw adjudication: movenumber=N movecount=N score=CP. From move
    /// `movenumber` on, both scores within ±CP for `movecount` moves each.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub draw: Option<Vec<String>>,

    /// SPRT of the first engine against the second: elo0=E0 elo1=E1
    /// [alpha=0.05] [beta=0.05] [model=penta|tri] [stop=true|false]. Stops
    /// when it decides, unless stop=false: then all --games are played and
    /// the report gives the decision, the game it came at, and the LLR of
    /// all the games.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,

    /// Games played at once.
    #[arg(short = 'j', long = "concurrency", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,

    /// PGN file the games are appended to [default: match.pgn, or
    /// match-K-of-N.pgn for shard K/N].
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,

    /// Play only shard K of N of the match (its game pairs K, K+N, K+2N, ...)
    /// with the unsharded game numbers, openings, colours and seeds; merge
    /// the shards' result files with `chariot-match merge`. Under a Slurm
    /// array job the shard comes from SLURM_ARRAY_TASK_ID/_MIN/_COUNT when
    /// this is not given (--shard 1/1 plays the whole match there).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,

    /// Result file: the match's settings, then every finished game with its
    /// PGN. An existing file of the same shard and match is resumed: only
    /// its missing games are played [default with a shard:
    /// match-K-of-N.results; none otherwise].
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,

    /// PGN Event tag.
    #[arg(long, default_value = "Chariot match")]
    pub event: String,

    /// PGN Site tag [default: the host name].
    #[arg(long)]
    pub site: Option<String>,
}

/// A checked match configuration.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub games_per_pairing: u32,
    pub openings: Option<PathBuf>,
    pub shuffle: Option<u64>,
    pub game: GameConfig,
    pub sprt: Option<Sprt>,
    /// Whether the match ends when the SPRT decides (`--sprt … stop=false`
    /// plays all the games).
    pub sprt_stops: bool,
    pub concurrency: usize,
    pub pgn: PathBuf,
    pub event: String,
    pub site: String,
    /// The share of the match this run plays (`Shard::WHOLE` for all).
    pub shard: Shard,
    /// Where the results are kept and resumed from, if anywhere.
    pub results: Option<PathBuf>,
}

/// Splits `key=value` words into pairs, rejecting unknown keys.
fn key_values<'a>(
    what: &str,
    words: &'a [String],
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if keys.contains(&k) => Ok((k, v)),
            Some((k, _)) => Err(format!(
                "{what}: unknown key '{k}' (expected {})",
                keys.join(", ")
            )),
            None => Err(format!("{what}: '{w}' is not KEY=VALUE")),
        })
        .collect()
}

fn number<T: std::str::FromStr>(what: &str, key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{what}: {key}={v} is not a valid number"))
}

fn boolean(what: &str, key: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("{what}: {key}={v}: expected true or false")),
    }
}

/// Reads `--resign`'s words: `movecount=N score=CP [twosided=true]`.
pub fn parse_resign(words: &[String]) -> Result<ResignRule, String> {
    let mut rule = ResignRule {
        movecount: 0,
        score: 0,
        twosided: false,
    };
    for (k, v) in key_values("--resign", words, &["movecount", "score", "twosided"])? {
        match k {
            "movecount" => rule.movecount = number("--resign", k, v)?,
            "score" => rule.score = number("--resign", k, v)?,
            _ => rule.twosided = boolean("--resign", k, v)?,
        }
    }
    if rule.movecount == 0 || rule.score <= 0 {
        return Err("--resign needs movecount=N and score=CP, both positive".to_string());
    }
    Ok(rule)
}

/// Reads `--draw`'s words: `[movenumber=N] movecount=N score=CP`.
pub fn parse_draw(words: &[String]) -> Result<DrawRule, String> {
    let mut rule = DrawRule {
        movenumber: 0,
        movecount: 0,
        score: -1,
    };
    for (k, v) in key_values("--draw", words, &["movenumber", "movecount", "score"])? {
        match k {
            "movenumber" => rule.movenumber = number("--draw", k, v)?,
            "movecount" => rule.movecount = number("--draw", k, v)?,
            _ => rule.score = number("--draw", k, v)?,
        }
    }
    if rule.movecount == 0 || rule.score < 0 {
        return Err("--draw needs movecount=N (positive) and score=CP (0 or more); movenumber=N is optional".to_string());
    }
    Ok(rule)
}

/// The SPRT and whether it stops the match.
pub fn parse_sprt(words: &[String]) -> Result<(Sprt, bool), String> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = SprtModel::Pentanomial;
    let mut stops = true;
    let keys = ["elo0", "elo1", "alpha", "beta", "model", "stop"];
    for (k, v) in key_values("--sprt", words, &keys)? {
        match k {
            "stop" => stops = boolean("--sprt", k, v)?,
            "elo0" => elo0 = Some(number::<f64>("--sprt", k, v)?),
            "elo1" => elo1 = Some(number::<f64>("--sprt", k, v)?),
            "alpha" => alpha = number("--sprt", k, v)?,
            "beta" => beta = number("--sprt", k, v)?,
            _ => {
                model = match v {
                    "penta" | "pentanomial" => SprtModel::Pentanomial,
                    "tri" | "trinomial" => SprtModel::Trinomial,
                    _ => return Err(format!("--sprt: model={v}: expected penta or tri")),
                }
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0=… and elo1=…".to_string());
    };
    let sprt = Sprt::new(elo0, elo1, alpha, beta, model).map_err(|e| format!("--sprt: {e}"))?;
    Ok((sprt, stops))
}

fn seconds(what: &str, s: f64) -> Result<Duration, String> {
    if s.is_finite() && s > 0.0 && s <= 86_400.0 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "{what} must be a positive number of seconds up to a day (got {s})"
        ))
    }
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

impl Cli {
    /// Parses the command line (the first item is the program name), keeping
    /// each `--engine`'s words together.
    pub fn parse_args<I, T>(argv: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(argv)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        cli.engine_groups = matches
            .get_occurrences::<String>("engine")
            .map(|groups| groups.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(cli)
    }

    /// Checks everything that can be checked without starting an engine;
    /// the shard comes from `--shard` or else from Slurm's variables.
    pub fn into_config(self) -> Result<MatchConfig, String> {
        self.into_config_with_env(|name| std::env::var(name).ok())
    }

    /// `into_config` with the environment given by `env`.
    pub fn into_config_with_env(
        self,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<MatchConfig, String> {
        let shard = match self.shard {
            Some(s) => Some(s),
            None => {
                let s = Shard::from_slurm(&env)?;
                if let Some(s) = s {
                    log::info!(
                        "shard {s} from the Slurm array: SLURM_ARRAY_TASK_ID={} SLURM_ARRAY_TASK_MIN={} SLURM_ARRAY_TASK_COUNT={} (K = ID - MIN + 1, N = COUNT)",
                        env("SLURM_ARRAY_TASK_ID").unwrap_or_default(),
                        env("SLURM_ARRAY_TASK_MIN").unwrap_or_default(),
                        env("SLURM_ARRAY_TASK_COUNT").unwrap_or_default()
                    );
                }
                s
            }
        };
        let engines = self
            .engine_groups
            .iter()
            .enumerate()
            .map(|(i, words)| {
                EngineSpec::parse(words, &self.each)
                    .map_err(|e| format!("--engine #{}: {e}", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if engines.len() < 2 {
            return Err("a match needs at least two --engine".to_string());
        }
        let tc = match (&self.tc, &self.st, self.depth, self.nodes) {
            (Some(tc), ..) => TimeControl::parse_clock(tc).map_err(|e| format!("--tc: {e}"))?,
            (_, Some(st), ..) => {
                TimeControl::parse_movetime(st).map_err(|e| format!("--st: {e}"))?
            }
            (_, _, Some(d), _) => TimeControl::Depth(d),
            (_, _, _, Some(n)) => TimeControl::Nodes(n),
            _ => return Err("give one of --tc, --st, --depth or --nodes".to_string()),
        };
        for (i, e) in engines.iter().enumerate() {
            match (tc, e.limit) {
                (
                    TimeControl::Clock { .. } | TimeControl::MoveTime(_),
                    Some(TimeControl::Depth(_) | TimeControl::Nodes(_)),
                ) => {
                    return Err(format!(
                        "--engine #{}: depth=/nodes= replaces a per-move limit: give the match \
                         --depth or --nodes, not a clock",
                        i + 1
                    ))
                }
                (
                    TimeControl::MoveTime(_) | TimeControl::Depth(_) | TimeControl::Nodes(_),
                    Some(TimeControl::Clock { .. }),
                ) => {
                    return Err(format!(
                        "--engine #{}: tc= replaces the match's clock: give the match --tc",
                        i + 1
                    ))
                }
                _ => {}
            }
        }
        let parsed = self.sprt.as_deref().map(parse_sprt).transpose()?;
        let sprt = parsed.map(|(sprt, _)| sprt);
        let mut sprt_stops = parsed.is_none_or(|(_, stops)| stops);
        if !sprt_stops && self.games.is_none() {
            return Err("--sprt … stop=false plays every game: give --games".to_string());
        }
        if let Some(s) = shard {
            if sprt.is_some() && self.games.is_none() {
                return Err(format!(
                    "shard {s} of an SPRT plays all its games (the test is decided on the merged shards): give --games"
                ));
            }
            if self.shuffle && self.seed.is_none() {
                return Err(format!(
                    "shard {s}: --shuffle needs --seed, so that every shard shuffles alike"
                ));
            }
            // One shard cannot see the others' games.
            sprt_stops = false;
        }
        if sprt.is_some() && engines.len() != 2 {
            return Err(format!(
                "--sprt compares exactly two engines ({} given)",
                engines.len()
            ));
        }
        let games_per_pairing = self
            .games
            .unwrap_or(if sprt.is_some() { 100_000 } else { 2 });
        if games_per_pairing == 0 {
            return Err("--games must be at least 1".to_string());
        }
        if self.grace > 60_000 {
            return Err(format!("--grace {} ms is more than a minute", self.grace));
        }
        if self.move_limit == 0 {
            return Err("--move-limit must be at least 1 ply".to_string());
        }
        let game = GameConfig {
            tc,
            grace: Duration::from_millis(self.grace),
            hang_timeout: seconds("--hang-timeout", self.hang_timeout)?,
            ready_timeout: seconds("--handshake-timeout", self.handshake_timeout)?,
            move_limit_plies: self.move_limit,
            max_plies: (self.maxmoves > 0).then(|| self.maxmoves.saturating_mul(2)),
            resign: self.resign.as_deref().map(parse_resign).transpose()?,
            draw: self.draw.as_deref().map(parse_draw).transpose()?,
        };
        let shuffle = self.shuffle.then(|| {
            self.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(0)
            })
        });
        Ok(MatchConfig {
            engines,
            format: self.format,
            games_per_pairing,
            openings: self.openings,
            shuffle,
            game,
            sprt,
            sprt_stops,
            concurrency: usize::from(self.concurrency),
            pgn: self.pgn.unwrap_or_else(|| match shard {
                Some(s) => PathBuf::from(format!("match-{}-of-{}.pgn", s.k, s.n)),
                None => PathBuf::from("match.pgn"),
            }),
            event: self.event,
            site: self.site.unwrap_or_else(host_name),
            shard: shard.unwrap_or(Shard::WHOLE),
            results: self.results.or_else(|| {
                shard.map(|s| PathBuf::from(format!("match-{}-of-{}.results", s.k, s.n)))
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &str) -> Result<MatchConfig, String> {
        parse_env(args, &[])
    }

    fn parse_env(args: &str, vars: &[(&str, &str)]) -> Result<MatchConfig, String> {
        let argv = std::iter::once("chariot-match").chain(args.split_whitespace());
        Cli::parse_args(argv)
            .map_err(|e| e.to_string())?
            .into_config_with_env(|name| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            })
    }

    #[test]
    fn shards_from_the_command_line_or_slurm() {
        let c = parse("-e cmd=a -e cmd=b --nodes 100").unwrap();
        assert_eq!(
            (c.shard, c.results, c.pgn),
            (Shard::WHOLE, None, PathBuf::from("match.pgn"))
        );
        let c = parse("-e cmd=a -e cmd=b --nodes 100 --shard 2/4").unwrap();
        assert_eq!(c.shard, Shard { k: 2, n: 4 });
        assert_eq!(c.results, Some(PathBuf::from("match-2-of-4.results")));
        assert_eq!(c.pgn, PathBuf::from("match-2-of-4.pgn"));
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        let c = parse_env("-e cmd=a -e cmd=b --nodes 100 --results r.txt", &slurm).unwrap();
        assert_eq!(c.shard, Shard { k: 1, n: 3 });
        assert_eq!(c.results, Some(PathBuf::from("r.txt")));
        // --shard wins over Slurm's variables.
        let c = parse_env("-e cmd=a -e cmd=b --nodes 100 --shard 1/1", &slurm).unwrap();
        assert_eq!(c.shard, Shard::WHOLE);
        // A sharded SPRT never stops a shard.
        let c = parse("-e cmd=a -e cmd=b --nodes 100 --shard 1/2 --games 8 --sprt elo0=0 elo1=5")
            .unwrap();
        assert!(!c.sprt_stops);
        for (args, needle) in [
            ("--shard 0/2", "must be K/N"),
            ("--shard 1/2 --sprt elo0=0 elo1=5", "give --games"),
            ("--shard 1/2 --shuffle", "--shuffle needs --seed"),
        ] {
            let e = parse(&format!("-e cmd=a -e cmd=b --nodes 100 {args}")).unwrap_err();
            assert!(e.contains(needle), "{args}: {e}");
        }
    }

    #[test]
    fn a_full_command_line() {
        let c = parse(
            "--engine cmd=/bin/a name=A option.Hash=16 --engine cmd=/bin/b proto=uci \
             --each option.Threads=1 --format gauntlet --games 6 --tc 2+0.05 -j 2 \
             --resign movecount=3 score=600 --draw movenumber=30 movecount=5 score=8 \
             --maxmoves 150 --pgn /tmp/x.pgn --shuffle --seed 7",
        )
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(
            c.engines[0].options,
            vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())]
        );
        assert_eq!(c.format, Format::Gauntlet);
        assert_eq!(c.games_per_pairing, 6);
        assert_eq!(
            c.game.tc,
            TimeControl::Clock {
                base_ms: 2000,
                inc_ms: 50,
                moves: 0
            }
        );
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.game.max_plies, Some(300));
        assert_eq!(
            c.game.resign.map(|r| (r.movecount, r.score, r.twosided)),
            Some((3, 600, false))
        );
        assert_eq!(
            c.game.draw.map(|d| (d.movenumber, d.movecount, d.score)),
            Some((30, 5, 8))
        );
        assert_eq!(c.shuffle, Some(7));
        assert!(c.sprt.is_none());
    }

    #[test]
    fn limits_and_sprt() {
        let c = parse("-e cmd=a -e cmd=b --depth 3 --sprt elo0=0 elo1=5 model=tri").unwrap();
        assert_eq!(c.game.tc, TimeControl::Depth(3));
        assert_eq!(c.games_per_pairing, 100_000);
        let s = c.sprt.unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.beta, s.model),
            (0.0, 5.0, 0.05, 0.05, SprtModel::Trinomial)
        );
        let c = parse("-e cmd=a -e cmd=b --st 0.2 --maxmoves 0").unwrap();
        assert_eq!(c.game.tc, TimeControl::MoveTime(200));
        assert_eq!(c.game.max_plies, None);
        assert_eq!(
            parse("-e cmd=a -e cmd=b --nodes 500").unwrap().game.tc,
            TimeControl::Nodes(500)
        );
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        for (args, needle) in [
            ("-e cmd=a --tc 1", "at least two"),
            ("-e cmd=a -e cmd=b", "--tc"),
            ("-e cmd=a -e cmd=b --tc 1 --depth 3", "cannot be used with"),
            ("-e cmd=a -e cmd=b --tc fast", "--tc"),
            (
                "-e cmd=a -e name=b --tc 1",
                "--engine #2: engine without cmd",
            ),
            (
                "-e cmd=a -e cmd=b foo=1 --tc 1",
                "unknown engine setting 'foo'",
            ),
            ("-e cmd=a -e cmd=b --tc 1 --games 0", "--games"),
            ("-e cmd=a -e cmd=b --tc 1 -j 0", "0"),
            (
                "-e cmd=a -e cmd=b --tc 1 --resign score=600",
                "--resign needs",
            ),
            (
                "-e cmd=a -e cmd=b --tc 1 --resign movecount=x score=1",
                "not a valid number",
            ),
            (
                "-e cmd=a -e cmd=b --tc 1 --draw movecount=3 margin=2",
                "unknown key 'margin'",
            ),
            (
                "-e cmd=a -e cmd=b --tc 1 --sprt elo0=5 elo1=0",
                "elo0 < elo1",
            ),
            ("-e cmd=a -e cmd=b --tc 1 --sprt elo1=5", "needs elo0"),
            (
                "-e cmd=a -e cmd=b --tc 1 --sprt elo0=0 elo1=5 stop=false",
                "give --games",
            ),
            (
                "-e cmd=a -e cmd=b --tc 1 --sprt elo0=0 elo1=5 stop=maybe",
                "stop=maybe: expected true or false",
            ),
            (
                "-e cmd=a -e cmd=b -e cmd=c --tc 1 --sprt elo0=0 elo1=5",
                "exactly two",
            ),
            (
                "-e cmd=a -e cmd=b --tc 1 --hang-timeout 0",
                "--hang-timeout",
            ),
            ("-e cmd=a -e cmd=b --tc 1 --format swiss", "swiss"),
            ("-e cmd=a -e cmd=b --depth 0", "0"),
        ] {
            match parse(args) {
                Ok(_) => panic!("accepted: {args}"),
                Err(e) => assert!(e.contains(needle), "{args}: {e}"),
            }
        }
    }
}
