// The phone and tablet test: serves the built page on 127.0.0.1 and opens every screen in
// headless Chromium at phone and tablet sizes, touch screens as phones are (isMobile, touch,
// device scale 2), and checks on each what the page publishes about its layout
// (`data-layout`, see src/platform/web/page.rs):
//
//   1. every egui area (panels and windows) lies inside the viewport;
//   2. in a game, the board's rectangle (the camera's viewport) lies inside the viewport and no
//      panel overlaps it; in portrait its shorter side is at least 90 % of the viewport's width;
//   3. no text of the UI is clipped: wider than its room, cut short, off the screen or wrapped
//      inside a word (the game measures every text egui drew);
//   4. on touch-sized layouts every button is at least 44×44 CSS pixels and no text is smaller
//      than 14 CSS pixels.
//
// Sizes: 360×640 and 390×844 (phones upright), 844×390 (a phone sideways), 768×1024 (a tablet
// upright), 1024×600 (a small tablet sideways). Screens: the menu, a game of each family (Race,
// Focus, GIPF) in the 3D and the top-down view, Learn, a puzzle, Play online, Settings.
// A page load is most of the test's time under a software GPU, so each screen is opened once
// per device (the four phone and tablet sizes share one: isMobile, touch, scale 2; 1024×600 is
// another) and checked at each of its sizes in turn by resizing the viewport, as a phone turned;
// the game must lay out at the new size (`data-layout`'s viewport) and settle before the checks.
// A fresh page of one screen (`--compare`, 844×390 race-3d) must lay out as the resized one.
//
// Then, in a browser of its own, at 390×844 on a fresh game of Ugolki 3×3: a pinch on the board
// (two fingers moving apart) must bring the 3D camera closer (`data-camera`), a double tap must
// reset the view, and the whole game is played by touch taps alone (both sides at this screen),
// to its end, with Settings' "Animate moves" off.
//
// Usage: node phone-test.mjs --dist <built page> --out <folder> [--chromium /usr/bin/chromium]
//        [--ci] [--sizes 390x844,844x390] [--screens menu,race-3d] [--no-game] [--no-pinch]
//        [--compare 844x390:race-3d | none] [--fresh] [--lang ru] [--graphics full]
//        [--timeout <s>]
//   --ci        what CI runs: the menu, a 3D game and Settings at 390×844 and 844×390,
//               the comparison with a fresh page and the pinch (not the game's 83 moves)
//   --no-game   no game played by taps (the pinch still runs unless --no-pinch)
//   --no-star   without the six-seat star (checked at 390×844, 844×390, 768×1024, 1024×600 and 1280×800,
//               and a move played on it by taps, in CI too)
//   --fresh     every screen at every size in a page of its own (the slow old way)
//   --graphics  full or light: what every page draws (default: the game's own choice, light
//               under the software renderer; full for pictures, scripts/phone-screenshots.sh)
// Output: <size>-<screen>.png for every screen checked, touch-game.png, report.json (every
// screen's shape and board, seconds per check, the pinch's camera before and after).
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { writeFile, mkdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { builtGame, serveStatic } from "./serve.mjs";
import { countFrames, framesOf, framesPass, launchChromium, parseArgs, sleep, waitFor } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "phone-test-output");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 300);
const onlySizes = args.sizes || "ci" in args ? new Set((args.sizes ?? "390x844,844x390").split(",")) : null;
// `--ci`: what CI runs (a few minutes on an idle machine: frames under the software renderer
// are what cost): the menu, a 3D game and Settings (a window over the game) at 390×844 and
// 844×390 (one page per screen, turned), a fresh page compared with a turned one, and a pinch
// on a fresh game (without the game's 83 moves). Every screen is in `--phone-full`.
const onlyScreens = args.screens || "ci" in args ? new Set((args.screens ?? "menu,race-3d,settings").split(",")) : null;
const ci = "ci" in args;
const playGame = !("no-game" in args) && !ci;
// `--no-pinch`: with --no-game, no touch game at all.
const doPinch = !("no-pinch" in args);
// `--fresh`: every screen at every size in a page of its own, as a phone opening it (slow).
const fresh = "fresh" in args;
// `--compare <size>:<screen>`: that screen in a fresh page must lay out as the resized one
// (`--compare none` for no comparison).
const compare = args.compare === "none" ? null : (args.compare ?? "844x390:race-3d");
// `--lang ru`: every screen in that language; `--graphics full`: every page with full graphics.
const lang = args.lang;
const graphics = args.graphics;

