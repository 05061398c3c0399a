// Headless Debian Chromium (playwright-core, no browser download): the HTML report draws its
// charts offline without console errors, and the package's WASM engine runs in a browser from
// bytes, with no Node APIs, through the dist ESM files.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/index.js";
import { renderHtmlReport } from "../../src/report/html.js";
import { CHROMIUM_ARGS, findChromium } from "../fixtures/chromium.js";
import { tinyScenario } from "../fixtures/tiny-scenario.js";
import { BUILTIN_SCENARIOS, getScenario } from "../../src/scenarios/registry.js";
import type { ScenarioReport } from "../../src/scenarios/scenario.js";
import { renderSweepHtml } from "../../src/report/sweep-html.js";
import { handMergedSweep } from "../fixtures/sweep-merged.js";
import { TRACES_DIR, hasTrace } from "../helpers/traces.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const PHOENIX_TRACE = hasTrace("eagle-format/YH2_sub.tr");
/** The scenario runs take ~45 s alone and several times that beside other test files on 2 busy cores: a guard against a hang, not a speed check. */
const SCENARIO_RUNS_TIMEOUT = 600_000;

interface ChartData { id: string; title: string; logX: boolean; step: boolean; bars: boolean; categories: string[] | null; series: string[]; bands: unknown[]; yCap: number | null }

/** The chart specs in a report's data block. */
function chartsOf(html: string): ChartData[] {
  return JSON.parse(/id="fairsched-data">([\s\S]*?)<\/script>/.exec(html)![1]).charts;
}

function writeArtifact(name: string, text: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, name);
  writeFileSync(file, text);
  return file;
}

/** Every built-in scenario the other browser test does not draw, at a small size (Phoenix when its trace is here). */
function otherScenarioReports(): ScenarioReport[] {
  const engine = loadEngineSync({ backend: "wasm" });
  const run = (name: string, params?: Record<string, string | number>) => getScenario(name)!.run({ seed: 1, engine, params });
  return [
    run("justice", { jobs: 80, seeds: 2 }),
    ...(PHOENIX_TRACE ? [run("phoenix", { yahooJobs: 300, traceDir: TRACES_DIR })] : []),
    run("ltrf-table1"),
    run("ltrf-hierarchy"),
    run("bopf-multi-lq", { tqJobs: 5, horizon: 600 }),
    run("bopf-uncertain", { cv: "0,0.4" }),
    run("bopf-estimation-error", { std: "0,0.5", tqJobs: 4 }),
  ];
}

describe("every built-in scenario", () => {
  it("is drawn by one of the browser tests below, each section opening with a chart (a new scenario must be added there)", () => {
    const drawnBelow = ["default", "bopf", "ltrf-macro", "justice", "phoenix", "ltrf-table1", "ltrf-hierarchy", "bopf-multi-lq", "bopf-uncertain", "bopf-estimation-error"];
    expect(BUILTIN_SCENARIOS.map((s) => s.name).sort()).toEqual([...drawnBelow].sort());
  });
});
const ARTIFACTS = join(ROOT, "test", ".artifacts");
const chrome = findChromium();
if ("reason" in chrome) console.warn(`[browser tests skipped] ${chrome.reason}`);

