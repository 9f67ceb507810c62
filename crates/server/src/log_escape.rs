//! Log lines that a client cannot forge. A move's notation, a variant's name and other client
//! text end up in log messages; a CR or LF in them would start what looks like a new line
//! (with a made-up time and level). The log writer escapes every control character of an
//! event except the final newline, so one event is always one line, whatever its fields hold.
use std::io::{self, Write};

use tracing_subscriber::fmt::MakeWriter;

/// Wraps a [`MakeWriter`]: what it makes escapes control characters.
pub struct Escaping<M>(pub M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Escaping<M> {
    type Writer = EscapingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        EscapingWriter(self.0.make_writer())
    }
}

/// tracing-subscriber's fmt layer formats an event into a buffer and writes it with one
/// `write_all` (which may arrive in several `write` calls): only a newline at the very end
/// of a write stays a newline.
pub struct EscapingWriter<W>(W);

/// `text` with control characters other than a final `\n` written as `\r`, `\n`, `\t`, `\u{7}`.
pub fn escape(text: &[u8]) -> Vec<u8> {
    let (body, end) = match text.split_last() {
        Some((b'\n', body)) => (body, &b"\n"[..]),
        _ => (text, &b""[..]),
    };
    let mut out = Vec::with_capacity(text.len() + 8);
    for &b in body {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            // ESC stays: the terminal's colours are written with it, and tracing escapes the
            // ESC in fields itself.
            0x1b => out.push(b),
            0..0x20 | 0x7f => out.extend_from_slice(format!("\\u{{{b:x}}}").as_bytes()),
            _ => out.push(b),
        }
    }
    out.extend_from_slice(end);
    out
}

impl<W: Write> Write for EscapingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(&escape(buf))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn one_event_is_one_line() {
        assert_eq!(
            escape(b"refused: a\nERROR forged\r\n"),
            b"refused: a\\nERROR forged\\r\n".to_vec()
        );
        assert_eq!(escape(b"bell\x07\n"), b"bell\\u{7}\n".to_vec());
        assert_eq!(escape(b"plain"), b"plain".to_vec());
    }
}
