//! Every relative link in `README.md` and `docs/*.md` points to a file that
//! exists, and a link with a `#anchor` into a markdown file names one of
//! that file's headings, by GitHub's rules for heading anchors. Links to
//! `http:`, `https:` and `mailto:` are not followed. Links inside code
//! (fenced blocks and code spans) are not links.

use std::path::{Path, PathBuf};

/// The repository's root: the root package's directory.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The markdown files whose links are checked: `README.md` and every
/// `docs/*.md`, in a fixed order.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Whether a line opens or closes a fenced code block (```` ``` ```` or
/// `~~~`, indented by at most three spaces).
fn is_fence(line: &str) -> bool {
    let trimmed = line.trim_start_matches(' ');
    line.len() - trimmed.len() <= 3 && (trimmed.starts_with("```") || trimmed.starts_with("~~~"))
}

/// The text with fenced code blocks blanked out, line for line, so that
/// line numbers stay true.
fn without_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.lines() {
        if is_fence(line) {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The text with code spans blanked out (newlines kept). A code span opens
/// with a run of backticks and closes with the next run of the same length;
/// a run with no closing run is literal text.
fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let open = run_at(i);
        let mut j = i + open;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let run = run_at(j);
                if run == open {
                    close = Some(j + run);
                    break;
                }
                j += run;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                for &c in &chars[i..end] {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                }
                i = end;
            }
            None => {
                out.extend(&chars[i..i + open]);
                i += open;
            }
        }
    }
    out
}

/// Every link target in markdown text, with the line it is on (from 1):
/// inline links and images, `[text](target "title")` and
/// `[text](<target>)`, and reference definitions, `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let prose = without_code_spans(&without_fences(text));
    let mut found = Vec::new();
    for (index, line) in prose.lines().enumerate() {
        let number = index + 1;
        // Reference definitions.
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('[') {
            if let Some((_, after)) = rest.split_once("]:") {
                if let Some(target) = after.split_whitespace().next() {
                    found.push((number, target.trim_matches(['<', '>']).to_string()));
                }
            }
        }
        // Inline links: `](` then the target, to the matching `)`.
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let target = if let Some(angled) = after.strip_prefix('<') {
                angled.split('>').next().unwrap_or("").to_string()
            } else {
                let mut depth = 0;
                let mut end = after.len();
                for (k, c) in after.char_indices() {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 0 => {
                            end = k;
                            break;
                        }
                        ')' => depth -= 1,
                        c if c.is_whitespace() => {
                            end = k;
                            break;
                        }
                        _ => {}
                    }
                }
                after[..end].to_string()
            };
            found.push((number, target));
            rest = after;
        }
    }
    found
}

/// A heading's anchor by GitHub's rules: the heading's text (a link in it
/// counts by its text), lower case, each space a `-`, and every other
/// character that is not a letter, a digit, `-` or `_` dropped.
fn slug(heading: &str) -> String {
    // [text](target) → text
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => match rest[open + mid..].find(')') {
                Some(close) => {
                    text.push_str(&rest[..open]);
                    text.push_str(&rest[open + 1..open + mid]);
                    rest = &rest[open + mid + close + 1..];
                }
                None => break,
            },
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown file's headings (ATX headings, `#` to
/// `######`, outside fenced code). A repeated anchor gets `-1`, `-2`, … as
/// on GitHub.
fn anchors(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in without_fences(text).lines() {
        let trimmed = line.trim_start_matches(' ');
        if line.len() - trimmed.len() > 3 {
            continue;
        }
        let level = trimmed.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) {
            continue;
        }
        let after = &trimmed[level..];
        if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t')) {
            continue;
        }
        let title = after.trim().trim_end_matches('#').trim_end();
        let base = slug(title);
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.push(anchor);
    }
    found
}

