//! Standard output as a Unix pipeline expects it.
//!
//! When the reader of stdout goes away (`boardcraft-cli moves halma-16 | head -5`), the command
//! ends at once and quietly, as C tools such as `seq` or `yes` end: killed by SIGPIPE, which the
//! shell reports as status 141 (on other systems: exit status 0). Nothing is written to stderr.
//!
//! Rust starts programs with SIGPIPE ignored, so a write into a closed pipe fails with
//! `ErrorKind::BrokenPipe` (and `println!` panics on it). SIGPIPE stays ignored here: the pipes
//! to `match`'s engine processes and the `online` commands' sockets must report a peer that went
//! away as an error, not end the whole command. Only stdout's broken pipe ends the process:
//!
//! * every line of stdout goes through [`outln!`] / [`out!`] or the [`Out`] writer, which end
//!   the process on `BrokenPipe`;
//! * [`watch_the_reader`] ends it as soon as a pipe on stdout loses its reader, so that a
//!   command computing for a long time between two lines (a deep `perft` depth, the games of a
//!   `match` before its summary) does not compute on for nobody.
//!
//! Ending is immediate: destructors do not run, as with the signal's default action.

use std::{
    fmt,
    io::{self, Write},
};

/// Ends the process because stdout's reader is gone: by SIGPIPE's default action on Unix, with
/// exit status 0 elsewhere.
pub fn reader_gone() -> ! {
    #[cfg(unix)]
    {
        // SAFETY: SIG_DFL is a valid disposition for SIGPIPE; restoring it and raising the
        // signal terminates the whole process.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::raise(libc::SIGPIPE);
        }
        // Only reached if the signal is blocked in this thread: the status a shell would show.
        std::process::exit(128 + libc::SIGPIPE);
    }
    #[cfg(not(unix))]
    std::process::exit(0);
}

/// Writes to stdout; the body of [`out!`] and [`outln!`].
pub fn print(args: fmt::Arguments) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        failed(e);
    }
}

/// A failed write to stdout: a closed pipe ends the process quietly; any other error (a full
/// disk) ends it with the error on stderr and exit status 1.
fn failed(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        reader_gone();
    }
    eprintln!("error: writing to stdout: {e}");
    std::process::exit(1);
}

/// A writer (stdout, or its lock) whose broken pipe ends the process: the engine protocol's
/// output.
pub struct Out<W>(pub W);

impl<W: Write> Write for Out<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => reader_gone(),
            other => other,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => reader_gone(),
            other => other,
        }
    }
}

/// `print!` to stdout, ending the process quietly if its reader is gone.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::print(format_args!($($arg)*))
    };
}

/// `println!` to stdout, ending the process quietly if its reader is gone.
macro_rules! outln {
    () => {
        $crate::out::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// If stdout is a pipe, watches it from a thread of its own and ends the process (as
/// [`reader_gone`]) as soon as its last reader closes it, even while nothing is being written.
/// Linux reports that as `POLLERR` on the write end; where a system does not, the next write
/// still ends the process.
#[cfg(unix)]
pub fn watch_the_reader() {
    // SAFETY: fstat writes into the zeroed `stat` it is given; fd 1 may be closed, which
    // fstat reports as an error.
    let is_pipe = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(libc::STDOUT_FILENO, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFIFO
    };
    if !is_pipe {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("stdout-reader".into())
        .spawn(|| {
            loop {
                // No events asked for: poll reports only POLLERR, POLLHUP and POLLNVAL.
                let mut fd = libc::pollfd {
                    fd: libc::STDOUT_FILENO,
                    events: 0,
                    revents: 0,
                };
                // SAFETY: one valid pollfd, waiting without a timeout.
                let n = unsafe { libc::poll(&mut fd, 1, -1) };
                if n < 0 {
                    if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                        continue;
                    }
                    return;
                }
                if fd.revents & libc::POLLNVAL != 0 {
                    return;
                }
                if fd.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                    reader_gone();
                }
                if n > 0 {
                    return;
                }
            }
        });
}

#[cfg(not(unix))]
pub fn watch_the_reader() {}
