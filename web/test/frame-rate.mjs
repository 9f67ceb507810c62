// Frames a second of the built page under the software renderer, with full and with light
// graphics (`?graphics=`, see src/view/graphics.rs): each page is opened at a phone's size
// (touch, device scale 2) with a game of the variant, and once the board is drawn the page's
// animation frames are counted for a while. Under SwiftShader a frame is the whole GPU work
// done on the processor, so the rate says what a player without a usable GPU sees, and what
// the browser tests wait for.
//
// Usage: node frame-rate.mjs --dist <built page> [--chromium /usr/bin/chromium]
//        [--variant ugolki-9qum] [--size 390x844] [--scale 2] [--seconds 20] [--runs 2]
//        [--graphics full,light]
// Prints one line per run (frames, seconds, frames a second) and the median per setting.
import { resolve } from "node:path";
import { builtGame, serveStatic } from "./serve.mjs";
import { countFrames, framesOf, launchChromium, parseArgs, sleep, waitFor } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const variant = args.variant ?? "ugolki-9qum";
const [width, height] = (args.size ?? "390x844").split("x").map(Number);
const scale = Number(args.scale ?? 2);
const seconds = Number(args.seconds ?? 20);
const runs = Number(args.runs ?? 2);
const settings = (args.graphics ?? "full,light").split(",");

const attr = (page, name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);

async function measure(browser, origin, graphics) {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: scale,
    isMobile: scale > 1,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(countFrames);
    await page.goto(`${origin}/?variant=${variant}&white=human&black=human&graphics=${graphics}`);
    await waitFor("the board", 300, async () => (await attr(page, "app-state")) === "in-game" && (await attr(page, "cells")));
    const drawn = await attr(page, "graphics");
    if (drawn !== graphics) throw new Error(`asked for ${graphics} graphics, the page draws ${drawn}`);
    // The first frames of a board compile its shaders: let them pass.
    const settle = await framesOf(page);
    await waitFor("the first frames", 300, async () => (await framesOf(page)) >= settle + 5);
    const before = await framesOf(page);
    const started = Date.now();
    await sleep(seconds * 1000);
    const frames = (await framesOf(page)) - before;
    const took = (Date.now() - started) / 1000;
    return { frames, took, rate: frames / took };
  } finally {
    await context.close();
  }
}

async function main() {
  await builtGame(dist);
  const { server, origin } = await serveStatic(dist);
  const browser = await launchChromium(executablePath);
  const rates = Object.fromEntries(settings.map((g) => [g, []]));
  try {
    // Alternating, so that the machine's load falls on both alike.
    for (let run = 1; run <= runs; run++) {
      for (const graphics of settings) {
        const { frames, took, rate } = await measure(browser, origin, graphics);
        rates[graphics].push(rate);
        console.log(`${graphics} graphics, run ${run}: ${frames} frames in ${took.toFixed(1)} s: ${rate.toFixed(2)} frames/s`);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const graphics of settings) {
    console.log(`${variant} at ${width}×${height}, scale ${scale}, ${graphics} graphics: median ${median(rates[graphics]).toFixed(2)} frames/s (${runs} runs of ${seconds} s)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
