//! Which evaluation the engine uses: the built-in network, the classical
//! (hand-shaped, Texel-tuned) evaluation, or a net file.
//!
//! `classical.rs` is the classical evaluation (with its feature `layout`
//! and its weights, `params`), `nnue.rs` the network and its file format,
//! `nets.rs` the built-in net; this module chooses among evaluations, as
//! the `evalfile` option, `chariot bench --evalfile` and the tools'
//! `--evalfile` name them:
//!
//! - `<built-in>` (or nothing, or `<empty>`): the net compiled into the
//!   engine ([`nets::BUILTIN_NET`]), or the classical evaluation should it
//!   not read;
//! - `<classical>`: the classical evaluation, for comparing and for
//!   matches against it;
//! - anything else: the path of a net file, checked by magic, size, shape
//!   and hash ([`Network::from_bytes`]).

pub mod classical;
pub mod layout;
pub mod nets;
pub mod nnue;
pub mod params;

// The classical evaluation's items under `eval::`, as the search, the
// tools and the tests name them.
pub use classical::*;

use nets::builtin_net;
use nnue::{Network, MAX_FILE_LEN};
use std::io::Read;
use std::sync::Arc;

/// The name the built-in evaluation goes by (the option's default value).
pub const BUILTIN_NAME: &str = "<built-in>";
/// The name of the classical evaluation.
pub const CLASSICAL_NAME: &str = "<classical>";

/// An evaluation: a network, or the classical evaluation (`net: None`).
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    pub net: Option<Arc<Network>>,
    /// What chose it: [`BUILTIN_NAME`], [`CLASSICAL_NAME`] or a file's path.
    pub source: String,
}

impl Evaluation {
    /// The default evaluation: the built-in net, if there is one.
    pub fn builtin() -> Evaluation {
        Evaluation {
            net: builtin_net(),
            source: BUILTIN_NAME.into(),
        }
    }

    /// The classical evaluation.
    pub fn classical() -> Evaluation {
        Evaluation {
            net: None,
            source: CLASSICAL_NAME.into(),
        }
    }

    /// The net in the file at `path`. Reads at most one byte more than a
    /// net file has, so that a device or a huge file is refused at once.
    pub fn from_file(path: &str) -> Result<Evaluation, String> {
        let file = std::fs::File::open(crate::gui_text::on_disk(path))
            .map_err(|e| format!("cannot read it: {e}"))?;
        let mut bytes = Vec::with_capacity(MAX_FILE_LEN + 1);
        file.take(MAX_FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read it: {e}"))?;
        let net = Network::from_bytes(&bytes).map_err(|e| e.to_string())?;
        Ok(Evaluation {
            net: Some(Arc::new(net)),
            source: path.to_string(),
        })
    }

    /// The evaluation a value of `evalfile` names: empty, `<empty>` or
    /// `<built-in>` for the built-in one, `<classical>`, or a file's path.
    pub fn from_name(name: &str) -> Result<Evaluation, String> {
        match name.trim() {
            "" | "<empty>" | BUILTIN_NAME => Ok(Evaluation::builtin()),
            CLASSICAL_NAME => Ok(Evaluation::classical()),
            path => Evaluation::from_file(path),
        }
    }

    /// Says what it is, for logs and messages.
    pub fn describe(&self) -> String {
        match (&self.net, self.source.as_str()) {
            (Some(net), BUILTIN_NAME) => format!("the built-in network {:016x}", net.hash()),
            (Some(net), path) => format!("network {:016x} from {path}", net.hash()),
            (None, _) => "the classical evaluation".into(),
        }
    }
}
