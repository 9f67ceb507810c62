// The browser test: serves the built page on 127.0.0.1, opens it in headless Chromium (the
// system's /usr/bin/chromium, driven over the DevTools protocol by playwright-core, with
// SwiftShader as the WebGL2 device) and checks, for each scenario below, that the game really
// runs:
//
//   1. the game starts: <body data-app-state="in-game"> (the page attributes are documented in
//      web/index.html); a game that cannot start fails with its data-error; the loading
//      indicator is gone and the canvas fills the page;
//   2. the options in the URL were read and the moves given with `after` were played: the
//      game's move list (data-line) starts with exactly those moves; every variant file the
//      manifest lists loaded over HTTP and is playable (data-variants);
//   3. the board is drawn: screenshots are not blank (many colours, no single colour covering
//      almost everything);
//   4. with computer players, the computer plays in the browser: more moves are played than
//      `after` gives (data-ply grows);
//   5. nothing went wrong: no console error (Bevy logs errors and panics there), no uncaught
//      exception, no failed request.
//
// It also measures, and prints without judging (timings depend on the machine): the time
// from the page load to the game's first frame and to the first non-blank screenshot, and
// the intervals between the browser's frames (requestAnimationFrame) while a computer side
// thinks and otherwise, to show that the search yields to the page. Only a page that draws
// no frame at all during a long search (a freeze) fails.
//
// Usage: node browser-test.mjs --dist <built page> --out <folder for screenshots and logs>
//        [--chromium /usr/bin/chromium] [--timeout <seconds for each wait>]
// Output: <scenario>.png (last picture), <scenario>-first.png (first non-blank picture),
//         report.json (timings), console.log (everything the pages logged).
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { createServer } from "node:http";
import { readFile, writeFile, mkdir, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";
import { PNG } from "pngjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "web-test-output");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 600);

// What the test opens. `computers`: both sides are computer players (Master searches the
// longest), so the page is measured while they think; the other opens a different family
// (hex board, reserves) with a flag option, human against human.
const SCENARIOS = [
  {
    name: "ugolki",
    options: { variant: "ugolki-hg-3x3", after: "g2:e2 b7:d7", white: "master", black: "master" },
    computers: true,
  },
  {
    name: "gipf",
    options: {
      variant: "gipf-standard",
      after: "e1-e2 e9-e8 a1-b2 i5-h5",
      white: "human",
      black: "human",
      "top-down": "",
    },
    computers: false,
  },
];
const MEASURE_SECONDS = 20;

const failures = [];
const fail = (why) => {
  failures.push(why);
  console.error(`FAIL: ${why}`);
};

function parseArgs(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith("--")) throw new Error(`unexpected argument ${argv[i]}`);
    parsed[argv[i].slice(2)] = argv[i + 1];
    i++;
  }
  return parsed;
}

// --- a static file server for the built page (no other server needed)
const TYPES = {
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

function serve(root) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
        "Cache-Control": "no-store",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

// --- pictures
/** How a PNG screenshot looks: share of its most common colour, number of distinct colours. */
function describe(png) {
  const image = PNG.sync.read(png);
  const counts = new Map();
  const { data } = image;
  for (let i = 0; i < data.length; i += 4) {
    // 4 bits per channel: small gradients and noise do not count as colours.
    const key = ((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const pixels = data.length / 4;
  const dominant = Math.max(...counts.values()) / pixels;
  return { width: image.width, height: image.height, dominant, colours: counts.size };
}

/** Blank: one colour covers nearly everything, or hardly any colours (a cleared canvas). */
const isDrawn = (look) => look.dominant < 0.9 && look.colours >= 24;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function waitFor(what, seconds, check) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(500);
  }
}

const stats = (values) => {
  if (values.length === 0) return { count: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * q))];
  return {
    count: values.length,
    median: +pick(0.5).toFixed(1),
    p95: +pick(0.95).toFixed(1),
    max: +sorted[sorted.length - 1].toFixed(1),
  };
};

