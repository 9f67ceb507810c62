//! Passwords: Argon2id hashing with bounded memory and a bounded queue, and the strength rule.
//!
//! - Argon2id (the crate's defaults: 19 MiB, 2 passes) needs 19 MiB of working memory for
//!   every hash. Left to `spawn_blocking`, a burst of sign-ins hashes on as many threads as
//!   there are requests, and the allocator keeps much of the memory after the burst (seen:
//!   40 sign-ins at once raised the resident size by 600–700 MB, which stayed). Here a fixed
//!   number of worker threads (the cores, by default) each own one working memory, allocated
//!   once and reused: the hashing memory is `workers × 19 MiB`, whatever the load.
//! - Requests wait in a short queue; past it they are refused at once with
//!   [`HashError::Busy`] (503 `server_busy` with `Retry-After`), rather than piling up.
//! - [`check_strength`]: at least 8 characters, at most 256 bytes, and not too easy to guess
//!   (zxcvbn: common passwords, names, dates, keyboard walks, the account's own name).
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use argon2::{
    Algorithm, Argon2, Block, Params, Version,
    password_hash::phc::{Output, ParamsString, PasswordHash, Salt},
};
use subtle::ConstantTimeEq;
use tokio::sync::oneshot;

/// Passwords: at least this many characters …
pub const MIN_CHARS: usize = 8;
/// … and at most this many bytes (Argon2 reads all of it).
pub const MAX_BYTES: usize = 256;
/// The lowest zxcvbn score (0–4) a new password may have: 2 is "somewhat guessable"
/// (more than 10⁶ guesses), which online guessing behind the sign-in limits cannot reach.
const MIN_SCORE: u8 = 2;

/// Why a hash was not computed.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// Every worker is busy and the queue is full: try again in a moment.
    #[error("the server is busy hashing passwords; try again in a moment")]
    Busy,
    #[error("hashing failed: {0}")]
    Failed(String),
}

enum Task {
    Hash(String),
    Verify { password: String, phc: String },
}

enum Done {
    Hashed(Result<String, String>),
    Verified(bool),
}

struct Job {
    task: Task,
    reply: oneshot::Sender<Done>,
}

/// The hashing workers and their queue.
pub struct Hasher {
    queue: SyncSender<Job>,
    workers: usize,
    queue_len: usize,
}

impl Hasher {
    /// `workers` threads (0: one per core) and room for `queue` waiting requests.
    pub fn new(workers: usize, queue: usize) -> Hasher {
        let workers = match workers {
            0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
            n => n,
        };
        let (tx, rx) = sync_channel::<Job>(queue);
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        for i in 0..workers {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("password-hash-{i}"))
                .spawn(move || worker(rx))
                .expect("a thread starts");
        }
        Hasher {
            queue: tx,
            workers,
            queue_len: queue,
        }
    }

    /// Threads hashing at once.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Requests that may wait for a worker.
    pub fn queue_len(&self) -> usize {
        self.queue_len
    }

    async fn run(&self, task: Task) -> Result<Done, HashError> {
        let (reply, done) = oneshot::channel();
        match self.queue.try_send(Job { task, reply }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => return Err(HashError::Busy),
            Err(TrySendError::Disconnected(_)) => {
                return Err(HashError::Failed("the hashing threads stopped".into()));
            }
        }
        done.await
            .map_err(|_| HashError::Failed("the hashing thread stopped".into()))
    }

    /// The PHC string of `password` with a fresh random salt.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        match self.run(Task::Hash(password)).await? {
            Done::Hashed(r) => r.map_err(HashError::Failed),
            Done::Verified(_) => unreachable!("a hash task answers Hashed"),
        }
    }

    /// Whether `password` matches the PHC string `phc` (false for an unreadable `phc`).
    pub async fn verify(&self, password: String, phc: String) -> Result<bool, HashError> {
        match self.run(Task::Verify { password, phc }).await? {
            Done::Verified(ok) => Ok(ok),
            Done::Hashed(_) => unreachable!("a verify task answers Verified"),
        }
    }
}

