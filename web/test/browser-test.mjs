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
//      manifest lists is in the game's library and playable (data-variants);
//   3. the board is drawn: screenshots are not blank (many colours, no single colour covering
//      almost everything);
//   4. with computer players, the computer plays in the browser: more moves are played than
//      `after` gives (data-ply grows);
//   5. nothing went wrong: no console error (Bevy logs errors and panics there), no uncaught
//      exception, no failed request;
//   6. the interface is drawn in every screenshot: the rectangle the UI says it drew its panel
//      (or the menu) in (data-ui-rect) holds the panel's dark fill and light text, and the
//      move list the panel shows (data-move-list, read back from the UI) is the rules'
//      notation of the game's moves (data-line);
//   7. the download is precompressed: the .wasm arrives with a Content-Encoding (brotli where
//      the browser accepts it) and is smaller on the wire than unpacked;
//   8. touch: on a touch screen a tap selects a piece and a second tap moves it (the page
//      says where each cell is on screen: data-cells);
//   9. started without options, the game opens its main menu (data-app-state="menu");
//  10. `?learn=puzzle:<id>` opens a puzzle: a wrong try is taken back, the solution solves it
//      (data-learn).
//
// It also measures, and prints without judging (timings depend on the machine): the time
// from the page load to the game's first frame and to the first non-blank screenshot, and
// the intervals between the browser's frames (requestAnimationFrame) while a computer side
// thinks and otherwise, to show that the search yields to the page. Only a page that draws
// no frame at all during a long search (a freeze) fails.
//
// Usage: node browser-test.mjs --dist <built page> --out <folder for screenshots and logs>
//        [--chromium /usr/bin/chromium] [--timeout <seconds for each wait>]
//        [--scenarios name,name] (default: all)
//        [--load-runs N] [--throttle-mbps M[@L],…]: only measure page load → first frame, N
//        times on loopback and N times at each M Mbit/s with L ms latency (20 if not given),
//        and the bytes on the wire (for the size-optimised build: scripts/test-web.sh --release)
//        [--throttle-by server,chromium]: how each slow network is made (default both): the
//        test's server paces its bytes (serve.mjs `Link`), and/or Chromium's emulation; before
//        each, a link check prints the rate it really delivers to a lone fetch of the .wasm
// Output: <scenario>.png (last picture), <scenario>-first.png (first non-blank picture),
//         report.json (timings, bytes), console.log (everything the pages logged).
//
// A scenario is a name, the page's URL options, how the page is opened (`context`: options
// for a new browser context, e.g. a touch screen) and the steps run on the opened page, in
// order; each step gets the opened game (`page`, `attr`, `shot`) and adds what it measured to
// the scenario's report. A new scenario (two players online, …) is one more entry.
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { PNG } from "pngjs";
import { builtGame, serveStatic } from "./serve.mjs";
import { countFrames, framesPass, launchChromium } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "web-test-output");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 600);
const only = args.scenarios ? new Set(args.scenarios.split(",")) : null;
const loadRuns = Number(args["load-runs"] ?? 0);
// "10" or "10@100" (Mbit/s, @ added latency in ms; 20 ms if not given), comma-separated.
const throttles = (args["throttle-mbps"] ?? "")
  .split(",")
  .filter(Boolean)
  .map((entry) => {
    const [mbps, latency] = entry.split("@").map(Number);
    return { mbps, latencyMs: latency ?? 20 };
  });
// How each slow network is made: "server" (the test's server paces its bytes: serve.mjs `Link`)
// and/or "chromium" (Chromium's emulation, which delivered about half the rate asked for).
const THROTTLE_WAYS = {
  server: "paced by the test's server",
  chromium: "Chromium's emulation",
};
const throttleBy = (args["throttle-by"] ?? "server,chromium").split(",").filter(Boolean);
for (const way of throttleBy) {
  if (!THROTTLE_WAYS[way]) throw new Error(`--throttle-by: no way "${way}" (server, chromium)`);
}

