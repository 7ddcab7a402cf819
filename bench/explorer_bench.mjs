// The explorer page's own timings (window.__tacoTimings, performance.now() in the page) in
// Debian's headless Chromium, datasets served by a Range server on a free loopback port
// (tests/js/explorer_server.mjs), for issue 27's two figures:
//   * open + first page of level 0 of a 100,000-row ZIP by URL: requests (the page's counter and
//     the server's count) and ms; the SQL engine (duckdb-wasm worker, parquet-wasm) is started
//     when the page loads, before the URL is given, and its start is reported apart, as is the
//     page's first open (run 0); the figure is the median of the next RUNS opens in the same page;
//   * preview of a 512×512×4 GeoTIFF sample (UInt16, DEFLATE, 256×256 tiles, written by GDAL):
//     from the click on its row to the composite and histogram drawn, in ms and requests.
// Datasets are made here: 100,000 one-byte FILE samples with two --metadata columns by
// `taco create` (a metadata-only dataset, as bench/scale_bench.cc's), and one GeoTIFF by
// /usr/bin/python3 + osgeo, once, in BUILD_DIR/bench/explorer_data (kept: writing 100,000
// files takes minutes on a loaded machine; delete the directory to remake them). Each figure is measured RUNS times (default 5) in one page; the
// median, min and max are printed with the load average before and after.
// Usage: node bench/explorer_bench.mjs BUILD_DIR [RUNS]   (make bench runs it)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, serveExplorer } from '../tests/js/explorer_server.mjs';

