//! The self-play data set's manifest (`data/manifest.toml`, tracked in the
//! repository): every shard of the set, how to make it again, and what it
//! holds, so that a lost cache costs CPU, never a generation.
//!
//! A shard is one datagen run, or one `--shard K/N` piece of a run, made by
//! one build. It is named by what made it:
//!
//! ```text
//! <net>-<rev>-s<seed>-n<nodes>-g<games>-k<K>of<N>.cxgd
//! d738824c3562-9af9af5a1b2c-s9-n5000-g64000-k03of32.cxgd
//! ```
//!
//! `net` is the first 12 hex digits of the hash of the net both sides
//! played with (`classical` for the classical evaluation), `rev` the first
//! 12 of the commit of the chariot-tools build that played (the search is
//! part of the data), `games` the run's games (all shards together). Each
//! entry keeps the datagen arguments that make it, verbatim, and the
//! shard's games, training positions, bytes and SHA-256.
//!
//! The file on disk is in canonical form: chunks of [`CHUNK_GAMES`] games
//! from the shard's first game on, as one uninterrupted datagen run writes
//! it. A run that was stopped and resumed writes the same games in other
//! chunks; [`canonical`] rewrites them, so the checksum is the games'.

use crate::datagen::{count_quiet, CHUNK_GAMES};
use crate::gamefile::{self, RunId};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The commit this build was made from (build.rs): 40 hex digits; with
/// `+<hash>` after it when the build's files differed from that commit;
/// `unknown` outside git.
pub const REV: &str = env!("CHARIOT_TOOLS_REV");

/// The net id of the classical evaluation.
pub const CLASSICAL: &str = "classical";

/// Whether `rev` names a commit (and so a build anyone can make again).
pub fn is_commit(rev: &str) -> bool {
    rev.len() == 40
        && rev
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// A rev as shard names carry it: 12 digits of the commit, and the
/// difference's hash after `+` for a build with uncommitted changes.
pub fn short_rev(rev: &str) -> String {
    match rev.split_once('+') {
        Some((commit, change)) if is_commit(commit) => format!("{}+{change}", &commit[..12]),
        _ if is_commit(rev) => rev[..12].to_string(),
        _ => rev.to_string(),
    }
}

/// Whether shards made by a build of `rev` may be recorded: a commit
/// always; a build with uncommitted changes only when the caller allows it
/// (then only that very build remakes them); `unknown` never.
pub fn may_record(rev: &str, allow_dirty: bool) -> Result<()> {
    if is_commit(rev) {
        return Ok(());
    }
    if allow_dirty && rev.split_once('+').is_some_and(|(c, _)| is_commit(c)) {
        return Ok(());
    }
    if rev.contains('+') {
        bail!(
            "this build ({}) has uncommitted changes, so its shards could not be made again: commit first and rebuild (or --allow-dirty, for shards only this build remakes)",
            short_rev(rev)
        );
    }
    bail!("this build does not know its commit (rev '{rev}': built outside git?), so its shards could not be made again")
}

/// One datagen run (or one shard of one), as its arguments say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Games in the whole run.
    pub games: u64,
    pub nodes: u32,
    pub seed: u64,
    /// 1-based shard index and shard count.
    pub shard: (u16, u16),
    /// `<built-in>`, `<classical>` or a net file's path, as given.
    pub evalfile: String,
}

/// The flags a manifest's `args` hold, each once: exactly what sets the
/// games. `--threads` and `--out` do not change the data and are the
/// maker's (sync's) own.
const FLAGS: [&str; 5] = ["--games", "--nodes", "--seed", "--shard", "--evalfile"];

