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
