//! Chariot: a xiangqi (Chinese chess) engine.
//!
//! The library holds everything; the `chariot` binary is a thin front end.

// Measured exceptions, each with its SAFETY argument and a test: the hash
// table's zeroed allocation and its prefetch (search/tt.rs), and the AVX2
// kernels of the network evaluation (eval/nnue.rs).
#![deny(unsafe_code)]

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod search;
pub mod settings;
pub mod strength;
pub mod wdl;

/// The rules core the engine plays by.
pub use xiangqi;

/// Engine name and version, as `id name` reports it.
pub const ENGINE_NAME: &str = concat!("Chariot ", env!("CARGO_PKG_VERSION"));
