// A static file server for the built page (scripts/build-web.sh output) on 127.0.0.1, as the
// browser test needs it: for `F` it sends the precompressed `F.br` or `F.gz` beside it when the
// request accepts that encoding (with `Content-Encoding`, `Vary` and `F`'s own Content-Type), as
// scripts/serve-web.py and the game server do. Every response is recorded in `served`.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

export const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".ron": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".ttf": "font/ttf",
  ".json": "application/json",
};

// Best first: [suffix, Content-Encoding].
const ENCODINGS = [
  [".br", "br"],
  [".gz", "gzip"],
];

/** The encodings an Accept-Encoding header allows (`;q=0` refuses one). */
function accepted(header = "") {
  return new Set(
    header
      .split(",")
      .map((part) => part.trim().split(";"))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ""))
      .map(([name]) => name.trim().toLowerCase()),
  );
}

const isFile = (path) => stat(path).then((s) => s.isFile(), () => false);

/**
 * Serves `root` on 127.0.0.1 (a free port). Returns `{ server, origin, served }`; `served` maps
 * each URL path to `{ encoding, bytes }` of its last response.
 */
export async function serveStatic(root) {
  const served = new Map();
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const accepts = accepted(request.headers["accept-encoding"]);
      let body = null;
      let encoding = null;
      for (const [suffix, name] of ENCODINGS) {
        if (accepts.has(name) && (await isFile(file + suffix))) {
          body = await readFile(file + suffix);
          encoding = name;
          break;
        }
      }
      body ??= await readFile(file);
      const headers = {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Content-Length": body.length,
        "Cache-Control": "no-store",
        Vary: "Accept-Encoding",
      };
      if (encoding) headers["Content-Encoding"] = encoding;
      response.writeHead(200, headers);
      response.end(body);
      served.set(path, { encoding, bytes: body.length });
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, served };
}