// What the test opens, and what it does there (the steps are defined below).
// - ugolki: both sides are computer players (Master searches the longest), so the page is
//   measured while they think, and screenshots are checked while moves keep coming;
// - gipf: a different family (hex board, reserves) with a flag option, human against human, in
//   full graphics (the others in the light graphics the game chooses under SwiftShader);
// - touch: a touch screen; a tap on a piece and a tap on its target play the move;
// - menu: no options at all: the main menu.
const SCENARIOS = [
  {
    name: "ugolki",
    options: { variant: "ugolki-hg-3x3", after: "g2:e2 b7:d7", white: "master", black: "master" },
    steps: [started, measureComputerPlay, watchPlay],
  },
  {
    name: "gipf",
    options: {
      variant: "gipf-standard",
      after: "e1-e2 e9-e8 a1-b2 i5-h5",
      white: "human",
      black: "human",
      "top-down": "",
      // Full graphics (multisampling, shadows), as on a GPU: every other page draws the light
      // graphics the game chooses under the software renderer.
      graphics: "full",
    },
    steps: [started],
  },
  {
    name: "touch",
    options: { variant: "ugolki-hg-3x3", white: "human", black: "human" },
    context: { hasTouch: true, isMobile: false },
    steps: [started, touchMove],
    // f3-e3 is a legal first move of 3x3 Ugolki (tests/app/input.rs knows it too).
    move: { taps: ["f3", "e3"], notation: "f3-e3" },
  },
  {
    name: "menu",
    options: {},
    steps: [menuShown],
  },
  {
    name: "learn",
    options: { learn: "puzzle:focus-4" },
    steps: [learnPuzzle],
    // focus-4: capture the most in one move; e5-e3 is its only solution.
    puzzle: { key: "puzzle:focus-4", solution: "e5-e3" },
  },
];
const MEASURE_SECONDS = 20;
// Screenshots taken while the computers play (each one checked like every other).
const WATCH_SHOTS = 12;

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

/**
 * Opens the game with the scenario's options in a new browser context (fresh storage; the
 * scenario's `context` options, e.g. a touch screen); collects its console into `log`.
 */
async function openGame(browser, origin, scenario, log) {
  const context = await browser.newContext({ viewport: { width: 960, height: 600 }, ...scenario.context });
  const page = await context.newPage();
  await page.addInitScript(countFrames);
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
  const query = new URLSearchParams(scenario.options).toString();
  const url = query ? `${origin}/?${query}` : `${origin}/`;
  console.log(`opening ${url}`);
  log.push(`--- ${url}`);
  await page.goto(url);
  const attr = (name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);
  const game = { context, page, url, attr, shots: 0 };
  game.shot = (label) => checkedShot(game, label);
  return game;
}

// --- the interface in a picture (check 6)
/** "x y w h" (CSS pixels) → { x, y, w, h }, or null. */
const parseRect = (text) => {
  const [x, y, w, h] = (text ?? "").split(" ").map(Number);
  return [x, y, w, h].every(Number.isFinite) && w > 0 && h > 0 ? { x, y, w, h } : null;
};

/**
 * How the UI's rectangle looks in a screenshot: how many pixels are light (egui's text is
 * ~235 grey or a warm accent) and how many dark (the panel's fill). Without the egui layer
 * the rectangle shows the dark table only, so no light pixels at all.
 */
function uiLook(image, rect, cssWidth) {
  const scale = image.width / cssWidth;
  const [x0, y0] = [Math.floor(rect.x * scale), Math.floor(rect.y * scale)];
  const [x1, y1] = [
    Math.min(image.width, Math.ceil((rect.x + rect.w) * scale)),
    Math.min(image.height, Math.ceil((rect.y + rect.h) * scale)),
  ];
  let light = 0;
  let dark = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      const [r, g, b] = [image.data[i], image.data[i + 1], image.data[i + 2]];
      if (0.299 * r + 0.587 * g + 0.114 * b > 150) light++;
      if (Math.max(r, g, b) < 70) dark++;
    }
  }
  const area = Math.max(1, (x1 - x0) * (y1 - y0));
  return { light, lightShare: +(light / area).toFixed(4), darkShare: +(dark / area).toFixed(3) };
}

/** Drawn: a mostly dark rectangle with text in it (at least 0.4 % of it light). */
const uiDrawn = (look) => look.darkShare >= 0.5 && look.light >= 150 && look.lightShare >= 0.004;

/**
 * A screenshot with check 6: the UI's rectangle is drawn, and the move list it shows is the
 * game's line in the rules' notation. The page's state is read in the same task as the
 * picture is taken after (the game updates both within one frame).
 */
