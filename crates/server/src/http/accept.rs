//! The accept loop: every TCP connection is counted (in all and per address), HTTP/1 is served
//! by hyper with a header-read timeout, and an HTTP connection over which nothing moves for a
//! while is closed. `axum::serve` does none of that: idle connections stayed open for ever and,
//! past the open-file limit, locked everyone out.
use std::{
    collections::HashMap,
    io,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::{Router, extract::ConnectInfo};
use boardcraft_protocol::{ErrorCode, http::ApiError};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::watch,
    time::Instant,
};
use tracing::{debug, info, warn};

use crate::{Settings, client_addr::ClientIp};

/// Open TCP connections: in all, and per address (addresses of trusted proxies not counted
/// per address: their clients are told apart by `X-Forwarded-For`).
pub struct ConnectionCounts {
    inner: Mutex<Counts>,
    max_total: u32,
    max_per_ip: u32,
}

#[derive(Default)]
struct Counts {
    total: u32,
    per_ip: HashMap<IpAddr, u32>,
}

/// Why a connection was not taken.
enum Full {
    Server,
    Address,
}

impl ConnectionCounts {
    pub fn new(max_total: u32, max_per_ip: u32) -> Arc<ConnectionCounts> {
        Arc::new(ConnectionCounts {
            inner: Mutex::new(Counts::default()),
            max_total,
            max_per_ip,
        })
    }

    /// Open connections now.
    pub fn total(&self) -> u32 {
        self.inner.lock().expect("not poisoned").total
    }

    fn open(self: &Arc<Self>, ip: IpAddr, per_ip_limited: bool) -> Result<TcpSlot, Full> {
        let mut counts = self.inner.lock().expect("not poisoned");
        if self.max_total != 0 && counts.total >= self.max_total {
            return Err(Full::Server);
        }
        if per_ip_limited {
            let n = counts.per_ip.entry(ip).or_insert(0);
            if self.max_per_ip != 0 && *n >= self.max_per_ip {
                return Err(Full::Address);
            }
            *n += 1;
        }
        counts.total += 1;
        Ok(TcpSlot {
            counts: self.clone(),
            ip: per_ip_limited.then_some(ip),
        })
    }
}

/// A counted connection; dropped with its socket (after an upgrade, the websocket's).
struct TcpSlot {
    counts: Arc<ConnectionCounts>,
    ip: Option<IpAddr>,
}

impl Drop for TcpSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.inner.lock().expect("not poisoned");
        counts.total -= 1;
        if let Some(ip) = self.ip
            && let Some(n) = counts.per_ip.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                counts.per_ip.remove(&ip);
            }
        }
    }
}

/// A socket that notes when a byte last moved either way, and holds its connection's slot.
struct Watched {
    stream: TcpStream,
    last: Arc<AtomicU64>,
    epoch: Instant,
    _slot: TcpSlot,
}

impl Watched {
    fn touch(&self) {
        self.last
            .store(self.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Refusals being answered at once, at most.
const MAX_REFUSING: u64 = 256;

/// Accepts connections until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    router: Router,
    settings: Arc<Settings>,
    counts: Arc<ConnectionCounts>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut last_accept_warning: Option<Instant> = None;
    let refusing = Arc::new(AtomicU64::new(0));
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors (or another passing error): wait a little rather
                // than spin, and say so once a second at most.
                if last_accept_warning.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                    warn!(
                        open = counts.total(),
                        "accept error: {e} (see --max-connections)"
                    );
                    last_accept_warning = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let trusted = settings.trusted_proxies.contains(&peer.ip());
        match counts.open(peer.ip(), !trusted) {
            Ok(slot) => {
                let watched = Watched {
                    stream,
                    last: Arc::new(AtomicU64::new(0)),
                    epoch: Instant::now(),
                    _slot: slot,
                };
                tokio::spawn(connection(
                    watched,
                    peer,
                    router.clone(),
                    settings.clone(),
                    stop_rx.clone(),
                ));
            }
            Err(full) => {
                let (status, code, message) = match full {
                    Full::Server => (
                        "503 Service Unavailable",
                        ErrorCode::ServerBusy,
                        format!(
                            "the server has {} connections open, its limit: try again soon",
                            counts.max_total
                        ),
                    ),
                    Full::Address => (
                        "429 Too Many Requests",
                        ErrorCode::TooManyConnections,
                        format!("at most {} connections from one address", counts.max_per_ip),
                    ),
                };
                // Answering costs a descriptor for up to 2 s: past a few hundred answers in
                // flight (a flood), a connection is just closed.
                if refusing.load(Ordering::Relaxed) >= MAX_REFUSING {
                    drop(stream);
                    continue;
                }
                info!(ip = %peer.ip(), code = %code, "refused a connection: {message}");
                refusing.fetch_add(1, Ordering::Relaxed);
                let refusing = refusing.clone();
                tokio::spawn(async move {
                    refuse(stream, status, code, message).await;
                    refusing.fetch_sub(1, Ordering::Relaxed);
                });
            }
        }
    }
    let _ = stop_tx.send(true);
    Ok(())
}

/// Answers a connection that is over a limit with a JSON error and closes it. The request is
/// read first (briefly), so that closing does not reset the connection before the client has
/// read the answer.
async fn refuse(mut stream: TcpStream, status: &str, code: ErrorCode, message: String) {
    let body = serde_json::to_string(&ApiError {
        code,
        message,
        game: None,
    })
    .expect("an error serialises");
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let mut head = Vec::new();
        let mut buf = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
            }
        }
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    })
    .await;
}

/// One HTTP connection: hyper with the header-read timeout, the client's address on every
/// request, and the idle watch (until an upgrade hands the socket to a websocket, which keeps
/// its own idle timeout with pings).
async fn connection(
    watched: Watched,
    peer: SocketAddr,
    router: Router,
    settings: Arc<Settings>,
    mut stop: watch::Receiver<bool>,
) {
    let last = watched.last.clone();
    let epoch = watched.epoch;
    let trusted = settings.trusted_proxies.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let client = crate::client_addr::resolve(peer, request.headers(), &trusted);
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(ClientIp(client));
        let mut router = router.clone();
        tower_service::Service::call(&mut router, request)
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_read_timeout)
        .keep_alive(true);
    let conn = builder
        .serve_connection(TokioIo::new(watched), service)
        .with_upgrades();
    let mut conn = std::pin::pin!(conn);
    let idle = settings.http_idle_timeout;
    let mut check_at = Instant::now() + idle;
    let mut stopping = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    debug!(ip = %peer.ip(), "HTTP connection ended: {e}");
                }
                return;
            }
            _ = tokio::time::sleep_until(check_at) => {
                let quiet_since = epoch + Duration::from_millis(last.load(Ordering::Relaxed));
                if quiet_since.elapsed() >= idle {
                    debug!(ip = %peer.ip(), "closing an HTTP connection: nothing moved for {idle:?}");
                    return;
                }
                check_at = quiet_since + idle;
            }
            _ = stop.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}
