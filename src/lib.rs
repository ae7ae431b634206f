//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The library holds everything; the `chariot` binary is a thin front end.

// Measured exceptions, each with its SAFETY argument and a test: the hash
// table's zeroed allocation and its prefetch (search/tt.rs), and the AVX2
// kernels of the network evaluation (eval/nnue.rs).
#![deny(unsafe_code)]

use std::sync::LazyLock;

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod gui_text;
pub mod protocol;
pub mod search;
pub mod settings;
pub mod strength;
pub mod wdl;

/// The rules core the engine plays by.
pub use xiangqi;

/// The version and the built-in net's id, as `chariot --version` says it:
/// `1.1.0-dev (net d738824c3562)`. The id is the hash of the net compiled in
/// ([`eval::nets::builtin_net`]), the same that names its file under
/// `nets/`; a build that cannot read that net (another hidden-layer
/// width) says `no built-in net`.
pub fn version() -> &'static str {
    static VERSION: LazyLock<String> = LazyLock::new(|| {
        let net = match eval::nets::builtin_net() {
            Some(net) => format!("net {}", net.short_hash()),
            None => "no built-in net".to_string(),
        };
        format!("{} ({net})", env!("CARGO_PKG_VERSION"))
    });
    &VERSION
}

/// The engine's name and [`version`], as `id name` and the terminal
/// greeting say it: `Chariot 1.1.0-dev (net d738824c3562)`.
pub fn engine_name() -> &'static str {
    static NAME: LazyLock<String> = LazyLock::new(|| format!("Chariot {}", version()));
    &NAME
}