async function checkedShot(game, label) {
  const png = await game.page.screenshot();
  const state = await game.page.evaluate(() => {
    const d = document.body.dataset;
    return { rect: d.uiRect, moves: d.moveList, line: d.line, appState: d.appState, width: innerWidth };
  });
  game.shots++;
  const look = describe(png);
  const rect = parseRect(state.rect);
  if (state.appState === "in-game" || state.appState === "menu") {
    if (!rect) {
      fail(`${label}: the page does not say where the UI is (data-ui-rect=${state.rect})`);
    } else {
      const ui = uiLook(PNG.sync.read(png), rect, state.width);
      look.ui = ui;
      if (!uiDrawn(ui)) {
        const file = join(out, `missing-ui-${label}-${game.shots}.png`);
        await writeFile(file, png);
        fail(`${label}: the UI is not drawn in screenshot ${game.shots} (${JSON.stringify(ui)}; ${file})`);
      }
    }
  }
  if (state.appState === "in-game" && state.moves !== state.line) {
    fail(`${label}: the move list shows "${state.moves}", the game's moves are "${state.line}"`);
  }
  return { png, look, state };
}

/**
 * Checks 1–3, 5 and 6 for an opened game: it starts, every shipped variant is playable,
 * `after` was played, the board and the panel are drawn. Adds the timings to the report.
 */
async function started(game, scenario, report) {
  const { page, attr } = game;
  const options = scenario.options;
  const state = await waitFor("the game starting", waitSeconds, async () => {
    const s = await attr("app-state");
    return s && s !== "loading" ? s : null;
  });
  if (state !== "in-game") {
    throw new Error(`the game did not start (${state}): ${await attr("error")}`);
  }
  const firstFrameMs = Number(await attr("first-frame-ms"));
  console.log(`game started: first frame ${firstFrameMs} ms after the page load began`);
  await checkPage(page);

  if ((await attr("variant")) !== options.variant) fail(`variant is ${await attr("variant")}`);
  // SwiftShader runs on the processor: the game draws light graphics unless told otherwise.
  const graphics = options.graphics ?? "light";
  if ((await attr("graphics")) !== graphics) fail(`the page draws ${await attr("graphics")} graphics, not ${graphics}`);
  const after = (options.after ?? "").split(" ").filter(Boolean);
  const line = (await attr("line")).split(" ").filter(Boolean);
  if (after.some((move, i) => line[i] !== move)) {
    fail(`the game's moves ${line.join(" ")} do not start with ${after.join(" ")}`);
  }
  await checkLibrary(attr);

  // Shaders compile over the first frames: wait for a picture.
  let look;
  const shot = await waitFor("a non-blank picture", waitSeconds, async () => {
    const taken = await game.shot(`${scenario.name}-start`);
    look = taken.look;
    return isDrawn(look) ? taken : null;
  }).catch((e) => {
    fail(`${e.message}; last picture: ${JSON.stringify(look)}`);
    return null;
  });
  const drawnMs = Math.round(await page.evaluate(() => performance.now()));
  if (shot) {
    const file = join(out, `${scenario.name}-first.png`);
    await writeFile(file, shot.png);
    console.log(
      `board drawn: first non-blank screenshot ${drawnMs} ms after the page load began ` +
        `(${file}: ${JSON.stringify(look)})`,
    );
  }
  Object.assign(report, { firstFrameMs, firstNonBlankPictureMs: drawnMs });
}

/** The loading indicator is gone and the canvas fills the window. */
async function checkPage(page) {
  if (!(await page.locator("#loading").isHidden())) fail("the loading indicator is still shown");
  const canvas = await page.evaluate(() => {
    const c = document.getElementById("bevy");
    const box = c.getBoundingClientRect();
    return { width: box.width, height: box.height, pixels: [c.width, c.height], window: [innerWidth, innerHeight] };
  });
  if (canvas.width !== canvas.window[0] || canvas.height !== canvas.window[1]) {
    fail(`the canvas does not fill the page: ${JSON.stringify(canvas)}`);
  }
}

/** The library loads every file of the manifest (the game starts as soon as its own is in). */
async function checkLibrary(attr) {
  const variants = await waitFor("the variant library", waitSeconds, async () => {
    const [ready, broken] = [Number(await attr("variants")), Number(await attr("broken-variants"))];
    return ready + broken >= shipped ? { ready, broken } : null;
  }).catch((e) => fail(e.message));
  // Every file loads and is offered.
  if (variants && (variants.ready !== shipped || variants.broken !== 0)) {
    fail(`variants: ${variants.ready} playable, ${variants.broken} broken; the manifest lists ${shipped}`);
  }
}