fn worker(rx: std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<Job>>>) {
    // This thread's working memory: allocated at the first job, then reused for every one.
    let mut memory: Vec<Block> = Vec::new();
    loop {
        let job = {
            let rx = rx.lock().expect("not poisoned");
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let done = match job.task {
            Task::Hash(password) => Done::Hashed(hash_with(&mut memory, &password)),
            Task::Verify { password, phc } => {
                Done::Verified(verify_with(&mut memory, &password, &phc))
            }
        };
        let _ = job.reply.send(done);
    }
}

fn memory_for(memory: &mut Vec<Block>, params: &Params) -> Result<(), String> {
    let blocks = params.block_count();
    // A stored hash made with other (larger) parameters could ask for any amount: those are
    // only ours, but a bound keeps a corrupt row from allocating gigabytes.
    if blocks > 4 * Params::DEFAULT.block_count() {
        return Err(format!("a hash that needs {blocks} KiB of memory"));
    }
    memory.resize(blocks, Block::default());
    Ok(())
}

fn hash_with(memory: &mut Vec<Block>, password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| e.to_string())?;
    let params = Params::DEFAULT;
    memory_for(memory, &params)?;
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    argon
        .hash_password_into_with_memory(password.as_bytes(), &salt, &mut out, &mut memory[..])
        .map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(Salt::new(&salt).map_err(|e| e.to_string())?),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

fn verify_with(memory: &mut Vec<Block>, password: &str, phc: &str) -> bool {
    let mut check = || -> Result<bool, String> {
        let hash = PasswordHash::new(phc).map_err(|e| e.to_string())?;
        let algorithm = Algorithm::try_from(hash.algorithm.as_str()).map_err(|e| e.to_string())?;
        let version = match hash.version {
            Some(v) => Version::try_from(v).map_err(|e| e.to_string())?,
            None => Version::default(),
        };
        let params = Params::try_from(&hash).map_err(|e| e.to_string())?;
        let (Some(salt), Some(expected)) = (&hash.salt, &hash.hash) else {
            return Ok(false);
        };
        memory_for(memory, &params)?;
        let mut out = vec![0u8; expected.len()];
        Argon2::new(algorithm, version, params)
            .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut memory[..])
            .map_err(|e| e.to_string())?;
        Ok(bool::from(out.ct_eq(expected.as_bytes())))
    };
    check().unwrap_or_else(|e| {
        tracing::warn!("a stored password hash could not be checked: {e}");
        false
    })
}

/// Why a new password is refused: the words a player reads.
pub fn check_strength(password: &str, name: &str) -> Result<(), String> {
    let chars = password.chars().count();
    if chars < MIN_CHARS || password.len() > MAX_BYTES {
        return Err(format!(
            "a password has at least {MIN_CHARS} characters and at most {MAX_BYTES} bytes"
        ));
    }
    let entropy = zxcvbn::zxcvbn(password, &[name, "boardcraft"]);
    if (entropy.score() as u8) < MIN_SCORE {
        let mut why = "this password is too easy to guess".to_owned();
        if let Some(feedback) = entropy.feedback() {
            if let Some(warning) = feedback.warning() {
                why.push_str(&format!(" ({warning})"));
            }
            if let Some(suggestion) = feedback.suggestions().first() {
                why.push_str(&format!(": {suggestion}"));
            }
        }
        why.push_str("; a few unusual words together make a good one");
        return Err(why);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_match_the_crates_own() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let hasher = Hasher::new(1, 4);
        let phc = hasher.hash("kettle vivid moss".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(
            hasher
                .verify("kettle vivid moss".into(), phc.clone())
                .await
                .unwrap()
        );
        assert!(
            !hasher
                .verify("kettle vivid mosS".into(), phc.clone())
                .await
                .unwrap()
        );
        // The crate's own verifier accepts ours, and ours accepts the crate's (the hashes
        // stored before this module existed).
        assert!(
            Argon2::default()
                .verify_password(b"kettle vivid moss", phc.as_str())
                .is_ok()
        );
        let theirs = Argon2::default()
            .hash_password_with_salt(b"older one", b"0123456789abcdef")
            .unwrap()
            .to_string();
        assert!(
            hasher
                .verify("older one".into(), theirs.clone())
                .await
                .unwrap()
        );
        assert!(!hasher.verify("older two".into(), theirs).await.unwrap());
        assert!(
            !hasher
                .verify("x".into(), "not a hash".into())
                .await
                .unwrap()
        );
    }

    #[tokio::test]
    async fn a_full_queue_refuses_at_once() {
        let hasher = std::sync::Arc::new(Hasher::new(1, 1));
        let mut tasks = Vec::new();
        for i in 0..8 {
            let h = hasher.clone();
            tasks.push(tokio::spawn(async move {
                h.hash(format!("password {i}")).await
            }));
        }
        let mut busy = 0;
        let mut done = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(_) => done += 1,
                Err(HashError::Busy) => busy += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert!(done >= 1 && busy >= 1, "done {done}, busy {busy}");
        assert!(
            done <= 2 + 1,
            "one at work and one waiting (and one picked meanwhile): {done}"
        );
    }

    #[test]
    fn weak_passwords_are_refused_with_a_reason() {
        for weak in [
            "password",
            "12345678",
            "qwertyuiop",
            "Anna1990",
            "boardcraft1",
            "aaaaaaaaaa",
        ] {
            let why = check_strength(weak, "Anna").expect_err(weak);
            assert!(why.contains("too easy to guess"), "{weak}: {why}");
        }
        assert!(
            check_strength("short", "Anna")
                .unwrap_err()
                .contains("at least 8")
        );
        assert!(check_strength(&"x".repeat(300), "Anna").is_err());
        for fine in [
            "kettle vivid moss",
            "correct horse battery staple",
            "Ёжик в тумане 1975",
        ] {
            assert!(check_strength(fine, "Anna").is_ok(), "{fine}");
        }
    }
}
