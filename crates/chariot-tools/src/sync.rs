//! Making the data set's shards (`chariot-tools data sync` and `data
//! add`): every shard the manifest lists is checked in the data directory
//! and made again where it is missing or damaged, by the build that made it
//! (built once from its commit into the cache when it is not this one), at
//! idle priority (scripts/match/idle.sh).
//!
//! A shard is made into `NAME.partial`, which datagen resumes if a sync was
//! stopped, then rewritten in canonical form (`manifest::canonical`),
//! checked against the manifest and renamed: a stopped sync loses at most
//! the games in play, and a file under a shard's own name is always whole.

use crate::manifest::{self, Canonical, Manifest, Run, Shard};
use anyhow::{bail, Context, Result};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A sync or add stopped by a signal (Ctrl-C, SIGTERM): the shard in the
/// making keeps its games in `NAME.partial`.
#[derive(Debug)]
pub struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("stopped; the shard in the making keeps its games in its .partial file, and the same command goes on from there")
    }
}

impl std::error::Error for Stopped {}

/// Where and how shards are made.
pub struct Maker {
    /// The data directory: one file per shard, under its name.
    pub dir: PathBuf,
    /// Chariot's cache directory: `builds/<rev>/` for other builds' tools,
    /// `nets/` and `train/` searched for nets given as files.
    pub cache: PathBuf,
    /// The git checkout: scripts/match/idle.sh, the commits to build, nets/.
    pub repo: Option<PathBuf>,
    /// Games played at once (datagen's --threads): they do not change the data.
    pub jobs: usize,
    /// Run the builds and datagen under scripts/match/idle.sh.
    pub idle: bool,
}

/// What became of one shard.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its file was there and matched.
    Present,
    /// It was made again and matched the manifest.
    Remade,
    /// It was made for the first time and added to the manifest.
    Added,
}

/// The top of the git checkout holding `path` (a file or a directory).
pub fn repo_of(path: &Path) -> Option<PathBuf> {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().filter(|p| !p.as_os_str().is_empty())?
    };
    let out = Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(dir)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string()))
}

/// Waits for `child`, asking it to stop (SIGTERM: datagen then finishes
/// the games in play and writes them) once `stop` is set.
fn wait(mut child: std::process::Child, stop: &AtomicBool) -> Result<bool> {
    let mut asked = false;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status.success());
        }
        if stop.load(Ordering::Relaxed) && !asked {
            asked = true;
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Nets (`*.nnue`) under `dir`, a few levels down.
fn net_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() && depth > 0 {
            net_files(&p, depth - 1, out);
        } else if p.extension().is_some_and(|e| e == "nnue") {
            out.push(p);
        }
    }
}

impl Maker {
    fn repo(&self, why: &str) -> Result<&Path> {
        self.repo.as_deref().ok_or_else(|| {
            anyhow::anyhow!("{why} needs the git checkout (run from inside the repository)")
        })
    }

    /// `program args` as a command, under scripts/match/idle.sh when idle.
    fn command(&self, program: &Path, args: &[String]) -> Result<Command> {
        if !self.idle {
            let mut c = Command::new(program);
            c.args(args);
            return Ok(c);
        }
        let idle = self
            .repo("idle priority (scripts/match/idle.sh; --no-idle to go without)")?
            .join("scripts/match/idle.sh");
        let mut c = Command::new(idle);
        c.arg(program).args(args);
        Ok(c)
    }

