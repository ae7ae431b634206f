//! The stdin reader thread: splits input into lines without trusting it.
//! Lines longer than `MAX_LINE` bytes are not kept (only their length and
//! first words are reported), a line that is not UTF-8 is read as GBK
//! (`crate::gui_text`), and EOF is an event.

use super::Event;
use std::io::{BufRead, ErrorKind};
use std::sync::mpsc::Sender;

/// Longest line kept, in bytes. A real game's `position … moves …` line is a
/// few kilobytes.
pub const MAX_LINE: usize = 1 << 20;

/// Starts the reader thread.
pub fn spawn(tx: Sender<Event>) {
    let result = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &tx));
    if let Err(e) = result {
        log::error!("cannot start the input thread: {e}");
    }
}

fn emit(tx: &Sender<Event>, buf: &mut Vec<u8>, len: usize) -> bool {
    let event = if len > MAX_LINE {
        let head: String = String::from_utf8_lossy(&buf[..buf.len().min(64)])
            .chars()
            .take(40)
            .collect();
        Event::Overlong { len, head }
    } else {
        Event::Line(crate::gui_text::decode_line(buf))
    };
    buf.clear();
    tx.send(event).is_ok()
}

/// Reads lines from `input` until EOF or a read error, sending each as an event.
pub fn read_lines<R: BufRead>(mut input: R, tx: &Sender<Event>) {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::error!("reading stdin failed: {e}; treating it as end of input");
                break;
            }
        };
        if chunk.is_empty() {
            if len > 0 && !emit(tx, &mut buf, len) {
                return;
            }
            break;
        }
        let (part, consumed, end_of_line) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len()).min(part.len());
        // Keep a little past the limit so an overlong line is recognised.
        buf.extend_from_slice(&part[..(room + 1).min(part.len())]);
        len = len.saturating_add(part.len());
        input.consume(consumed);
        if end_of_line {
            if !emit(tx, &mut buf, len) {
                return;
            }
            len = 0;
        }
    }
    let _ = tx.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn lines(input: &[u8]) -> Vec<String> {
        let (tx, rx) = channel();
        read_lines(std::io::Cursor::new(input.to_vec()), &tx);
        drop(tx);
        rx.iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Overlong { len, .. } => format!("<overlong {len}>"),
                Event::Eof => "<eof>".into(),
                _ => "<other>".into(),
            })
            .collect()
    }

    #[test]
    fn splits_lines_and_reports_eof() {
        assert_eq!(
            lines(b"ucci\r\nisready\nquit"),
            vec!["ucci\r", "isready", "quit", "<eof>"]
        );
        assert_eq!(lines(b""), vec!["<eof>"]);
    }

    #[test]
    fn survives_garbage_and_huge_lines() {
        // Neither UTF-8 nor GBK (0xff begins no GBK character).
        let mut input = vec![0xff, 0xff, b'x', b'\n'];
        input.extend(std::iter::repeat_n(b'a', MAX_LINE + 10));
        input.extend(b"\nisready\n");
        let got = lines(&input);
        assert_eq!(got[0], "\u{fffd}\u{fffd}x");
        assert_eq!(got[1], format!("<overlong {}>", MAX_LINE + 10));
        assert_eq!(got[2], "isready");
    }
}