const phone = { isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const SIZES = [
  { name: "360x640", viewport: { width: 360, height: 640 }, ...phone },
  { name: "390x844", viewport: { width: 390, height: 844 }, ...phone },
  { name: "844x390", viewport: { width: 844, height: 390 }, ...phone },
  { name: "768x1024", viewport: { width: 768, height: 1024 }, ...phone },
  { name: "1024x600", viewport: { width: 1024, height: 600 }, isMobile: false, hasTouch: true, deviceScaleFactor: 1 },
];
// A desktop window, for the six-seat star (every other screen is checked there by the browser
// test). With a touch screen, as a touch laptop: the page lays out the same with or without one,
// and sharing the 1024×600 tablet's device lets one page check both sizes.
const DESKTOP = { name: "1280x800", viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: true, deviceScaleFactor: 1 };

const human = { white: "human", black: "human" };
const SIX_PEOPLE = "human,human,human,human,human,human";
// Each screen: the page's URL options, the app state it shows, and a window to open.
const SCREENS = [
  { name: "menu", options: {}, state: "menu" },
  { name: "race-3d", options: { variant: "ugolki-9qum", after: "b3:d3 h6-h5", white: "human", black: "novice" }, state: "in-game" },
  { name: "race-2d", options: { variant: "halma-16", ...human, "top-down": "" }, state: "in-game" },
  { name: "focus-3d", options: { variant: "focus", ...human, after: "d4-d5 e5-e4" }, state: "in-game" },
  { name: "focus-2d", options: { variant: "focus", ...human, "top-down": "" }, state: "in-game" },
  { name: "gipf-3d", options: { variant: "gipf-standard", ...human, after: "e1-e2 e9-e8" }, state: "in-game" },
  { name: "gipf-2d", options: { variant: "gipf-standard", ...human, "top-down": "" }, state: "in-game" },
  { name: "learn", options: { learn: "" }, state: "learn" },
  { name: "puzzle", options: { learn: "puzzle:focus-4" }, state: "in-game" },
  { name: "online", options: {}, state: "menu", open: "online" },
  { name: "settings", options: { variant: "ugolki-hg-3x3", ...human }, state: "in-game", open: "settings" },
  { name: "star-2d", options: { variant: "chinese-checkers", seats: SIX_PEOPLE, "top-down": "" }, state: "in-game" },
];
// Chinese checkers for six at one screen, the family around a tablet: checked on its own at
// the phone, tablet and desktop sizes (`starScreens`), in CI too.
const STAR = { name: "star-3d", options: { variant: "chinese-checkers", seats: SIX_PEOPLE }, state: "in-game" };

// A whole game of Ugolki 3×3 (boardcraft-cli think --level strong for both sides; White wins).
const UGOLKI_GAME =
  "g3:e3 b6-b5 f1-e1 b8:b6:d6 f3-f4 a6-a5 h1:f1:f3:d3 a8:a6:a4 g2:e2:e4 b7:d7:d5 g1-f1 a7-b7 " +
  "h2:h4 b7:d7 h3:h5 c7:c5:e5 f1:f3:f5 c8-d8 h4:h6 c6:e6 f2-e2 d6:d4:d2:f2 f4:d4:d6 a5:a3 " +
  "h5:h7 b5-c5 e2-d2 a4:a2 h6:h8 a3:a1 d2:d4 f2-f1 e1-e2 a1-b1 e4:c4:c6 e6:e4 e2-d2 e5:g5 " +
  "d4-c4 d5-d4 d6:b6 d8:d6 d3:d5 g5-g4 e3:e5 d4:f4:h4 d5:b5:b7 d7:d5 c6-c7 h4-h3 c7:a7 " +
  "d6:d4:f4:h4:h2 c4:c6:a6:a8 a2-a1 h8-g8 a1:c1 h7-h8 c5-c4 h8:f8 c4-d4 g8:e8 h2-h1 f8:d8 " +
  "d4:f4:h4:h2 d2-d3 d5-d4 d3:d5 b1:d1 d5-d6 g4-g3 f5:d5:d7 c1:e1:g1 e5-e6 d4:f4 e6:c6:a6 " +
  "d1-e1 e8:c8 e4:g4 d8:b8 g4:g2 d7-c7 f4-f3 d6-c6";

const failures = [];
const fail = (why) => {
  failures.push(why);
  console.error(`FAIL: ${why}`);
};

/** Opens a page of the context with the options; collects console errors as failures. */
async function open(context, origin, options, label) {
  const page = await context.newPage();
  await page.addInitScript(countFrames);
  page.on("console", (message) => {
    const text = message.text();
    const level = /^(?:%c)?(ERROR|WARN|INFO|DEBUG|TRACE)\b/.exec(text)?.[1];
    if (message.type() === "error" || level === "ERROR" || /panicked at/.test(text)) {
      fail(`${label}: console: ${text}`);
    }
  });
  page.on("pageerror", (error) => fail(`${label}: uncaught exception: ${error.message}`));
  const query = new URLSearchParams({ ...options, ...(lang ? { lang } : {}), ...(graphics ? { graphics } : {}) }).toString();
  await page.goto(query ? `${origin}/?${query}` : `${origin}/`);
  return page;
}

const attr = (page, name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);
const layoutOf = async (page) => JSON.parse((await attr(page, "layout")) || "null");

/** The overlap of two [x, y, w, h] rectangles (area, CSS px²). */
function overlap([ax, ay, aw, ah], [bx, by, bw, bh]) {
  const w = Math.min(ax + aw, bx + bw) - Math.max(ax, bx);
  const h = Math.min(ay + ah, by + bh) - Math.max(ay, by);
  return w > 0 && h > 0 ? w * h : 0;
}

const inside = ([x, y, w, h], vp, slack = 1) =>
  x >= -slack && y >= -slack && x + w <= vp.width + slack && y + h <= vp.height + slack;

/** Checks 1–4 for a layout; returns the number of problems found. */
function checkLayout(label, layout, vp, inGame) {
  const before = failures.length;
  const fmt = (r) => `[${r.map((v) => Math.round(v)).join(", ")}]`;
  for (const [order, ...rect] of layout.areas) {
    if (!inside(rect, vp)) fail(`${label}: a ${order} area ${fmt(rect)} is outside the ${vp.width}×${vp.height} viewport`);
  }
  if (inGame) {
    const board = layout.board;
    if (!board) {
      fail(`${label}: the page does not say where the board is`);
    } else {
      if (!inside(board, vp)) fail(`${label}: the board ${fmt(board)} is outside the viewport`);
      for (const [order, ...rect] of layout.areas) {
        // Panels are egui's background areas; windows (middle) are dialogs above the game.
        if (order === "background" && overlap(board, rect) > 1) {
          fail(`${label}: a panel ${fmt(rect)} overlaps the board ${fmt(board)}`);
        }
      }
      if (vp.height > vp.width && Math.min(board[2], board[3]) < 0.9 * vp.width) {
        fail(`${label}: the board ${fmt(board)} is smaller than 90 % of the width ${vp.width}`);
      }
    }
  }
  for (const text of layout.clipped) fail(`${label}: clipped text: ${text}`);
  if (layout.touch) {
    const small = layout.buttons.filter(([, , w, h]) => w < 43.5 || h < 43.5);
    if (small.length > 0) {
      fail(`${label}: ${small.length} of ${layout.buttons.length} buttons are smaller than 44×44: ${small.slice(0, 6).map(fmt).join(" ")}`);
    }
    if (layout.smallestText !== null && layout.smallestText < 13.95) {
      fail(`${label}: text of ${layout.smallestText} px (less than 14)`);
    }
  }
  return failures.length - before;
}

/**
 * Waits until the layout has settled: the same layout and cells a second and three frames
 * apart (the window takes the canvas's size in the first frames, the menu fills in as the
 * games load), with the screen's buttons drawn and, given `vp`, laid out at that size.
 */
function settled(page, label, vp = null) {
  // The layout with its areas and buttons in a fixed order: the order the game audits them in
  // may differ from frame to frame (the settings window over the game's panel was seen to
  // alternate, which kept the test waiting for 300 s), the layout is the same.
  const canonical = (text) => {
    const layout = JSON.parse(text || "null");
    if (!layout) return text;
    for (const key of ["areas", "buttons"]) layout[key] = layout[key].map((r) => JSON.stringify(r)).sort();
    return JSON.stringify(layout);
  };
  const now = async () => `${canonical(await attr(page, "layout"))} ${await attr(page, "cells")}`;
  // The page's frames (counted by `countFrames`): under a software GPU one frame can take
  // seconds (the first drawing of a board compiles its shaders), so a second of the same layout
  // is not enough by itself.
  let changed = null;
  return waitFor(`${label}: a settled layout`, waitSeconds, async () => {
    const before = await now();
    await framesPass(page, 1000);
    const after = await now();
    if (after !== before) {
      changed = [before, after];
      return null;
    }
    const parsed = await layoutOf(page);
    const sized = !vp || (parsed?.viewport && Math.abs(parsed.viewport[0] - vp.width) <= 1 && Math.abs(parsed.viewport[1] - vp.height) <= 1);
    return parsed && sized && parsed.buttons.length >= 4 ? parsed : null;
  }).catch((e) => {
    // Where the layout kept changing: the first difference of the last two.
    if (changed) {
      const [a, b] = changed;
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      const from = Math.max(0, i - 150);
      e.message += ` (it kept changing: …${a.slice(from, i + 150)}… became …${b.slice(from, i + 150)}…)`;
    }
    throw e;
  });
}

/**
 * Light graphics draw one canvas pixel per CSS pixel, full graphics one per device pixel
 * (web/index.html, `drawsCssPixels`): under SwiftShader the game chooses light graphics, and a
 * phone's page then has a quarter of the pixels to draw.
 */
async function checkPixels(page, label, size) {
  const drawn = await attr(page, "graphics");
  const canvas = await page.evaluate(() => {
    const c = document.getElementById("bevy");
    return { pixels: c.width, css: c.getBoundingClientRect().width };
  });
  const per = drawn === "light" ? 1 : size.deviceScaleFactor;
  if (Math.abs(canvas.pixels - canvas.css * per) > 2) {
    fail(`${label}: ${drawn} graphics: the canvas has ${canvas.pixels} pixels for ${canvas.css} CSS pixels, not ${per} per CSS pixel`);
  }
}

/**
 * Full graphics saved in Settings: the page reads them before the game starts and draws at
 * device pixels even under the software renderer (the menu at a phone's size, `size`).
 */
async function savedFullGraphics(browser, origin, size) {
  if (!size) return;
  const label = `${size.name} menu, full graphics saved`;
  const context = await browser.newContext({ ...deviceOf(size), viewport: size.viewport });
  try {
    await context.addInitScript(() => localStorage.setItem("boardcraft/settings.ron", "(graphics: Full)"));
    const page = await open(context, origin, {}, label);
    await waitFor(`${label}: the menu`, waitSeconds, async () => (await attr(page, "app-state")) === "menu");
    await waitFor(`${label}: full graphics`, waitSeconds, async () => (await attr(page, "graphics")) === "full");
    await settled(page, label, size.viewport);
    await checkPixels(page, label, size);
    const pixels = await page.evaluate(() => document.getElementById("bevy").width);
    console.log(`${label}: the canvas is ${pixels} pixels wide for ${size.viewport.width} CSS pixels`);
  } catch (e) {
    fail(`${label}: ${e.message}`);
  } finally {
    await context.close();
  }
}

/** The device of a size: what a context is made with besides its viewport. */
const deviceOf = ({ isMobile, hasTouch, deviceScaleFactor }) => ({ isMobile, hasTouch, deviceScaleFactor });
const sameDevice = (a, b) => JSON.stringify(deviceOf(a)) === JSON.stringify(deviceOf(b));

/** Opens one screen in the context (at its first size) and waits for the screen asked for. */
async function openScreen(context, origin, screen, label) {
  const page = await open(context, origin, screen.options, label);
  // A puzzle passes through Learn on its way to the board: wait for the screen asked for.
  let state = null;
  await waitFor(`${label}: the ${screen.state} screen`, waitSeconds, async () => {
    state = await attr(page, "app-state");
    return state === screen.state || state === "failed";
  }).catch((e) => {
    throw new Error(`${e.message} (the page shows "${state}")`);
  });
  if (state !== screen.state) throw new Error(`opened "${state}", not "${screen.state}"`);
  if (screen.open) {
    const opened = await page.evaluate((name) => window.boardcraftUi?.open(name), screen.open);
    if (!opened) throw new Error(`the page cannot open the ${screen.open} window`);
  }
  return page;
}

/**
 * Checks the screen on the page at one size: sizes the page's viewport to it (a phone turned
 * or another phone), waits until the game has laid itself out at that size and it settled,
 * checks it and saves its picture. Returns the settled layout.
 */
async function checkAt(page, size, screen, report, { name = size.name, fresh = false } = {}) {
  const label = `${name} ${screen.name}`;
  const started = Date.now();
  const vp = size.viewport;
  const current = page.viewportSize();
  if (current.width !== vp.width || current.height !== vp.height) await page.setViewportSize(vp);
  const inGame = screen.state === "in-game";
  // Laid out at this size: the game's window has the viewport's size, the areas are there,
  // the screen's window is open, and in a game the board (its cells are on the screen).
  await waitFor(`${label}: the layout at ${vp.width}×${vp.height}`, waitSeconds, async () => {
    const layout = await layoutOf(page);
    if (!layout?.viewport) return false;
    const [w, h] = layout.viewport;
    if (Math.abs(w - vp.width) > 1 || Math.abs(h - vp.height) > 1) return false;
    const windowShown = !screen.open || layout.areas.some(([order]) => order === "middle");
    return layout.areas.length > 0 && (!inGame || (layout.board && (await attr(page, "cells")))) && windowShown;
  });
  const layout = await settled(page, label, vp);
  await checkPixels(page, label, size);
  const png = await page.screenshot({ timeout: 120000 });
  await writeFile(join(out, `${name}-${screen.name}.png`), png);
  const problems = checkLayout(label, layout, vp, inGame);
  const seconds = (Date.now() - started) / 1000;
  report.push({ size: name, screen: screen.name, fresh, shape: layout.shape, board: layout.board, areas: layout.areas.length, buttons: layout.buttons.length, problems, seconds, layout });
  console.log(`${label}: ${layout.shape}, ${layout.areas.length} areas, ${layout.buttons.length} buttons, board ${JSON.stringify(layout.board)}: ${problems ? `${problems} problem(s)` : "ok"} (${seconds.toFixed(1)} s${fresh ? ", a fresh page" : ""})`);
  return layout;
}

/**
 * Every screen at every size of a group of sizes that share a device: each screen opened once
 * (a page load is most of the test's time under a software GPU) and checked at each size in
 * turn by resizing the page's viewport.
 */
async function checkGroup(browser, origin, sizes, screens, report) {
  const context = await browser.newContext({ ...deviceOf(sizes[0]), viewport: sizes[0].viewport });
  try {
    for (const screen of screens) {
      const label = `${screen.name}`;
      const started = Date.now();
      console.log(`== ${screen.name} at ${sizes.map((s) => s.name).join(", ")}`);
      let page = null;
      try {
        page = await openScreen(context, origin, screen, label);
        console.log(`${label}: loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        for (const size of sizes) {
          try {
            await checkAt(page, size, screen, report.screens);
          } catch (e) {
            fail(`${size.name} ${screen.name}: ${e.message}`);
          }
        }
      } catch (e) {
        fail(`${sizes.map((s) => s.name).join(",")} ${screen.name}: ${e.message}`);
      } finally {
        await page?.close();
      }
    }
  } finally {
    await context.close();
  }
}

/**
 * A resized page lays out as a freshly loaded one: the screen loaded at `size` is compared
 * with the same screen reached by resizing (areas, buttons and the board within a pixel, the
 * same shape and clipped texts).
 */
async function compareFresh(browser, origin, size, screen, resized, report) {
  const context = await browser.newContext(size);
  let page = null;
  try {
    page = await openScreen(context, origin, screen, `fresh ${size.name} ${screen.name}`);
    const fresh = await checkAt(page, size, screen, report.screens, { name: `fresh-${size.name}`, fresh: true });
    const close = (a, b) => JSON.stringify(a?.length) === JSON.stringify(b?.length) && (a ?? []).every((r, i) =>
      Array.isArray(r) ? r.every((v, j) => (typeof v === "number" ? Math.abs(v - b[i][j]) <= 1 : v === b[i][j])) : Math.abs(r - b[i]) <= 1);
    const differences = [];
    if (fresh.shape !== resized.shape) differences.push(`shape ${fresh.shape} / ${resized.shape}`);
    if (!close(fresh.board, resized.board)) differences.push(`board ${JSON.stringify(fresh.board)} / ${JSON.stringify(resized.board)}`);
    if (!close(fresh.areas, resized.areas)) differences.push(`areas ${JSON.stringify(fresh.areas)} / ${JSON.stringify(resized.areas)}`);
    if (!close(fresh.buttons, resized.buttons)) differences.push(`buttons ${JSON.stringify(fresh.buttons)} / ${JSON.stringify(resized.buttons)}`);
    if (JSON.stringify(fresh.clipped) !== JSON.stringify(resized.clipped)) differences.push(`clipped ${JSON.stringify(fresh.clipped)} / ${JSON.stringify(resized.clipped)}`);
    if (fresh.smallestText !== resized.smallestText) differences.push(`smallest text ${fresh.smallestText} / ${resized.smallestText}`);
    report.fresh = { size: size.name, screen: screen.name, same: differences.length === 0, differences };
    if (differences.length > 0) {
      fail(`${size.name} ${screen.name}: a fresh page and a resized one differ (fresh / resized): ${differences.join("; ")}`);
    } else {
      console.log(`${size.name} ${screen.name}: a fresh page lays out as the resized one`);
    }
  } catch (e) {
    fail(`fresh ${size.name} ${screen.name}: ${e.message}`);
  } finally {
    await page?.close();
    await context.close();
  }
}

/** The cells' screen positions (CSS px). */
async function cells(page) {
  const text = await attr(page, "cells");
  return text ? JSON.parse(text) : {};
}

/** Waits until the page drew `n` more frames (the game reads input once a frame). */
async function nextFrames(page, n, what) {
  const since = await framesOf(page);
  await waitFor(`${what}: ${n} frames`, 120, async () => (await framesOf(page)) >= since + n);
}

/**
 * A pinch on the board: two fingers moving apart zoom in (the camera comes closer). Each step
 * of the fingers waits for the page's frames, as a real pinch lasts many frames: the game
 * reads the two fingers a frame apart, and under a software GPU one frame can take longer
 * than a whole quick gesture (every step then landed in one frame and the camera never moved).
 */
async function pinch(page, report) {
  const layout = await layoutOf(page);
  const [bx, by, bw, bh] = layout.board;
  const [cx, cy] = [bx + bw / 2, by + bh / 2];
  const before = (await attr(page, "camera")).split(" ").map(Number);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, spread) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints:
        type === "touchEnd"
          ? []
          : [
              { x: cx - spread, y: cy, id: 1 },
              { x: cx + spread, y: cy, id: 2 },
            ],
    });
  await touch("touchStart", 30);
  await nextFrames(page, 2, "the pinch's start");
  for (let step = 1; step <= 6; step++) {
    await touch("touchMove", 30 + step * 15);
    await nextFrames(page, 2, `the pinch's step ${step}`);
  }
  await touch("touchEnd", 0);
  await cdp.detach();
  const after = await waitFor("the camera to move", 30, async () => {
    const now = (await attr(page, "camera")).split(" ").map(Number);
    return now[1] !== before[1] ? now : null;
  }).catch(() => null);
  if (!after) {
    fail(`a pinch did not change the camera (zoom, distance: ${before})`);
  } else if (!(after[1] < before[1])) {
    fail(`fingers moving apart moved the camera away: distance ${before[1]} → ${after[1]}`);
  } else {
    console.log(`pinch: camera distance ${before[1]} → ${after[1]} (zoom ${before[0]} → ${after[0]})`);
  }
  report.pinch = { before, after };
}

/**
 * A double tap on the middle of the board resets the view (zoom 1): two quick taps (a new
 * touch each, as a browser numbers them). The four touch events are sent at once: CDP answers
 * each only once the page has handled it, which under the software renderer waits for the
 * frame in progress (a second or more), so sent one after another the taps arrived 2 s apart
 * — no double tap on any phone.
 */
async function doubleTap(page, report) {
  const [bx, by, bw, bh] = (await layoutOf(page)).board;
  const [x, y] = [bx + bw / 2, by + bh / 2];
  const before = (await attr(page, "camera")).split(" ").map(Number);
  if (before[0] === 1) {
    // Nothing to reset (the pinch did not zoom): the double tap cannot be seen to work.
    fail(`the view was not zoomed before the double tap (zoom, distance: ${before})`);
    report.doubleTap = { before, after: null };
    return;
  }
  const cdp = await page.context().newCDPSession(page);
  await Promise.all(
    [11, 12].flatMap((id) => [
      cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y, id }] }),
      cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }),
    ]),
  );
  await cdp.detach();
  const after = await waitFor("the view to reset", 30, async () => {
    const now = (await attr(page, "camera")).split(" ").map(Number);
    return now[0] === 1 ? now : null;
  }).catch(() => null);
  if (!after) {
    fail(`a double tap did not reset the view (zoom, distance: ${before})`);
  } else {
    console.log(`double tap: camera distance ${before[1]} → ${after[1]} (zoom ${before[0]} → ${after[0]})`);
  }
  report.doubleTap = { before, after };
}

