// The offline test: the installable page keeps its build and starts without a network, and a
// new build is picked up on the next load. On a copy of the built page (scripts/build-web.sh),
// served on 127.0.0.1 as scripts/serve-web.py serves it (Cache-Control included), in headless
// Chromium:
//
//   1. first visit (online): the game starts against the computer; the progress bar counted
//      the .wasm up to its size in build.json, with steps in between; the page links its web
//      app manifest (name, standalone, 192 and 512 px icons, a maskable one, each served as a
//      PNG of that size); the service worker takes control and its cache, named by the
//      build's hash, holds every file of the build;
//   2. offline (the browser context's network cut): a reload starts the game, and a move is
//      played against the computer, which answers; hot-seat, a Learn puzzle and the main menu
//      start too; the page says it is offline (the server is stopped meanwhile as well:
//      Chromium's offline emulation does not cover the service worker's requests);
//   3. a new build (one asset file changed, packaged again by scripts/package-web.py beside
//      the old one): the next load (online) runs the new build, every file of the build from
//      its own b/<hash>/ folder (no mix), the new service worker takes over and the old
//      build's cache is deleted; offline again, a reload starts the new build.
//
// Usage: node offline-test.mjs --dist <built page> --out <folder for screenshots and logs>
//        [--chromium /usr/bin/chromium] [--timeout <seconds for each wait>]
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { execFileSync } from "node:child_process";
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PNG } from "pngjs";
import { builtGame, serveStatic } from "./serve.mjs";
import { launchChromium, parseArgs, sleep, waitFor } from "./harness.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "offline-test-output");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 300);

const failures = [];
const fail = (why) => {
  failures.push(why);
  console.error(`FAIL: ${why}`);
};
const check = (ok, why) => {
  if (!ok) fail(why);
  return ok;
};

const attr = (page, name) => page.evaluate((n) => document.body.getAttribute(`data-${n}`), name);

/** Waits until the game leaves "loading"; returns its app state. */
async function started(page, what) {
  const state = await waitFor(`${what}: the game starting`, waitSeconds, async () => {
    const s = await attr(page, "app-state");
    return s && s !== "loading" ? s : null;
  });
  console.log(`${what}: ${state} (first frame ${await attr(page, "first-frame-ms")} ms)`);
  return state;
}

/** The service worker's state as the page sees it, and the caches of this origin. */
const workerState = (page) =>
  page.evaluate(async () => {
    const controller = navigator.serviceWorker.controller;
    let build = null;
    if (controller) {
      build = await new Promise((done) => {
        const channel = (e) => {
          navigator.serviceWorker.removeEventListener("message", channel);
          done(e.data?.build ?? null);
        };
        navigator.serviceWorker.addEventListener("message", channel);
        controller.postMessage("build");
        setTimeout(() => done(null), 3000);
      });
    }
    // While the worker activates it deletes other builds' caches; opening one of them now to
    // list it would create it again (empty), so the caches are read only once it is active.
    if (controller && controller.state !== "activated") {
      return { controlled: true, build: null, caches: {} };
    }
    const caches_ = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      caches_[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
    }
    return { controlled: !!controller, build, caches: caches_ };
  });

/** Waits until a service worker of `build` controls the page with its cache filled. */
async function controlledBy(page, build, what) {
  return waitFor(`${what}: the service worker of build ${build} in control`, waitSeconds, async () => {
    const state = await workerState(page);
    return state.build === build && state.caches[`boardcraft-${build}`] ? state : null;
  });
}

/** Plays the first legal move for the human side and waits for the computer's answer. */
async function playAgainstComputer(page, what) {
  const legal = await waitFor(`${what}: the player's legal moves`, waitSeconds, () =>
    page.evaluate(() => {
      const moves = window.boardcraft?.legalMoves() ?? [];
      return moves.length ? moves : null;
    }),
  );
  const before = Number(await attr(page, "ply"));
  const answer = await page.evaluate((m) => window.boardcraft.play(m), legal[0]);
  check(answer === "ok", `${what}: playing ${legal[0]} answered ${answer}`);
  const line = await waitFor(`${what}: ${legal[0]} and the computer's answer`, waitSeconds, async () =>
    Number(await attr(page, "ply")) >= before + 2 ? attr(page, "line") : null,
  );
  console.log(`${what}: played ${legal[0]}; the computer answered: ${line}`);
  return line;
}

/** The files the page loaded from a build folder (Resource Timing). */
const buildFiles = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith("/b/")),
  );

