// Copies the web app's static files and the charting library into dist/web (no CDN at run time).
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const out = "dist/web";
mkdirSync(join(out, "vendor"), { recursive: true });
for (const f of readdirSync("src/web")) if (f.endsWith(".html") || f.endsWith(".css")) copyFileSync(join("src/web", f), join(out, f));
const uplot = dirname(createRequire(import.meta.url).resolve("uplot/package.json"));
copyFileSync(join(uplot, "dist/uPlot.iife.min.js"), join(out, "vendor/uplot.js"));
copyFileSync(join(uplot, "dist/uPlot.min.css"), join(out, "vendor/uplot.css"));