/**
 * Check 4 and the frame measurement: while the computers play, records every browser frame
 * and when a search ran (data-thinking set), both on the page's clock.
 */
async function measureComputerPlay({ page, attr }, scenario, report) {
  const after = scenario.options.after;
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
  Object.assign(report, { frameIntervalsMs: frameStats, line });
}

/**
 * Check 6 while the game changes: screenshots at once after each of the next moves (new
 * notation means new glyphs in egui's font atlas: frames of the game once came out
 * without its UI layer or glyphs), and between them.
 */
async function watchPlay(game, scenario, report) {
  const { page, attr } = game;
  let checked = 0;
  let afterMove = 0;
  const deadline = Date.now() + waitSeconds * 1000;
  while (checked < WATCH_SHOTS && Date.now() < deadline) {
    if ((await attr("phase")) === "game-over") break;
    const ply = Number(await attr("ply"));
    // Wait (in the page) for the next move, then take the picture right away.
    const moved = await page
      .waitForFunction((p) => Number(document.body.dataset.ply) > p, ply, { timeout: 15000, polling: "raf" })
      .then(() => true, () => false);
    await game.shot(`${scenario.name}-watch`);
    checked++;
    if (moved) afterMove++;
  }
  console.log(`watched play: ${checked} screenshots checked (${afterMove} right after a move)`);
  if (checked === 0) fail("no screenshot was taken while the computers played");
  report.watchedScreenshots = { checked, afterMove };
}

/**
 * Check 8: on a touch screen, a tap on a piece and a tap on one of its targets play the move
 * (page.touchscreen.tap sends real touch events through the browser's input pipeline).
 */
async function touchMove(game, scenario, report) {
  const { page, attr } = game;
  const { taps, notation } = scenario.move;
  const plyBefore = Number(await attr("ply"));
  // Where the cells are on the screen (the page publishes them once the board is in view).
  const cells = await waitFor("the cells' screen positions", waitSeconds, async () => {
    const text = await attr("cells");
    const parsed = text ? JSON.parse(text) : null;
    return parsed && taps.every((t) => parsed[t]) ? parsed : null;
  });
  for (const [i, name] of taps.entries()) {
    const [x, y] = cells[name];
    console.log(`tap ${i + 1}: ${name} at (${x.toFixed(0)}, ${y.toFixed(0)})`);
    await page.touchscreen.tap(x, y);
    // The game reads input once a frame: let the tap be seen before the next one.
    await framesPass(page, 0, 1);
  }
  const line = await waitFor("the tapped move", 30, async () =>
    Number(await attr("ply")) > plyBefore ? attr("line") : null,
  ).catch((e) => {
    fail(`${e.message}: tapping ${taps.join(", ")} played nothing`);
    return null;
  });
  if (line !== null && line.split(" ").at(-1) !== notation) {
    fail(`the taps played ${line.split(" ").at(-1)}, not ${notation}`);
  }
  if (line !== null) console.log(`touch: ${taps.join(" then ")} played ${notation}`);
  // The move's animation over: the picture shows the position after it.
  await waitFor("the game ready after the tapped move", 30, async () => (await attr("phase")) !== "animating").catch((e) => fail(e.message));
  await framesPass(page, 0, 2);
  await game.shot(`${scenario.name}-after-move`);
  report.touchLine = line;
}

/** Check 9: started without options, the game opens its main menu (drawn, not a game). */
async function menuShown(game, scenario, report) {
  const { page, attr } = game;
  const state = await waitFor("the menu", waitSeconds, async () => {
    const s = await attr("app-state");
    return s && s !== "loading" ? s : null;
  });
  if (state !== "menu") fail(`without options the game opened "${state}", not the menu`);
  await checkPage(page);
  await checkLibrary(attr);
  const shot = await waitFor("a non-blank picture of the menu", waitSeconds, async () => {
    const taken = await game.shot(`${scenario.name}-start`);
    return isDrawn(taken.look) && taken.look.ui && uiDrawn(taken.look.ui) ? taken : null;
  }).catch((e) => {
    fail(e.message);
    return null;
  });
  if (shot) await writeFile(join(out, `${scenario.name}-first.png`), shot.png);
  report.appState = state;
}

