//! Embeds the git commit this build was made from as `CHARIOT_TOOLS_REV`:
//! the data set's shards are named by the build that made them, since a
//! different search makes different data (`chariot-tools data`,
//! src/manifest.rs).
//!
//! - `CHARIOT_TOOLS_REV` in the environment wins: a build from `git
//!   archive` of a commit (which has no `.git`) is told its commit so.
//! - In a git checkout: the commit of HEAD, 40 hex digits. When the files
//!   that go into the build (`BUILD_INPUTS`) differ from HEAD's, the rev is
//!   `<commit>+<12 hex digits of a hash of the difference>`: such a build
//!   cannot be made again from a commit, and `data add` refuses to record
//!   its shards (unless told `--allow-dirty`).
//! - Elsewhere: `unknown`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the workspace's build reads, relative to its root: a change
/// anywhere else (docs, scripts) makes the same binary.
const BUILD_INPUTS: [&str; 6] = ["Cargo.toml", "Cargo.lock", "src", "crates", "nets", "books"];

fn git(root: &Path, args: &[&str], input: Option<&[u8]>) -> Option<String> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(root)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
        use std::io::Write;
        stdin.write_all(bytes).ok()?;
    }
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_string())
}

fn rev(root: &Path) -> Option<String> {
    // Only the workspace's own repository, not one that happens to enclose
    // an unpacked archive.
    let top = git(root, &["rev-parse", "--show-toplevel"], None)?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(root).ok()? {
        return None;
    }
    let head = git(root, &["rev-parse", "HEAD"], None)?;
    // Rebuild when HEAD moves, the index changes, or a build input does.
    for name in ["HEAD", "index", "packed-refs"] {
        if let Some(p) = git(
            root,
            &["rev-parse", "--path-format=absolute", "--git-path", name],
            None,
        ) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"], None) {
        if let Some(p) = git(
            root,
            &["rev-parse", "--path-format=absolute", "--git-path", &branch],
            None,
        ) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    for input in BUILD_INPUTS {
        println!("cargo:rerun-if-changed={}", root.join(input).display());
    }
    let mut args = vec!["diff", "--no-ext-diff", "--binary", "HEAD", "--"];
    args.extend(BUILD_INPUTS);
    let mut change = git(root, &args, None)?;
    let mut others = vec!["ls-files", "--others", "--exclude-standard", "--"];
    others.extend(BUILD_INPUTS);
    let untracked = git(root, &others, None)?;
    if change.is_empty() && untracked.is_empty() {
        return Some(head);
    }
    change.push_str(&untracked);
    let hash = git(root, &["hash-object", "--stdin"], Some(change.as_bytes()))?;
    Some(format!("{head}+{}", &hash[..12.min(hash.len())]))
}

fn main() {
    println!("cargo:rerun-if-env-changed=CHARIOT_TOOLS_REV");
    let rev = match std::env::var("CHARIOT_TOOLS_REV") {
        Ok(r) if !r.trim().is_empty() => r.trim().to_string(),
        _ => {
            let manifest =
                PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
            let root = manifest.join("../..");
            rev(&root).unwrap_or_else(|| "unknown".to_string())
        }
    };
    println!("cargo:rustc-env=CHARIOT_TOOLS_REV={rev}");
}
