//! The state file of a run: the settings that define it, then where it
//! stands (the pairs done, θ+'s results, θ), one item a line:
//!
//! ```text
//! chariot-spsa-state 1
//! seed 1
//! pairs 20000
//! openings 64
//! param razor_base 200 0 600 20 0.002
//! setting limit 5+0.05 s
//! done 1234
//! done-beyond 1236 1237
//! wdl 850 774 844
//! theta razor_base 192.83571033612345
//! ```
//!
//! `param` lines hold each parameter's start, min, max, c_end and r_end;
//! `setting` lines the engine, its options, the time control, the openings
//! and the adjudication, as text to compare. `done N` means every pair up to
//! N has finished, `done-beyond` lists those finished above it. Numbers are
//! written in Rust's shortest exact form, so θ reads back bit for bit and a
//! resumed run continues exactly as one never stopped.
//!
//! The file is rewritten after every pair: written whole to `FILE.tmp`, then
//! renamed over `FILE`, so it is always one state or the next.

use super::params::Param;
use super::tuner::{Tuner, Wdl};
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

const MAGIC: &str = "chariot-spsa-state 1";

/// A run: what defines it, and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// `KEY VALUE` lines of the settings beyond the tuner's own.
    pub settings: Vec<String>,
    pub tuner: Tuner,
}

impl State {
    /// The lines that define the run: two runs with the same ones are the
    /// same run.
    fn defining(&self) -> Vec<String> {
        let t = &self.tuner;
        let mut lines = vec![
            format!("seed {}", t.seed),
            format!("pairs {}", t.schedule.pairs),
            format!("openings {}", t.openings),
        ];
        for p in &t.params {
            lines.push(format!(
                "param {} {} {} {} {} {}",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            ));
        }
        lines.extend(self.settings.iter().map(|s| format!("setting {s}")));
        lines
    }