/**
 * Check 10: Learn in the browser. `?learn=puzzle:<id>` opens the puzzle on the board (the
 * puzzle files come over HTTP through their manifest); a wrong move is judged wrong and taken
 * back, the solution is judged solved (`data-learn`), and the puzzle's panel is drawn. The
 * moves go through the page's test hook, the same move request a click makes.
 */
async function learnPuzzle(game, scenario, report) {
  const { page, attr } = game;
  const { key, solution } = scenario.puzzle;
  const legal = await waitFor(`${key} on the board, waiting for the player`, waitSeconds, async () => {
    if ((await attr("learn")) !== `${key} trying`) return null;
    const moves = await page.evaluate(() => window.boardcraft?.legalMoves() ?? []);
    return moves.length ? moves : null;
  });
  await checkPage(page);
  const wrong = legal.find((m) => m !== solution);
  if (!legal.includes(solution)) fail(`${key}: its solution ${solution} is not a legal move here`);
  console.log(`learn: ${key}: a wrong try (${wrong}), then ${solution}`);
  // Every value data-learn takes (the wrong state lasts only until the try is taken back).
  await page.evaluate(() => {
    window.learnSeen = [];
    new MutationObserver(() => window.learnSeen.push(document.body.getAttribute("data-learn")))
      .observe(document.body, { attributeFilter: ["data-learn"] });
  });
  await page.evaluate((m) => window.boardcraft.play(m), wrong);
  await waitFor(`${wrong} judged wrong`, 30, async () => {
    const seen = await page.evaluate(() => window.learnSeen);
    return seen.includes(`${key} wrong`) ? true : null;
  }).catch(async (e) =>
    fail(`${key}: ${e.message} (data-learn was ${JSON.stringify(await page.evaluate(() => window.learnSeen))})`),
  );
  // Taken back, and the player's turn again.
  await waitFor("the wrong try taken back", 30, async () => {
    if ((await attr("learn")) !== `${key} trying`) return null;
    const moves = await page.evaluate(() => window.boardcraft.legalMoves());
    return moves.includes(solution) ? true : null;
  }).catch((e) => fail(`${key}: ${e.message}`));
  await page.evaluate((m) => window.boardcraft.play(m), solution);
  await waitFor(`${solution} judged solved`, 30, async () =>
    (await attr("learn")) === `${key} solved` ? true : null,
  ).catch((e) => fail(`${key}: ${e.message}`));
  const shot = await waitFor("a drawn picture of the solved puzzle", waitSeconds, async () => {
    const taken = await game.shot(`${scenario.name}-solved`);
    return isDrawn(taken.look) ? taken : null;
  }).catch((e) => {
    fail(e.message);
    return null;
  });
  if (shot) await writeFile(join(out, `${scenario.name}-solved.png`), shot.png);
  report.learn = await attr("learn");
}

// --- the download (check 7) and load times
/** What the page downloaded: per file, bytes on the wire and unpacked (Resource Timing). */
async function transfers(page) {
  return page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => ({
      name: new URL(e.name).pathname,
      wire: e.encodedBodySize,
      unpacked: e.decodedBodySize,
    })),
  );
}

/** The .wasm came precompressed, with the encoding the server chose. */
function checkDownload(files, served) {
  const wasm = files.find((f) => f.name.endsWith(".wasm"));
  const encoding = served.get(`/${build.dir}boardcraft_bg.wasm`)?.encoding;
  if (!wasm) {
    fail("the page did not download the .wasm (no resource timing entry)");
    return null;
  }
  if (!encoding) fail("the .wasm was served without Content-Encoding (no precompressed copy?)");
  if (!(wasm.wire > 0 && wasm.wire < wasm.unpacked)) {
    fail(`the .wasm is not smaller on the wire: ${JSON.stringify(wasm)}`);
  }
  const total = files.reduce((sum, f) => sum + f.wire, 0);
  return { wasm, encoding, pageBytesOnWire: total };
}

/**
 * The moments of a load the page and the game mark on <body> (`data-<name>-ms`, see
 * web/index.html), in the order they happen: the .wasm downloaded (the progress bar's copy),
 * compiled, the game's main() begun and returned, its first frame run, the first frame with
 * the game or the menu on (the end of its main-world update: the measured "first frame"), and
 * that frame drawn (the next frame's start, once its render is over).
 */
