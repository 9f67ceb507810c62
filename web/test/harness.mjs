// What the browser tests share: the command line, waiting for the page (the newer tests), and
// Chromium started the way this machine needs (all of them).
import { chromium } from "playwright-core";

/** `--name value` pairs (and bare `--flag`s, as `true`) into an object. */
export function parseArgs(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith("--")) throw new Error(`unexpected argument ${argv[i]}`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) {
      parsed[argv[i].slice(2)] = true;
    } else {
      parsed[argv[i].slice(2)] = next;
      i++;
    }
  }
  return parsed;
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Polls `probe` every 250 ms until it returns something truthy; throws after `seconds`. */
export async function waitFor(what, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(250);
  }
}

/**
 * Counts the page's animation frames (`window.__frames`); the game draws in them. An init
 * script (`page.addInitScript(countFrames)`): a value that did not change over no frame says
 * nothing, and under the software renderer one frame can take seconds.
 */
export function countFrames() {
  window.__frames = 0;
  const tick = () => {
    window.__frames++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Frames the page drew since it opened (`countFrames`). */
export const framesOf = (page) => page.evaluate(() => window.__frames ?? 0);

/**
 * Waits `ms` and at least `frames` of the page's frames (`countFrames`): under the software
 * renderer on a busy machine one frame can take longer than seconds, and a value that did not
 * change over no frame says nothing.
 */
export async function framesPass(page, ms, frames = 3) {
  const since = await framesOf(page);
  await sleep(ms);
  while ((await framesOf(page)) < since + frames) await sleep(250);
}

/**
 * Headless Chromium with a software GPU, and nothing that phones home: the machine has no
 * network (playwright-core gives it a fresh temporary profile of its own).
 */
export function launchChromium(executablePath, extraArgs = []) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
      ...extraArgs,
    ],
  });
}

/**
 * The colour of the page's pixel at (x, y) (CSS pixels) as `[r, g, b]`: a screenshot of that
 * one pixel, decoded here (the first pixel of a PNG's first row is stored unfiltered whatever
 * the row's filter: each filter predicts it from zeros).
 */
export async function pixelAt(page, x, y) {
  const { inflateSync } = await import("node:zlib");
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  let at = 8;
  let colourType = null;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      if (body[8] !== 8) throw new Error(`a ${body[8]}-bit PNG`);
      colourType = body[9];
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  if (colourType !== 2 && colourType !== 6) throw new Error(`PNG colour type ${colourType}`);
  const raw = inflateSync(Buffer.concat(data));
  return [raw[1], raw[2], raw[3]];
}