/**
 * At 390×844, a fresh game of Ugolki 3×3: a pinch on its board, then (`moves`) a double tap
 * that resets the view and the whole game played by taps, both sides at this screen, to its end.
 */
async function touchGame(browser, origin, report, { moves: playMoves = true } = {}) {
  const size = SIZES.find((s) => s.name === "390x844");
  const context = await browser.newContext(size);
  // With Settings' "Animate moves" off, as a player may choose: what is tested here is where
  // the taps land, and each move's hop-by-hop animation would cost seconds of frames under the
  // software renderer (the animations are the browser test's and the app tests' to check).
  await context.addInitScript(() => localStorage.setItem("boardcraft/settings.ron", "(animation_speed: 0.0)"));
  const page = await open(context, origin, { variant: "ugolki-hg-3x3", ...human }, "touch game");
  const started = Date.now();
  try {
    await waitFor("the game", waitSeconds, async () => (await attr(page, "app-state")) === "in-game");
    await waitFor("the board", waitSeconds, async () => (await layoutOf(page))?.board && (await attr(page, "cells")));
    await settled(page, "touch game");
    await pinch(page, report);
    if (!playMoves) return;
    // The pinch brought the far squares off the screen: a double tap brings the whole board
    // back. Let the camera stop before the cells are read for taps.
    await settled(page, "touch game after the pinch");
    await doubleTap(page, report);
    await settled(page, "touch game after the double tap");
    const moves = UGOLKI_GAME.split(" ");
    const gameStarted = Date.now();
    for (const [i, move] of moves.entries()) {
      await waitFor(`ready for move ${i + 1}`, 120, async () =>
        (await attr(page, "phase")) === "ready" && Number(await attr(page, "ply")) === i,
      );
      const where = await cells(page);
      // A Halma-family move is the piece and where it ends (a jump's path is the game's to
      // find): two taps, a frame apart (the game reads taps once a frame).
      const squares = move.split(/[-:]/);
      for (const square of [squares[0], squares.at(-1)]) {
        if (!where[square]) throw new Error(`${square} is not on the screen (move ${i + 1}, ${move})`);
        const [x, y] = where[square];
        await page.touchscreen.tap(x, y);
        await nextFrames(page, 1, `the tap on ${square}`);
      }
      // Generous: under a software GPU the first frame that draws something new (a piece
      // selected where jumps light up) compiles shaders, seen taking 30 s on a loaded machine.
      await waitFor(`${move} played by taps`, 120, async () => Number(await attr(page, "ply")) > i).catch(async (e) => {
        throw new Error(`${e.message} (the game's moves: ${await attr(page, "line")})`);
      });
      const last = (await attr(page, "line")).split(" ").at(-1);
      if (last !== move) throw new Error(`the taps of ${move} played ${last}`);
    }
    await waitFor("the game over", 60, async () => (await attr(page, "phase")) === "game-over");
    const outcome = await attr(page, "outcome");
    const seconds = (Date.now() - gameStarted) / 1000;
    console.log(`touch game: ${moves.length} moves tapped in ${seconds.toFixed(0)} s; ${outcome}`);
    await writeFile(join(out, "touch-game.png"), await page.screenshot({ timeout: 120000 }));
    report.touchGame = { moves: moves.length, outcome, seconds };
  } catch (e) {
    fail(`touch game: ${e.message}`);
    await writeFile(join(out, "touch-game-failed.png"), await page.screenshot({ timeout: 120000 })).catch(() => {});
  } finally {
    console.log(`touch game: ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
    await context.close();
  }
}

/**
 * The six-seat star at 390×844, 844×390 and 768×1024 (one phone page, turned and resized) and
 * at 1024×600 and 1280×800 (one tablet-and-desktop page): the whole star on the screen and the
 * phone checks.
 */
async function starScreens(browser, origin, report) {
  const phoneSizes = ["390x844", "844x390", "768x1024"].map((n) => SIZES.find((s) => s.name === n));
  await checkGroup(browser, origin, phoneSizes, [STAR], report);
  await checkGroup(browser, origin, [SIZES.find((s) => s.name === "1024x600"), DESKTOP], [STAR], report);
}

/** At 390×844, Red's first move on the six-seat star by two taps: k3, then k5 (one hop). */
async function starMove(browser, origin, report) {
  const size = SIZES.find((s) => s.name === "390x844");
  const context = await browser.newContext(size);
  const page = await open(context, origin, STAR.options, "star move by taps");
  try {
    await waitFor("the star", waitSeconds, async () => (await attr(page, "app-state")) === "in-game" && (await attr(page, "cells")));
    await settled(page, "star move by taps");
    const where = await cells(page);
    const names = Object.keys(where);
    if (names.length !== 121) fail(`the star shows ${names.length} cells, not 121`);
    console.log(`star: k3 at ${where.k3}, k5 at ${where.k5} (CSS px)`);
    for (const square of ["k3", "k5"]) {
      if (!where[square]) throw new Error(`${square} is not on the screen`);
      const [x, y] = where[square];
      await page.touchscreen.tap(x, y);
      await nextFrames(page, 1, `the tap on ${square}`);
    }
    await waitFor("k3:k5 played by taps", 120, async () => Number(await attr(page, "ply")) === 1);
    const line = await attr(page, "line");
    if (line !== "k3:k5") fail(`the taps on k3 and k5 played ${line}`);
    await settled(page, "star after the move");
    await writeFile(join(out, "star-move.png"), await page.screenshot({ timeout: 120000 }));
    report.starMove = { line, toMove: await attr(page, "to-move") };
    console.log(`star: k3:k5 played by taps; ${await attr(page, "to-move")} to move`);
  } catch (e) {
    fail(`star move by taps: ${e.message}`);
    await writeFile(join(out, "star-move-failed.png"), await page.screenshot({ timeout: 120000 })).catch(() => {});
  } finally {
    await context.close();
  }
}

async function main() {
  await builtGame(dist); // throws when dist holds no built game
  await mkdir(out, { recursive: true });
  const { server, origin } = await serveStatic(dist);
  const browser = await launchChromium(executablePath);
  const report = { screens: [], failures };
  const started = Date.now();
  try {
    const sizes = SIZES.filter((s) => !onlySizes || onlySizes.has(s.name));
    const screens = SCREENS.filter((s) => !onlyScreens || onlyScreens.has(s.name));
    // Sizes of one device share a page per screen (resized between them): a context's
    // device (touch, isMobile, scale) is fixed, its viewport is not.
    const groups = [];
    for (const size of sizes) {
      const group = groups.find((g) => sameDevice(g[0], size));
      if (group) group.push(size);
      else groups.push([size]);
    }
    if (fresh) {
      // Every screen at every size in a page of its own (the old way; slow).
      for (const size of sizes) await checkGroup(browser, origin, [size], screens, report);
    } else {
      for (const group of groups) await checkGroup(browser, origin, group, screens, report);
    }
    if (!graphics) await savedFullGraphics(browser, origin, sizes.find((s) => s.deviceScaleFactor > 1));
    if (!("no-star" in args)) {
      await starScreens(browser, origin, report);
      // Taps in a browser of its own, as the touch game's (see there).
      const own = await launchChromium(executablePath);
      try {
        await starMove(own, origin, report);
      } finally {
        await own.close();
      }
    }
    if (compare) {
      const [sizeName, screenName] = compare.split(":");
      const size = SIZES.find((s) => s.name === sizeName);
      const screen = SCREENS.find((s) => s.name === screenName);
      const resized = report.screens.find((r) => r.size === sizeName && r.screen === screenName);
      if (!size || !screen) throw new Error(`--compare ${compare}: no such size or screen`);
      if (!resized) {
        console.log(`--compare ${compare}: that screen was not checked at that size; nothing to compare`);
      } else {
        await compareFresh(browser, origin, size, screen, resized.layout, report);
      }
    }
    if (playGame || doPinch) {
      // In a browser of its own, as a phone opening the page: in two whole runs the one browser,
      // after some fifty pages under the software GPU, dropped every touch of its last page
      // (no pinch, no tap) while the game alone, and after a 1024×600 page, took them all.
      const own = await launchChromium(executablePath);
      try {
        await touchGame(own, origin, report, { moves: playGame });
      } finally {
        await own.close();
      }
    }
  } finally {
    report.seconds = Math.round((Date.now() - started) / 1000);
    console.log(`phone test: ${report.seconds} s`);
    for (const r of report.screens) delete r.layout;
    await writeFile(join(out, "report.json"), JSON.stringify(report, null, 2) + "\n");
    await browser.close();
    server.close();
  }
}

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    if (failures.length > 0) {
      console.error(`phone test FAILED (${failures.length} problem(s)); output in ${out}`);
      process.exit(1);
    }
    console.log(`phone test passed; output in ${out}`);
  });
