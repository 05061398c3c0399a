#!/usr/bin/env node
// `npm run docs:report-png`: docs/report.png from today's code. Runs `fairsched simulate`'s default
// scenario (seed 1, every policy) through the built package (dist/), renders the HTML report,
// opens it in headless Chromium (Debian's, through playwright-core; FAIRSCHED_CHROMIUM overrides
// the path) and saves the top of the page at 1200 x 1500. Beside it, docs/report.png.json records
// the PNG's sha256 and the numbers the picture shows (the summary chart's bars and the results
// table), which test/docs/report-png.repro.test.ts compares with a fresh simulation.
// Usage: node scripts/report-png.mjs [--out FILE.png] [--full]   (--full: the whole page)
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const outArg = args.indexOf("--out");
const out = outArg >= 0 ? resolve(args[outArg + 1]) : join(ROOT, "docs", "report.png");
const full = args.includes("--full");

const { loadEngineSync } = await import(pathToFileURL(join(ROOT, "dist/node/index.js")).href);
const { getScenario } = await import(pathToFileURL(join(ROOT, "dist/node/scenarios.js")).href);
const { renderHtmlReport } = await import(pathToFileURL(join(ROOT, "dist/report/html.js")).href);

process.stderr.write("simulating the default scenario (seed 1, every policy) ...\n");
const report = getScenario("default").run({ seed: 1, engine: loadEngineSync() });
const dir = mkdtempSync(join(tmpdir(), "fairsched-report-png-"));
const html = join(dir, "report.html");
writeFileSync(html, renderHtmlReport([report]));

const browser = await chromium.launch({
  executablePath: process.env.FAIRSCHED_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1500 } });
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector("body[data-charts-drawn]", { timeout: 60_000 });
  await page.screenshot({ path: out, fullPage: full });
  // what the picture shows: the first chart's bars, and the first table as the page prints it
  const shown = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById("fairsched-data").textContent);
    const first = data.charts[0];
    const table = document.querySelector("section div.scroll > table");
    return {
      // per series its bars in category order (a grouped bar chart aligns series on shifted x: drop the gaps)
      chart: { title: first.title, categories: first.categories, series: first.series, values: first.data.slice(1).map((ys) => ys.filter((v) => v !== null)) },
      table: {
        caption: table.querySelector("caption").textContent,
        columns: Array.from(table.querySelectorAll("thead th"), (th) => th.textContent),
        rows: Array.from(table.querySelectorAll("tbody tr"), (tr) => Array.from(tr.children, (td) => td.textContent)),
      },
    };
  });
  if (out === join(ROOT, "docs", "report.png")) {
    const sha256 = createHash("sha256").update(readFileSync(out)).digest("hex");
    writeFileSync(`${out}.json`, JSON.stringify({ scenario: "default", seed: 1, policies: report.policies, png: { sha256 }, ...shown }, null, 2) + "\n");
  }
  process.stderr.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
