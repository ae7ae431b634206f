//! The version that Cargo.toml gives every crate (and `chariot --version`
//! says) is the one CHANGELOG.md's newest heading names: a release's
//! `X.Y.Z (COMMIT, tagged vX.Y.Z)`, or on main after it `X.Y.Z-dev
//! (unreleased: …)`.

/// The newest version heading of the changelog: its version and the rest.
fn newest_heading(changelog: &str) -> Option<(&str, &str)> {
    changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|h| h.split_once(' ').unwrap_or((h, "")))
        .find(|(v, _)| v.starts_with(|c: char| c.is_ascii_digit()))
}

#[test]
fn the_changelogs_newest_version_is_cargos() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md"))
        .expect("CHANGELOG.md is readable");
    let (version, rest) = newest_heading(&text).expect("a version heading in CHANGELOG.md");
    assert_eq!(
        version,
        env!("CARGO_PKG_VERSION"),
        "CHANGELOG.md's newest heading"
    );
    if version.ends_with("-dev") {
        assert!(
            rest.starts_with("(unreleased"),
            "a -dev version is unreleased: {rest}"
        );
    } else {
        assert!(
            rest.contains(&format!("tagged v{version})")),
            "a release names its tag: {rest}"
        );
    }
    assert!(chariot::version().starts_with(&format!("{version} (")));
}

#[test]
fn a_heading_is_read_as_a_version_and_the_rest() {
    let text = "# Changelog\n\n## Contents\n\n## 1.2.0 (abc1234, tagged v1.2.0)\n\n## 1.1.0\n";
    assert_eq!(
        newest_heading(text),
        Some(("1.2.0", "(abc1234, tagged v1.2.0)"))
    );
    assert_eq!(newest_heading("## Before 1.0.0\n"), None);
}
