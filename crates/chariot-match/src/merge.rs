//! `chariot-match merge FILES…`: the result files of a match's shards
//! (`--shard K/N`, or Slurm array tasks) as one run over all their games.
//!
//! The files' settings rebuild the match's schedule; every game is checked
//! against it and tallied in game order, so the report (each game's line,
//! W/D/L, the pentanomial pairs, Elo ± 95%, LOS, the SPRT when the match
//! had bounds) is the one a single run of the whole match prints when it
//! plays its games in order (`-j 1`). The games' PGN is written in game
//! order to one file.
//!
//! Nothing is guessed: files of different matches, a file or shard given
//! twice, games in two files, games that are not the schedule's, and
//! missing games are refused in one line. `--partial` reports on the games
//! there are and names the missing ones.

use super::cli::parse_sprt;
use super::report;
use super::results::{self, GameResult, ResultFile, Settings};
use super::schedule::{self, Format, GameSpec};
use super::shard::Shard;
use super::stats::Sprt;
use super::tournament::{self, Tally};
use clap::Parser;
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Merges the result files of a match's shards into one report and one PGN.
#[derive(Parser, Debug)]
#[command(
    name = "chariot-match merge",
    version,
    about = "Merges the result files of a match's shards: one report, one PGN in game order",
    after_help = "Example:\n  chariot-match merge results/match-*-of-4.results --pgn match.pgn"
)]
struct MergeCli {
    /// Result files (`--results`, or `match-K-of-N.results` of `--shard K/N`).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,

    /// The merged PGN, in game order (overwritten).
    #[arg(long, value_name = "FILE", default_value = "merged.pgn")]
    pgn: PathBuf,

    /// Report on the games there are when some are missing (they are named
    /// on stderr), instead of refusing.
    #[arg(long)]
    partial: bool,
}

/// Runs `chariot-match merge` with its arguments (after `merge`); returns
/// the exit status: 0 merged, 2 refused.
pub fn main(args: impl IntoIterator<Item = OsString>) -> i32 {
    let argv = std::iter::once(OsString::from("chariot-match merge")).chain(args);
    let cli = match MergeCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    report::init_logging();
    match run(&cli) {
        Ok(()) => 0,
        Err(e) => {
            log::error!("merge: {e}");
            2
        }
    }
}

fn run(cli: &MergeCli) -> Result<(), String> {
    let mut files = Vec::new();
    let mut seen: HashMap<PathBuf, &Path> = HashMap::new();
    let out = canonical(&cli.pgn);
    for path in &cli.files {
        let real = canonical(path);
        if let Some(first) = seen.insert(real.clone(), path) {
            return Err(format!(
                "{} is given twice (as {} and {})",
                real.display(),
                first.display(),
                path.display()
            ));
        }
        if real == out {
            return Err(format!(
                "--pgn {} is one of the result files",
                cli.pgn.display()
            ));
        }
        let file = results::read(path)?;
        if file.torn {
            log::warn!(
                "{}: a torn last record is left out (its shard was stopped while writing it)",
                path.display()
            );
        }
        files.push((path.display().to_string(), file));
    }
    let merged = merge(&files)?;
    if !merged.missing.is_empty() {
        let why = missing_text(&merged, &files);
        if !cli.partial {
            return Err(format!(
                "{why}; `chariot-match merge --partial` reports on the games there are"
            ));
        }
        log::warn!("{why}");
    }

    // The games in order: each game's line, the PGN, the tally.
    let mut tally = Tally::new(merged.names.len());
    let mut pgn = String::new();
    let pairings = schedule::pairings(merged.format, merged.names.len());
    for (spec, game) in &merged.games {
        let first = pairings.get(spec.pairing).map_or(spec.red, |p| p.0);
        tally.add(spec, &game.outcome(), first);
        if let Some(sprt) = merged.sprt {
            tally.check_sprt(&sprt);
        }
        pgn.push_str(&game.pgn);
        report::say(&tournament::game_line(
            spec.number,
            &merged.names[spec.red],
            &merged.names[spec.black],
            game.result(),
            &game.reason,
        ));
    }
    std::fs::write(&cli.pgn, pgn)
        .map_err(|e| format!("cannot write {}: {e}", cli.pgn.display()))?;
    let heading = if merged.missing.is_empty() {
        format!("\nMatch finished: {} games", tally.done)
    } else {
        format!(
            "\nMatch merged: {} of {} games ({} missing)",
            tally.done,
            merged.schedule.len(),
            merged.missing.len()
        )
    };
    // The shards play every game: an SPRT never stopped them.
    tournament::print_report(&heading, &merged.names, &tally, merged.sprt, false);
    report::say(&format!(
        "Merged {} result file{}; games saved to {}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        cli.pgn.display()
    ));
    Ok(())
}

