// The explorer page (js/explorer/, built into build/js/explorer/) in Debian's headless Chromium,
// driven by the playwright-core pinned in tests/publish/browser. The page's static directory and
// `taco demo`'s ZIP are served by a Range server on a free loopback port (started and stopped
// here). Checks, against the CLI and GDAL:
//   * open by URL (?url=): the collection card, one tab per level, level 0's first page (ids in
//     order), 2 requests for open + first page, the centroids drawn on the map;
//   * an SQL query typed into the SQL box (rows = `taco sql`), and an SQL error shown in the page;
//   * navigation into a FOLDER (its children = `taco sql` on level1);
//   * a GeoTIFF preview: the RGB composite read back from the canvas equals GDAL's pixels of the
//     same bands after the same 2-98 % stretch (numpy, /usr/bin/python3), in 1 request; one band
//     through the grey colour map likewise;
//   * open by local file (setInputFiles): the same card and rows, no request to the data URL;
//   * every request stays on 127.0.0.1 (a route aborts and records any other), no console error.
//
// Run by ctest (js_explorer) with TACO_BIN, TACO_EXPLORER (build/js/explorer) and TACO_PLAYWRIGHT.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, serveExplorer } from './explorer_server.mjs';

const taco = process.env.TACO_BIN;
const root = process.env.TACO_EXPLORER;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-explorer-'));
const cli = (...args) => execFileSync(taco, args, { maxBuffer: 64 << 20 });
const sqlJson = (file, q) => JSON.parse(cli('sql', file, q, '--format', 'json').toString());

let server;
let base;
let file;
let context;
let tab;
const outside = [];
const problems = [];

const ready = () => tab.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 120000 });
const tableIds = () => tab.$$eval('#table tbody tr', (trs) => trs.map((tr) => tr.dataset.id));
const errorText = () => tab.$eval('#error', (e) => (e.hidden ? '' : e.textContent));
const timings = () => tab.evaluate(() => ({ ...window.__tacoTimings }));

before(async () => {
  cli('demo', path.join(tmp, 'demo_out'), '-q');
  file = path.join(tmp, 'demo_out', 'demo.tacozip');
  server = await serveExplorer(root, { 'demo.tacozip': file });
  base = server.base;
  context = await launchChromium(process.env.TACO_PLAYWRIGHT, path.join(tmp, 'profile'));
  // Route-level check: anything not addressed to the test server is recorded and aborted.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  context.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
  });
  tab = context.pages()[0] || (await context.newPage());
  tab.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  tab.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
});

after(async () => {
  await context?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('open by URL: card, levels, first page in 2 requests, centroids on the map', async () => {
  await tab.goto(`${base}/?url=/data/demo.tacozip`);
  await ready();
  assert.equal(await errorText(), '');
  const collection = JSON.parse(execFileSync('unzip', ['-p', file, 'COLLECTION.json']).toString());
  assert.equal(await tab.textContent('#card h2'), collection.title);
  const card = await tab.textContent('#card');
  for (const text of [collection.description, ...collection.licenses, collection.providers[0].name, 'level 0: 48 × FOLDER']) {
    assert.ok(card.includes(text), `card lacks ${text}`);
  }
  assert.deepEqual(await tab.$$eval('#tabs button', (bs) => bs.map((b) => b.textContent)), ['level 0', 'level 1']);
  const want = sqlJson(file, 'SELECT id FROM level0 ORDER BY "internal:current_id" LIMIT 50').map((r) => r.id);
  assert.deepEqual(await tableIds(), want);
  assert.match(await tab.textContent('#page-info'), /page 1 of 1 · 48 rows/);
  const t = await timings();
  assert.equal(t.openRequests, 2);
  assert.equal(t.firstPageRequests, 2);
  assert.equal(server.hits['demo.tacozip'], 2);
  for (const k of ['engine', 'open', 'firstPage']) assert.ok(t[k] > 0, `timing ${k}`);
  assert.match(await tab.textContent('#timings'), /open \d+ ms/);
  assert.match(await tab.textContent('#map-info'), /centroids \(stac:centroid\) of 48 level-0 rows/);
  // The centroid markers (#1f4fbf squares) are on the canvas.
  const marks = await tab.$eval('#map', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0x1f && d[i + 1] === 0x4f && d[i + 2] === 0xbf) n += 1;
    return n;
  });
  assert.ok(marks >= 16, `centroid pixels on the map: ${marks}`);
  console.log(`explorer by URL: engine ${t.engine.toFixed(0)} ms, open ${t.open.toFixed(0)} ms, first page ${t.firstPage.toFixed(0)} ms, ${t.firstPageRequests} requests`);
});

test('SQL box: rows as taco sql gives them; an SQL error is shown in the page', async () => {
  const query = "SELECT id, country, split FROM data WHERE country IN ('Spain', 'Peru') ORDER BY id DESC";
  await tab.fill('#sql', 'SELECT nope FROM data');
  await tab.click('#sql-form button');
  await tab.waitForSelector('#error:not([hidden])');
  assert.match(await errorText(), /nope/);
  await tab.fill('#sql', query);
  await tab.click('#sql-form button');
  await tab.waitForFunction(() => document.querySelector('#view-title').textContent === 'SQL result' && document.querySelector('#error').hidden);
  const rows = await tab.$$eval('#table tbody tr', (trs) => trs.map((tr) => Array.from(tr.cells, (c) => c.textContent)));
  const want = sqlJson(file, query).map((r) => [r.id, r.country, r.split]);
  assert.deepEqual(rows, want);
  assert.equal(await errorText(), '');
});