    /// The file's text.
    pub fn render(&self) -> String {
        let t = &self.tuner;
        let mut text = format!(
            "# chariot-tools spsa: the state of a run, rewritten after every pair\n{MAGIC}\n"
        );
        for line in self.defining() {
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str(&format!("done {}\n", t.done_through));
        if !t.done_beyond.is_empty() {
            let beyond: Vec<String> = t.done_beyond.iter().map(u64::to_string).collect();
            text.push_str(&format!("done-beyond {}\n", beyond.join(" ")));
        }
        text.push_str(&format!(
            "wdl {} {} {}\n",
            t.wdl.wins, t.wdl.draws, t.wdl.losses
        ));
        for (p, theta) in t.params.iter().zip(&t.theta) {
            text.push_str(&format!("theta {} {theta}\n", p.name));
        }
        text
    }

    /// Reads a state file's text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<State> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if l.trim() == MAGIC => {}
            _ => bail!("{source} is not a state file of chariot-tools spsa (no '{MAGIC}' line)"),
        }
        let (mut seed, mut pairs, mut openings) = (None, None, None);
        let mut params: Vec<Param> = Vec::new();
        let mut settings = Vec::new();
        let mut done_through = 0;
        let mut done_beyond = BTreeSet::new();
        let mut wdl = Wdl::default();
        let mut theta: Vec<(String, f64)> = Vec::new();
        for (i, line) in lines {
            let at = format!("{source}:{}", i + 1);
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let words: Vec<&str> = rest.split_whitespace().collect();
            let bad = || anyhow::anyhow!("{at}: cannot read '{line}'");
            let num = |w: &str| w.parse::<u64>().map_err(|_| bad());
            let real = |w: &str| {
                w.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(bad)
            };
            match (key, &words[..]) {
                ("seed", [n]) => seed = Some(num(n)?),
                ("pairs", [n]) => pairs = Some(num(n)?),
                ("openings", [n]) => openings = Some(num(n)? as usize),
                ("param", [name, start, min, max, c_end, r_end]) => {
                    let p = Param {
                        name: name.to_string(),
                        start: real(start)?,
                        min: min.parse().map_err(|_| bad())?,
                        max: max.parse().map_err(|_| bad())?,
                        c_end: real(c_end)?,
                        r_end: real(r_end)?,
                    };
                    p.check().map_err(|e| anyhow::anyhow!("{at}: {e}"))?;
                    params.push(p);
                }
                ("setting", _) => settings.push(rest.to_string()),
                ("done", [n]) => done_through = num(n)?,
                ("done-beyond", ns) => {
                    for n in ns {
                        done_beyond.insert(num(n)?);
                    }
                }
                ("wdl", [w, d, l]) => {
                    wdl = Wdl {
                        wins: num(w)?,
                        draws: num(d)?,
                        losses: num(l)?,
                    }
                }
                ("theta", [name, value]) => theta.push((name.to_string(), real(value)?)),
                _ => return Err(bad()),
            }
        }
        let (Some(seed), Some(pairs), Some(openings)) = (seed, pairs, openings) else {
            bail!("{source}: the seed, pairs or openings line is missing");
        };
        let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        let theta_names: Vec<&str> = theta.iter().map(|(n, _)| n.as_str()).collect();
        if names.is_empty() || names != theta_names {
            bail!("{source}: the theta lines do not match the param lines");
        }
        let mut tuner = Tuner::new(params, pairs, seed, openings);
        tuner.theta = theta.into_iter().map(|(_, v)| v).collect();
        tuner.done_through = done_through;
        tuner.done_beyond = done_beyond;
        tuner.wdl = wdl;
        if tuner.finished() > pairs || tuner.done_beyond.iter().any(|&k| k <= done_through) {
            bail!("{source}: the done lines do not add up");
        }
        Ok(State { settings, tuner })
    }

    /// Reads the state file at `path`; `None` if there is none.
    pub fn load(path: &Path) -> Result<Option<State>> {
        match std::fs::read_to_string(path) {
            Ok(text) => State::parse(&text, &path.display().to_string()).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    /// Writes the state to `path` atomically (a whole temporary file renamed
    /// over it).
    pub fn save(&self, path: &Path) -> Result<()> {
        let tmp = sibling(path, ".tmp");
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(self.render().as_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().with_context(|| format!("cannot write the state file {}", path.display()))
    }

    /// Why a saved run is not the run `wanted`, in a few words; `None` when
    /// they define the same run.
    pub fn differs_from(&self, wanted: &State) -> Option<String> {
        let (saved, wanted) = (self.defining(), wanted.defining());
        for (s, w) in saved.iter().zip(&wanted) {
            if s != w {
                return Some(format!("it has '{s}' where this run has '{w}'"));
            }
        }
        match (saved.get(wanted.len()), wanted.get(saved.len())) {
            (Some(s), _) => Some(format!("it has '{s}', which this run has not")),
            (_, Some(w)) => Some(format!("this run has '{w}', which it has not")),
            _ => None,
        }
    }
}

/// `path` with `suffix` added to its file name (`s.state` → `s.state.tmp`).
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::super::tuner::tests::{nearer_wins, params};
    use super::*;

    fn run(pairs: u64) -> State {
        let ps = params(&[(200.0, 0, 600, 20.0), (2.0, 1, 3, 0.5)]);
        State {
            settings: vec!["limit 1000 nodes".into(), "engine cmd=/x/chariot".into()],
            tuner: Tuner::new(ps, pairs, 3, 64),
        }
    }

    fn play(state: &mut State, n: usize) {
        let target = [321.0, 3.0];
        for _ in 0..n {
            let Some(pair) = state.tuner.next_pair() else {
                return;
            };
            let points = nearer_wins(&state.tuner.params, &target, &pair);
            state.tuner.finish(&pair, points);
        }
    }

    #[test]
    fn a_state_reads_back_exactly() {
        let mut s = run(50);
        play(&mut s, 17);
        // A pair finished out of order.
        let a = s.tuner.next_pair().unwrap();
        let b = s.tuner.next_pair().unwrap();
        s.tuner.finish(&b, [1.0, 0.5]);
        let text = s.render();
        assert!(text.contains("\ndone 17\ndone-beyond 19\n"), "{text}");
        let back = State::parse(&text, "s").unwrap();
        assert_eq!(back.tuner.theta, s.tuner.theta);
        assert_eq!(back.render(), text);
        assert_eq!(back.differs_from(&s), None);
        // The pair that was in play when it was saved is played again
        // after a reload: the same k and θ, so the same pair.
        let mut back = back;
        assert_eq!(back.tuner.next_pair().unwrap(), a);
    }

    #[test]
    fn another_run_is_told_apart() {
        let s = run(300);
        assert_eq!(
            s.differs_from(&run(400)),
            Some("it has 'pairs 300' where this run has 'pairs 400'".into())
        );
        let mut other = run(300);
        other.settings[0] = "limit 5+0.05 s".into();
        assert_eq!(
            s.differs_from(&other),
            Some(
                "it has 'setting limit 1000 nodes' where this run has 'setting limit 5+0.05 s'"
                    .into()
            )
        );
        let mut fewer = run(300);
        fewer.tuner = Tuner::new(fewer.tuner.params[..1].to_vec(), 300, 3, 64);
        assert!(s.differs_from(&fewer).unwrap().contains("param p1"));
        // Where it stands does not define a run.
        let mut later = run(300);
        play(&mut later, 10);
        assert_eq!(later.differs_from(&s), None);
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let good = run(50).render();
        assert!(State::parse(&good, "s").is_ok());
        for (text, needle) in [
            ("hello\n".to_string(), "not a state file"),
            (good.replace("seed 3\n", ""), "seed, pairs or openings"),
            (good.replace("theta p1", "theta p9"), "theta lines"),
            (good.replace("done 0", "done x"), "s:"),
            (
                good.replace("wdl 0 0 0", "wdl 0 0"),
                "cannot read 'wdl 0 0'",
            ),
            (good.replace("done 0", "done 60"), "do not add up"),
            (good.replace("param p0 200 0", "param p0 900 0"), "outside"),
        ] {
            let e = State::parse(&text, "s").unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
        assert_eq!(
            State::load(Path::new("/nonexistent/run.state")).unwrap(),
            None
        );
    }
}