impl Run {
    /// The datagen arguments that make it.
    pub fn args(&self) -> Vec<String> {
        [
            ("--games", self.games.to_string()),
            ("--nodes", self.nodes.to_string()),
            ("--seed", self.seed.to_string()),
            ("--shard", format!("{}/{}", self.shard.0, self.shard.1)),
            ("--evalfile", self.evalfile.clone()),
        ]
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_string(), value])
        .collect()
    }

    /// Reads datagen arguments back: each of --games, --nodes, --seed,
    /// --shard and --evalfile once, as `--flag value`, and nothing else.
    pub fn from_args(args: &[String]) -> Result<Run> {
        let mut values: [Option<&str>; 5] = [None; 5];
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            let Some(i) = FLAGS.iter().position(|f| f == flag) else {
                bail!(
                    "args: '{flag}' is not one of {} (each as --flag value)",
                    FLAGS.join(", ")
                );
            };
            let Some(value) = rest.next() else {
                bail!("args: {flag} has no value");
            };
            if values[i].replace(value).is_some() {
                bail!("args: {flag} is given twice");
            }
        }
        let get =
            |i: usize| values[i].ok_or_else(|| anyhow::anyhow!("args: {} is missing", FLAGS[i]));
        let number = |i: usize| -> Result<u64> {
            get(i)?.parse().map_err(|_| {
                anyhow::anyhow!(
                    "args: {} '{}' is not a number",
                    FLAGS[i],
                    get(i).unwrap_or("")
                )
            })
        };
        let shard = get(3)?;
        let bad_shard = || anyhow::anyhow!("args: --shard '{shard}' is not K/N with 1 <= K <= N");
        let (k, n) = shard.split_once('/').ok_or_else(bad_shard)?;
        let (k, n): (u16, u16) = (
            k.parse().map_err(|_| bad_shard())?,
            n.parse().map_err(|_| bad_shard())?,
        );
        if k == 0 || k > n {
            return Err(bad_shard());
        }
        let run = Run {
            games: number(0)?,
            nodes: u32::try_from(number(1)?)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| anyhow::anyhow!("args: --nodes must be within 1..2^32"))?,
            seed: number(2)?,
            shard: (k, n),
            evalfile: get(4)?.to_string(),
        };
        if run.games == 0 {
            bail!("args: --games must be at least 1");
        }
        Ok(run)
    }

    /// Games this shard holds when whole.
    pub fn shard_games(&self) -> u64 {
        let (k, n) = (u64::from(self.shard.0), u64::from(self.shard.1));
        self.games.saturating_sub(k - 1).div_ceil(n)
    }

    /// The shard's file name, made by the net `net` and the build `rev`.
    pub fn name(&self, net: &str, rev: &str) -> String {
        let (k, n) = self.shard;
        let width = n.to_string().len().max(2);
        format!(
            "{net}-{}-s{}-n{}-g{}-k{k:0width$}of{n:0width$}.cxgd",
            short_rev(rev),
            self.seed,
            self.nodes,
            self.games
        )
    }

    /// Whether the chunks' run is this one (the net by its id's digits).
    pub fn matches(&self, run: &RunId, net: &str) -> bool {
        run.seed == self.seed
            && run.nodes == self.nodes
            && run.shard == self.shard
            && net_id(run.eval) == net
    }
}

/// The id of the net with hash `eval` (0: the classical evaluation).
pub fn net_id(eval: u64) -> String {
    if eval == 0 {
        CLASSICAL.to_string()
    } else {
        format!("{eval:016x}")[..12].to_string()
    }
}

/// One shard of the data set, as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// The file's name ([`Run::name`]).
    pub name: String,
    /// The net that played: 12 hex digits of its hash, or `classical`.
    pub net: String,
    /// The commit of the chariot-tools build that played.
    pub rev: String,
    /// The datagen arguments that make it (`chariot-tools datagen ARGS
    /// --out FILE` with that build).
    pub args: Vec<String>,
    /// Games in the shard's file.
    pub games: u64,
    /// Training positions in them (quiet scored positions, as `check`
    /// counts).
    pub positions: u64,
    pub bytes: u64,
    /// SHA-256 of the file, in lowercase hex (`sha256sum` agrees).
    pub sha256: String,
}

