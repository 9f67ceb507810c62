//! The client's address: the TCP peer's, or — when the peer is a configured proxy
//! (`--trusted-proxy`) — the one it wrote into `X-Forwarded-For`. The header is a list that
//! every proxy appends to, so it is read from the right, past the trusted proxies; anything
//! further left was written by the client and proves nothing.
use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// The address per-address limits count and logs show (a request extension).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The client's address for a request that came from `peer`.
pub fn resolve(peer: SocketAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let peer = peer.ip();
    if !trusted.contains(&peer) {
        return peer;
    }
    // Every X-Forwarded-For header in order, each a comma-separated list.
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for hop in hops.iter().rev() {
        match parse_hop(hop) {
            Some(ip) if trusted.contains(&ip) => continue,
            Some(ip) => return ip,
            // Garbage where an address should be: stop believing the list.
            None => return peer,
        }
    }
    peer
}

/// An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:80`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    hop.parse::<SocketAddr>().ok().map(|a| a.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_trusted_proxies_are_believed() {
        let proxy: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "203.0.113.9:5000".parse().unwrap();
        let trusted = ["10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap()];
        let h = headers(&["198.51.100.7, 10.0.0.2"]);
        assert_eq!(
            resolve(proxy, &h, &trusted),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        // The same header from a stranger is ignored.
        assert_eq!(resolve(stranger, &h, &trusted), stranger.ip());
        // A forged address left of the real client's is not used.
        let h = headers(&["1.1.1.1", "198.51.100.7:443"]);
        assert_eq!(
            resolve(proxy, &h, &trusted),
            "198.51.100.7".parse::<IpAddr>().unwrap()
        );
        // No header, or garbage: the proxy itself.
        assert_eq!(resolve(proxy, &HeaderMap::new(), &trusted), proxy.ip());
        assert_eq!(
            resolve(proxy, &headers(&["not an address"]), &trusted),
            proxy.ip()
        );
        assert_eq!(
            resolve(proxy, &headers(&["[2001:db8::1]:80"]), &trusted),
            "2001:db8::1".parse::<IpAddr>().unwrap()
        );
    }
}
