// The JavaScript package in headless Chromium (Debian's, driven by the playwright-core pinned in
// tests/publish/browser): the browser bundle build/js/taco/taco.browser.js with duckdb-wasm's
// worker bundles and parquet-wasm's wasm served from the package's own directory by a server on
// a free loopback port (started and stopped here). Opens `taco demo`'s ZIP by URL and checks, as
// in package.test.mjs, against the CLI: request counts, SQL rows, a sample's range and bytes,
// a GeoTIFF window against GDAL. No request may leave 127.0.0.1, no console error.
//
// Run by ctest (js_browser) with TACO_BIN, TACO_JS and TACO_PLAYWRIGHT (a node_modules dir).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { serveExplorer } from './explorer_server.mjs';

const taco = process.env.TACO_BIN;
const pkgDir = process.env.TACO_JS;
const require = createRequire(path.join(process.env.TACO_PLAYWRIGHT, 'x.js'));
const { chromium } = require('playwright-core');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-js-browser-'));
const cli = (...args) => execFileSync(taco, args, { maxBuffer: 64 << 20 });
const page = '<!doctype html><title>taco js test</title><script type="module">import * as taco from "/taco.browser.js"; window.taco = taco; window.tacoReady = true;</script>';

let server;
let base;
let file;
let context;
let tab;
const requests = [];
const problems = [];

before(async () => {
  cli('demo', path.join(tmp, 'demo_out'));
  file = path.join(tmp, 'demo_out', 'demo.tacozip');
  server = await serveExplorer(pkgDir, { 'demo.tacozip': file }, { indexHtml: page });
  base = server.base;
  context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    timeout: 60000,
  });
  context.on('request', (r) => requests.push(r.url()));
  tab = context.pages()[0] || (await context.newPage());
  tab.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await tab.goto(`${base}/`);
  await tab.waitForFunction(() => window.tacoReady === true, null, { timeout: 60000 });
});

after(async () => {
  await context?.close();
  server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('demo ZIP by URL in Chromium: the CLI answers, 2 requests to open, 1 per sample', async () => {
  const got = await tab.evaluate(async (url) => {
    const t0 = performance.now();
    const ds = await window.taco.openDataset(url);
    const openMs = performance.now() - t0;
    const openRequests = ds.counter.requests;
    const rows = await ds.sql('SELECT id, type FROM data ORDER BY id');
    const level1 = await ds.sql('SELECT id, "internal:offset", "internal:size" FROM level1 ORDER BY "internal:current_id"');
    const s = await ds.sample('tile_03', 'before.tif');
    const before = ds.counter.requests;
    const bytes = await ds.readBytes(s);
    const sampleRequests = ds.counter.requests - before;
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
    const t1 = performance.now();
    const raster = await ds.readRaster(s, { window: [8, 4, 40, 20], samples: [2] });
    const rasterMs = performance.now() - t1;
    const t2 = performance.now();
    const again = await window.taco.openDataset(url); // duckdb-wasm is ready now
    await again.sql('SELECT * FROM data LIMIT 50');
    const reopenMs = performance.now() - t2;
    return {
      openMs, reopenMs, openRequests, rows, level1, digest, sampleRequests, rasterMs,
      offset: s.offset, size: s.size, id: ds.collection.id,
      pixels: Array.from(raster.bands[0], Number), width: raster.width, height: raster.height,
    };
  }, `${base}/data/demo.tacozip`);

  assert.equal(got.openRequests, 2);
  assert.equal(got.sampleRequests, 1);
  const sqlJson = (q) => JSON.parse(cli('sql', file, q, '--format', 'json').toString());
  assert.deepEqual(got.rows, sqlJson('SELECT id, type FROM data ORDER BY id'));
  assert.deepEqual(got.level1, sqlJson('SELECT id, "internal:offset", "internal:size" FROM level1 ORDER BY "internal:current_id"'));
  assert.equal(cli('read', file, 'tile_03', 'before.tif').toString().trim(), `/vsisubfile/${got.offset}_${got.size},${file}`);
  assert.equal(got.digest, createHash('sha256').update(cli('cat', file, 'tile_03', 'before.tif')).digest('hex'));
  const py = 'import sys, json\nfrom osgeo import gdal\nd = gdal.Open(sys.argv[1])\nprint(json.dumps([int(v) for v in d.GetRasterBand(3).ReadAsArray(8, 4, 32, 16).ravel()]))';
  const gdal = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, `/vsisubfile/${got.offset}_${got.size},${file}`]).toString());
  assert.deepEqual([got.width, got.height], [32, 16]);
  assert.deepEqual(got.pixels, gdal);
  console.log(`chromium: first open ${got.openMs.toFixed(0)} ms (duckdb-wasm start included) in ${got.openRequests} requests; open + first 50 rows again ${got.reopenMs.toFixed(0)} ms; readRaster ${got.rasterMs.toFixed(0)} ms`);
  // Opening, the sample (readBytes, readRaster) and the second open reached the server 6 times.
  assert.equal(server.hits['demo.tacozip'], 6);
  const outside = requests.filter((u) => !u.startsWith(`${base}/`));
  assert.deepEqual(outside, []);
  assert.deepEqual(problems, []);
});