/// The path itself where it cannot be resolved (it is then read, and
/// the read names the problem).
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The shards' games put together.
#[derive(Debug)]
pub struct Merged {
    pub names: Vec<String>,
    pub format: Format,
    pub sprt: Option<Sprt>,
    /// The match's schedule: every game.
    pub schedule: Vec<GameSpec>,
    /// Every game found, in game order, with its place in the schedule.
    pub games: Vec<(GameSpec, GameResult)>,
    /// Numbers of the schedule's games no file has.
    pub missing: Vec<usize>,
}

/// Puts the result files (each with a name for messages) together, or
/// says in one line why not.
pub fn merge(files: &[(String, ResultFile)]) -> Result<Merged, String> {
    let Some((first_name, first)) = files.first() else {
        return Err("no result file given".to_string());
    };
    let mut shards: HashMap<Shard, &str> = HashMap::new();
    for (name, file) in files {
        if let Some(why) = results::differ(&first.settings, &file.settings) {
            return Err(format!(
                "{first_name} and {name} are shards of different matches: {why}"
            ));
        }
        if let Some(other) = shards.insert(file.shard, name) {
            return Err(format!(
                "shard {} is given twice: {other} and {name}",
                file.shard
            ));
        }
    }
    let m = MatchShape::of(&first.settings).map_err(|e| format!("{first_name}: {e}"))?;
    let order = tournament::opening_order(m.openings, m.shuffle);
    let full = schedule::schedule(m.format, m.names.len(), m.games, &order);
    let mut found: BTreeMap<usize, (GameSpec, GameResult, &str, Shard)> = BTreeMap::new();
    for (name, file) in files {
        let mine = file.shard.select(&full);
        for g in &file.games {
            let Some(spec) = mine.iter().find(|s| s.number == g.number) else {
                return Err(format!(
                    "{name}: game {} is not one of shard {}'s games",
                    g.number, file.shard
                ));
            };
            if (spec.red, spec.black, spec.opening) != (g.red, g.black, g.opening) {
                return Err(format!(
                    "{name}: game {} has engines {} and {} and opening {}, and the schedule says {}, {} and {}",
                    g.number,
                    g.red + 1,
                    g.black + 1,
                    g.opening,
                    spec.red + 1,
                    spec.black + 1,
                    spec.opening
                ));
            }
            if let Some((_, _, other, other_shard)) = found.get(&g.number) {
                return Err(format!(
                    "game {} is in both {other} (shard {other_shard}) and {name} (shard {}): the shards overlap",
                    g.number, file.shard
                ));
            }
            found.insert(g.number, (*spec, g.clone(), name, file.shard));
        }
    }
    let missing = full
        .iter()
        .map(|s| s.number)
        .filter(|n| !found.contains_key(n))
        .collect();
    Ok(Merged {
        names: m.names,
        format: m.format,
        sprt: m.sprt,
        schedule: full,
        games: found.into_values().map(|(s, g, _, _)| (s, g)).collect(),
        missing,
    })
}

/// The missing games in one line, by shard when the files agree on N.
fn missing_text(merged: &Merged, files: &[(String, ResultFile)]) -> String {
    let (missing, total) = (merged.missing.len(), merged.schedule.len());
    let n = files[0].1.shard.n;
    if files.iter().any(|(_, f)| f.shard.n != n) {
        return format!(
            "{missing} of {total} games are missing: {}",
            results::ranges(merged.missing.iter().copied())
        );
    }
    let mut parts = Vec::new();
    for k in 1..=n {
        let shard = Shard { k, n };
        let numbers: Vec<usize> = shard
            .select(&merged.schedule)
            .iter()
            .map(|s| s.number)
            .filter(|x| merged.missing.binary_search(x).is_ok())
            .collect();
        if numbers.is_empty() {
            continue;
        }
        let state = if files.iter().any(|(_, f)| f.shard == shard) {
            "unfinished: run it again with its result file"
        } else {
            "no file given"
        };
        parts.push(format!(
            "shard {shard} ({state}): {}",
            results::ranges(numbers)
        ));
    }
    format!(
        "{missing} of {total} games are missing: {}",
        parts.join("; ")
    )
}