impl Shard {
    /// Checks the entry's fields against each other and returns its run.
    pub fn run(&self) -> Result<Run> {
        let run = Run::from_args(&self.args)?;
        let net_ok = if self.net == CLASSICAL {
            true
        } else {
            self.net.len() == 12
                && self
                    .net
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        };
        if !net_ok {
            bail!(
                "net '{}' is not 12 lowercase hex digits or '{CLASSICAL}'",
                self.net
            );
        }
        if (run.evalfile == chariot::eval::CLASSICAL_NAME) != (self.net == CLASSICAL) {
            bail!(
                "net '{}' and --evalfile '{}' disagree",
                self.net,
                run.evalfile
            );
        }
        if !is_commit(self.rev.split('+').next().unwrap_or("")) {
            bail!(
                "rev '{}' is not a commit (40 lowercase hex digits)",
                self.rev
            );
        }
        if self.sha256.len() != 64
            || !self
                .sha256
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        {
            bail!("sha256 '{}' is not 64 lowercase hex digits", self.sha256);
        }
        let name = run.name(&self.net, &self.rev);
        if self.name != name {
            bail!("its net, rev and args make the name '{name}'");
        }
        if self.games != run.shard_games() {
            bail!(
                "games = {}, but its args make {} games",
                self.games,
                run.shard_games()
            );
        }
        Ok(run)
    }
}

/// The manifest: the data set's shards, in the order they were added.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shard: Vec<Shard>,
}

/// The comment at the top of a written manifest.
const HEADER: &str = "\
# The self-play data set: every shard, the build and datagen arguments that
# make it again, and what it holds (docs/EVALUATION.md, \"The data set\").
# Written by `chariot-tools data add`; `chariot-tools data sync` makes the
# shards missing from a data directory again; `chariot-tools check FILE
# --manifest data/manifest.toml` checks one. Hand edits must keep each
# entry's fields agreeing (the name is made from the rest).
";

/// The line (1-based) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

impl Manifest {
    /// Parses and checks a manifest; every refusal is one line naming the
    /// file and the line.
    pub fn parse(text: &str, file: &str) -> Result<Manifest> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| {
            let line = e.span().map_or(String::new(), |s| {
                format!(" line {}", line_of(text, s.start))
            });
            anyhow::anyhow!(
                "{file}{line}: {}",
                e.message()
                    .lines()
                    .next()
                    .unwrap_or("not a manifest")
                    .trim()
            )
        })?;
        let mut names = std::collections::BTreeSet::new();
        for (i, s) in manifest.shard.iter().enumerate() {
            let line = text
                .find(&format!("name = \"{}\"", s.name))
                .map_or(String::new(), |at| format!(" line {}", line_of(text, at)));
            s.run()
                .map_err(|e| anyhow::anyhow!("{file}{line}: shard {} ({}): {e}", i + 1, s.name))?;
            if !names.insert(s.name.as_str()) {
                bail!("{file}{line}: shard {} is listed twice", s.name);
            }
        }
        Ok(manifest)
    }

    /// Reads a manifest; with `missing_ok`, a file that does not exist is
    /// an empty one.
    pub fn load(path: &Path, missing_ok: bool) -> Result<Manifest> {
        match std::fs::read_to_string(path) {
            Ok(text) => Manifest::parse(&text, &path.display().to_string()),
            Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Manifest::default())
            }
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// The manifest's text: the header comment, then every shard.
    pub fn to_text(&self) -> Result<String> {
        let body = toml::to_string(self).context("cannot write the manifest")?;
        Ok(if body.is_empty() {
            HEADER.to_string()
        } else {
            format!("{HEADER}\n{body}")
        })
    }

    /// Writes the manifest whole or not at all (a temporary file renamed).
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = self.to_text()?;
        let tmp = path.with_extension("toml.tmp");
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .with_context(|| format!("cannot write {}", path.display()))
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&Shard> {
        self.shard.iter().find(|s| s.name == name)
    }
}

/// SHA-256 in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A shard's file read whole and rewritten in canonical form.
pub struct Canonical {
    pub bytes: Vec<u8>,
    /// The run its chunks say made it.
    pub run: RunId,
    pub games: u64,
    pub positions: u64,
}