test('navigate into a FOLDER, preview a GeoTIFF: the canvas holds GDAL pixels after the same stretch', async () => {
  await tab.click('#tabs button[data-level="0"]');
  await tab.click('#table tbody tr[data-id="tile_03"]');
  await tab.waitForFunction(() => document.querySelector('#crumbs').textContent.includes('tile_03'));
  const parent = sqlJson(file, "SELECT \"internal:current_id\" AS c FROM level0 WHERE id = 'tile_03'")[0].c;
  // Every folder has the same child ids: their byte ranges tell them apart.
  const children = sqlJson(file, `SELECT id, "internal:offset" AS o FROM level1 WHERE "internal:parent_id" = ${parent} ORDER BY "internal:current_id"`)
    .map((r) => [r.id, String(r.o)]);
  const shownChildren = await tab.$$eval('#table', ([t]) => {
    const names = Array.from(t.tHead.rows[0].cells, (c) => c.textContent);
    const at = names.indexOf('internal:offset');
    return Array.from(t.tBodies[0].rows, (r) => [r.cells[0].textContent, r.cells[at].textContent]);
  });
  assert.deepEqual(shownChildren, children);

  const hitsBefore = server.hits['demo.tacozip'];
  await tab.click('#table tbody tr[data-id="before.tif"]');
  await tab.waitForFunction(() => !document.querySelector('#preview').hidden && window.__tacoTimings.preview > 0);
  await tab.selectOption('#band-r', '2');
  await tab.selectOption('#band-g', '1');
  await tab.selectOption('#band-b', '3');
  await tab.waitForFunction(() => window.__tacoPreview.bands.join() === '2,1,3');
  const shown = await tab.$eval('#raster', (c) => ({ width: c.width, height: c.height, rgba: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data) }));
  const t = await timings();
  assert.equal(t.previewRequests, 1);
  assert.equal(server.hits['demo.tacozip'] - hitsBefore, 1);
  assert.equal(await errorText(), '');

  const vsi = cli('read', file, 'tile_03', 'before.tif').toString().trim();
  const py = `
import sys, json
import numpy as np
from osgeo import gdal
d = gdal.Open(sys.argv[1])
out = []
for b in json.loads(sys.argv[2]):
    band = d.GetRasterBand(b + 1)
    a = band.ReadAsArray().astype(np.float64).ravel()
    valid = a[~np.isnan(a)]
    if band.GetNoDataValue() is not None:
        valid = valid[valid != band.GetNoDataValue()]
    s = np.sort(valid)
    n = len(s)
    lo = s[int(np.floor(2 / 100 * (n - 1)))]
    hi = s[int(np.floor(98 / 100 * (n - 1)))]
    v = np.floor((a - lo) / (hi - lo) * 255 + 0.5) if hi > lo else np.zeros_like(a)
    out.append(np.clip(v, 0, 255).astype(int))
rgba = np.stack(out + [np.full_like(out[0], 255)], axis=1).ravel()
print(json.dumps({"width": d.RasterXSize, "height": d.RasterYSize, "rgba": [int(x) for x in rgba]}))
`;
  const gdal = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, vsi, '[2, 1, 3]'], { maxBuffer: 64 << 20 }).toString());
  assert.deepEqual([shown.width, shown.height], [gdal.width, gdal.height]);
  assert.deepEqual(shown.rgba, gdal.rgba);
  // A stretch that maps everything to one value would pass trivially: the image has contrast.
  assert.ok(new Set(shown.rgba).size > 32);

  // One band through the grey colour map: R = G = B = GDAL's band 1 after the same stretch.
  await tab.selectOption('#mode', 'single');
  await tab.selectOption('#band-1', '0');
  await tab.selectOption('#colour-map', 'grey');
  await tab.waitForFunction(() => window.__tacoPreview.mode === 'single' && window.__tacoPreview.bands.join() === '0');
  const grey = await tab.$eval('#raster', (c) => Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data));
  const band1 = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, vsi, '[0]'], { maxBuffer: 64 << 20 }).toString()).rgba;
  const want1 = [];
  for (let i = 0; i < band1.length; i += 2) want1.push(band1[i], band1[i], band1[i], 255);
  assert.deepEqual(grey, want1);
  console.log(`explorer preview of a ${gdal.width}x${gdal.height}x4 GeoTIFF: ${t.preview.toFixed(0)} ms, navigation ${t.navigate.toFixed(0)} ms`);
});

test('open by local file (no data server): the same card and rows', async () => {
  const hits = server.hits['demo.tacozip'];
  await tab.goto(`${base}/`);
  await tab.waitForFunction(() => document.body.dataset.state === 'idle', null, { timeout: 120000 });
  await tab.setInputFiles('#file', file);
  await tab.waitForFunction(() => document.querySelector('#table tbody tr') && ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 120000 });
  assert.equal(await errorText(), '');
  const collection = JSON.parse(execFileSync('unzip', ['-p', file, 'COLLECTION.json']).toString());
  assert.equal(await tab.textContent('#card h2'), collection.title);
  assert.deepEqual(await tableIds(), sqlJson(file, 'SELECT id FROM level0 ORDER BY "internal:current_id"').map((r) => r.id));
  const t = await timings();
  // Blob slices: the first 64 KiB, the metadata span, and the central directory (2 reads): a
  // local ZIP's level ranges are looked up by archive path, as the native views do.
  assert.equal(t.openRequests, 4);
  assert.equal(server.hits['demo.tacozip'], hits);
});

test('no request left 127.0.0.1, no console error', () => {
  assert.deepEqual(outside, []);
  assert.deepEqual(problems, []);
});