const build = path.resolve(process.argv[2] || 'build');
const runs = Number(process.argv[3] || 5);
const here = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const taco = path.join(build, 'taco');
const rows = Number(process.env.TACO_EXPLORER_BENCH_ROWS || 100000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-explorer-bench-'));
const load = () => os.loadavg().map((v) => v.toFixed(1)).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;

function makeDatasets() {
  const data = path.join(build, 'bench', 'explorer_data');
  const big = path.join(data, `big${rows}.tacozip`);
  const raster = path.join(data, 'raster.tacozip');
  if (fs.existsSync(big) && fs.existsSync(raster)) return { big, raster };
  fs.mkdirSync(data, { recursive: true });
  fs.rmSync(big, { force: true });
  fs.rmSync(raster, { force: true });
  const collection = path.join(tmp, 'collection.json');
  fs.writeFileSync(collection, JSON.stringify({
    id: 'explorer_bench', dataset_version: '1.0.0', description: 'explorer bench', licenses: ['CC0-1.0'],
    providers: [{ name: 'taco-cpp', roles: ['producer'] }], tasks: ['other'],
  }));
  const src = path.join(tmp, 'meta');
  fs.mkdirSync(src);
  const csv = ['path,split,cloud'];
  for (let i = 0; i < rows; i += 1) {
    const name = `m${String(i).padStart(7, '0')}`;
    fs.writeFileSync(path.join(src, name), 'x');
    csv.push(`${name},${['train', 'validation', 'test'][i % 3]},${(i % 1000) / 10}`);
  }
  fs.writeFileSync(path.join(tmp, 'meta.csv'), `${csv.join('\n')}\n`);
  execFileSync(taco, ['create', src, big, '--collection', collection, '--metadata', path.join(tmp, 'meta.csv')]);
  fs.rmSync(src, { recursive: true });

  const rsrc = path.join(tmp, 'raster');
  fs.mkdirSync(rsrc);
  const py = `
import sys
import numpy as np
from osgeo import gdal
y, x = np.mgrid[0:512, 0:512]
d = gdal.GetDriverByName('GTiff').Create(sys.argv[1], 512, 512, 4, gdal.GDT_UInt16,
    ['COMPRESS=DEFLATE', 'TILED=YES', 'BLOCKXSIZE=256', 'BLOCKYSIZE=256'])
d.SetGeoTransform([500000, 10, 0, 4400000, 0, -10])
for b in range(4):
    a = 1000 + 800 * np.sin((x + 40 * b) / 37.0) * np.cos(y / 53.0) + ((x * 7 + y * 13 + b) % 97)
    d.GetRasterBand(b + 1).WriteArray(a.astype(np.uint16))
d = None
`;
  execFileSync('/usr/bin/python3', ['-c', py, path.join(rsrc, 'image.tif')]);
  execFileSync(taco, ['create', rsrc, raster, '--collection', collection]);
  return { big, raster };
}

let server;
let context;
try {
  const loadBefore = load();
  const t0 = Date.now();
  const { big, raster } = makeDatasets();
  console.error(`explorer_bench: datasets made in ${((Date.now() - t0) / 1000).toFixed(1)} s (${fs.statSync(big).size} bytes for ${rows} rows)`);
  server = await serveExplorer(path.join(build, 'js', 'explorer'), { 'big.tacozip': big, 'raster.tacozip': raster });
  context = await launchChromium(process.env.TACO_PLAYWRIGHT || path.join(here, 'tests/publish/browser/node_modules'), path.join(tmp, 'profile'));
  const tab = context.pages()[0] || (await context.newPage());
  const problems = [];
  tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  const settle = () => tab.waitForFunction(() => ['ready', 'error', 'idle'].includes(document.body.dataset.state), null, { timeout: 300000 });
  const check = async () => {
    const error = await tab.$eval('#error', (e) => (e.hidden ? '' : e.textContent));
    if (error) throw new Error(`the page shows an error: ${error}`);
  };

  await tab.goto(`${server.base}/`);
  await settle();
  const engine = await tab.evaluate(() => window.__tacoTimings.engine);
  const open = [];
  const firstPage = [];
  const total = [];
  const pageRequests = [];
  const serverRequests = [];
  for (let i = 0; i <= runs; i += 1) {
    const before = server.hits['big.tacozip'];
    await tab.evaluate((url) => window.__explorer.open(url), `${server.base}/data/big.tacozip`);
    await check();
    const t = await tab.evaluate(() => ({ ...window.__tacoTimings }));
    const shown = await tab.textContent('#page-info');
    if (!shown.includes(`${rows} rows`)) throw new Error(`page shows '${shown}', not ${rows} rows`);
    open.push(t.open);
    firstPage.push(t.firstPage);
    total.push(t.open + t.firstPage);
    pageRequests.push(t.firstPageRequests);
    serverRequests.push(server.hits['big.tacozip'] - before);
  }

  // Run 0 is the page's first open (first Parquet decode and Arrow insert: wasm heaps grow, code
  // warms up): reported apart; the figures are runs 1..RUNS.
  const first = { total: total.shift(), open: open.shift(), firstPage: firstPage.shift() };

  await tab.evaluate((url) => window.__explorer.open(url), `${server.base}/data/raster.tacozip`);
  await check();
  const preview = [];
  const previewRequests = [];
  const parts = { previewRead: [], previewDecode: [], previewDraw: [] };
  for (let i = 0; i < runs; i += 1) {
    await tab.evaluate(() => { delete window.__tacoTimings.preview; });
    await tab.click('#table tbody tr[data-id="image.tif"]');
    await tab.waitForFunction(() => window.__tacoTimings.preview > 0 || !document.querySelector('#error').hidden);
    await check();
    const t = await tab.evaluate(() => ({ ...window.__tacoTimings }));
    preview.push(t.preview);
    previewRequests.push(t.previewRequests);
    for (const k of Object.keys(parts)) parts[k].push(t[k]);
  }
  if (problems.length) throw new Error(`console errors: ${problems.join('; ')}`);

  console.log(`\n### Explorer page (headless Chromium, the page's performance.now(); ${runs} runs: median (min-max) ms)\n`);
  console.log('| figure | ms | requests | goal |');
  console.log('|---|---|---|---|');
  console.log(`| SQL engine start at page load (prepare(): duckdb-wasm worker, parquet-wasm, container wasm), once | ${engine.toFixed(0)} | - | - |`);
  console.log(`| first open in the page + first page (run 0: open ${first.open.toFixed(0)} + page ${first.firstPage.toFixed(0)}) | ${first.total.toFixed(0)} | ${pageRequests[0]} | |`);
  console.log(`| open of a ${rows.toLocaleString('en')}-row ZIP by URL | ${fmt(open)} | ${median(pageRequests)} | |`);
  console.log(`| first page of level 0 (count + 50 rows) | ${fmt(firstPage)} | 0 | |`);
  console.log(`| open + first page | ${fmt(total)} | page ${Math.max(...pageRequests)}, server ${Math.max(...serverRequests)} | < 1000 ms, ≤ 3 requests |`);
  console.log(`| preview of a 512×512×4 UInt16 GeoTIFF (click → drawn) | ${fmt(preview)} | ${Math.max(...previewRequests)} | < 300 ms |`);
  console.log(`| … of which: read the sample (1 ranged GET) / decode (geotiff.js) / stretch + draw + histogram | ${fmt(parts.previewRead)} / ${fmt(parts.previewDecode)} / ${fmt(parts.previewDraw)} | | |`);
  console.log(`\nper run, open + first page: ${total.map((v) => v.toFixed(0)).join(', ')} ms; preview: ${preview.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log(`\nload average before: ${loadBefore}; after: ${load()} (${os.cpus().length} cores)`);
} finally {
  await context?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