/** Opens the game with `options` in a new page; collects its console into `log`. */
async function openGame(browser, origin, options, log) {
  const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
  // Bevy logs every level with console.log ("%cERROR%c file:line%c message" when coloured),
  // so its level is read from the text; console.error is what panics use.
  const warned = new Set();
  page.on("console", (message) => {
    const text = message.text();
    log.push(`[${message.type()}] ${text}`);
    const level = /^(?:%c)?(ERROR|WARN|INFO|DEBUG|TRACE)\b/.exec(text)?.[1];
    if (message.type() === "error" || level === "ERROR" || /panicked at/.test(text)) {
      fail(`console: ${text}`);
    } else if (message.type() === "warning" || level === "WARN") {
      const plain = text.replace(/%c/g, "").replace(/ color: .*$/, "");
      if (!warned.has(plain)) console.log(`console warning: ${plain}`);
      warned.add(plain);
    }
  });
  page.on("pageerror", (error) => {
    log.push(`[pageerror] ${error.stack ?? error}`);
    fail(`uncaught exception: ${error.message}`);
  });
  page.on("request", (request) => log.push(`[request] ${request.url()}`));
  page.on("requestfinished", (request) => log.push(`[finished] ${request.url()}`));
  page.on("requestfailed", (request) => {
    const why = request.failure()?.errorText;
    log.push(`[failed] ${request.url()} ${why}`);
    // ERR_ABORTED is the browser cancelling a request itself (seen now and then for the
    // .wasm while the game still started from it); what a lost file would break, the checks
    // below notice. Any other failure is an error.
    if (why === "net::ERR_ABORTED") console.log(`note: request aborted by the browser: ${request.url()}`);
    else fail(`request failed: ${request.url()} (${why})`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) fail(`HTTP ${response.status()} for ${response.url()}`);
  });
  const url = `${origin}/?${new URLSearchParams(options)}`;
  console.log(`opening ${url}`);
  log.push(`--- ${url}`);
  await page.goto(url);
  const attr = (name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);
  return { page, url, attr };
}

/**
 * Checks 1–3 and 5 for an opened game: it starts, every shipped variant loaded over HTTP,
 * `after` was played, the board is drawn. Returns the timings.
 */
async function checkStarted({ page, attr }, options, shipped, picture) {
  const state = await waitFor("the game starting", waitSeconds, async () => {
    const s = await attr("app-state");
    return s && s !== "loading" ? s : null;
  });
  if (state !== "in-game") {
    throw new Error(`the game did not start (${state}): ${await attr("error")}`);
  }
  const firstFrameMs = Number(await attr("first-frame-ms"));
  console.log(`game started: first frame ${firstFrameMs} ms after the page load began`);
  // The page: the loading indicator is gone and the canvas fills the window.
  if (!(await page.locator("#loading").isHidden())) fail("the loading indicator is still shown");
  const canvas = await page.evaluate(() => {
    const c = document.getElementById("bevy");
    const box = c.getBoundingClientRect();
    return { width: box.width, height: box.height, pixels: [c.width, c.height], window: [innerWidth, innerHeight] };
  });
  if (canvas.width !== canvas.window[0] || canvas.height !== canvas.window[1]) {
    fail(`the canvas does not fill the page: ${JSON.stringify(canvas)}`);
  }

  if ((await attr("variant")) !== options.variant) fail(`variant is ${await attr("variant")}`);
  const after = options.after.split(" ");
  const line = (await attr("line")).split(" ");
  if (after.some((move, i) => line[i] !== move)) {
    fail(`the game's moves ${line.join(" ")} do not start with ${after.join(" ")}`);
  }
  // The library loads every file of the manifest (the game starts as soon as its own is in).
  const variants = await waitFor("the variant library", waitSeconds, async () => {
    const [ready, broken] = [Number(await attr("variants")), Number(await attr("broken-variants"))];
    return ready + broken >= shipped ? { ready, broken } : null;
  }).catch((e) => fail(e.message));
  if (variants && (variants.ready !== shipped || variants.broken !== 0)) {
    fail(`variants: ${variants.ready} playable, ${variants.broken} broken; the manifest lists ${shipped}`);
  }

  // Shaders compile over the first frames: wait for a picture.
  let look;
  const png = await waitFor("a non-blank picture", waitSeconds, async () => {
    const shot = await page.screenshot();
    look = describe(shot);
    return isDrawn(look) ? shot : null;
  }).catch((e) => {
    fail(`${e.message}; last picture: ${JSON.stringify(look)}`);
    return null;
  });
  const drawnMs = Math.round(await page.evaluate(() => performance.now()));
  if (png) {
    await writeFile(join(out, picture), png);
    console.log(
      `board drawn: first non-blank screenshot ${drawnMs} ms after the page load began ` +
        `(${join(out, picture)}: ${JSON.stringify(look)})`,
    );
  }
  return { firstFrameMs, firstNonBlankPictureMs: drawnMs };
}

/**
 * Check 4 and the frame measurement: while the computers play, records every browser frame
 * and when a search ran (data-thinking set), both on the page's clock.
 */
