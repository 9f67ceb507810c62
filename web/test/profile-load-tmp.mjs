// temporary: where does the time to the first frame go? (not committed)
import { chromium } from "playwright-core";
import { serveStatic } from "./serve.mjs";
const dist = process.argv[2];
const mbps = Number(process.argv[3] ?? 0);
const latency = Number(process.argv[4] ?? 20);
const { server, origin } = await serveStatic(dist);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
for (let run = 0; run < Number(process.argv[5] ?? 1); run++) {
  const context = await browser.newContext({ viewport: { width: 960, height: 600 } });
  const page = await context.newPage();
  const marks = [];
  page.on("console", (m) => marks.push(m.text().slice(0, 160)));
  if (mbps) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency, downloadThroughput: (mbps * 1e6) / 8, uploadThroughput: (mbps * 1e6) / 8 });
  }
  await page.addInitScript(() => {
    window.__marks = [];
    const mark = (what) => window.__marks.push([what, Math.round(performance.now())]);
    const origInstantiate = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (...a) => { mark("instantiateStreaming called"); const r = await origInstantiate(...a); mark("instantiateStreaming done"); return r; };
    new MutationObserver(() => { const s = document.body?.dataset.appState; if (s && !window.__seen?.[s]) { (window.__seen ??= {})[s] = 1; mark(`app-state ${s}`); } }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-app-state"] });
    let frames = 0; const f = () => { frames++; if (frames <= 3 || frames % 30 === 0) mark(`raf ${frames}`); requestAnimationFrame(f); }; requestAnimationFrame(f);
  });
  await page.goto(`${origin}/?variant=ugolki-hg-3x3`);
  await page.waitForFunction(() => Number(document.body.dataset.firstFrameMs) > 0, null, { timeout: 300000 });
  const out = await page.evaluate(() => ({
    first: document.body.dataset.firstFrameMs,
    marks: window.__marks,
    res: performance.getEntriesByType("resource").map((e) => [new URL(e.name).pathname.replace(/^\/b\/[0-9a-f]+\//, ""), Math.round(e.startTime), Math.round(e.responseEnd), e.encodedBodySize]),
  }));
  console.log(`run ${run}: first frame ${out.first} ms`);
  console.log(JSON.stringify(out.marks));
  for (const r of out.res) console.log("  res", JSON.stringify(r));
  for (const m of marks.filter((m) => /first frame|INFO/.test(m)).slice(0, 30)) console.log("  log", m);
  await context.close();
}
await browser.close();
server.close();