/// The file one uninterrupted run writes for the games in `bytes`: the
/// same games in chunks of [`CHUNK_GAMES`]. Refuses damage, chunks of
/// several runs and games out of order, each in one line.
pub fn canonical(bytes: &[u8]) -> Result<Canonical> {
    let (chunks, damage) = gamefile::read_chunks(bytes);
    if let Some(d) = damage.first() {
        bail!("{d}");
    }
    let Some(first) = chunks.first() else {
        bail!("no games");
    };
    let run = first.header.run;
    let mut games = Vec::new();
    for c in &chunks {
        if c.header.run != run {
            bail!("the chunk at byte {} is of another run or shard", c.offset);
        }
        if u64::from(c.header.first_game) != games.len() as u64 {
            bail!(
                "the chunk at byte {} starts at game {}, expected {}",
                c.offset,
                c.header.first_game,
                games.len()
            );
        }
        games.extend(c.games.iter().cloned());
    }
    let mut out = Vec::with_capacity(bytes.len());
    for (i, chunk) in games.chunks(CHUNK_GAMES).enumerate() {
        let first = u32::try_from(i * CHUNK_GAMES).context("too many games for one shard")?;
        out.extend_from_slice(&gamefile::encode_chunk(run, first, chunk));
    }
    Ok(Canonical {
        bytes: out,
        run,
        games: games.len() as u64,
        positions: games.iter().map(count_quiet).sum(),
    })
}

/// Checks a shard's file against its entry: size and checksum, and with
/// `counts` its games and training positions too. `Ok(())` or why not, in
/// one line.
pub fn verify(bytes: &[u8], shard: &Shard, counts: bool) -> Result<()> {
    if bytes.len() as u64 != shard.bytes {
        bail!("{} bytes, the manifest says {}", bytes.len(), shard.bytes);
    }
    let sha = sha256_hex(bytes);
    if sha != shard.sha256 {
        bail!("sha256 {sha}, the manifest says {}", shard.sha256);
    }
    if counts {
        let c = canonical(bytes)?;
        if (c.games, c.positions) != (shard.games, shard.positions) {
            bail!(
                "{} games and {} positions, the manifest says {} and {}",
                c.games,
                c.positions,
                shard.games,
                shard.positions
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMIT: &str = "9af9af5a1b2c3d4e5f60718293a4b5c6d7e8f901";

    fn run() -> Run {
        Run {
            games: 64000,
            nodes: 5000,
            seed: 9,
            shard: (3, 32),
            evalfile: chariot::eval::BUILTIN_NAME.to_string(),
        }
    }

    #[test]
    fn names_say_what_made_the_shard() {
        assert_eq!(
            run().name("d738824c3562", COMMIT),
            "d738824c3562-9af9af5a1b2c-s9-n5000-g64000-k03of32.cxgd"
        );
        let dirty = format!("{COMMIT}+0123456789ab");
        assert_eq!(short_rev(&dirty), "9af9af5a1b2c+0123456789ab");
        let wide = Run {
            shard: (7, 100),
            ..run()
        };
        assert!(wide.name("classical", COMMIT).ends_with("-k007of100.cxgd"));
    }

    #[test]
    fn args_round_trip_and_bad_args_are_refused() {
        assert_eq!(Run::from_args(&run().args()).unwrap(), run());
        let with = |extra: &[&str]| {
            let mut a = run().args();
            a.extend(extra.iter().map(|s| s.to_string()));
            Run::from_args(&a)
        };
        assert!(with(&["--threads", "2"]).is_err());
        assert!(with(&["--seed", "3"]).is_err());
        assert!(with(&["--out"]).is_err());
        let mut a = run().args();
        a[7] = "0/3".into();
        assert!(Run::from_args(&a).is_err());
        a.truncate(6);
        assert!(Run::from_args(&a).is_err());
        // Shard 3 of 32 of 64,000 games plays games 2, 34, ...: 2,000 of them;
        // shard 32 of 32 of 70 games plays 31 and 63.
        assert_eq!(run().shard_games(), 2000);
        let short = Run {
            games: 70,
            shard: (32, 32),
            ..run()
        };
        assert_eq!(short.shard_games(), 2);
    }

    #[test]
    fn only_a_commit_may_record() {
        assert!(may_record(COMMIT, false).is_ok());
        let dirty = format!("{COMMIT}+0123456789ab");
        assert!(may_record(&dirty, false).is_err());
        assert!(may_record(&dirty, true).is_ok());
        assert!(may_record("unknown", true).is_err());
    }
}
