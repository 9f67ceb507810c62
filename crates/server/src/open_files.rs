//! The open-file limit. Every connection is a file descriptor; Linux's usual soft limit of 1 024
//! is far below what the server is meant to carry, and the hard limit (often 524 288) is
//! there for the asking. Raised at start, and the connection cap is set below it so that the
//! server can still answer (503) and reach its database when the cap is hit.
// `rlim_t` is u64 here but not on every Unix: the casts stay.
#![allow(clippy::unnecessary_cast)]

/// Descriptors kept back from connections: the database, the web folder's files, logs.
pub const RESERVE: u64 = 128;

/// The soft open-file limit before and after raising it to the hard limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Raised {
    pub before: u64,
    pub after: u64,
    pub hard: u64,
}

/// Raises the soft limit to the hard limit (Unix; elsewhere nothing to do).
#[cfg(unix)]
pub fn raise() -> std::io::Result<Raised> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let before = limit.rlim_cur as u64;
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max;
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(Raised {
        before,
        after: limit.rlim_cur as u64,
        hard: limit.rlim_max as u64,
    })
}

#[cfg(not(unix))]
pub fn raise() -> std::io::Result<Raised> {
    Ok(Raised {
        before: 0,
        after: 0,
        hard: 0,
    })
}

/// The current soft limit (`None` where there is none to read).
pub fn soft_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: as above.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            return Some(limit.rlim_cur as u64);
        }
    }
    None
}

/// The connection cap when none is configured: the open-file limit less the reserve.
pub fn default_max_connections() -> u32 {
    match soft_limit() {
        Some(n) => n.saturating_sub(RESERVE).clamp(16, u32::MAX as u64) as u32,
        None => 10_000,
    }
}