const LOAD_MARKS = [
  "wasm-downloaded",
  "wasm-compiled",
  "wasm-started",
  "wasm-main-returned",
  "first-update",
  "first-frame",
  "first-frame-drawn",
];

/**
 * Page load → first frame of the game, `runs` times each in a fresh context (nothing cached):
 * on loopback, and, with `mbps`, through Chromium's network emulation at that bandwidth.
 */
async function measureLoad(browser, origin, served, link, runs, throttles, log) {
  const scenario = { name: "load", options: { variant: "ugolki-hg-3x3" } };
  const results = [];
  const networks = [
    { mbps: 0 },
    ...throttles.flatMap((t) => throttleBy.map((by) => ({ ...t, by }))),
  ];
  for (const { mbps: bandwidth, latencyMs, by } of networks) {
    const network = bandwidth
      ? `${bandwidth} Mbit/s, ${latencyMs} ms latency, ${THROTTLE_WAYS[by]}`
      : "loopback";
    const check = bandwidth ? await linkCheck(browser, origin, served, link, bandwidth, latencyMs, by) : null;
    if (check) {
      console.log(
        `link check (${network}): the .wasm, ${check.bytes} bytes on the wire, in ${check.ms} ms: ` +
          `${check.mbps.toFixed(2)} Mbit/s`,
      );
    }
    const times = [];
    const marks = [];
    // Per run, the frames before the first frame of the game (data-load-frames).
    const frames = [];
    let download = null;
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 960, height: 600 } });
      const page = await context.newPage();
      page.on("console", (m) => log.push(`[load ${m.type()}] ${m.text()}`));
      await throttle(context, page, link, bandwidth, latencyMs, by);
      await page.goto(`${origin}/?${new URLSearchParams(scenario.options)}`);
      const firstFrame = await waitFor("the first frame", waitSeconds, () =>
        page.evaluate(() => Number(document.body.dataset.firstFrameMs) || null),
      );
      download ??= checkDownload(await transfers(page), served);
      times.push(firstFrame);
      // That frame's render follows (builds before this mark have none: then it stays "-").
      await waitFor("the first frame drawn", 20, () =>
        page.evaluate(() => Number(document.body.dataset.firstFrameDrawnMs) || null),
      ).catch(() => null);
      marks.push(
        await page.evaluate(
          (names) => names.map((n) => Number(document.body.getAttribute(`data-${n}-ms`)) || null),
          LOAD_MARKS,
        ),
      );
      frames.push(await page.evaluate(() => document.body.dataset.loadFrames ?? null));
      await context.close();
      link.set(null);
    }
    const result = {
      bandwidthMbps: bandwidth || "loopback",
      latencyMs: bandwidth ? latencyMs : 0,
      throttledBy: bandwidth ? by : null,
      linkCheck: check,
      firstFrameMs: times,
      median: stats(times).median,
      firstFrameDrawnMs: marks.map((run) => run[LOAD_MARKS.indexOf("first-frame-drawn")]),
      // Per run, each moment of the load (LOAD_MARKS), ms since the page load started.
      marks: marks.map((run) => Object.fromEntries(LOAD_MARKS.map((name, i) => [name, run[i]]))),
      frames,
      download,
    };
    console.log(
      `page load → first frame (${network}): ${times.join(", ")} ms (drawn: ` +
        `${result.firstFrameDrawnMs.map((t) => t ?? "-").join(", ")}); ` +
        `${download?.pageBytesOnWire} bytes on the wire`,
    );
    for (const [i, run] of marks.entries()) {
      console.log(`   ${LOAD_MARKS.map((name, j) => `${name} ${run[j] ?? "-"}`).join(", ")}`);
      if (frames[i]) console.log(`      frames (began-updated): ${frames[i]}`);
    }
    results.push(result);
  }
  return results;
}

/** Slows the page's network down to `mbps` with `latencyMs`, the way `by` names (nothing at 0). */
async function throttle(context, page, link, mbps, latencyMs, by) {
  if (!mbps) return;
  if (by === "server") {
    link.set({ mbps, latencyMs });
    return;
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: latencyMs,
    downloadThroughput: (mbps * 1e6) / 8,
    uploadThroughput: (mbps * 1e6) / 8,
  });
}

/**
 * What a slow network really delivers: the .wasm fetched alone (no compiling, no game) from a
 * page of the build's origin, through the same throttle, as megabits a second on the wire.
 */
