// The browser test: serves the built page on 127.0.0.1, opens it in headless Chromium (the
// system's /usr/bin/chromium, driven over the DevTools protocol by playwright-core, with
// SwiftShader as the WebGL2 device) and checks that the game really runs:
//
//   1. the game starts: <body data-app-state="in-game"> (the page attributes are documented in
//      web/index.html); a game that cannot start fails with its data-error;
//   2. the options in the URL were read and the moves given with `after` were played: the
//      game's move list (data-line) starts with exactly those moves;
//   3. the board is drawn: a screenshot is not blank (many colours, no single colour covering
//      almost everything);
//   4. the computer plays in the browser: both sides are computer players, and at least one
//      more move than `after` gives is played (data-ply grows, data-last-move is new);
//   5. nothing went wrong: no console error (Bevy logs errors and panics there), no uncaught
//      exception, no failed request.
//
// It also measures, and prints without judging (timings depend on the machine): the time
// from the page load to the game's first frame and to the first non-blank screenshot, and
// the intervals between the browser's frames (requestAnimationFrame) while a computer side
// thinks, to show that the search yields to the page.
//
// Usage: node browser-test.mjs --dist <built page> --out <folder for screenshots and logs>
//        [--chromium /usr/bin/chromium] [--timeout <seconds for each wait>]
// Exit status: 0 if every check passed, 1 otherwise (the reason is printed).
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

// The game under test: a few moves in, both sides played by the computer so it keeps
// thinking (Master searches the longest).
const VARIANT = "ugolki-hg-3x3";
const AFTER = ["g2:e2", "b7:d7"];
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

async function main() {
  await stat(join(dist, "boardcraft_bg.wasm")).catch(() => {
    throw new Error(`${dist} holds no built game (run scripts/build-web.sh first)`);
  });
  await mkdir(out, { recursive: true });
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
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
    page.on("console", (message) => {
      const line = `[${message.type()}] ${message.text()}`;
      log.push(line);
      if (message.type() === "error" || /panicked at/.test(message.text())) {
        fail(`console: ${message.text()}`);
      } else if (message.type() === "warning") {
        console.log(`console warning: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => {
      log.push(`[pageerror] ${error.stack ?? error}`);
      fail(`uncaught exception: ${error.message}`);
    });
    page.on("requestfailed", (request) => {
      fail(`request failed: ${request.url()} (${request.failure()?.errorText})`);
    });
    page.on("response", (response) => {
      if (response.status() >= 400) fail(`HTTP ${response.status()} for ${response.url()}`);
    });

    const query = new URLSearchParams({
      variant: VARIANT,
      after: AFTER.join(" "),
      white: "master",
      black: "master",
    });
    const url = `${origin}/?${query}`;
    console.log(`opening ${url}`);
    const opened = Date.now();
    await page.goto(url);
    const attr = (name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);

    // 1. The game starts.
    const state = await waitFor("the game starting", waitSeconds, async () => {
      const s = await attr("app-state");
      return s && s !== "loading" ? s : null;
    });
    if (state !== "in-game") {
      throw new Error(`the game did not start (${state}): ${await attr("error")}`);
    }
    const firstFrameMs = Number(await attr("first-frame-ms"));
    console.log(`game started: first frame ${firstFrameMs} ms after the page load began`);

    // 2. The URL's options were read and its moves played.
    const line = (await attr("line")).split(" ");
    if ((await attr("variant")) !== VARIANT) fail(`variant is ${await attr("variant")}`);
    if (AFTER.some((move, i) => line[i] !== move)) {
      fail(`the game's moves ${line.join(" ")} do not start with ${AFTER.join(" ")}`);
    }

    // 3. The board is drawn (shaders compile over the first frames: wait for a picture).
    let look;
    const firstPicture = await waitFor("a non-blank picture", waitSeconds, async () => {
      const png = await page.screenshot();
      look = describe(png);
      return isDrawn(look) ? png : null;
    }).catch((e) => {
      fail(`${e.message}; last picture: ${JSON.stringify(look)}`);
      return null;
    });
    const drawnMs = await page.evaluate(() => performance.now());
    if (firstPicture) {
      await writeFile(join(out, "first-picture.png"), firstPicture);
      console.log(
        `board drawn: first non-blank screenshot ${drawnMs.toFixed(0)} ms after the page load began ` +
          `(${JSON.stringify(look)})`,
      );
    }

    // 4. The computer plays; meanwhile record every browser frame and who was thinking.
    const plyBefore = Number(await attr("ply"));
    await page.evaluate(() => {
      window.__frames = [];
      const record = (t) => {
        window.__frames.push([t, document.body.getAttribute("data-thinking") ?? ""]);
        window.__frameRecorder = requestAnimationFrame(record);
      };
      window.__frameRecorder = requestAnimationFrame(record);
    });
    await sleep(MEASURE_SECONDS * 1000);
    const frames = await page.evaluate(() => {
      cancelAnimationFrame(window.__frameRecorder);
      return window.__frames;
    });
    const thinking = [];
    const other = [];
    for (let i = 1; i < frames.length; i++) {
      const interval = frames[i][0] - frames[i - 1][0];
      // An interval counts as "thinking" when the search ran at both of its ends.
      (frames[i][1] && frames[i - 1][1] ? thinking : other).push(interval);
    }
    const frameStats = { thinking: stats(thinking), other: stats(other) };
    console.log(
      `frames over ${MEASURE_SECONDS} s: ${frames.length}; intervals in ms while a computer ` +
        `thinks ${JSON.stringify(frameStats.thinking)}, otherwise ${JSON.stringify(frameStats.other)}`,
    );
    if (thinking.length === 0) fail("no frame was drawn while the computer was thinking");

    await waitFor("a computer move", waitSeconds, async () => Number(await attr("ply")) > plyBefore)
      .catch((e) => fail(e.message));
    const plyAfter = Number(await attr("ply"));
    const finalLine = await attr("line");
    console.log(`moves played in the browser: ${plyAfter - AFTER.length} (line: ${finalLine})`);
    if (plyAfter <= AFTER.length) fail("the computer did not move");

    const png = await page.screenshot();
    await writeFile(join(out, "board.png"), png);
    const finalLook = describe(png);
    if (!isDrawn(finalLook)) fail(`the last picture is blank: ${JSON.stringify(finalLook)}`);
    console.log(`screenshot: ${join(out, "board.png")} ${JSON.stringify(finalLook)}`);

    const report = {
      url,
      firstFrameMs,
      firstNonBlankPictureMs: Math.round(drawnMs),
      testSeconds: (Date.now() - opened) / 1000,
      frameIntervalsMs: frameStats,
      line: finalLine,
      failures,
    };
    await writeFile(join(out, "report.json"), JSON.stringify(report, null, 2) + "\n");
  } finally {
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
