// A static file server for the built page (scripts/build-web.sh output) on 127.0.0.1, as the
// browser test needs it: for `F` it sends the precompressed `F.br` or `F.gz` beside it when the
// request accepts that encoding (with `Content-Encoding`, `Vary` and `F`'s own Content-Type), as
// scripts/serve-web.py and the game server do, with their Cache-Control. Every response is
// recorded in `served`.
import { once } from "node:events";
import { sleep } from "./harness.mjs";
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

/**
 * A slow network between the page and this server, made by the server itself, for the browser
 * test's load measurement: with `set({ mbps, latencyMs })`, every response waits `latencyMs`
 * before its first byte (as Chromium's emulation adds its latency once per request), and the
 * bodies of all responses share one link of `mbps` megabits a second: the link sends one
 * 16 kB chunk at a time, taking the responses in turn, each chunk when its last byte would
 * have crossed the link. `set(null)`: loopback again.
 *
 * Why not only Chromium's emulation (CDP `Network.emulateNetworkConditions`): on a plain
 * `fetch` of 4.93 MB it delivered about half the rate asked for (2 December 2026: "10 Mbit/s"
 * gave 4.7–5.2 Mbit/s, "20" gave 9.3, "40" gave 15.6), so "at 10 Mbit/s" would have measured
 * a 5 Mbit/s network. The browser test prints the rate each way delivers (its link check).
 * Not modelled: TCP's slow start and the handshakes of a real connection.
 */
export class Link {
  static CHUNK = 16 * 1024;
  conditions = null;
  // Responses with bytes still to send: { response, body, at, done, closed() }.
  queue = [];
  pumping = false;

  set(conditions) {
    this.conditions = conditions && conditions.mbps > 0 ? conditions : null;
  }

  /** Waits for the latency, then sends the head (`writeHead`, called here) and the body. */
  async send(response, status, headers, body) {
    const conditions = this.conditions;
    if (!conditions) {
      response.writeHead(status, headers).end(body);
      return;
    }
    // A response whose page is gone (the load measurement closes each page at its first
    // frame, with files still coming) stops taking turns on the link.
    let closed = false;
    once(response, "close").then(
      () => (closed = true),
      () => (closed = true),
    );
    await sleep(conditions.latencyMs);
    if (closed) return;
    response.writeHead(status, headers);
    await new Promise((done) => {
      this.queue.push({ response, body, at: 0, done, closed: () => closed });
      this.pump();
    });
    if (!closed) response.end();
  }

  /**
   * Sends the queued chunks at the link's rate while any are queued. The schedule is kept from
   * the start of the busy spell (`freeAt`), not from each timer, so that timers firing late
   * (they never fire early) do not slow the link down: the next wait is shorter.
   */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    let freeAt = performance.now();
    while (this.queue.length > 0) {
      const job = this.queue.shift();
      if (job.closed()) {
        job.done();
        continue;
      }
      const chunk = job.body.subarray(job.at, job.at + Link.CHUNK);
      job.at += chunk.length;
      if (this.conditions) {
        freeAt += chunk.length / ((this.conditions.mbps * 1e6) / 8 / 1000);
        await sleep(freeAt - performance.now());
      }
      // No wait for "drain": the browser on loopback reads far faster than any slow link.
      if (!job.closed()) job.response.write(chunk);
      if (job.at < job.body.length && !job.closed()) this.queue.push(job);
      else job.done();
    }
    this.pumping = false;
  }
}

const isFile = (path) => stat(path).then((s) => s.isFile(), () => false);

/**
 * Serves `root` on 127.0.0.1 (a free port). Returns `{ server, origin, served, link }`; `served`
 * maps each URL path to `{ encoding, bytes }` of its last response; `link` (a `Link`) slows
 * every response down when set.
 */
export async function serveStatic(root) {
  const served = new Map();
  const link = new Link();
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
      served.set(path, { encoding, bytes: body.length });
      // A page closed mid-download (the load measurement closes each context) ends it.
      await link.send(response, 200, headers, body).catch(() => response.destroy());
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, served, link };
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
