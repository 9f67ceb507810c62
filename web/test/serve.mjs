// A static file server for the built page (scripts/build-web.sh output) on 127.0.0.1, as the
// browser test needs it: for `F` it sends the precompressed `F.br` or `F.gz` beside it when the
// request accepts that encoding (with `Content-Encoding`, `Vary` and `F`'s own Content-Type), as
// scripts/serve-web.py and the game server do, with their Cache-Control. Every response is
// recorded in `served`.
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
  ".webmanifest": "application/manifest+json",
};

/** As scripts/serve-web.py and the game server: the hashed build files (b/<hash>/) for a year. */
export const cacheControl = (path) =>
  path.startsWith("/b/") ? "public, max-age=31536000, immutable" : "no-cache";

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
        "Cache-Control": cacheControl(path),
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

/**
 * The build in a built page folder (scripts/build-web.sh): its manifest build.json
 * (`{ build, dir, files }`) and `file(path)`, where a file of the build lies on disk. Throws
 * when the folder holds no build.
 */
export async function builtGame(dist) {
  const text = await readFile(join(dist, "build.json"), "utf8").catch(() => {
    throw new Error(`${dist} holds no built game (run scripts/build-web.sh first)`);
  });
  const manifest = JSON.parse(text);
  return { ...manifest, file: (path) => join(dist, manifest.dir, path) };
}