async function measureComputerPlay({ page, attr }, after) {
  const plyBefore = Number(await attr("ply"));
  await page.evaluate(() => {
    const record = { frames: [], searches: [] };
    window.__record = record;
    const thinking = () => document.body.getAttribute("data-thinking") ?? "";
    let since = thinking() ? performance.now() : null;
    record.observer = new MutationObserver(() => {
      const now = performance.now();
      if (thinking() && since === null) since = now;
      if (!thinking() && since !== null) {
        record.searches.push([since, now]);
        since = null;
      }
    });
    record.observer.observe(document.body, { attributeFilter: ["data-thinking"] });
    record.finish = () => {
      if (since !== null) record.searches.push([since, performance.now()]);
    };
    const frame = (t) => {
      record.frames.push(t);
      record.raf = requestAnimationFrame(frame);
    };
    record.raf = requestAnimationFrame(frame);
  });
  await sleep(MEASURE_SECONDS * 1000);
  const { frames, searches } = await page.evaluate(() => {
    const record = window.__record;
    cancelAnimationFrame(record.raf);
    record.observer.disconnect();
    record.finish();
    return { frames: record.frames, searches: record.searches };
  });
  // A frame interval is "while thinking" if a search ran during any part of it.
  const thinking = [];
  const other = [];
  for (let i = 1; i < frames.length; i++) {
    const [from, to] = [frames[i - 1], frames[i]];
    const overlaps = searches.some(([start, end]) => start < to && end > from);
    (overlaps ? thinking : other).push(to - from);
  }
  const frameStats = {
    frames: frames.length,
    thinking: stats(thinking),
    other: stats(other),
    searches: stats(searches.map(([start, end]) => end - start)),
  };
  console.log(
    `${frames.length} frames in ${MEASURE_SECONDS} s; frame intervals (ms) while a computer ` +
      `thinks ${JSON.stringify(frameStats.thinking)}, otherwise ${JSON.stringify(frameStats.other)}; ` +
      `searches (ms) ${JSON.stringify(frameStats.searches)}`,
  );
  // A frozen page: a search long enough for five ordinary frames, without any frame.
  const typical = frameStats.other.median ?? 0;
  for (const [start, end] of searches) {
    const drawn = frames.some((t) => t > start && t < end);
    if (typical > 0 && end - start > 5 * typical && !drawn) {
      fail(`no frame during a ${(end - start).toFixed(0)} ms search (frames take ~${typical} ms)`);
    }
  }

  await waitFor("a computer move", waitSeconds, async () => Number(await attr("ply")) > plyBefore)
    .catch((e) => fail(e.message));
  // The search runs in slices, each one task of the page's event loop: the longest slice is
  // the longest the computer kept the page from drawing.
  const searching = {
    searches: Number(await attr("searches")),
    longestSliceMs: Number(await attr("longest-slice-ms")),
    lastSearchMs: Number(await attr("last-search-ms")),
  };
  frameStats.searching = searching;
  console.log(
    `computer searches so far: ${searching.searches}; longest slice ${searching.longestSliceMs} ms ` +
      `(the last search took ${searching.lastSearchMs} ms)`,
  );
  if (searching.searches < 1) fail("no search finished");
  const line = await attr("line");
  const played = Number(await attr("ply")) - after.split(" ").length;
  console.log(`moves the computers played in the browser: ${played} (line: ${line})`);
  if (played < 1) fail("the computer did not move");
  return { frameIntervalsMs: frameStats, line };
}

async function main() {
  await stat(join(dist, "boardcraft_bg.wasm")).catch(() => {
    throw new Error(`${dist} holds no built game (run scripts/build-web.sh first)`);
  });
  await mkdir(out, { recursive: true });
  const manifest = await readFile(join(dist, "assets/variants/manifest.ron"), "utf8");
  const shipped = (manifest.match(/"[^"]+\.ron"/g) ?? []).length;
  if (shipped === 0) throw new Error("the built manifest lists no variants");
  const server = await serve(dist);
  const origin = `http://127.0.0.1:${server.address().port}`;

  const browser = await chromium.launch({
    executablePath,
    headless: true,
    // playwright-core starts Chromium with a fresh temporary profile (--user-data-dir) of
    // its own. The machine has no network: nothing may phone home.
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
  const log = [];
  const report = { scenarios: [], failures };
  try {
    for (const scenario of SCENARIOS) {
      console.log(`== ${scenario.name}`);
      const started = Date.now();
      const game = await openGame(browser, origin, scenario.options, log);
      const result = { name: scenario.name, url: game.url };
      Object.assign(result, await checkStarted(game, scenario.options, shipped, `${scenario.name}-first.png`));
      if (scenario.computers) {
        Object.assign(result, await measureComputerPlay(game, scenario.options.after));
      }
      const png = await game.page.screenshot();
      await writeFile(join(out, `${scenario.name}.png`), png);
      const look = describe(png);
      if (!isDrawn(look)) fail(`${scenario.name}: the last picture is blank: ${JSON.stringify(look)}`);
      console.log(`screenshot: ${join(out, `${scenario.name}.png`)} ${JSON.stringify(look)}`);
      result.seconds = (Date.now() - started) / 1000;
      report.scenarios.push(result);
      await game.page.close();
    }
  } finally {
    await writeFile(join(out, "report.json"), JSON.stringify(report, null, 2) + "\n");
    await writeFile(join(out, "console.log"), log.join("\n") + "\n");
    await browser.close();
    server.close();
  }
}

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    if (failures.length > 0) {
      console.error(`browser test FAILED (${failures.length} problem(s)); console log: ${join(out, "console.log")}`);
      process.exit(1);
    }
    console.log(`browser test passed; output in ${out}`);
  });
