//! The browser game's folder on the same port: files, and their precompressed versions when
//! the browser accepts them.
use crate::support::{Server, http_full, settings};

#[tokio::test]
async fn the_web_folder_is_served_with_precompressed_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<html>boardcraft</html>").unwrap();
    std::fs::write(dir.path().join("game.wasm"), b"\0asm-plain").unwrap();
    std::fs::write(dir.path().join("game.wasm.br"), b"brotli-bytes").unwrap();
    std::fs::write(dir.path().join("game.wasm.gz"), b"gzip-bytes").unwrap();
    let server = Server::start(boardcraft_server::Settings {
        web_dir: Some(dir.path().to_path_buf()),
        ..settings()
    })
    .await;
    let header = |h: &[(String, String)], name: &str| {
        h.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    };
    let (status, _, body) = http_full(server.addr, "GET", "/", None, &[]).await;
    assert_eq!(
        (status, body.as_slice()),
        (200, &b"<html>boardcraft</html>"[..])
    );
    let (status, h, body) = http_full(
        server.addr,
        "GET",
        "/game.wasm",
        None,
        &[("Accept-Encoding", "gzip, br")],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(header(&h, "content-encoding").as_deref(), Some("br"));
    assert_eq!(body, b"brotli-bytes");
    let (_, h, body) = http_full(
        server.addr,
        "GET",
        "/game.wasm",
        None,
        &[("Accept-Encoding", "gzip")],
    )
    .await;
    assert_eq!(header(&h, "content-encoding").as_deref(), Some("gzip"));
    assert_eq!(body, b"gzip-bytes");
    let (_, h, body) = http_full(server.addr, "GET", "/game.wasm", None, &[]).await;
    assert_eq!(header(&h, "content-encoding"), None);
    assert_eq!(body, b"\0asm-plain");
    // The API is still the API.
    let (status, _, _) = http_full(server.addr, "GET", "/healthz", None, &[]).await;
    assert_eq!(status, 200);
    let (status, _, _) = http_full(server.addr, "GET", "/missing.js", None, &[]).await;
    assert_eq!(status, 404);
}
