//! Which evaluation the engine uses: the built-in network, the classical
//! (hand-shaped, Texel-tuned) evaluation, or a net file.
//!
//! `nnue.rs` is the network itself and its file format; this module chooses
//! among evaluations, as the `evalfile` option, `chariot bench --evalfile`
//! and the tools' `--evalfile` name them:
//!
//! - `<built-in>` (or nothing, or `<empty>`): the net compiled into the
//!   engine ([`BUILTIN_NET`]), or the classical evaluation should it not
//!   read;
//! - `<classical>`: the classical evaluation, for comparing and for
//!   matches against it;
//! - anything else: the path of a net file, checked by magic, size, shape
//!   and hash ([`Network::from_bytes`]).

use crate::nnue::{Network, MAX_FILE_LEN};
use std::io::Read;
use std::sync::{Arc, OnceLock};

/// The built-in network's file under `nets/`, named after its hash
/// ([`Network::short_hash`]; a test checks the name). A macro, so that
/// `include_bytes!` and [`BUILTIN_NET_FILE`] share the one literal.
macro_rules! builtin_net_file {
    () => {
        "chariot-d738824c3562.nnue"
    };
}

/// The built-in network's file name under `nets/`.
pub const BUILTIN_NET_FILE: &str = builtin_net_file!();

/// The name a net's file takes under `nets/`: `chariot-` and the first 12
/// hex digits of its hash.
pub fn committed_name(net: &Network) -> String {
    format!("chariot-{}.nnue", net.short_hash())
}

/// The built-in network, compiled into the engine and used unless
/// `evalfile` says otherwise.
pub const BUILTIN_NET: &[u8] = include_bytes!(concat!("../nets/", builtin_net_file!()));

/// The name the built-in evaluation goes by (the option's default value).
pub const BUILTIN_NAME: &str = "<built-in>";
/// The name of the classical evaluation.
pub const CLASSICAL_NAME: &str = "<classical>";

/// The built-in net, read once (a test checks that it reads; should it
/// not, the engine says so and plays with the classical evaluation).
pub fn builtin_net() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(BUILTIN_NET) {
        Ok(net) => Some(Arc::new(net)),
        Err(e) => {
            log::error!("the built-in net does not read ({e}); using the classical evaluation");
            None
        }
    })
    .clone()
}

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
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
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
