#!/usr/bin/env python3
"""Serves the browser build (scripts/build-web.sh) on 127.0.0.1 for playing it locally.

    scripts/serve-web.py [--port 8080] [--bind 127.0.0.1] DIR

Like `python3 -m http.server`, plus what the game's download needs: for `F` it sends the
precompressed `F.br` (brotli) or `F.gz` (gzip) beside it when the browser accepts that
encoding, with `Content-Encoding`, `Vary: Accept-Encoding` and `F`'s own `Content-Type` (the
page compiles the wasm while it streams in, which needs `application/wasm`), and what the
installable, offline page needs: `application/manifest+json` for the web app manifest,
`Cache-Control: no-cache` for the page, sw.js and build.json (checked on every load, so a new
build is seen at once) and a year's `max-age` for the build's files under b/<hash>/ (their URL
changes with their contents). Standard library only.
"""

import argparse
import http.server
import os
import sys

# (suffix, Content-Encoding, the token in Accept-Encoding), best first.
ENCODINGS = [(".br", "br", "br"), (".gz", "gzip", "gzip")]
TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".ron": "text/plain; charset=utf-8",
    ".wav": "audio/wav",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
}
# The build's own files live under b/<hash>/ and never change (scripts/package-web.py).
IMMUTABLE = "public, max-age=31536000, immutable"


def cache_control(url_path):
    """What browsers may keep: the hashed build files for a year, the rest checked each time."""
    return IMMUTABLE if url_path.startswith("/b/") else "no-cache"


def accepted(header):
    """The encodings an Accept-Encoding header allows (a `;q=0` entry refuses one)."""
    tokens = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        tokens.add(name.strip().lower())
    return tokens


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        accepts = accepted(self.headers.get("Accept-Encoding", ""))
        for suffix, encoding, token in ENCODINGS:
            packed = path + suffix
            if token in accepts and os.path.isfile(packed):
                return self.send_file(packed, self.guess_type(path), encoding)
        return self.send_file(path, self.guess_type(path), None)

    def send_file(self, path, content_type, encoding):
        url_path = self.path.split("?", 1)[0]
        f = open(path, "rb")
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.send_header("Cache-Control", cache_control(url_path))
        self.end_headers()
        return f


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("dir")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        sys.exit(f"{args.dir} holds no built page (run scripts/build-web.sh first)")
    handler = lambda *a, **k: Handler(*a, directory=args.dir, **k)  # noqa: E731
    with http.server.ThreadingHTTPServer((args.bind, args.port), handler) as server:
        print(f"serving {args.dir} on http://{args.bind}:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
