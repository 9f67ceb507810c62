// The online browser test: two people play each other through the real server, in two
// isolated browser contexts (separate storage, like two machines), on the page the server
// itself serves.
//
//   1. the server (`boardcraft-server --web <built page>`) starts on a free loopback port;
//   2. player A opens the page with `?invite&variant=…&color=white`: the game creates an
//      online game and shows its invite code (<body data-online-code>); the page's address
//      becomes the invite link, so a reload rejoins instead of creating another game;
//   3. player B opens the invite link (`?join=<code>`) in another context and takes the free
//      seat; both pages see each other present;
//   4. they play PLIES plies of a jump game through the page's test hook
//      (`window.boardcraft.legalMoves()` / `.play(notation)`: the same move request a click
//      makes), each move preferring the longest chain of jumps; after every ply both pages must
//      show the same move list;
//   5. in the middle B's page is reloaded: it must rejoin its own seat (the seat token kept in
//      browser storage), get the whole game from the server and play on;
//   6. at the end both pages show the same move list (data-line) as the server's record
//      (GET /api/games/<id>), no page logged a console error, threw, or had a request fail.
//
// Screenshots of both pages go to the output folder: a-<ply>.png / b-<ply>.png after the
// reload and at the end, and report.json with the timings and the final line.
//
// Usage: node online-test.mjs --dist <built page> --server <boardcraft-server binary>
//        --out <folder> [--chromium /usr/bin/chromium] [--timeout <seconds per wait>]
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtGame } from "./serve.mjs";
import { launchChromium } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "web-online-test-output");
const serverBin = resolve(args.server ?? "boardcraft-server");
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 300);
const VARIANT = args.variant ?? "ugolki-hg-3x3";
const PLIES = Number(args.plies ?? 12);
const RELOAD_AT = Math.floor(PLIES / 2);

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

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function waitFor(what, seconds, check) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(200);
  }
}