async function linkCheck(browser, origin, served, link, mbps, latencyMs, by) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // A small file of the origin to fetch from, before the throttle.
  await page.goto(`${origin}/build.json`);
  await throttle(context, page, link, mbps, latencyMs, by);
  const path = `/${build.dir}boardcraft_bg.wasm`;
  const ms = await page.evaluate(async (url) => {
    const start = performance.now();
    const response = await fetch(url, { cache: "no-store" });
    await response.arrayBuffer();
    return performance.now() - start;
  }, path);
  await context.close();
  link.set(null);
  const bytes = served.get(path)?.bytes ?? 0;
  return { bytes, ms: Math.round(ms), mbps: (bytes * 8) / (ms * 1000) };
}

const NORMALISER_ROUNDS = 200_000_000;

/**
 * A same-run normaliser for the load times, which depend on the machine (two machines of this
 * project differ by 1.5×): the milliseconds a blank page of the same browser takes for a fixed
 * loop of integer hashing.
 */
async function normaliser(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The fastest of three: a single pass varied by 1.5× within one run.
  const ms = await page.evaluate((rounds) => {
    let fastest = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      const start = performance.now();
      let hash = 2166136261;
      for (let i = 0; i < rounds; i++) hash = Math.imul(hash ^ (i & 255), 16777619);
      const took = performance.now() - start;
      // The hash is used, so the loop cannot be left out.
      fastest = Math.min(fastest, hash === 0 ? took + 1 : took);
    }
    return fastest;
  }, NORMALISER_ROUNDS);
  await context.close();
  return Math.round(ms);
}

let shipped = 0;
// The build under test (build.json: its folder b/<hash>/ and file sizes).
let build = null;

async function main() {
  build = await builtGame(dist);
  await mkdir(out, { recursive: true });
  const manifest = await readFile(build.file("assets/variants/manifest.ron"), "utf8");
  shipped = (manifest.match(/"[^"]+\.ron"/g) ?? []).length;
  if (shipped === 0) throw new Error("the built manifest lists no variants");
  const { server, origin, served, link } = await serveStatic(dist);

  const browser = await launchChromium(executablePath);
  const log = [];
  const report = { scenarios: [], failures };
  try {
    if (loadRuns > 0) {
      const before = await normaliser(browser);
      report.load = await measureLoad(browser, origin, served, link, loadRuns, throttles, log);
      const after = await normaliser(browser);
      const unit = (before + after) / 2;
      console.log(
        `normaliser: ${before} ms before, ${after} ms after (${NORMALISER_ROUNDS / 1e6} M rounds of ` +
          `FNV-1a in a blank page of the same browser); medians in normaliser units: ` +
          report.load
            .map((r) => `${r.bandwidthMbps}${r.throttledBy ? ` (${r.throttledBy})` : ""}: ${(r.median / unit).toFixed(1)}`)
            .join(", "),
      );
      report.normaliserMs = { before, after };
      return;
    }
    for (const scenario of SCENARIOS.filter((s) => !only || only.has(s.name))) {
      console.log(`== ${scenario.name}`);
      const begun = Date.now();
      const game = await openGame(browser, origin, scenario, log);
      const result = { name: scenario.name, url: game.url };
      try {
        for (const step of scenario.steps) await step(game, scenario, result);
        const { png, look } = await game.shot(`${scenario.name}-last`);
        await writeFile(join(out, `${scenario.name}.png`), png);
        if (!isDrawn(look)) fail(`${scenario.name}: the last picture is blank: ${JSON.stringify(look)}`);
        console.log(`screenshot: ${join(out, `${scenario.name}.png`)} ${JSON.stringify(look)}`);
        // The page's "Boardcraft stopped" banner (web/index.html) must not have come up.
        const stopped = await game.page.evaluate(() => {
          const problem = document.getElementById("problem");
          return problem && !problem.hidden ? problem.textContent : null;
        });
        if (stopped) fail(`${scenario.name}: the page shows ${JSON.stringify(stopped)}`);
        if (!report.download) {
          report.download = checkDownload(await transfers(game.page), served);
          console.log(`download: ${JSON.stringify(report.download)}`);
        }
      } catch (e) {
        fail(`${scenario.name}: ${e.message}`);
      }
      result.screenshotsChecked = game.shots;
      result.seconds = (Date.now() - begun) / 1000;
      report.scenarios.push(result);
      await game.context.close();
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
