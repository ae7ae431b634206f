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

/// The markdown files whose links are checked: every `*.md` at the
/// repository's root (`README.md`, `README.zh-CN.md`, `CHANGELOG.md`,
/// `CONTRIBUTING.md`) and under `docs/`, subfolders included, in a fixed
/// order.
fn markdown_files() -> Vec<PathBuf> {
    fn markdown_in(dir: &Path, recurse: bool, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                if recurse {
                    markdown_in(&path, true, out);
                }
            } else if path.extension().is_some_and(|ext| ext == "md") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    markdown_in(&root(), false, &mut files);
    markdown_in(&root().join("docs"), true, &mut files);
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

/// A markdown file of the repository, read.
fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative))
        .unwrap_or_else(|e| panic!("{relative} is readable: {e}"))
}

/// The cells of a markdown table row (`| a | b |` → `["a", "b"]`), or
/// `None` for a line that is not a row or is the `|---|` rule.
fn row_cells(line: &str) -> Option<Vec<String>> {
    let line = line.trim();
    let inner = line.strip_prefix('|')?.strip_suffix('|')?;
    let cells: Vec<String> = inner.split('|').map(|c| c.trim().to_string()).collect();
    if cells
        .iter()
        .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
    {
        return None;
    }
    Some(cells)
}

/// The text of a cell's first code span (`` `Hash` `` → `Hash`), or `None`
/// for a dash or a cell without one.
fn code_name(cell: &str) -> Option<String> {
    let start = cell.find('`')?;
    let rest = &cell[start + 1..];
    Some(rest[..rest.find('`')?].to_string())
}

/// The (UCCI, UCI) option pairs of every table whose header starts
/// `| UCCI | UCI |` in a markdown text; a UCI name of `—` is `None`.
fn option_rows(text: &str) -> Vec<(String, Option<String>)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in without_fences(text).lines() {
        if !line.trim_start().starts_with('|') {
            in_table = false;
            continue;
        }
        let Some(cells) = row_cells(line) else {
            continue;
        };
        if cells.len() >= 2 && cells[0] == "UCCI" && cells[1] == "UCI" {
            in_table = true;
            continue;
        }
        if in_table {
            let ucci = code_name(&cells[0]).expect("an options row names its UCCI option in code");
            rows.push((ucci, code_name(&cells[1])));
        }
    }
    rows
}

/// The option names the engine advertises after `handshake` (`ucci` or
/// `uci`), from its `option` lines.
fn advertised_options(handshake: &str) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    child
        .stdin
        .take()
        .expect("a pipe to the engine")
        .write_all(format!("{handshake}\nquit\n").as_bytes())
        .expect("the engine reads its input");
    let output = child.wait_with_output().expect("the engine exits");
    let stdout = String::from_utf8(output.stdout).expect("the engine writes UTF-8");
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("option ")?;
            let rest = rest.strip_prefix("name ").unwrap_or(rest);
            Some(rest[..rest.find(" type ")?].to_string())
        })
        .collect()
}

#[test]
fn the_protocol_options_table_names_exactly_the_options_the_engine_advertises() {
    let rows = option_rows(&read("docs/PROTOCOL.md"));
    let mut documented_ucci: Vec<String> = rows.iter().map(|(u, _)| u.clone()).collect();
    let mut documented_uci: Vec<String> = rows.iter().filter_map(|(_, u)| u.clone()).collect();
    let mut ucci = advertised_options("ucci");
    let mut uci = advertised_options("uci");
    assert!(
        ucci.len() > 10 && uci.len() > 10,
        "ucci {ucci:?}, uci {uci:?}"
    );
    for list in [
        &mut documented_ucci,
        &mut documented_uci,
        &mut ucci,
        &mut uci,
    ] {
        list.sort();
    }
    assert_eq!(
        documented_ucci, ucci,
        "PROTOCOL.md's UCCI column against `ucci`"
    );
    assert_eq!(
        documented_uci, uci,
        "PROTOCOL.md's UCI column against `uci`"
    );
}

#[test]
fn the_readmes_options_are_rows_of_the_protocol_table() {
    let full = option_rows(&read("docs/PROTOCOL.md"));
    for readme in ["README.md", "README.zh-CN.md"] {
        let rows = option_rows(&read(readme));
        assert!(rows.len() >= 5, "{readme}: only {} options", rows.len());
        for row in &rows {
            assert!(
                full.contains(row),
                "{readme}: {row:?} is not a row of PROTOCOL.md's options table"
            );
        }
    }
    assert_eq!(
        option_rows(&read("README.md")),
        option_rows(&read("README.zh-CN.md")),
        "the two READMEs list the same options in the same order"
    );
}

