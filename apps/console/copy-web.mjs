// Copies the web app's static files and the charting library into dist/browser, beside the pages'
// compiled scripts (dist/browser/web, dist/browser/shared): the console serves that folder as /assets (no CDN at run time).
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const out = "dist/browser";
mkdirSync(join(out, "vendor"), { recursive: true });
mkdirSync(join(out, "web"), { recursive: true });
for (const f of readdirSync("src/web")) if (/\.(html|css|svg)$/.test(f)) copyFileSync(join("src/web", f), join(out, "web", f));
const uplot = dirname(createRequire(import.meta.url).resolve("uplot/package.json"));
copyFileSync(join(uplot, "dist/uPlot.iife.min.js"), join(out, "vendor/uplot.js"));
copyFileSync(join(uplot, "dist/uPlot.min.css"), join(out, "vendor/uplot.css"));
