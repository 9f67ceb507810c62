// The Telegram test: the page as a Telegram Mini App. Telegram's telegram-web-app.js cannot be
// fetched here, so each page gets a stub `Telegram.WebApp` (defined before the page's scripts
// run) that records what the page asks of it. In headless Chromium, on the built page
// (scripts/build-web.sh) served on 127.0.0.1:
//
//   1. inside Telegram (initData present), a game against a person: the page calls ready() and
//      expand() (once each) and disableVerticalSwipes(); the page takes Telegram's theme
//      colours (its background and the loading screen) and follows a theme change; so does the
//      game: it reports the colours it applied (data-theme: the table around the board, the
//      panels, text and buttons) and its panel is drawn in Telegram's secondary background (a
//      pixel of the screenshot), then in the new theme's colours after a change; the game
//      keeps out of Telegram's safe areas (device + content insets); Telegram's back button is
//      shown while the game has a screen to go back to; pressing it goes back one screen (the
//      game → the main menu) and the button is hidden there; on the Learn screen the button is
//      shown again and goes back to the menu;
//   2. Telegram's script outside Telegram (no initData): none of that happens (no ready(),
//      expand(), theme (the game keeps its own colours), safe areas or back button);
//   3. no Telegram at all: the page does not try to fetch telegram-web-app.js.
//
// Usage: node telegram-test.mjs --dist <built page> --out <folder for screenshots and logs>
//        [--chromium /usr/bin/chromium] [--timeout <seconds for each wait>]
// Exit status: 0 if every check passed, 1 otherwise (the reasons are printed).
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { builtGame, serveStatic } from "./serve.mjs";
import { countFrames, framesPass, launchChromium, parseArgs, pixelAt, waitFor } from "./harness.mjs";

const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.dist ?? "dist");
const out = resolve(args.out ?? "telegram-test-output");
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

/**
 * A stand-in for telegram-web-app.js's `Telegram.WebApp` (the parts the page uses), recording
 * every call in `window.telegramCalls`. Runs in the page before its scripts.
 */
function stub({ initData, theme, safeArea, contentSafeArea }) {
  const calls = [];
  window.telegramCalls = calls;
  const handlers = {};
  let backClick = null;
  const back = {
    isVisible: false,
    show() {
      calls.push("BackButton.show");
      back.isVisible = true;
    },
    hide() {
      calls.push("BackButton.hide");
      back.isVisible = false;
    },
    onClick(callback) {
      calls.push("BackButton.onClick");
      backClick = callback;
    },
  };
  const app = {
    initData,
    platform: "tdesktop",
    themeParams: theme,
    safeAreaInset: safeArea,
    contentSafeAreaInset: contentSafeArea,
    BackButton: back,
    ready: () => calls.push("ready"),
    expand: () => calls.push("expand"),
    disableVerticalSwipes: () => calls.push("disableVerticalSwipes"),
    onEvent(name, handler) {
      calls.push(`onEvent ${name}`);
      (handlers[name] ??= []).push(handler);
    },
  };
  window.Telegram = { WebApp: app };
  // What Telegram does: the user presses the back button; the theme changes.
  window.telegramPressBack = () => backClick && backClick();
  window.telegramSetTheme = (params) => {
    app.themeParams = params;
    for (const handler of handlers.themeChanged ?? []) handler();
  };
}

const INSIDE = {
  initData: "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%7D&auth_date=1733000000&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2",
  theme: {
    bg_color: "#17212b",
    text_color: "#f5f5f5",
    button_color: "#5288c1",
    button_text_color: "#ffffff",
    secondary_bg_color: "#232e3c",
  },
  safeArea: { top: 24, bottom: 34, left: 0, right: 0 },
  contentSafeArea: { top: 40, bottom: 0, left: 0, right: 0 },
};

const rgb = (hex) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
};

