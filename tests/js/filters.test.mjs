// Dataset.filterBbox / filterDatetime (and openDataset's bbox/datetime options) of the JS
// package against `taco filter` on `taco demo` (levels 0 and 1: stac:centroid, stac:time_start
// at both levels), made here; local (a Blob) and by URL from a Range server on a free
// loopback port started and stopped here. The ids of `data` after the JS filter equal the
// CLI's for several boxes and ranges at level 0 and level 1 (the cascade), chained filters
// included; bad input gives the core's messages.
//
// Run by ctest (js_filters): node --test tests/js/filters.test.mjs with TACO_BIN and TACO_JS.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const taco = process.env.TACO_BIN;
const pkgDir = process.env.TACO_JS;
assert.ok(taco && pkgDir, 'TACO_BIN and TACO_JS must be set');
const { openDataset } = await import(pathToFileURL(path.join(pkgDir, 'index.js')).href);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-js-filters-'));
execFileSync(taco, ['demo', path.join(tmp, 'demo')], { stdio: 'ignore' });
const zip = path.join(tmp, 'demo', 'demo.tacozip');

// `taco filter` ids, in the CLI's order.
function cliIds(args) {
  const out = execFileSync(taco, ['filter', zip, ...args, '--format', 'json', '--columns', 'id'], { maxBuffer: 64 << 20 });
  return JSON.parse(out.toString()).map((r) => r.id);
}
// The ids of a view's `data` (ordered as the CLI prints them, by internal:current_id of data_raw).
async function ids(ds) {
  const raw = (await ds.sql('SELECT id FROM data_raw ORDER BY "internal:current_id"')).map((r) => r.id);
  const data = (await ds.sql('SELECT id FROM data')).map((r) => r.id);
  assert.deepEqual([...data].sort(), [...raw].sort(), 'data and data_raw hold the same samples');
  return raw;
}

let server;
let baseUrl;
before(async () => {
  server = http.createServer((req, res) => {
    const file = path.join(tmp, 'demo', decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    const m = /bytes=(\d+)-(\d*)/.exec(req.headers.range || '');
    if (!m) {
      res.writeHead(200, { 'Content-Length': size, 'Accept-Ranges': 'bytes' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(size - 1, m[2] ? Number(m[2]) : size - 1);
    res.writeHead(206, { 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Accept-Ranges': 'bytes' });
    fs.createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const boxes = [
  [-80, -40, 0, 0],
  [-72.05, -33.59, -72.05, -33.59],
  [0, 0, 180, 90],
  [-180, -90, 180, 90],
  [100, -10, 101, -9],
];
const ranges = ['2021-03/..', '../2021-02-15', '2021-01-01T10:00:00Z/2021-02-01', '2021', '2021-04-10T12:00', '2021-05/2021-10-19T12:00:00+00:00'];

for (const where of ['local', 'url']) {
  test(`filters equal taco filter (${where})`, async () => {
    const open = () => (where === 'local' ? openDataset(new Blob([fs.readFileSync(zip)]), { name: zip }) : openDataset(`${baseUrl}/demo.tacozip`));
    const ds = await open();
    const all = await ids(ds);
    let nonTrivial = 0;
    for (const level of [0, 1]) {
      for (const b of boxes) {
        const expected = cliIds([`--bbox=${b.join(',')}`, '--level', String(level)]);
        const view = await ds.filterBbox(...b, { level });
        assert.deepEqual(await ids(view), expected, `bbox ${b} level ${level}`);
        if (expected.length > 0 && expected.length < all.length) nonTrivial += 1;
        await view.close();
      }
      for (const r of ranges) {
        const expected = cliIds(['--datetime', r, '--level', String(level)]);
        const view = await ds.filterDatetime(r, { level });
        assert.deepEqual(await ids(view), expected, `datetime ${r} level ${level}`);
        if (expected.length > 0 && expected.length < all.length) nonTrivial += 1;
        await view.close();
      }
    }
    assert.ok(nonTrivial >= 8, `only ${nonTrivial} cases keep some but not all samples`);
    // Chained at level 1: the datetime filter starts from the level-1 rows the bbox kept.
    const chained = await (await ds.filterBbox(-80, -40, 0, 0, { level: 1 })).filterDatetime('2021-03/..', { level: 1 });
    assert.deepEqual(await ids(chained), cliIds(['--bbox=-80,-40,0,0', '--datetime', '2021-03/..', '--level', '1']));
    // Navigation of a filtered view lists its samples.
    assert.deepEqual((await chained.children()).map((r) => r.id), await ids(chained));
    await chained.close();
    // openDataset's options.
    const opened = await (where === 'local'
      ? openDataset(new Blob([fs.readFileSync(zip)]), { name: zip, bbox: [0, 0, 180, 90], datetime: '2021-02/..', level: 1 })
      : openDataset(`${baseUrl}/demo.tacozip`, { bbox: [0, 0, 180, 90], datetime: '2021-02/..', level: 1 }));
    assert.deepEqual(await ids(opened), cliIds(['--bbox=0,0,180,90', '--datetime', '2021-02/..', '--level', '1']));
    await opened.close();
    await ds.close();
  });
}

test('bad input: the core messages', async () => {
  const ds = await openDataset(new Blob([fs.readFileSync(zip)]), { name: zip });
  await assert.rejects(ds.filterBbox(0, 0, Infinity, 1), /bbox coordinates must be finite numbers/);
  await assert.rejects(ds.filterBbox(1, 0, 0, 1), /minx <= maxx and miny <= maxy/);
  await assert.rejects(ds.filterBbox(0, 0, 1, 1, { level: 2 }), /Level 2 does not exist \(levels 0\.\.1\)/);
  await assert.rejects(ds.filterBbox(0, 0, 1, 1, { column: 'nope' }), /Column 'nope' not found in level 0/);
  await assert.rejects(ds.filterBbox(0, 0, 1, 1, { column: 'id' }), /column 'id' is VARCHAR, not a WKB binary geometry/);
  await assert.rejects(ds.filterDatetime('2021/2022/2023'), /more than one '\/'/);
  await assert.rejects(ds.filterDatetime('../..'), /both ends are open/);
  await assert.rejects(ds.filterDatetime('2021-02-30'), /day 30 does not exist in that month/);
  await assert.rejects(ds.filterDatetime('2022/2021'), /the start is after the end/);
  await assert.rejects(ds.filterDatetime('2021', { column: 'stac:centroid' }), /not a timestamp, date or ISO-8601 string/);
  await ds.close();
});