/** A loopback port nobody listens on right now. */
function freePort() {
  return new Promise((done, failed) => {
    const probe = createServer();
    probe.once("error", failed);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** Starts the server on a fresh data folder; resolves once /healthz answers. */
async function startServer(log) {
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), "boardcraft-online-test-"));
  const child = spawn(
    serverBin,
    ["--listen", `127.0.0.1:${port}`, "--data", data, "--web", dist],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const keep = (stream, tag) =>
    stream.on("data", (chunk) => {
      for (const line of chunk.toString().split("\n")) if (line) log.push(`[server ${tag}] ${line}`);
    });
  keep(child.stdout, "out");
  keep(child.stderr, "err");
  let exited = null;
  child.on("exit", (code, signal) => {
    exited = { code, signal };
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor("the server answering /healthz", 60, async () => {
    if (exited) throw new Error(`the server exited: ${JSON.stringify(exited)}`);
    try {
      return (await fetch(`${origin}/healthz`)).ok;
    } catch {
      return false;
    }
  });
  console.log(`server: ${origin} (data in ${data})`);
  return {
    origin,
    stop: async () => {
      // Its data folder is removed once the server has exited (it writes on its way out).
      const gone = child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await gone;
      await rm(data, { recursive: true, force: true });
    },
  };
}

/** A player: its own browser context (storage), one page, its console collected. */
async function newPlayer(browser, name, log) {
  const context = await browser.newContext({ viewport: { width: 960, height: 600 } });
  const page = await context.newPage();
  page.on("console", (message) => {
    const text = message.text();
    log.push(`[${name} ${message.type()}] ${text}`);
    const level = /^(?:%c)?(ERROR|WARN|INFO|DEBUG|TRACE)\b/.exec(text)?.[1];
    if (message.type() === "error" || level === "ERROR" || /panicked at/.test(text)) {
      fail(`${name}: console: ${text}`);
    }
  });
  page.on("pageerror", (error) => {
    log.push(`[${name} pageerror] ${error.stack ?? error}`);
    fail(`${name}: uncaught exception: ${error.message}`);
  });
  page.on("requestfailed", (request) => {
    const why = request.failure()?.errorText;
    log.push(`[${name} failed] ${request.url()} ${why}`);
    // A reload aborts the old page's requests and its websocket: that is the test, not a fault.
    if (why !== "net::ERR_ABORTED") fail(`${name}: request failed: ${request.url()} (${why})`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) fail(`${name}: HTTP ${response.status()} for ${response.url()}`);
  });
  const attr = (key) => page.evaluate((k) => document.body.getAttribute(`data-${k}`) ?? "", key);
  return { name, context, page, attr };
}

/** Waits until the page's game is on, online, and (if given) has `ply` moves, settled. */
async function settled(player, ply) {
  return waitFor(`${player.name}: online at ply ${ply}`, waitSeconds, async () => {
    const [state, online, phase, n, pending] = await Promise.all(
      ["app-state", "online-state", "phase", "ply", "online-pending"].map(player.attr),
    );
    return state === "in-game" &&
      online === "online" &&
      phase !== "animating" &&
      pending === "" &&
      (ply === undefined || Number(n) === ply)
      ? true
      : null;
  });
}

async function screenshot(player, label) {
  const file = join(out, `${player.name}-${label}.png`);
  await writeFile(file, await player.page.screenshot());
  console.log(`screenshot: ${file}`);
  return file;
}

async function main() {
  await builtGame(dist);
  await mkdir(out, { recursive: true });
  const log = [];
  const report = { variant: VARIANT, plies: PLIES, failures };
  const server = await startServer(log);
  const browser = await launchChromium(executablePath, [
    // Two players' pages run side by side: neither may be throttled as a background page.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
  ]);
  const started = Date.now();
  try {
    const a = await newPlayer(browser, "a", log);
    const b = await newPlayer(browser, "b", log);

    // 2. A creates the game.
    const create = new URLSearchParams({ invite: "", variant: VARIANT, color: "white" });
    await a.page.goto(`${server.origin}/?${create}`);
    const code = await waitFor("a: the invite code", waitSeconds, async () => (await a.attr("online-code")) || null);
    const invite = await a.attr("online-invite");
    console.log(`a created the game: code ${code}, invite link ${invite}`);
    report.code = code;
    if (!(await a.page.url()).includes(`join=${code}`)) fail(`a's address is not the invite link: ${a.page.url()}`);
    if ((await a.attr("online-seat")) !== "white") fail(`a's seat is ${await a.attr("online-seat")}`);

    // 3. B opens the invite link.
    await b.page.goto(invite || `${server.origin}/?join=${code}`);
    await settled(a, 0);
    await settled(b, 0);
    if ((await b.attr("online-seat")) !== "black") fail(`b's seat is ${await b.attr("online-seat")}`);
    for (const [p, q] of [[a, b], [b, a]]) {
      await waitFor(`${p.name} sees ${q.name}`, waitSeconds, async () => (await p.attr("online-opponent")) === "present");
    }
    report.joinedMs = Date.now() - started;
    console.log(`both players are in (${report.joinedMs} ms)`);

    // 4. Play.
    const players = { White: a, Black: b };
    let longestChain = 0;
    for (let ply = 0; ply < PLIES; ply++) {
      if (ply === RELOAD_AT) {
        // 5. B's page reloads mid-game and must come back to its seat.
        console.log(`reloading b at ply ${ply}`);
        await b.page.reload();
        await settled(b, ply);
        if ((await b.attr("online-seat")) !== "black") fail(`after the reload b's seat is ${await b.attr("online-seat")}`);
        await waitFor("a sees b back", waitSeconds, async () => (await a.attr("online-opponent")) === "present");
        await screenshot(a, `after-reload-${ply}`);
        await screenshot(b, `after-reload-${ply}`);
      }
      const toMove = await a.attr("to-move");
      const mover = players[toMove];
      if (!mover) throw new Error(`nobody to move at ply ${ply} (to-move: ${toMove}; outcome: ${await a.attr("outcome")})`);
      // The page's attributes change in the frame a move is played; the hook offers the next
      // moves once the board has settled on it (a frame or more later).
      const moves = await waitFor(`${mover.name}: legal moves at ply ${ply}`, waitSeconds, async () => {
        const list = await mover.page.evaluate(() => window.boardcraft.legalMoves());
        return list.length > 0 ? list : null;
      }).catch(async (e) => {
        const why = await mover.page.evaluate(() => window.boardcraft.state());
        throw new Error(`${e.message} (${why})`);
      });
      // The longest chain of jumps (`b3:d3:d5`), the first such in the rules' order.
      const hops = (m) => m.split(":").length - 1;
      const move = moves.reduce((best, m) => (hops(m) > hops(best) ? m : best), moves[0]);
      longestChain = Math.max(longestChain, hops(move));
      const answer = await mover.page.evaluate((m) => window.boardcraft.play(m), move);
      if (answer !== "ok") fail(`${mover.name}: play(${move}) answered ${answer}`);
      await settled(a, ply + 1);
      await settled(b, ply + 1);
      const [la, lb] = [await a.attr("line"), await b.attr("line")];
      if (la !== lb) fail(`after ply ${ply + 1} the pages differ:\n  a: ${la}\n  b: ${lb}`);
      console.log(`ply ${ply + 1}: ${mover.name} played ${move}`);
    }
    report.longestChain = longestChain;
    if (longestChain < 1) fail("no move of the game was a jump");

    // 6. The end: both pages and the server's record agree.
    const [la, lb] = [await a.attr("line"), await b.attr("line")];
    report.line = la;
    if (la !== lb) fail(`the final move lists differ:\n  a: ${la}\n  b: ${lb}`);
    if (la.split(" ").filter(Boolean).length !== PLIES) fail(`the move list has not ${PLIES} moves: ${la}`);
    const gameId = await a.attr("online-game");
    const record = await (await fetch(`${server.origin}/api/games/${gameId}`)).json().catch(() => null);
    const recorded = record?.moves?.join(" ");
    report.serverLine = recorded;
    if (recorded !== la) fail(`the server's record differs from the pages:\n  server: ${recorded}\n  pages:  ${la}`);
    await screenshot(a, `end-${PLIES}`);
    await screenshot(b, `end-${PLIES}`);
    report.seconds = (Date.now() - started) / 1000;
    console.log(`final line (${PLIES} plies, longest chain ${longestChain} jumps): ${la}`);
  } finally {
    await writeFile(join(out, "report.json"), JSON.stringify(report, null, 2) + "\n");
    await writeFile(join(out, "console.log"), log.join("\n") + "\n");
    await browser.close();
    await server.stop();
  }
}

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    if (failures.length > 0) {
      console.error(`online browser test FAILED (${failures.length} problem(s)); console log: ${join(out, "console.log")}`);
      process.exit(1);
    }
    console.log(`online browser test passed; output in ${out}`);
  });