/// What the settings say about the match's shape.
struct MatchShape {
    names: Vec<String>,
    format: Format,
    games: u32,
    openings: usize,
    shuffle: Option<u64>,
    sprt: Option<Sprt>,
}

impl MatchShape {
    fn of(settings: &Settings) -> Result<MatchShape, String> {
        let get = |k: &str| {
            settings
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("the settings have no '{k}'"))
        };
        let bad = |k: &str, v: &str| format!("setting {k} '{v}' cannot be read");
        let engines: usize = get("engines")?
            .parse()
            .map_err(|_| bad("engines", get("engines").unwrap_or("")))?;
        let names = (1..=engines)
            .map(|i| get(&format!("name.{i}")).map(String::from))
            .collect::<Result<Vec<_>, _>>()?;
        let format = match get("format")? {
            "round-robin" => Format::RoundRobin,
            "gauntlet" => Format::Gauntlet,
            v => return Err(bad("format", v)),
        };
        let games = get("games")?.parse().map_err(|_| bad("games", "?"))?;
        let openings_text = get("openings")?;
        let openings = openings_text
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| bad("openings", openings_text))?;
        let shuffle = match get("shuffle")? {
            "none" => None,
            v => Some(v.parse().map_err(|_| bad("shuffle", v))?),
        };
        let sprt = match get("sprt")? {
            "none" => None,
            v => {
                let words: Vec<String> = v.split(' ').map(String::from).collect();
                Some(parse_sprt(&words)?.0)
            }
        };
        if engines < 2 {
            return Err(bad("engines", &engines.to_string()));
        }
        Ok(MatchShape {
            names,
            format,
            games,
            openings,
            shuffle,
            sprt,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndKind;
    use xiangqi::types::Color;

    /// The settings of a two-engine match of `games` games from 4 openings.
    fn settings(games: u32) -> Settings {
        [
            ("engines", "2"),
            ("engine.1", "cmd=/bin/a proto=ucci"),
            ("engine.2", "cmd=/bin/b proto=ucci"),
            ("name.1", "a"),
            ("name.2", "b"),
            ("format", "round-robin"),
            ("games", &games.to_string()),
            ("openings", "4 fnv1a64:0000000000000001"),
            ("shuffle", "7"),
            ("limit", "2000 nodes"),
            ("sprt", "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=penta"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    fn full(games: u32) -> Vec<GameSpec> {
        let order = tournament::opening_order(4, Some(7));
        schedule::schedule(Format::RoundRobin, 2, games, &order)
    }

    /// Shard `shard` of a match of `games` games, with its games that
    /// `keep` accepts: Red wins every game.
    fn shard_file(shard: Shard, games: u32, keep: impl Fn(usize) -> bool) -> (String, ResultFile) {
        let mut text = results::header(shard, &settings(games));
        for s in shard.select(&full(games)) {
            if !keep(s.number) {
                continue;
            }
            let g = GameResult {
                number: s.number,
                red: s.red,
                black: s.black,
                opening: s.opening,
                winner: Some(Color::Red),
                end: EndKind::Normal,
                fault: None,
                reason: "Red mates".into(),
                pgn: format!("[Round \"{}\"]\n\n1. h2e2 1-0\n\n", s.number),
            };
            text.push_str(&g.record());
        }
        let name = format!("s{}of{}", shard.k, shard.n);
        (name, results::parse(&text).unwrap())
    }

    fn all(_: usize) -> bool {
        true
    }

    #[test]
    fn shards_merge_into_the_whole_schedule_in_order() {
        let files: Vec<_> = (1..=3)
            .rev()
            .map(|k| shard_file(Shard { k, n: 3 }, 10, all))
            .collect();
        let m = merge(&files).unwrap();
        assert_eq!(m.names, ["a", "b"]);
        assert!(m.missing.is_empty());
        assert!(m.sprt.is_some());
        let numbers: Vec<usize> = m.games.iter().map(|(s, _)| s.number).collect();
        assert_eq!(numbers, (1..=10).collect::<Vec<_>>());
        assert_eq!(
            m.games.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            full(10)
        );
    }

    fn refused(files: &[(String, ResultFile)]) -> String {
        match merge(files) {
            Ok(m) => panic!("merged: {m:?}"),
            Err(e) => {
                assert!(!e.contains('\n'), "one line: {e}");
                e
            }
        }
    }

    #[test]
    fn shards_of_different_matches_are_refused() {
        let a = shard_file(Shard { k: 1, n: 2 }, 8, all);
        for (key, value, needle) in [
            ("engine.2", "cmd=/bin/c proto=ucci", "engine.2 is 'cmd=/bin/b proto=ucci' in one and 'cmd=/bin/c proto=ucci' in the other"),
            ("name.2", "b (2)", "name.2"),
            ("games", "10", "games is '8' in one and '10'"),
            ("openings", "4 fnv1a64:0000000000000002", "openings"),
            ("shuffle", "8", "shuffle"),
            ("limit", "3000 nodes", "limit is '2000 nodes' in one and '3000 nodes'"),
            ("sprt", "none", "sprt"),
        ] {
            let mut b = shard_file(Shard { k: 2, n: 2 }, 8, all);
            for (k, v) in b.1.settings.iter_mut() {
                if k == key {
                    *v = value.to_string();
                }
            }
            let e = refused(&[a.clone(), b]);
            assert!(
                e.contains("s1of2 and s2of2 are shards of different matches") && e.contains(needle),
                "{e}"
            );
        }
        // A setting one of them lacks.
        let mut b = shard_file(Shard { k: 2, n: 2 }, 8, all);
        b.1.settings.push(("event".into(), "x".into()));
        assert!(refused(&[a, b]).contains("event is absent in one"));
    }

    #[test]
    fn a_shard_given_twice_is_refused() {
        let a = shard_file(Shard { k: 1, n: 2 }, 8, all);
        let mut again = a.clone();
        again.0 = "copy".into();
        assert_eq!(
            refused(&[a, again]),
            "shard 1/2 is given twice: s1of2 and copy"
        );
        // Even when the two copies hold different games of the shard.
        let early = shard_file(Shard { k: 1, n: 2 }, 8, |n| n < 4);
        let mut late = shard_file(Shard { k: 1, n: 2 }, 8, |n| n >= 4);
        late.0 = "late".into();
        assert!(refused(&[early, late]).starts_with("shard 1/2 is given twice"));
    }

    #[test]
    fn overlapping_games_are_refused() {
        // Shards of two splittings: 1/2 holds pairs 1, 3 and 1/4 pair 1.
        let e = refused(&[
            shard_file(Shard { k: 1, n: 2 }, 8, all),
            shard_file(Shard { k: 1, n: 4 }, 8, all),
        ]);
        assert_eq!(
            e,
            "game 1 is in both s1of2 (shard 1/2) and s1of4 (shard 1/4): the shards overlap"
        );
    }

    #[test]
    fn games_that_are_not_the_schedules_are_refused() {
        // Game 3 recorded in the file of shard 1/2 (which plays 1, 2, 5, 6).
        let (name, mut f) = shard_file(Shard { k: 1, n: 2 }, 8, all);
        f.games[0].number = 3;
        assert_eq!(
            refused(&[(name.clone(), f.clone())]),
            "s1of2: game 3 is not one of shard 1/2's games"
        );
        // Colours swapped against the schedule.
        f.games[0].number = 1;
        let g = &mut f.games[0];
        (g.red, g.black) = (g.black, g.red);
        assert!(refused(&[(name, f)]).contains("the schedule says 1, 2"));
    }

    #[test]
    fn missing_games_are_named_by_shard() {
        let files = [
            shard_file(Shard { k: 1, n: 4 }, 16, |n| n != 10),
            shard_file(Shard { k: 2, n: 4 }, 16, all),
            shard_file(Shard { k: 3, n: 4 }, 16, |n| n < 13),
        ];
        let m = merge(&files).unwrap();
        assert_eq!(m.missing, [7, 8, 10, 13, 14, 15, 16]);
        // Shard 1/4: pairs 1 and 5 (games 1-2, 9-10); 3/4: pairs 3 and 7
        // (5-6, 13-14); 4/4: 7-8, 15-16.
        assert_eq!(
            missing_text(&m, &files),
            "7 of 16 games are missing: shard 1/4 (unfinished: run it again with its result file): 10; \
             shard 3/4 (unfinished: run it again with its result file): 13-14; \
             shard 4/4 (no file given): 7-8, 15-16"
        );
        // Files of different splittings: the numbers alone.
        let files = [shard_file(Shard { k: 1, n: 2 }, 8, all)];
        let m = merge(&files).unwrap();
        assert_eq!(
            missing_text(&m, &files),
            "4 of 8 games are missing: shard 2/2 (no file given): 3-4, 7-8"
        );
    }
}