describe.skipIf("reason" in chrome)("in headless Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: (chrome as { path: string }).path, args: CHROMIUM_ARGS, headless: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Per `.chart` element, its canvas's pixels that are neither transparent nor white (lines, bars, axes, labels). */
  function inkedPixels(page: Page): Promise<number[]> {
    return page.evaluate(() =>
      Array.from(document.querySelectorAll(".chart")).map((el) => {
        const c = el.querySelector("canvas");
        if (!c) return 0;
        const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 0 && (px[i] < 240 || px[i + 1] < 240 || px[i + 2] < 240)) n++;
        return n;
      }),
    );
  }

  /** Opens a report file, waits for its charts, and checks each is drawn and inked, with no console errors or network. */
  async function expectDrawn(file: string, expected: number, screenshot: string): Promise<Page> {
    const { page, errors, remote } = await watchedPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-charts-drawn]", { timeout: 30_000 });
    expect(await page.evaluate(() => Number(document.body.getAttribute("data-charts-drawn")))).toBe(expected);
    const inked = await inkedPixels(page);
    expect(inked).toHaveLength(expected);
    for (const n of inked) expect(n).toBeGreaterThan(500);
    await page.screenshot({ path: join(ARTIFACTS, screenshot), fullPage: true });
    expect(errors).toEqual([]);
    expect(remote).toEqual([]);
    return page;
  }

  /** A page that records console errors, uncaught exceptions and any request leaving the machine. */
  async function watchedPage(): Promise<{ page: Page; errors: string[]; remote: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors: string[] = [];
    const remote: string[] = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("request", (r) => { if (!/^(file:|data:|http:\/\/127\.0\.0\.1[:/])/.test(r.url())) remote.push(r.url()); });
    return { page, errors, remote };
  }

  it("opens the HTML report from a file:// URL: every chart drawn, no console errors", async () => {
    const engine = loadEngineSync({ backend: "wasm" });
    const reports = [tinyScenario.run({ seed: 3, engine }), tinyScenario.run({ seed: 4, engine, policies: ["drf-w2"], params: { queues: 4 } })];
    const file = writeArtifact("report.html", renderHtmlReport(reports, { title: "fairsched browser test" }));
    const page = await expectDrawn(file, chartsOf(readFileSync(file, "utf8")).length, "report.png");
    expect(statSync(join(ARTIFACTS, "report.png")).size).toBeGreaterThan(10_000);
    await page.close();
  });

  it("built-in scenario charts (default, bopf, ltrf-macro): summary first, log axes, every chart inked, no console errors", async () => {
    const engine = loadEngineSync({ backend: "wasm" });
    const reports = [
      getScenario("default")!.run({ seed: 1, engine, policies: ["drf", "sp", "bopf", "nbopf"], params: { tqs: 3, tqJobs: 4 } }),
      getScenario("bopf")!.run({ seed: 1, engine, params: { tqs: "1,4,32", scales: "1,4", tqJobs: 4 } }),
      getScenario("ltrf-macro")!.run({ seed: 1, engine }),
    ];
    const html = renderHtmlReport(reports, { title: "fairsched scenarios" });
    const file = writeArtifact("report-scenarios.html", html);
    const charts = chartsOf(html);
    // BoPF: factor of improvement vs TQs (1..32: a log axis) and vs burst size; LTRF: Psi and Omega
    expect(charts.find((c) => c.title.startsWith("LQ factor of improvement over DRF vs number of TQs"))?.logX).toBe(true);
    expect(charts.some((c) => c.title.startsWith("LQ factor of improvement over DRF vs LQ burst size"))).toBe(true);
    expect(charts.some((c) => c.title === "Omega (sharing loss) over time")).toBe(true);
    // what default and bopf are about comes first: the LQ's completion per policy, as bars
    const sections = html.split('<section id="').slice(1).map((sec) => /<div class="chart" id="([^"]+)"/.exec(sec)![1]);
    const [defaultFirst, bopfFirst] = sections.map((id) => charts.find((c) => c.id === id)!);
    expect([defaultFirst.title, defaultFirst.bars, defaultFirst.categories, defaultFirst.series]).toEqual(["LQ completion time per policy (s, seed 1)", true, ["drf", "sp", "bopf", "nbopf"], ["LQ0 average", "LQ0 p90"]]);
    expect([bopfFirst.title, bopfFirst.bars, bopfFirst.categories, bopfFirst.series]).toEqual(["LQ average completion time per policy vs number of TQs (s, seed 1)", true, ["1 TQ", "4 TQs", "32 TQs"], ["drf", "sp", "bopf"]]);
    // the LQ is never folded into "other" in the allocation charts
    for (const c of charts.filter((c) => c.title.endsWith("dominant share per queue") && c.id.startsWith("r0-"))) expect(c.series).toContain("LQ0");
    // bopf and nbopf have identical curves here: both drawn, with different dash patterns
    const page = await expectDrawn(file, charts.length, "report-scenarios.png");
    // the LQ series is drawn: the first chart of each of the two sections has its bars inked
    const lqInk = await page.evaluate((ids) => ids.map((id) => {
      const canvas = document.getElementById(id)!.querySelector("canvas")!;
      const px = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      let blue = 0; // the first series' fill, #1f77b4 at 0.75 alpha on a transparent canvas: a bar
      for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 100 && px[i] < 80 && px[i + 1] > 90 && px[i + 1] < 150 && px[i + 2] > 150) blue++;
      return blue;
    }), [defaultFirst.id, bopfFirst.id]);
    for (const n of lqInk) expect(n).toBeGreaterThan(200);
    // each section opens with a chart, and ends with its parameters
    const order = await page.evaluate(() => Array.from(document.querySelectorAll("section")).map((s) => [s.children[1]?.tagName, s.lastElementChild?.tagName]));
    for (const [first, last] of order) expect([first, last]).toEqual(["FIGURE", "TABLE"]);
    await page.close();
  }, SCENARIO_RUNS_TIMEOUT);

  it("the other built-in scenarios: Justice SDR/PTR bars per deadline type with error bars over seeds, Phoenix response-time CDFs on a log axis, LTRF and BoPF curves", async () => {
    const reports = otherScenarioReports();
    const html = renderHtmlReport(reports, { title: "fairsched scenarios (2)" });
    const file = writeArtifact("report-scenarios-2.html", html);
    const charts = chartsOf(html);
    const justice = charts.filter((c) => c.title.startsWith("Justice "));
    expect(justice.map((c) => c.title.replace(/,.*$/, ""))).toEqual(["Justice SDR per deadline type", "Justice PTR per deadline type", "Justice SDR per deadline type", "Justice PTR per deadline type"]);
    for (const c of justice) {
      expect(c.bars).toBe(true);
      expect(c.categories).toEqual(["Fixed1x", "Fixed2x", "Jockey1x2x", "Jockey2x4x", "90loose", "Aria1x3x", "Aria2x4x"]);
      expect(c.bands.every((b) => b !== null)).toBe(true); // 2 seeds: every allocator's bars carry their interval
    }
    if (reports.some((r) => r.scenario === "phoenix")) {
      const cdf = charts.filter((c) => /^Yahoo: short-job response time CDF/.test(c.title));
      expect(cdf).toHaveLength(2);
      for (const c of cdf) expect([c.logX, c.step, c.series]).toEqual([true, true, ["phoenix", "eagle-c", "hawk-c", "sparrow-c"]]);
    }
    const page = await expectDrawn(file, charts.length, "report-scenarios-2.png");
    // every section opens with a chart
    const first = await page.evaluate(() => Array.from(document.querySelectorAll("section")).map((s) => s.children[1]?.tagName));
    expect(first).toEqual(reports.map(() => "FIGURE"));
    await page.close();
  }, SCENARIO_RUNS_TIMEOUT);

  it("a sweep's HTML: each metric's mean with its interval band over a numeric grid parameter, error bars without one", async () => {
    const lines = handMergedSweep();
    const bars = handMergedSweep();
    bars.header.spec.params = { tqs: [1] };
    bars.cells = bars.cells.filter((c) => c.cell.params.tqs === 1);
    for (const [name, m] of [["sweep-lines", lines], ["sweep-bars", bars]] as const) {
      const html = renderSweepHtml(m);
      const file = writeArtifact(`${name}.html`, html);
      const charts = chartsOf(html);
      expect(charts.map((c) => c.title)).toEqual(name === "sweep-lines"
        ? ["LQ avg s vs tqs", "LQ x vs drf vs tqs", "TQs vs tqs", "LQ met vs tqs"]
        : ["LQ avg s per policy", "LQ x vs drf per policy", "TQs per policy", "LQ met per policy"]);
      for (const c of charts) expect(c.bands.every((b) => b !== null)).toBe(true);
      expect(charts.every((c) => c.bars === (name === "sweep-bars"))).toBe(true);
      const page = await expectDrawn(file, charts.length, `${name}.png`);
      await page.close();
    }
  });

  describe("the WASM engine from bytes, via the dist ESM files", () => {
    let server: Server;
    let origin: string;

    beforeAll(async () => {
      for (const f of ["dist/index.js", "build/fairsched.wasm"]) {
        if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
      }
      server = serveRepo();
      await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((res) => (server ? server.close(() => res()) : res()));
    });

    it("gets the DRF worked example right: C = <9,18>, demands [[9,36],[27,9]] -> [3,12,6,2]", async () => {
      const { page, errors, remote } = await watchedPage();
      await page.goto(`${origin}/`);
      const result = await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result, undefined, { timeout: 20_000 });
      const r = (await result.jsonValue()) as { allocation?: number[]; backend?: string; nodeApis?: boolean; error?: string };
      expect(r.error).toBeUndefined();
      expect(r.backend).toBe("wasm");
      expect(r.nodeApis).toBe(false);
      expect(r.allocation).toEqual([3, 12, 6, 2]);
      expect(errors).toEqual([]);
      expect(remote).toEqual([]);
      await page.close();
    });
  });
});