async function main() {
  await builtGame(dist);
  await mkdir(out, { recursive: true });
  const { server, origin } = await serveStatic(dist);
  const browser = await launchChromium(executablePath);
  const log = [];
  const open = async (telegram, query) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    if (telegram) await context.addInitScript(stub, telegram);
    const page = await context.newPage();
    await page.addInitScript(countFrames);
    const requests = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => {
      log.push(`[${m.type()}] ${m.text()} (${m.location().url})`);
      if (m.type() === "error" || /panicked at/.test(m.text())) fail(`console: ${m.text()} (${m.location().url})`);
    });
    page.on("pageerror", (e) => fail(`uncaught exception: ${e.message}`));
    await page.goto(`${origin}/?${query}`);
    return { context, page, requests };
  };
  const appState = (page) =>
    waitFor("the game starting", waitSeconds, async () => {
      const s = await page.evaluate(() => document.body.dataset.appState);
      return s && s !== "loading" ? s : null;
    });
  const calls = (page) => page.evaluate(() => window.telegramCalls);
  const backVisible = (page) => page.evaluate(() => window.Telegram.WebApp.BackButton.isVisible);
  const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const themeOf = async (page) => (await page.evaluate(() => document.body.dataset.theme)) ?? "";
  /** A point inside the game's panel, away from its widgets: 4 px in from its bottom right. */
  const panelSpot = async (page) => {
    // The layout of the canvas's final size, its areas inside it: the window takes the
    // canvas's size over the game's first frames, and egui's areas follow a frame later.
    const { canvas, layout } = await waitFor("a layout for the canvas's size", 60, async () => {
      const seen = await page.evaluate(() => {
        const r = document.getElementById("bevy").getBoundingClientRect();
        return { canvas: [r.left, r.top, r.width, r.height], layout: JSON.parse(document.body.dataset.layout || "null") };
      });
      const viewport = seen.layout?.viewport;
      const fits =
        viewport &&
        Math.abs(viewport[0] - seen.canvas[2]) <= 1 &&
        Math.abs(viewport[1] - seen.canvas[3]) <= 1 &&
        seen.layout.areas.every(([, x, y, w, h]) => x + w <= viewport[0] + 1 && y + h <= viewport[1] + 1);
      return fits ? seen : null;
    });
    const panel = layout.areas.find(([order]) => order === "background");
    if (!panel) throw new Error("the page shows no panel");
    const [, x, y, w, h] = panel;
    return { x: Math.floor(canvas[0] + x + w - 4), y: Math.floor(canvas[1] + y + h - 4) };
  };
  /** Whether an [r, g, b] pixel is the `#rrggbb` colour (± 3 each way: blending, dithering). */
  const near = (pixel, hex) => {
    const n = parseInt(hex.slice(1), 16);
    return [n >> 16, (n >> 8) & 255, n & 255].every((c, i) => Math.abs(c - pixel[i]) <= 3);
  };
  try {
    // --- 1. inside Telegram
    console.log("== inside Telegram");
    {
      const { context, page } = await open(INSIDE, "variant=ugolki-hg-3x3&white=human&black=human");
      // The loading screen already wears the theme.
      check(
        (await page.evaluate(() => getComputedStyle(document.getElementById("loading")).backgroundColor)) ===
          rgb(INSIDE.theme.bg_color),
        "the loading screen does not take Telegram's background colour",
      );
      check((await appState(page)) === "in-game", "inside Telegram: the game did not start");
      const made = await calls(page);
      for (const call of ["ready", "expand", "disableVerticalSwipes", "BackButton.onClick", "onEvent themeChanged"]) {
        check(made.filter((c) => c === call).length === 1, `${call}: called ${made.filter((c) => c === call).length} times`);
      }
      check((await background(page)) === rgb(INSIDE.theme.bg_color), `the page background is ${await background(page)}`);
      const game = await page.evaluate(() => {
        const r = document.getElementById("bevy").getBoundingClientRect();
        return { top: r.top, bottom: innerHeight - r.bottom, left: r.left, right: innerWidth - r.right };
      });
      check(
        game.top === 24 + 40 && game.bottom === 34 && game.left === 0 && game.right === 0,
        `the game does not keep out of Telegram's safe areas: ${JSON.stringify(game)}`,
      );
      console.log(`inside Telegram: ${made.join(", ")}; game inset ${JSON.stringify(game)}`);
      // The game wears the theme: the colours it applied, and a pixel of its panel.
      const t = INSIDE.theme;
      const applied = `bg=${t.bg_color} panel=${t.secondary_bg_color} text=${t.text_color} button=${t.button_color} button-text=${t.button_text_color}`;
      const worn = await waitFor("the game applying Telegram's theme", 60, async () =>
        (await themeOf(page)) === applied ? applied : null,
      ).catch(async () => fail(`the game applied the theme "${await themeOf(page)}", not "${applied}"`));
      if (worn) console.log(`the game's theme: ${worn}`);
      const spot = await panelSpot(page);
      const seen = await pixelAt(page, spot.x, spot.y);
      check(
        near(seen, t.secondary_bg_color),
        `the game's panel at (${spot.x}, ${spot.y}) is rgb(${seen}), not Telegram's secondary background ${t.secondary_bg_color}`,
      );
      console.log(`the panel's pixel at (${spot.x}, ${spot.y}): rgb(${seen})`);
      await waitFor("the back button shown in a game", 30, () => backVisible(page));
      await page.screenshot({ path: join(out, "telegram-game.png") });
      await page.evaluate(() => window.telegramPressBack());
      const state = await waitFor("back to the menu", 30, async () => {
        const s = await page.evaluate(() => document.body.dataset.appState);
        return s === "menu" ? s : null;
      }).catch((e) => fail(e.message));
      if (state) console.log("back button: the game → the main menu");
      await waitFor("the back button hidden on the main menu", 30, async () => !(await backVisible(page))).catch((e) =>
        fail(e.message),
      );
      await page.evaluate(() => window.telegramSetTheme({ bg_color: "#ffffff", text_color: "#000000" }));
      check((await background(page)) === "rgb(255, 255, 255)", `after a theme change the page background is ${await background(page)}`);
      // The game follows the change (the menu's panel now).
      await waitFor("the game following the theme change", 60, async () =>
        (await themeOf(page)).startsWith("bg=#ffffff panel=#ffffff text=#000000 "),
      ).catch(async () => fail(`after a theme change the game applied "${await themeOf(page)}"`));
      // The panel drawn in the new colours.
      await framesPass(page, 0, 2);
      const light = await panelSpot(page);
      const lightSeen = await pixelAt(page, light.x, light.y);
      check(near(lightSeen, "#ffffff"), `after a theme change the game's panel is rgb(${lightSeen}), not white`);
      await page.screenshot({ path: join(out, "telegram-light-menu.png") });
      console.log(`theme change: the game applied "${await themeOf(page)}", the panel's pixel rgb(${lightSeen})`);
      await context.close();
    }
    {
      const { context, page } = await open(INSIDE, "learn");
      check((await appState(page)) === "learn", "inside Telegram, ?learn: not the Learn screen");
      await waitFor("the back button shown on Learn", 30, () => backVisible(page)).catch((e) => fail(e.message));
      await page.evaluate(() => window.telegramPressBack());
      await waitFor("Learn → the main menu", 30, async () =>
        (await page.evaluate(() => document.body.dataset.appState)) === "menu",
      ).catch((e) => fail(e.message));
      console.log("back button: Learn → the main menu");
      await context.close();
    }

    // --- 2. Telegram's script outside Telegram
    console.log("== Telegram's script outside Telegram");
    {
      const { context, page } = await open({ ...INSIDE, initData: "" }, "variant=ugolki-hg-3x3&white=human&black=human");
      check((await appState(page)) === "in-game", "outside Telegram: the game did not start");
      // A few frames of the game: time for it to call Telegram if it wrongly would.
      await framesPass(page, 0, 3);
      const made = await calls(page);
      check(made.length === 0, `outside Telegram the page called ${made.join(", ")}`);
      check((await background(page)) === "rgb(27, 23, 20)", `outside Telegram the page background is ${await background(page)}`);
      check((await themeOf(page)) === "", `outside Telegram the game applied a theme: ${await themeOf(page)}`);
      const top = await page.evaluate(() => document.getElementById("bevy").getBoundingClientRect().top);
      check(top === 0, `outside Telegram the game starts ${top} px down`);
      await context.close();
    }

    // --- 3. no Telegram
    console.log("== no Telegram");
    {
      const { context, page, requests } = await open(null, "variant=ugolki-hg-3x3&white=human&black=human");
      check((await appState(page)) === "in-game", "without Telegram: the game did not start");
      const foreign = requests.filter((u) => !u.startsWith(origin));
      check(foreign.length === 0, `without Telegram the page fetched ${foreign.join(", ")}`);
      await context.close();
    }
  } catch (e) {
    fail(e.message);
  } finally {
    await writeFile(join(out, "telegram-console.log"), log.join("\n") + "\n");
    await browser.close();
    server.close();
  }
}

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    if (failures.length > 0) {
      console.error(`Telegram test FAILED (${failures.length} problem(s)); output in ${out}`);
      process.exit(1);
    }
    console.log(`Telegram test passed; output in ${out}`);
  });
