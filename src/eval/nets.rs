//! The nets the engine ships: the built-in network, compiled in from its
//! file under `nets/`, and the name such a file takes.

use super::nnue::Network;
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
pub const BUILTIN_NET: &[u8] = include_bytes!(concat!("../../nets/", builtin_net_file!()));

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