    /// The chariot-tools of build `rev`: this binary, or one built from the
    /// commit into the cache (once).
    fn tools(&self, rev: &str, stop: &AtomicBool) -> Result<PathBuf> {
        if rev == manifest::REV {
            return std::env::current_exe().context("cannot find this binary");
        }
        if !manifest::is_commit(rev) {
            bail!(
                "made by a build with uncommitted changes ({}), which only that build remakes; this is {}",
                manifest::short_rev(rev),
                manifest::short_rev(manifest::REV)
            );
        }
        let dir = self.cache.join("builds").join(rev);
        let bin = dir.join("chariot-tools");
        if bin.is_file() {
            return Ok(bin);
        }
        let repo = self.repo("building chariot-tools at another commit")?;
        let known = Command::new("git")
            .args(["cat-file", "-e", &format!("{rev}^{{commit}}")])
            .current_dir(repo)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !known {
            bail!("commit {rev} is not in {}", repo.display());
        }
        let src = dir.join("src");
        let _ = std::fs::remove_dir_all(&src);
        std::fs::create_dir_all(&src)
            .with_context(|| format!("cannot create {}", src.display()))?;
        eprintln!(
            "data: building chariot-tools at {} into {}",
            manifest::short_rev(rev),
            dir.display()
        );
        let mut archive = Command::new("git")
            .args(["archive", rev])
            .current_dir(repo)
            .stdout(Stdio::piped())
            .spawn()
            .context("cannot run git archive")?;
        let out = archive.stdout.take().context("git archive's output")?;
        let untar = Command::new("tar")
            .args(["-x", "-C"])
            .arg(&src)
            .stdin(out)
            .status()
            .context("cannot run tar")?;
        if !archive.wait()?.success() || !untar.success() {
            bail!("cannot unpack commit {rev} into {}", src.display());
        }
        let target = dir.join("target");
        let args: Vec<String> = [
            "build",
            "--release",
            "--quiet",
            "--locked",
            "-p",
            "chariot-tools",
            "--manifest-path",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            src.join("Cargo.toml").display().to_string(),
            "--target-dir".to_string(),
            target.display().to_string(),
        ])
        .collect();
        let mut cargo = self.command(Path::new("cargo"), &args)?;
        cargo.env("CHARIOT_TOOLS_REV", rev);
        if !wait(cargo.spawn().context("cannot run cargo")?, stop)? {
            if stop.load(Ordering::Relaxed) {
                return Err(Stopped.into());
            }
            bail!("cargo build of chariot-tools at {rev} failed");
        }
        let tmp = dir.join("chariot-tools.tmp");
        std::fs::copy(target.join("release/chariot-tools"), &tmp)
            .and_then(|_| std::fs::rename(&tmp, &bin))
            .with_context(|| format!("cannot install {}", bin.display()))?;
        let _ = std::fs::remove_dir_all(&src);
        let _ = std::fs::remove_dir_all(&target);
        Ok(bin)
    }

    /// The `--evalfile` to give: as recorded, but a net file is looked for
    /// by its id where nets are kept.
    fn evalfile(&self, run: &Run, net: &str) -> Result<String> {
        let e = run.evalfile.as_str();
        if e == chariot::eval::BUILTIN_NAME || e == chariot::eval::CLASSICAL_NAME {
            return Ok(e.to_string());
        }
        // Where it was given (a relative path from here or from the
        // checkout), then wherever nets are kept.
        let recorded = Path::new(e);
        let mut files = vec![recorded.to_path_buf()];
        let mut places = Vec::new();
        if let Some(repo) = &self.repo {
            if recorded.is_relative() {
                files.push(repo.join(recorded));
            }
            places.push(repo.join("nets"));
        }
        places.push(self.cache.join("nets"));
        places.push(self.cache.join("train"));
        for p in &places {
            net_files(p, 4, &mut files);
        }
        for f in &files {
            let Ok(bytes) = std::fs::read(f) else {
                continue;
            };
            if chariot::eval::nnue::Network::from_bytes(&bytes).is_ok_and(|n| n.short_hash() == net)
            {
                return Ok(f.display().to_string());
            }
        }
        let places: Vec<String> = places.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "needs the net {net} (recorded as --evalfile {e}), which is not in {}: put a file of that net there, under any name",
            places.join(", ")
        )
    }

    /// Makes the shard `name` (net `net`, build `rev`, run `run`) into its
    /// `.partial` file, resuming one that is there, and returns it in
    /// canonical form, checked to be the whole shard of that run.
    fn make(
        &self,
        name: &str,
        net: &str,
        rev: &str,
        run: &Run,
        stop: &AtomicBool,
    ) -> Result<Canonical> {
        let partial = self.dir.join(format!("{name}.partial"));
        let bin = self.tools(rev, stop)?;
        let mut args = Run {
            evalfile: self.evalfile(run, net)?,
            ..run.clone()
        }
        .args();
        args.extend([
            "--threads".to_string(),
            self.jobs.max(1).to_string(),
            "--out".to_string(),
            partial.display().to_string(),
        ]);
        let mut datagen = vec!["datagen".to_string()];
        datagen.extend(args);
        eprintln!(
            "data: {name}: making {} games with {}",
            run.shard_games(),
            bin.display()
        );
        let mut cmd = self.command(&bin, &datagen)?;
        // stdout is for the sync's own report.
        cmd.stdout(Stdio::from(std::io::stderr()));
        let ok = wait(cmd.spawn().context("cannot run datagen")?, stop)?;
        if stop.load(Ordering::Relaxed) {
            return Err(Stopped.into());
        }
        if !ok {
            bail!("datagen failed (its message is above)");
        }
        let bytes = std::fs::read(&partial)
            .with_context(|| format!("cannot read {}", partial.display()))?;
        let canon =
            manifest::canonical(&bytes).with_context(|| format!("{}", partial.display()))?;
        if !run.matches(&canon.run, net) {
            bail!(
                "datagen made seed {}, {} nodes, shard {}/{}, net {}: not this shard's run (net {net}); is the net built in at {} another?",
                canon.run.seed,
                canon.run.nodes,
                canon.run.shard.0,
                canon.run.shard.1,
                manifest::net_id(canon.run.eval),
                manifest::short_rev(rev)
            );
        }
        if canon.games != run.shard_games() {
            bail!(
                "datagen ended after {} of the shard's {} games",
                canon.games,
                run.shard_games()
            );
        }
        if canon.bytes != bytes {
            std::fs::write(&partial, &canon.bytes)
                .with_context(|| format!("cannot write {}", partial.display()))?;
        }
        Ok(canon)
    }

    /// Gives the made shard its own name.
    fn install(&self, name: &str) -> Result<()> {
        let partial = self.dir.join(format!("{name}.partial"));
        let file = self.dir.join(name);
        std::fs::File::open(&partial)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&partial, &file))
            .with_context(|| format!("cannot rename {} to {name}", partial.display()))
    }

    /// Checks the shard of entry `shard` in the data directory and makes it
    /// again if it is missing or does not match (a damaged file is kept as
    /// `NAME.damaged`).
    pub fn ensure(&self, shard: &Shard, stop: &AtomicBool) -> Result<Outcome> {
        let run = shard.run()?;
        let file = self.dir.join(&shard.name);
        match std::fs::read(&file) {
            Ok(bytes) => match manifest::verify(&bytes, shard, false) {
                Ok(()) => return Ok(Outcome::Present),
                Err(e) => {
                    let aside = self.dir.join(format!("{}.damaged", shard.name));
                    eprintln!(
                        "data: {}: damaged ({e}); kept as {}, making it again",
                        shard.name,
                        aside.display()
                    );
                    std::fs::rename(&file, &aside)
                        .with_context(|| format!("cannot move {} aside", file.display()))?;
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", file.display())),
        }
        let canon = self.make(&shard.name, &shard.net, &shard.rev, &run, stop)?;
        let sha = manifest::sha256_hex(&canon.bytes);
        if sha != shard.sha256 || canon.positions != shard.positions {
            let kept = self.dir.join(format!("{}.mismatch", shard.name));
            let _ = std::fs::rename(self.dir.join(format!("{}.partial", shard.name)), &kept);
            bail!(
                "remade by {} with sha256 {sha} ({} positions), but the manifest has {} ({}): that build does not make the same data again (kept as {})",
                manifest::short_rev(&shard.rev),
                canon.positions,
                shard.sha256,
                shard.positions,
                kept.display()
            );
        }
        self.install(&shard.name)?;
        Ok(Outcome::Remade)
    }

    /// Makes the shards of a run (`run` with its shard index ignored:
    /// every shard 1..=N of it) and adds each to the manifest at `path` as
    /// it is made. A new seed is played by this build with net `net` (a
    /// build with uncommitted changes only with `allow_dirty`); a seed the
    /// manifest holds already goes on with the build and net of its run,
    /// whose other settings must be the same. Shards already listed are
    /// only checked (and remade if missing), so the same command goes on
    /// after a stop, in this session or a later one.
    pub fn add(
        &self,
        path: &Path,
        run: &Run,
        net: &str,
        allow_dirty: bool,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&str, &Outcome, &Shard),
    ) -> Result<()> {
        let listed = Manifest::load(path, true)?;
        let mut same_seed = None;
        for s in &listed.shard {
            let r = s.run()?;
            if r.seed != run.seed {
                continue;
            }
            if (r.nodes, r.games, r.shard.1, &r.evalfile)
                != (run.nodes, run.games, run.shard.1, &run.evalfile)
            {
                bail!(
                    "seed {} is in the manifest already, in a run of other settings ({}: {}): choose another seed, or give that run's",
                    run.seed,
                    s.name,
                    s.args.join(" ")
                );
            }
            same_seed.get_or_insert((s.rev.clone(), s.net.clone()));
        }
        let (rev, net) = match same_seed {
            Some((rev, old_net)) => {
                eprintln!(
                    "data: seed {} goes on with its run's build ({}) and net ({old_net})",
                    run.seed,
                    manifest::short_rev(&rev)
                );
                (rev, old_net)
            }
            None => {
                manifest::may_record(manifest::REV, allow_dirty)?;
                eprintln!(
                    "data: a new run, played by this build ({}) with net {net}",
                    manifest::short_rev(manifest::REV)
                );
                (manifest::REV.to_string(), net.to_string())
            }
        };
        let (rev, net) = (rev.as_str(), net.as_str());
        for k in 1..=run.shard.1 {
            if stop.load(Ordering::Relaxed) {
                return Err(Stopped.into());
            }
            let piece = Run {
                shard: (k, run.shard.1),
                ..run.clone()
            };
            let name = piece.name(net, rev);
            // Read again each time: another session may have added shards.
            let mut manifest = Manifest::load(path, true)?;
            if let Some(shard) = manifest.get(&name).cloned() {
                let outcome = self.ensure(&shard, stop)?;
                report(&name, &outcome, &shard);
                continue;
            }
            // A whole file under the shard's name but not listed (a stop
            // between the rename and the manifest): made again from it.
            let file = self.dir.join(&name);
            let partial = self.dir.join(format!("{name}.partial"));
            if file.exists() && !partial.exists() {
                std::fs::rename(&file, &partial)
                    .with_context(|| format!("cannot move {}", file.display()))?;
            }
            let canon = self.make(&name, net, rev, &piece, stop)?;
            let shard = Shard {
                name: name.clone(),
                net: net.to_string(),
                rev: rev.to_string(),
                args: piece.args(),
                games: canon.games,
                positions: canon.positions,
                bytes: canon.bytes.len() as u64,
                sha256: manifest::sha256_hex(&canon.bytes),
            };
            shard.run()?;
            manifest.shard.push(shard.clone());
            manifest.save(path)?;
            self.install(&name)?;
            report(&name, &Outcome::Added, &shard);
        }
        Ok(())
    }
}