/// The commands of a markdown text: every fenced block's lines and every
/// code span (a fenced line without its ` # ` comment), each with its runs
/// of white space made one space, sorted.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if is_fence(line) {
            fenced = !fenced;
        } else if fenced {
            // A shell comment is prose, in each README's own language.
            let code = line.split(" # ").next().unwrap_or(line);
            found.push(code.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    let prose = without_fences(text);
    let mut rest = prose.as_str();
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        found.push(
            after[..close]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        rest = &after[close + 1..];
    }
    found.sort();
    found
}

/// The figures of a markdown text's prose (code left out): every run that
/// starts with a digit (with a `+` or `−` just before it kept) and goes on
/// with letters, digits, `.` and `,` (so `+146`, `11.1`, `2,000` and a
/// commit such as `9af9af5`), sorted.
fn figures(text: &str) -> Vec<String> {
    let prose = without_code_spans(&without_fences(text));
    let chars: Vec<char> = prose.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric());
        if !starts {
            i += 1;
            continue;
        }
        let mut token = String::new();
        if i > 0 && (chars[i - 1] == '+' || chars[i - 1] == '−') {
            token.push(chars[i - 1]);
        }
        while i < chars.len()
            && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == ',')
        {
            token.push(chars[i]);
            i += 1;
        }
        found.push(token.trim_end_matches(['.', ',']).to_string());
    }
    found.sort();
    found
}

/// The relative link targets of a markdown text, sorted, without the
/// links between the two READMEs.
fn doc_links(text: &str) -> Vec<String> {
    let mut found: Vec<String> = links(text)
        .into_iter()
        .map(|(_, target)| target)
        .filter(|t| !t.contains("://") && !t.starts_with("README"))
        .collect();
    found.sort();
    found
}

#[test]
fn the_chinese_readme_names_the_same_commands_figures_and_links() {
    let english = read("README.md");
    let chinese = read("README.zh-CN.md");
    assert!(english.contains("(README.zh-CN.md)") && chinese.contains("(README.md)"));
    let (en, zh) = (commands(&english), commands(&chinese));
    assert!(en.len() > 20, "only {} commands in README.md", en.len());
    assert_eq!(en, zh, "commands: README.md against README.zh-CN.md");
    let (en, zh) = (figures(&english), figures(&chinese));
    assert!(
        en.iter().any(|f| f.starts_with('+')),
        "README.md gives no figure: {en:?}"
    );
    assert_eq!(en, zh, "figures: README.md against README.zh-CN.md");
    assert_eq!(
        doc_links(&english),
        doc_links(&chinese),
        "links into the documents"
    );
}

#[test]
fn the_readme_comparison_sees_figures_and_commands() {
    assert_eq!(
        figures("Beats 8f66d54 by +146 Elo at 10 s + 0.1 s; `go depth 5` is 2,000 nodes."),
        ["+146", "0.1", "10", "2,000", "8f66d54"]
    );
    assert_eq!(
        figures("第三代网络（15b46bc），200 局 +541 Elo。"),
        ["+541", "15b46bc", "200"]
    );
    assert_eq!(
        commands("Run `cargo   run`.\n```sh\nscripts/test.sh   # all\n```\n"),
        ["cargo run", "scripts/test.sh"]
    );
    assert_eq!(
        option_rows("| UCCI | UCI | meaning |\n|---|---|---|\n| `hashsize` | `Hash` | MB |\n| `idle` | — | x |\n\ntext\n"),
        [("hashsize".to_string(), Some("Hash".to_string())), ("idle".to_string(), None)]
    );
}

/// The `##` headings of a markdown text, outside fenced code.
fn second_level_headings(text: &str) -> Vec<String> {
    without_fences(text)
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .map(|title| title.trim().to_string())
        .collect()
}

#[test]
fn long_documents_open_with_a_table_of_contents() {
    let mut missing = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("a markdown file is readable");
        if text.lines().count() <= 300 {
            continue;
        }
        let name = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let headings = second_level_headings(&text);
        let Some(at) = text.find("\n## Contents\n") else {
            missing.push(format!("{name}: over 300 lines and no '## Contents'"));
            continue;
        };
        let contents: String = text[at + 13..]
            .lines()
            .take_while(|line| !line.starts_with("## "))
            .collect::<Vec<_>>()
            .join("\n");
        let listed: Vec<String> = links(&contents).into_iter().map(|(_, t)| t).collect();
        for heading in headings.iter().filter(|h| h.as_str() != "Contents") {
            let anchor = format!("#{}", slug(heading));
            if !listed.contains(&anchor) {
                missing.push(format!("{name}: the contents leave out '{heading}'"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