// The test page: an import map for the one bare import of the dist files, the .wasm fetched as
// bytes and handed to loadEngine (no URL, no fs), and a check that no Node globals exist.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports":{"@assemblyscript/loader":"/node_modules/@assemblyscript/loader/index.js"}}</script>
<script type="module">
try {
  const { loadEngine } = await import("/dist/index.js");
  const bytes = new Uint8Array(await (await fetch("/build/fairsched.wasm")).arrayBuffer());
  const engine = await loadEngine({ wasm: bytes });
  const r = engine.drf({ capacity: [9, 18], demands: [[9, 36], [27, 9]] });
  window.__result = { allocation: Array.from(r.allocation), backend: engine.backend, nodeApis: typeof process !== "undefined" || typeof require !== "undefined" };
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
</script></head><body>fairsched wasm in the browser</body></html>`;

const TYPES: Record<string, string> = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".map": "application/json", ".html": "text/html" };
const SERVED = ["dist/", "build/", "node_modules/@assemblyscript/loader/"];

/** Loopback static server for the repo's dist/, build/ and the loader package only. */
function serveRepo(): Server {
  return createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).slice(1);
    if (path === "") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      return;
    }
    const rel = normalize(path);
    const file = join(ROOT, rel);
    if (rel.startsWith("..") || !SERVED.some((p) => rel.startsWith(p.replace(/\//g, sep))) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
}
