// The lobby browser test: strangers meet on the page the server itself serves.
//
//   1. the server (`boardcraft-server --web <built page> --pools "ugolki-hg-3x3 1+0, …"`)
//      starts on a free loopback port with a fresh SQLite database;
//   2. two isolated browser contexts (two strangers: separate storage and cookies) open the
//      page, open the Lobby (`window.boardcraftUi.open("lobby")`, as the menu's "Play online…"
//      does): each signs in as a guest at once and sees the quick-pairing grid;
//   3. both press the same quick-pairing button (`window.boardcraftLobby.act("join_pool", …)`:
//      what a tap on it does); they are paired and the game starts on both pages;
//   4. they play four plies through the page's move hook (`window.boardcraft.play`), then the
//      side to move resigns (`boardcraftLobby.act("resign")`: what the panel's Resign does);
//      both pages show the rating change (+N for the winner, −M for the loser) and the game is
//      in both players' archives (`act("archive")`);
//   5. with --bot (a `boardcraft-cli` binary): a bot account plays in the lobby
//      (`boardcraft-cli online bot`, marked a bot with `boardcraft-server account make-bot`);
//      a third context challenges it by name and the bot answers a move;
//   6. a's page again at 390×844 (its kept session: the same account), in English and in
//      Russian, every tab of the Lobby (play, profile — which counts the game —, games,
//      leaders): no clipped text, every button a tap (44×44) wide, a screenshot each
//      (lobby-<tab>-390x844-<en|ru>.png);
//   7. a table of three: three more strangers press the same three-seat Chinese checkers
//      quick-pairing button and are seated at one game (protocol 3), each plays two moves
//      (fewer would abort it), one closes its page and after the grace period (`--grace-secs`)
//      the server's computer takes its seat and moves in it on the other two pages; one of
//      those two resigns, which leaves one seat playing and so ends the game; both pages show
//      every seat's place (the one who stayed first, the one who resigned second, the one who
//      left last) and every seat's rating change.
//
// Usage: node lobby-test.mjs --dist <built page> --server <boardcraft-server binary>
//        [--cli <boardcraft-cli binary>] --out <folder> [--chromium /usr/bin/chromium]
//        [--timeout <seconds per wait>] [--table-only (part 7 alone)]
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtGame } from "./serve.mjs";
import { countFrames, framesPass, launchChromium, parseArgs, waitFor } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "web-lobby-test-output");
const serverBin = resolve(args.server ?? "boardcraft-server");
const cliBin = args.cli ? resolve(args.cli) : null;
const executablePath = args.chromium ?? "/usr/bin/chromium";
const waitSeconds = Number(args.timeout ?? 180);
const POOL = "ugolki-hg-3x3 1+0";
// The three-seat pool, as the server's --pools writes it and as the page names it.
const TABLE_POOL = "chinese-checkers 5+0 x3";
const TABLE_ID = "chinese-checkers ×3 5+0";
// Seconds a closed page's seat waits before the server's computer takes it.
// Long enough that a page slowed by the others (a frame can take seconds under the software
// renderer, and a page silent for 9 s reconnects) does not lose its seat by accident.
const GRACE_SECS = 15;

const failures = [];
const fail = (why) => {
  failures.push(why);
  console.error(`FAIL: ${why}`);
};

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

function keepOutput(child, tag, log) {
  const keep = (stream, kind) =>
    stream.on("data", (chunk) => {
      for (const line of chunk.toString().split("\n")) if (line) log.push(`[${tag} ${kind}] ${line}`);
    });
  keep(child.stdout, "out");
  keep(child.stderr, "err");
}