async function checkManifest(page, origin) {
  const href = await page.evaluate(() => document.querySelector('link[rel="manifest"]')?.href);
  if (!check(!!href, "the page links no web app manifest")) return;
  const response = await fetch(href);
  check(
    (response.headers.get("content-type") ?? "").startsWith("application/manifest+json"),
    `the manifest is served as ${response.headers.get("content-type")}`,
  );
  const manifest = await response.json();
  check(manifest.name && manifest.short_name, "the manifest has no name");
  check(manifest.display === "standalone", `the manifest's display is ${manifest.display}`);
  check(/^#[0-9a-f]{6}$/i.test(manifest.theme_color ?? "") && manifest.background_color, "the manifest has no colours");
  for (const [size, purpose] of [
    [192, "any"],
    [512, "any"],
    [512, "maskable"],
  ]) {
    const icon = manifest.icons?.find((i) => i.sizes === `${size}x${size}` && (i.purpose ?? "any").includes(purpose));
    if (!check(!!icon, `the manifest has no ${size} px ${purpose} icon`)) continue;
    const png = PNG.sync.read(Buffer.from(await (await fetch(new URL(icon.src, href))).arrayBuffer()));
    check(png.width === size && png.height === size, `${icon.src} is ${png.width}×${png.height}, not ${size}×${size}`);
  }
  console.log(`manifest: ${manifest.name}, ${manifest.display}, ${manifest.icons.length} icons`);
}

async function main() {
  // A copy: the test adds a build to it.
  const root = await mkdtemp(join(tmpdir(), "boardcraft-offline-test-"));
  await cp(dist, root, { recursive: true });
  await mkdir(out, { recursive: true });
  const first = await builtGame(root);
  const { server, origin, served } = await serveStatic(root);
  const browser = await launchChromium(executablePath);
  const log = [];
  const report = { builds: [first.build], failures };
  try {
    const context = await browser.newContext({ viewport: { width: 960, height: 600 } });
    // The progress bar's values as the page sets them.
    await context.addInitScript(() => {
      window.progressSeen = [];
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.target.id === "progress") window.progressSeen.push([Number(r.target.max), Number(r.target.value)]);
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["value", "max"] });
    });
    const page = await context.newPage();
    page.on("console", (m) => {
      log.push(`[${m.type()}] ${m.text()} (${m.location().url})`);
      if (m.type() === "error" || /panicked at/.test(m.text())) fail(`console: ${m.text()} (${m.location().url})`);
    });
    page.on("pageerror", (e) => fail(`uncaught exception: ${e.message}`));
    const vsComputer = `${origin}/?variant=ugolki-hg-3x3&white=human&black=novice`;

    // --- 1. first visit
    console.log("== first visit (online)");
    await page.goto(vsComputer);
    check((await started(page, "first visit")) === "in-game", "first visit: the game did not start");
    const wasmSize = first.files["boardcraft_bg.wasm"];
    const progress = await page.evaluate(() => window.progressSeen);
    const between = new Set(progress.filter(([, v]) => v > 0 && v < wasmSize).map(([, v]) => v));
    check(
      progress.length > 0 && progress.every(([max]) => max === wasmSize || max === 1),
      `the progress bar's total is not the .wasm's size ${wasmSize}: ${JSON.stringify(progress.slice(0, 3))}`,
    );
    check(progress.at(-1)?.[1] === wasmSize, `the progress bar ended at ${progress.at(-1)?.[1]} of ${wasmSize}`);
    check(between.size >= 3, `the progress bar showed ${between.size} steps between 0 and the total`);
    console.log(`progress bar: ${between.size} steps up to ${wasmSize} bytes`);
    report.progressSteps = between.size;
    await checkManifest(page, origin);
    const installed = await controlledBy(page, first.build, "first visit");
    const expected = Object.keys(first.files).map((f) => `/${first.dir}${f}`);
    const cached = new Set(installed.caches[`boardcraft-${first.build}`]);
    const missing = expected.filter((f) => !cached.has(f));
    check(missing.length === 0, `the cache lacks ${missing.length} files of the build: ${missing.slice(0, 5).join(", ")}`);
    check(cached.has("/index.html"), "the cache lacks index.html");
    console.log(`service worker of build ${first.build} in control; its cache holds ${cached.size} files`);

    // --- 2. offline
    console.log("== offline");
    // The browser context's network is cut, and the server stopped too (Chromium's offline
    // emulation does not cover the service worker's own requests).
    const port = new URL(origin).port;
    const stopServer = () =>
      new Promise((done) => {
        server.close(done);
        server.closeAllConnections();
      });
    await context.setOffline(true);
    await stopServer();
    await page.reload();
    check((await started(page, "offline, against the computer")) === "in-game", "offline: the game did not start");
    await waitFor("offline: the page saying so", 30, () => page.locator("#offline").isVisible()).catch(() =>
      fail("offline: the page does not say it is offline"),
    );
    check(
      (await waitFor("offline: the variant library", waitSeconds, async () => Number(await attr(page, "variants")))) > 0,
      "offline: no variant loaded",
    );
    await playAgainstComputer(page, "offline");
    await page.screenshot({ path: join(out, "offline-game.png") });
    for (const [what, query, state, probe] of [
      ["offline, hot-seat", "variant=gipf-basic&white=human&black=human", ["in-game"], null],
      // The Learn screen opens, then the puzzle on the board.
      ["offline, a Learn puzzle", "learn=puzzle:focus-4", ["learn", "in-game"], "learn"],
      ["offline, the main menu", "", ["menu"], null],
    ]) {
      await page.goto(query ? `${origin}/?${query}` : `${origin}/`);
      const s = await started(page, what);
      check(state.includes(s), `${what}: ${s}, not ${state.join(" or ")}`);
      if (probe) {
        const value = await waitFor(`${what}: the puzzle on the board`, waitSeconds, async () =>
          (await attr(page, probe)) === "puzzle:focus-4 trying" ? "puzzle:focus-4 trying" : null,
        ).catch((e) => fail(e.message));
        console.log(`${what}: data-${probe}="${value}"`);
      }
    }
    await page.screenshot({ path: join(out, "offline-menu.png") });

    // --- 3. a new build
    console.log("== a new build");
    await new Promise((done) => server.listen(Number(port), "127.0.0.1", done));
    await context.setOffline(false);
    const stage = join(root, ".stage");
    // The build's own files, without the precompressed copies (build-web.sh makes them after
    // packaging; the test's server sends the plain files when there are none).
    await cp(join(root, first.dir), stage, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
    // A file the page reads once the game is on (the variants are compiled into the game).
    await appendFile(join(stage, "assets/lessons/manifest.ron"), "\n// a changed file: a new build\n");
    const packaged = execFileSync("python3", [join(repo, "scripts/package-web.py"), "--web", join(repo, "web"), stage, root]);
    log.push(`[package-web] ${packaged}`);
    const second = await builtGame(root);
    check(second.build !== first.build, "the changed file did not make a new build");
    report.builds.push(second.build);
    await page.goto(vsComputer);
    check((await started(page, "the next load")) === "in-game", "next load: the game did not start");
    await waitFor("online again: the offline note gone", 30, async () => !(await page.locator("#offline").isVisible())).catch(
      () => fail("online again, the page still says it is offline"),
    );
    const running = await page.evaluate(() => window.boardcraftBuild);
    check(running === second.build, `the next load runs build ${running}, not the new ${second.build}`);
    // The Learn manifests load once the game is on.
    const changed = `/${second.dir}assets/lessons/manifest.ron`;
    const loaded = await waitFor("the changed file loaded", 60, async () => {
      const files = await buildFiles(page);
      return files.includes(changed) ? files : null;
    }).catch(() => buildFiles(page));
    const foreign = loaded.filter((p) => !p.startsWith(`/${second.dir}`));
    check(loaded.length > 0 && foreign.length === 0, `the new page loaded files of another build: ${foreign.join(", ")}`);
    check(loaded.includes(changed), "the new page did not load the changed file from its build");
    const updated = await controlledBy(page, second.build, "next load");
    const names = Object.keys(updated.caches);
    check(
      names.length === 1 && names[0] === `boardcraft-${second.build}`,
      `the caches after the update: ${names.join(", ")}`,
    );
    console.log(`next load: build ${second.build}, its service worker in control; caches: ${names.join(", ")}`);
    await context.setOffline(true);
    await stopServer();
    await page.reload();
    check((await started(page, "offline after the update")) === "in-game", "offline after the update: no game");
    const offlineBuild = await page.evaluate(() => window.boardcraftBuild);
    check(offlineBuild === second.build, `offline after the update: build ${offlineBuild}, not ${second.build}`);
    await playAgainstComputer(page, "offline after the update");
    await context.close();
  } catch (e) {
    fail(e.message);
  } finally {
    await writeFile(join(out, "offline-report.json"), JSON.stringify(report, null, 2) + "\n");
    await writeFile(join(out, "offline-console.log"), log.join("\n") + "\n");
    await browser.close();
    if (server.listening) server.close();
    await rm(root, { recursive: true, force: true });
  }
}

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    if (failures.length > 0) {
      console.error(`offline test FAILED (${failures.length} problem(s)); output in ${out}`);
      process.exit(1);
    }
    console.log(`offline test passed; output in ${out}`);
  });
