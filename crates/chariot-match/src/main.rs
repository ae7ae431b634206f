//! The `chariot-match` binary: engine-vs-engine matches.

fn main() {
    std::process::exit(chariot_match::main(std::env::args_os().skip(1)));
}