async function startServer(log) {
  const port = await freePort();
  const data = await mkdtemp(join(tmpdir(), "boardcraft-lobby-test-"));
  const child = spawn(
    serverBin,
    [
      "--listen", `127.0.0.1:${port}`, "--data", data, "--web", dist,
      "--pools", `${POOL}, ugolki-9qum 5+3, ${TABLE_POOL}`, "--grace-secs", String(GRACE_SECS),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  keepOutput(child, "server", log);
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
    data,
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

/** A stranger: a browser context of their own, one page, its console collected. */
async function newPlayer(browser, name, log, viewport = { width: 960, height: 600 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  await page.addInitScript(countFrames);
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
  const attr = (key) => page.evaluate((k) => document.body.getAttribute(`data-${k}`) ?? "", key);
  const lobby = async () => JSON.parse((await page.evaluate(() => window.boardcraftLobby?.state() || "null")) || "null");
  const act = (what, a = "", b = "") => page.evaluate(([w, x, y]) => window.boardcraftLobby.act(w, x, y), [what, a, b]);
  return { name, context, page, attr, lobby, act };
}

/** Opens the page and the Lobby screen; waits for the welcome. */
async function enterLobby(player, origin, query = "") {
  // No options: the page opens the main menu.
  await player.page.goto(query ? `${origin}/?${query}` : `${origin}/`);
  await waitFor(`${player.name}: the page's UI hook`, waitSeconds, () =>
    player.page.evaluate(() => !!(window.boardcraftUi && window.boardcraftLobby)),
  );
  await waitFor(`${player.name}: the menu`, waitSeconds, async () => (await player.attr("app-state")) === "menu");
  await player.page.evaluate(() => window.boardcraftUi.open("lobby"));
  const state = await waitFor(`${player.name}: signed in and welcomed`, waitSeconds, async () => {
    const s = await player.lobby();
    return s && s.welcomed && s.account ? s : null;
  });
  console.log(`${player.name}: signed in as ${state.account.name} (guest ${state.account.guest})`);
  return state;
}

/**
 * Waits until the player's game is online, still, with no move waiting for the server, at
 * `ply` — or, with `orLater`, at `ply` or after it (an opponent that answers at once, such as a
 * bot, may have moved before a slow page showed the position at `ply`).
 */
async function settled(player, ply, { orLater = false } = {}) {
  return waitFor(`${player.name}: online at ply ${ply}${orLater ? " or later" : ""}`, waitSeconds, async () => {
    const [state, online, phase, n, pending] = await Promise.all(
      ["app-state", "online-state", "phase", "ply", "online-pending"].map(player.attr),
    );
    const at = orLater ? Number(n) >= ply : Number(n) === ply;
    return state === "in-game" && online === "online" && phase !== "animating" && pending === "" && at
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

/** The mover's page plays its longest legal move (the most hops) at `ply`; returns it. */
async function playLongestMove(mover, ply) {
  const moves = await waitFor(`${mover.name}: legal moves at ply ${ply}`, waitSeconds, async () => {
    const list = await mover.page.evaluate(() => window.boardcraft.legalMoves());
    return list.length > 0 ? list : null;
  });
  const hops = (m) => m.split(":").length - 1;
  const move = moves.reduce((best, m) => (hops(m) > hops(best) ? m : best), moves[0]);
  const answer = await mover.page.evaluate((m) => window.boardcraft.play(m), move);
  if (answer !== "ok") fail(`${mover.name}: play(${move}) answered ${answer}`);
  return move;
}

/** Plays the longest legal chain for the side to move; returns the move. */
async function playOne(players, ply) {
  const toMove = await players[0].attr("to-move");
  const seat = toMove.toLowerCase();
  let mover = null;
  for (const p of players) if ((await p.attr("online-seat")) === seat) mover = p;
  if (!mover) throw new Error(`nobody holds the ${seat} seat at ply ${ply}`);
  const move = await playLongestMove(mover, ply);
  console.log(`ply ${ply + 1}: ${mover.name} (${seat}) played ${move}`);
  return { mover, move };
}

/**
 * Plays a move for `player` by touch: taps its first and last squares where the page says the
 * cells are (`data-cells`, window coordinates). On a wide window the online panel sits left of
 * the board, so the board's viewport does not start at the window's corner: the taps must
 * still land on the squares meant.
 */
async function playByTaps(player, ply) {
  // The game screen laid out (a loaded machine draws a frame a second or slower): the board
  // right of the online panel, its cells published.
  // The cells settle a few frames after the layout (the camera turns to the player's side and
  // fits the board's new region): the same positions two seconds and three frames apart.
  await waitFor(`${player.name}: the board right of the online panel`, waitSeconds, async () => {
    const layout = JSON.parse((await player.attr("layout")) || "null");
    const before = await player.attr("cells");
    await framesPass(player.page, 2000);
    return layout?.board?.[0] > 100 && before && before === (await player.attr("cells")) ? true : null;
  }).catch(async (e) => {
    await screenshot(player, "taps-failed");
    throw new Error(`${e.message}: the layout ${await player.attr("layout")}`);
  });
  const moves = await waitFor(`${player.name}: legal moves at ply ${ply}`, waitSeconds, async () => {
    const list = await player.page.evaluate(() => window.boardcraft.legalMoves());
    return list.length > 0 ? list : null;
  });
  const hops = (m) => m.split(/[-:]/).length - 1;
  const move = moves.reduce((best, m) => (hops(m) > hops(best) ? m : best), moves[0]);
  const cells = JSON.parse((await player.attr("cells")) || "{}");
  const squares = move.split(/[-:]/);
  for (const square of [squares[0], squares.at(-1)]) {
    const at = cells[square];
    if (!at) throw new Error(`${player.name}: ${square} is not on the screen`);
    await player.page.touchscreen.tap(at[0], at[1]);
    // The game reads input once a frame: let the tap be seen before the next one.
    await framesPass(player.page, 0, 1);
  }
  await waitFor(`${player.name}: ${move} played by taps`, waitSeconds, async () => Number(await player.attr("ply")) > ply).catch(async (e) => {
    // The published cells as dots over the page, to see where they are against the board.
    await player.page.evaluate((json) => {
      for (const [name, [x, y]] of Object.entries(JSON.parse(json))) {
        const dot = document.createElement("div");
        dot.textContent = name;
        dot.style.cssText = `position:fixed;left:${x - 3}px;top:${y - 3}px;width:6px;height:6px;background:red;color:red;font:9px sans-serif;z-index:9999;pointer-events:none`;
        document.body.appendChild(dot);
      }
    }, await player.attr("cells"));
    console.log(`${player.name}: camera ${await player.attr("camera")}; cells ${await player.attr("cells")}`);
    throw new Error(`${e.message} (taps at ${JSON.stringify(squares.map((q) => cells[q]))}; the layout ${await player.attr("layout")})`);
  });
  const played = (await player.attr("line")).split(" ").at(-1);
  if (played !== move) fail(`${player.name}: the taps of ${move} played ${played}`);
  console.log(`ply ${ply + 1}: ${player.name} tapped ${move}`);
  return { mover: player, move };
}

/**
 * After a resize: waits until the game has laid itself out for `size` (`data-layout`'s
 * viewport) and the layout and the cells stayed the same for two seconds (under the software
 * renderer a frame can take a second, and the regions settle over a few frames).
 */
async function settledAt(player, size, label) {
  const sorted = (layout) => JSON.stringify({ ...layout, areas: [...layout.areas].sort(), buttons: [...layout.buttons].sort() });
  return waitFor(`${label}: a settled layout`, waitSeconds, async () => {
    const before = JSON.parse((await player.attr("layout")) || "null");
    const cells = await player.attr("cells");
    if (before?.viewport?.[0] !== size.width || before?.viewport?.[1] !== size.height) return null;
    await framesPass(player.page, 2000);
    const after = JSON.parse((await player.attr("layout")) || "null");
    return after && sorted(after) === sorted(before) && cells === (await player.attr("cells")) ? true : null;
  });
}

/** The layout checks of the phone test for the screen shown now. */
async function checkLayout(player, label, vp, touchSized = true) {
  const layout = JSON.parse((await player.attr("layout")) || "null");
  if (!layout) return fail(`${label}: the page does not publish its layout`);
  for (const [order, x, y, w, h] of layout.areas) {
    if (x < -1 || y < -1 || x + w > vp.width + 1 || y + h > vp.height + 1) {
      fail(`${label}: a ${order} area [${[x, y, w, h].map(Math.round)}] is outside the viewport`);
    }
  }
  for (const text of layout.clipped) fail(`${label}: clipped text: ${text}`);
  if (layout.touch) {
    const small = layout.buttons.filter(([, , w, h]) => w < 43.5 || h < 43.5);
    if (small.length > 0) {
      fail(`${label}: ${small.length} of ${layout.buttons.length} buttons are smaller than 44×44: ${small.slice(0, 6).map((r) => `[${r.map(Math.round)}]`).join(" ")}`);
    }
  } else if (touchSized) {
    fail(`${label}: a ${vp.width}×${vp.height} page is not touch-sized`);
  }
  return layout;
}

/** The seat to move in the player's online game, once the page says it (seat 0 included). */
async function seatToMove(player, what) {
  const found = await waitFor(what, waitSeconds, async () => {
    const seat = (await player.lobby())?.game?.toMove;
    return typeof seat === "number" ? { seat } : null;
  });
  return found.seat;
}

/**
 * Part 7: three strangers at a three-seat table from the same quick-pairing button; two moves
 * each, one leaves (the computer takes its seat), one resigns, the places and rating changes.
 */
async function tableOfThree(browser, server, log, report) {
  const players = [];
  for (const name of ["d", "e", "f"]) {
    const p = await newPlayer(browser, name, log);
    const s = await enterLobby(p, server.origin);
    if (!s.pools.some((q) => q.id === TABLE_ID)) fail(`${name}: no ${TABLE_ID} button: ${JSON.stringify(s.pools)}`);
    players.push(p);
  }
  for (const p of players) await p.act("join_pool", TABLE_ID);
  for (const p of players) await settled(p, 0);
  const games = [];
  for (const p of players) games.push((await p.lobby()).game);
  report.table = games[0].id;
  if (new Set(games.map((g) => g.id)).size !== 1) fail(`seated at different games: ${games.map((g) => g.id)}`);
  const seats = games.map((g) => g.seat);
  if ([...seats].sort().join() !== "0,1,2") fail(`the seats are ${seats}, not 0, 1 and 2`);
  for (const g of games) {
    if (g.seats !== 3) fail(`a table of ${g.seats} seats`);
    if (!g.players?.rated || g.players.seats.length !== 3) fail(`the table's players: ${JSON.stringify(g.players)}`);
  }
  console.log(`table ${games[0].id}: ${players.map((p, i) => `${p.name} at seat ${seats[i]}`).join(", ")}`);
  const seatOf = (p) => seats[players.indexOf(p)];
  const holder = (seat) => players.find((p) => seatOf(p) === seat);

  // Two moves of each seat: the page whose seat is to move plays the longest legal move.
  for (let ply = 0; ply < 6; ply++) {
    const toMove = await seatToMove(players[0], `the seat to move at ply ${ply}`);
    const mover = holder(toMove);
    const move = await playLongestMove(mover, ply);
    console.log(`table ply ${ply + 1}: ${mover.name} (seat ${toMove}) played ${move}`);
    for (const p of players) await settled(p, ply + 1);
  }
  await screenshot(players[0], "table");

  // One closes its page (not the one to move); after the grace period the computer has its
  // seat and plays it on the others' boards.
  const next = await seatToMove(players[0], "the seat to move after six plies");
  const leaver = players.find((p) => seatOf(p) !== next);
  const stay = players.filter((p) => p !== leaver);
  const plies = Number(await stay[0].attr("ply"));
  await leaver.context.close();
  console.log(`${leaver.name} closed its page (seat ${seatOf(leaver)})`);
  for (const p of stay) {
    await waitFor(`${p.name}: ${leaver.name}'s seat left`, waitSeconds, async () =>
      ((await p.lobby()).game.left ?? []).includes(seatOf(leaver)) ? true : null,
    );
  }
  // The two play on, each when its page offers it moves (neither does on the computer's turn),
  // until both boards are three plies on: the computer has moved in the seat that left.
  const target = plies + 3;
  let ours = 0;
  for (;;) {
    const step = await waitFor(`a move at the table, or both boards at ${target} plies`, waitSeconds, async () => {
      const lines = await Promise.all(stay.map(async (p) => (await p.attr("line")).split(" ").filter(Boolean)));
      if (lines.every((l) => l.length >= target)) return { done: true };
      for (const p of stay) {
        const list = await p.page.evaluate(() => window.boardcraft.legalMoves());
        if (list.length > 0) return { mover: p, moves: list };
      }
      return null;
    }).catch(async (e) => {
      for (const p of stay) {
        const attrs = await Promise.all(["app-state", "online-state", "phase", "ply", "to-move", "online-pending", "line"].map(p.attr));
        console.log(`${p.name}: ${attrs.join(" | ")}; ${JSON.stringify((await p.lobby()).game)}`);
        await screenshot(p, "table-stuck");
      }
      throw e;
    });
    if (step.done) break;
    const { mover, moves } = step;
    const ply = Number(await mover.attr("ply"));
    const answer = await mover.page.evaluate((m) => window.boardcraft.play(m), moves[0]);
    if (answer !== "ok") fail(`${mover.name}: play(${moves[0]}) answered ${answer}`);
    ours += 1;
    console.log(`table ply ${ply + 1}: ${mover.name} played ${moves[0]}`);
    await settled(mover, ply + 1, { orLater: true });
  }
  for (const p of stay) await settled(p, Number(await stay[0].attr("ply")), { orLater: true });
  const [l0, l1] = [await stay[0].attr("line"), await stay[1].attr("line")];
  const common = Math.min(l0.split(" ").length, l1.split(" ").length);
  if (l0.split(" ").slice(0, common).join(" ") !== l1.split(" ").slice(0, common).join(" ")) {
    fail(`the two boards differ: ${l0} / ${l1}`);
  }
  if (!(common - plies > ours)) fail(`no move but the two pages' after ${leaver.name} left: ${l0}`);
  console.log(`the computer plays ${leaver.name}'s seat: ${l0}`);

  // One of the two resigns: one seat is left playing, and the game is over.
  const [resigner, winner] = stay;
  await resigner.act("resign");
  const ends = [];
  for (const p of stay) {
    ends.push(
      await waitFor(`${p.name}: the places and rating changes`, waitSeconds, async () => {
        const s = await p.lobby();
        return s.game.result && s.game.ratings && (await p.attr("phase")) === "game-over" ? s.game : null;
      }),
    );
  }
  const result = ends[0].result;
  report.tableResult = result;
  report.tableRatings = ends[0].ratings;
  const place = (p) => result.placements.find((x) => x.seat === seatOf(p))?.place;
  console.log(`places: ${stay.concat([leaver]).map((p) => `${p.name} ${place(p)}`).join(", ")}; ratings ${JSON.stringify(ends[0].ratings)}`);
  if (place(winner) !== 1 || place(resigner) !== 2 || place(leaver) !== 3) {
    fail(`the places: ${JSON.stringify(result.placements)} (winner ${winner.name}, resigned ${resigner.name}, left ${leaver.name})`);
  }
  if (JSON.stringify(ends[1].result) !== JSON.stringify(result)) fail("the two pages' results differ");
  const delta = (p) => {
    const r = ends[0].ratings[seatOf(p)];
    return r.after.rating - r.before.rating;
  };
  if (ends[0].ratings.length !== 3 || !(delta(winner) > 0) || !(delta(leaver) < 0)) {
    fail(`the rating changes: ${JSON.stringify(ends[0].ratings)}`);
  }
  for (const [i, p] of stay.entries()) {
    if (ends[i].delta !== delta(p)) fail(`${p.name}: its own change ${ends[i].delta}, not ${delta(p)}`);
    await screenshot(p, "table-over");
  }
  for (const p of stay) await p.context.close();
}

async function main() {
  await builtGame(dist);
  await mkdir(out, { recursive: true });
  const log = [];
  const report = { pool: POOL, failures };
  const server = await startServer(log);
  const browser = await launchChromium(executablePath, [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
  ]);
  const children = [];
  try {
    if (args["table-only"]) {
      // Only part 7 (the table of three), for a quicker run while working on it.
      await tableOfThree(browser, server, log, report);
      return;
    }
    const a = await newPlayer(browser, "a", log);
    const b = await newPlayer(browser, "b", log);
    // The pages of parts 2 to 6, closed before part 7.
    const opened = [a, b];
    const [sa, sb] = [await enterLobby(a, server.origin), await enterLobby(b, server.origin)];
    if (sa.account.name === sb.account.name) fail(`both strangers are ${sa.account.name}`);
    for (const s of [sa, sb]) {
      if (!s.account.guest) fail(`${s.account.name} is not a guest`);
      if (!s.pools.some((p) => p.id === POOL)) fail(`no ${POOL} button: ${JSON.stringify(s.pools)}`);
    }
    await screenshot(a, "lobby");

    // 3. The same quick-pairing button.
    await a.act("join_pool", POOL);
    await waitFor("a waits in the pool (b sees 1 waiting)", waitSeconds, async () => {
      const [x, y] = [await a.lobby(), await b.lobby()];
      return x.waitingIn === POOL && y.pools.find((p) => p.id === POOL)?.waiting === 1;
    });
    await screenshot(a, "waiting");
    await b.act("join_pool", POOL);
    for (const p of [a, b]) await settled(p, 0);
    const [ga, gb] = [(await a.lobby()).game, (await b.lobby()).game];
    report.game = ga.id;
    if (ga.id !== gb.id) fail(`paired into different games: ${ga.id} / ${gb.id}`);
    if (ga.seat === gb.seat) fail(`both have the ${ga.seat} seat`);
    if (!ga.players?.rated) fail(`the pool game is not rated: ${JSON.stringify(ga.players)}`);
    console.log(`paired: game ${ga.id}, a ${ga.seat}, b ${gb.seat}`);
    await screenshot(a, "paired");

    // 4. Four plies (two moves each, so the game is not aborted), then a resignation.
    for (let ply = 0; ply < 4; ply++) {
      await playOne([a, b], ply);
      for (const p of [a, b]) await settled(p, ply + 1);
    }
    const toMove = (await a.attr("to-move")).toLowerCase();
    const resigner = (await a.attr("online-seat")) === toMove ? a : b;
    await resigner.act("resign");
    const ends = [];
    for (const p of [a, b]) {
      ends.push(
        await waitFor(`${p.name}: the rating change`, waitSeconds, async () => {
          const s = await p.lobby();
          return s.game.delta !== null && s.game.delta !== undefined && (await p.attr("phase")) === "game-over" ? s : null;
        }),
      );
    }
    const [da, db] = ends.map((s) => s.game.delta);
    report.deltas = { a: da, b: db };
    console.log(`rating changes: a ${da}, b ${db} (${resigner.name} resigned)`);
    const loserDelta = resigner === a ? da : db;
    const winnerDelta = resigner === a ? db : da;
    if (!(loserDelta < 0 && winnerDelta > 0)) fail(`the winner's change ${winnerDelta}, the loser's ${loserDelta}`);
    await screenshot(a, "game-over");
    await screenshot(b, "game-over");

    // Both archives hold the game.
    for (const p of [a, b]) {
      await p.act("archive", "1");
      await waitFor(`${p.name}: the game in the archive`, waitSeconds, async () => {
        const s = await p.lobby();
        return s.archive && s.archive[0] === ga.id;
      });
    }
    console.log("both archives list the game first");

    // 5. A bot in the lobby, challenged by a third stranger.
    if (cliBin) {
      const botDir = await mkdtemp(join(tmpdir(), "boardcraft-lobby-bot-"));
      const botArgs = [
        "online", "bot", "--server", server.origin, "--token-file", join(botDir, "bot.token"),
        "--variants", "ugolki-hg-3x3", "--seek-clock", "1+0", "--level", "novice",
      ];
      // First run: a guest account, refused as not a bot; the operator marks it; then it plays.
      const first = spawnSync(cliBin, botArgs, { encoding: "utf8", timeout: 60_000 });
      const name = /account (\S+) is not marked as a bot/.exec(first.stderr ?? "")?.[1];
      if (!name) throw new Error(`the bot's first run did not name its account: ${first.stdout} ${first.stderr}`);
      const mark = spawnSync(serverBin, ["--data", server.data, "account", "make-bot", name], { encoding: "utf8" });
      if (mark.status !== 0) throw new Error(`make-bot ${name}: ${mark.stderr}`);
      const bot = spawn(cliBin, botArgs, { stdio: ["ignore", "pipe", "pipe"] });
      children.push(bot);
      keepOutput(bot, "bot", log);
      // A touch screen (a tablet): c's move is tapped on the board.
      const c = await newPlayer(browser, "c", log, undefined, { hasTouch: true });
      opened.push(c);
      await enterLobby(c, server.origin);
      await waitFor("the bot's seek in c's lobby", waitSeconds, async () => {
        const s = await c.lobby();
        return s.seeks.some((k) => k.by.name === name && k.by.bot);
      });
      await c.act("challenge", name, POOL);
      // The colours are drawn: c moves (after the bot's first move when the bot is White),
      // then the bot answers c's move.
      const seat = await waitFor("c in the game", waitSeconds, async () =>
        (await c.attr("app-state")) === "in-game" && (await c.attr("online-state")) === "online"
          ? c.attr("online-seat")
          : null,
      );
      const mine = seat === "white" ? 0 : 1;
      await settled(c, mine);
      await playByTaps(c, mine);
      // c's move confirmed by the server (the bot may have answered already).
      await settled(c, mine + 1, { orLater: true });
      await waitFor("the bot's answer", waitSeconds, async () => Number(await c.attr("ply")) > mine + 1);
      const line = await c.attr("line");
      report.botLine = line;
      console.log(`the bot ${name} answered: ${line}`);
      await screenshot(c, "bot-game");
      // The same online game on a phone, upright and sideways: the online panel takes its
      // strip beside or under the board, never over it.
      for (const [width, height] of [[390, 844], [844, 390]]) {
        const size = { width, height };
        await c.page.setViewportSize(size);
        await settledAt(c, size, `online game ${width}×${height}`);
        const layout = await checkLayout(c, `online game ${width}×${height}`, size);
        const board = layout?.board;
        // … nor one panel over another (the online strip over the game's panel).
        const panels = (layout?.areas ?? []).filter(([order]) => order === "background").map(([, ...r]) => r);
        for (const [i, p] of panels.entries()) {
          for (const q of panels.slice(i + 1)) {
            const ow = Math.min(p[0] + p[2], q[0] + q[2]) - Math.max(p[0], q[0]);
            const oh = Math.min(p[1] + p[3], q[1] + q[3]) - Math.max(p[1], q[1]);
            if (ow > 1 && oh > 1) fail(`online game ${width}×${height}: the panels [${p.map(Math.round)}] and [${q.map(Math.round)}] overlap`);
          }
        }
        // The online strip is the upper of the two (above the game's panel, under or beside
        // the board), and its actions — offer a draw, ask to take back, leave — are in view,
        // not scrolled away.
        const strip = [...panels].sort((p, q) => p[1] - q[1])[0];
        if (panels.length !== 2 || !strip) {
          fail(`online game ${width}×${height}: ${panels.length} panels, expected the online strip and the game's panel`);
        } else {
          const inside = (layout.buttons ?? []).filter(([x, y, w, h]) =>
            x >= strip[0] - 1 && y >= strip[1] - 1 && x + w <= strip[0] + strip[2] + 1 && y + h <= strip[1] + strip[3] + 1);
          console.log(`online game ${width}×${height}: the strip [${strip.map(Math.round)}] shows ${inside.length} buttons`);
          if (inside.length < 3) fail(`online game ${width}×${height}: the online strip [${strip.map(Math.round)}] shows ${inside.length} of its 3 buttons`);
        }
        for (const [order, ...rect] of layout?.areas ?? []) {
          const [bx, by, bw, bh] = board ?? [0, 0, 0, 0];
          const [x, y, w, h] = rect;
          const ow = Math.min(bx + bw, x + w) - Math.max(bx, x);
          const oh = Math.min(by + bh, y + h) - Math.max(by, y);
          if (order === "background" && ow > 1 && oh > 1) fail(`online game ${width}×${height}: a panel [${rect.map(Math.round)}] overlaps the board [${board.map(Math.round)}]`);
        }
        await screenshot(c, `bot-game-${width}x${height}`);
      }
    } else {
      console.log("no --cli: the bot part is skipped");
      report.bot = "skipped";
    }

    // 6. The Lobby screen on a phone, in English and in Russian: a's page again (the kept
    // session signs the same account in), every tab.
    const vp = { width: 390, height: 844 };
    await a.page.setViewportSize(vp);
    for (const lang of ["en", "ru"]) {
      const again = await enterLobby(a, server.origin, lang === "ru" ? "lang=ru" : "");
      if (again.account.name !== sa.account.name) fail(`a's page came back as ${again.account.name}, not ${sa.account.name}`);
      for (const tab of ["play", "profile", "games", "leaders"]) {
        await a.act("tab", tab);
        if (tab === "profile") {
          const s = await waitFor("a's profile", waitSeconds, async () => (await a.lobby()).profile);
          if (s.recent < 1 || s.total.wins + s.total.losses !== 1) fail(`a's profile: ${JSON.stringify(s)}`);
        } else if (tab === "games") {
          const games = await waitFor("a's archive", waitSeconds, async () => (await a.lobby()).archive);
          if (games[0] !== ga.id) fail(`a's archive: ${JSON.stringify(games)}`);
        } else if (tab === "leaders") {
          await waitFor("the leaderboard", waitSeconds, async () => (await a.lobby()).leaders);
        }
        // Drawn: egui shows what arrived in its next frames (a loaded machine draws a frame a
        // second or slower).
        await framesPass(a.page, 0, 3);
        await checkLayout(a, `lobby ${tab} 390×844 ${lang}`, vp);
        const file = join(out, `lobby-${tab}-390x844-${lang}.png`);
        await writeFile(file, await a.page.screenshot());
        console.log(`screenshot: ${file}`);
      }
    }
    // … a phone sideways and a desktop window (the Play tab, English).
    await enterLobby(a, server.origin, "lang=en");
    for (const [width, height, touchSized] of [[844, 390, true], [1280, 800, false]]) {
      const size = { width, height };
      await a.page.setViewportSize(size);
      await a.act("tab", "play");
      await settledAt(a, size, `lobby play ${width}×${height}`);
      await checkLayout(a, `lobby play ${width}×${height}`, size, touchSized);
      const file = join(out, `lobby-play-${width}x${height}-en.png`);
      await writeFile(file, await a.page.screenshot());
      console.log(`screenshot: ${file}`);
    }

    // 7. A table of three, the earlier pages closed (each draws, and the machine is shared).
    for (const p of opened) await p.context.close();
    await tableOfThree(browser, server, log, report);
  } finally {
    for (const child of children) child.kill("SIGTERM");
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
      console.error(`lobby browser test FAILED (${failures.length} problem(s)); console log: ${join(out, "console.log")}`);
      process.exit(1);
    }
    console.log(`lobby browser test passed; output in ${out}`);
  });
