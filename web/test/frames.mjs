// Frame-interval probe (temporary): node frames.mjs <dist> <w> <h> <query> <seconds>
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, extname } from "node:path";
const [root, w, h, query, secs] = process.argv.slice(2);
const types = { ".wasm": "application/wasm", ".js": "text/javascript", ".html": "text/html" };
const server = createServer(async (q, r) => { let p = new URL(q.url, "http://x").pathname; if (p.endsWith("/")) p += "index.html"; try { const b = await readFile(join(root, p)); r.writeHead(200, { "Content-Type": types[extname(p)] ?? "text/plain" }); r.end(b); } catch { r.writeHead(404).end(); } });
await new Promise((d) => server.listen(0, "127.0.0.1", d));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"] });
const page = await browser.newPage({ viewport: { width: +w, height: +h } });
await page.goto(`http://127.0.0.1:${server.address().port}/?${query}`);
await page.waitForFunction(() => document.body.dataset.appState === "in-game", null, { timeout: 300000 });
await new Promise((d) => setTimeout(d, 8000));
const r = await page.evaluate(async (secs) => {
  const frames = []; const thinking = [];
  await new Promise((done) => { const start = performance.now(); const f = (t) => { frames.push(t); thinking.push(document.body.dataset.thinking || ""); if (t - start < secs * 1000) requestAnimationFrame(f); else done(); }; requestAnimationFrame(f); });
  const iv = []; const ivt = [];
  for (let i = 1; i < frames.length; i++) (thinking[i] && thinking[i - 1] ? ivt : iv).push(frames[i] - frames[i - 1]);
  const s = (a) => { a.sort((x, y) => x - y); return a.length ? { n: a.length, med: a[a.length >> 1].toFixed(1), p95: a[Math.floor(a.length * 0.95)].toFixed(1), max: a[a.length - 1].toFixed(1) } : {}; };
  return { frames: frames.length, idle: s(iv), thinking: s(ivt), ply: document.body.dataset.ply };
}, +secs);
console.log(JSON.stringify(r));
await browser.close(); server.close();