/// `%XX` escapes decoded (a link to `a%20b.md` names `a b.md`).
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(byte) = hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The broken links of markdown `text` that lives at `file` (its relative
/// links are resolved from `file`'s directory; a link starting with `/`
/// from the repository's root), one message each.
fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().expect("a file has a directory");
    let name = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut broken = Vec::new();
    for (line, target) in links(text) {
        let lower = target.to_ascii_lowercase();
        if ["http://", "https://", "mailto:"]
            .iter()
            .any(|scheme| lower.starts_with(scheme))
        {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target.as_str(), None),
        };
        let path = percent_decoded(path);
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else if let Some(from_root) = path.strip_prefix('/') {
            root().join(from_root)
        } else {
            dir.join(&path)
        };
        if !resolved.exists() {
            broken.push(format!(
                "{name}:{line}: '{target}': no file {}",
                resolved.display()
            ));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        if resolved.extension().is_none_or(|ext| ext != "md") {
            continue;
        }
        let heading_text = if path.is_empty() {
            text.to_string()
        } else {
            std::fs::read_to_string(&resolved).unwrap_or_default()
        };
        if !anchors(&heading_text).iter().any(|a| a == anchor) {
            broken.push(format!(
                "{name}:{line}: '{target}': no heading with the anchor #{anchor}"
            ));
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_readme_and_docs_resolves() {
    let files = markdown_files();
    assert!(files.len() > 2, "README.md and docs/*.md: found {files:?}");
    let mut broken = Vec::new();
    let mut relative = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a markdown file is readable");
        relative += links(&text)
            .iter()
            .filter(|(_, t)| !t.contains("://"))
            .count();
        broken.extend(broken_links(file, &text));
    }
    // The README links to every docs file, so a checker that found no links
    // would be checking nothing.
    assert!(relative >= 10, "only {relative} relative links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checker_reports_made_up_broken_links_and_nothing_else() {
    // Checked as if it were the README at the repository's root.
    let text = "\
# A page

See [the rules](docs/RULES.md), [the board](docs/RULES.md#the-board),
[this page](#a-page), [a folder](crates/), [the web](https://example.org/x.md)
and [mail](mailto:someone@example.org).

A [missing file](docs/NO-SUCH-FILE.md) and a [missing heading](docs/RULES.md#no-such-heading),
and [a missing anchor here](#nowhere).

`[in a code span](docs/NOT-A-LINK.md)` is code.

```
[in a fence](docs/NOT-A-LINK-EITHER.md)
```
";
    let broken = broken_links(&root().join("README.md"), text);
    let expected = [
        ("README.md:7:", "docs/NO-SUCH-FILE.md"),
        ("README.md:7:", "docs/RULES.md#no-such-heading"),
        ("README.md:8:", "#nowhere"),
    ];
    assert_eq!(broken.len(), expected.len(), "reported: {broken:#?}");
    for ((place, target), message) in expected.iter().zip(&broken) {
        assert!(
            message.starts_with(place) && message.contains(&format!("'{target}'")),
            "expected {place} '{target}', got {message}"
        );
    }
}

#[test]
fn reference_definitions_are_links_too() {
    let text = "Text.\n\n[gone]: missing/reference.md\n[here]: docs/RULES.md\n";
    let broken = broken_links(&root().join("README.md"), text);
    assert_eq!(broken.len(), 1, "reported: {broken:#?}");
    assert!(broken[0].starts_with("README.md:3:"), "{}", broken[0]);
}

#[test]
fn anchors_follow_githubs_rules() {
    assert_eq!(percent_decoded("a%20b.md"), "a b.md");
    assert_eq!(percent_decoded("100%"), "100%");
    assert_eq!(
        slug("Network evaluation (NNUE): the pipeline"),
        "network-evaluation-nnue-the-pipeline"
    );
    assert_eq!(
        slug("Self-play data: `chariot-tools datagen`"),
        "self-play-data-chariot-tools-datagen"
    );
    assert_eq!(
        slug("Strength: before the network"),
        "strength-before-the-network"
    );
    assert_eq!(
        slug("snake_case and [a link](x.md)"),
        "snake_case-and-a-link"
    );
    assert_eq!(
        anchors("# Title\n## Part\n```\n# not a heading\n```\n## Part\n#nospace\n"),
        ["title", "part", "part-1"]
    );
}
