// Dataset.filterBbox / filterDatetime (and openDataset's bbox/datetime options) of the JS
// package against `taco filter` on `taco demo` (levels 0 and 1: stac:centroid, stac:time_start
// at both levels) and on a 3-level dataset made here (istac:geometry polygons and points,
// istac:time_start at level 2 only, from a Parquet written by the project venv's pyarrow) as a
// ZIP, a FOLDER, a `.tacocat/` of two ZIPs and their TACOLLECTION; local (a Blob or a map of
// path → Blob) and by URL from a Range server on a free loopback port started and stopped here. The ids of `data` after the JS filter equal the
// CLI's for several boxes and ranges at level 0 and level 1 (the cascade), chained filters
// included; bad input gives the core's messages.
//
// Run by ctest (js_filters): node --test tests/js/filters.test.mjs with TACO_BIN, TACO_JS and
// TACO_PYTHON (the project venv's python, for pyarrow).
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
const cli = (...args) => execFileSync(taco, args, { maxBuffer: 64 << 20 });

// `taco filter` ids, in the CLI's order (asked once per file and arguments: the local and the
// URL runs compare with the same answer).
const cliAnswers = new Map();
function cliIds(args, file = zip) {
  const key = JSON.stringify([file, ...args]);
  if (!cliAnswers.has(key)) {
    try {
      const out = cli('filter', file, ...args, '--format', 'json', '--columns', 'id');
      cliAnswers.set(key, JSON.parse(out.toString()).map((r) => r.id));
    } catch (e) {
      cliAnswers.set(key, e);
    }
  }
  const answer = cliAnswers.get(key);
  if (answer instanceof Error) throw answer;
  return [...answer];
}

// The 3-level dataset: s0..s3 / f0..f2 / a.bin (a polygon), b.bin (a point), each FILE of level
// 2 with its own place and time; forms under tmp/demo (served).
const kMetadata = `
import struct, sys, datetime as dt, pyarrow as pa, pyarrow.parquet as pq
def poly(x0, y0, x1, y1):
    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    return struct.pack('<BII', 1, 3, 1) + struct.pack('<I', len(ring)) + b''.join(struct.pack('<dd', *p) for p in ring)
def point(x, y):
    return struct.pack('>BIdd', 0, 1, x, y)
rows = []
for i, s in enumerate(['s0', 's1', 's2', 's3']):
    for j, f in enumerate(['f0', 'f1', 'f2']):
        for k, x in enumerate(['a.bin', 'b.bin']):
            n = i * 6 + j * 2 + k
            x0, y0 = -60 + n * 5, -30 + n * 2.5
            rows.append((s, f'{s}/{f}/{x}', poly(x0, y0, x0 + 4, y0 + 2) if k == 0 else point(x0 + 1, y0 + 1),
                         dt.datetime(2020, 1, 1) + dt.timedelta(days=15 * n, hours=n)))
for name, keep in [('all', 's0 s1 s2 s3'), ('a', 's0 s1'), ('b', 's2 s3')]:
    r = [x for x in rows if x[0] in keep.split()]
    pq.write_table(pa.table({'path': [x[1] for x in r], 'istac:geometry': pa.array([x[2] for x in r], pa.binary()),
                             'istac:time_start': pa.array([x[3] for x in r], pa.timestamp('us'))}),
                   f'{sys.argv[1]}/l2_{name}.parquet')
`;
function makeThreeLevels() {
  const dir = path.join(tmp, 'src3');
  const collection = path.join(dir, 'collection.json');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    collection,
    JSON.stringify({ id: 'f3', dataset_version: '1.0.0', description: 'filters', licenses: ['CC-BY-4.0'], providers: [{ name: 't', roles: ['producer'] }], tasks: ['classification'] }),
  );
  for (const [name, samples] of [['all', ['s0', 's1', 's2', 's3']], ['a', ['s0', 's1']], ['b', ['s2', 's3']]]) {
    for (const s of samples) {
      for (const f of ['f0', 'f1', 'f2']) {
        fs.mkdirSync(path.join(dir, name, s, f), { recursive: true });
        for (const x of ['a.bin', 'b.bin']) fs.writeFileSync(path.join(dir, name, s, f, x), `${s}/${f}/${x}`);
      }
    }
  }
  execFileSync(process.env.TACO_PYTHON, ['-c', kMetadata, dir]);
  const served = path.join(tmp, 'demo');
  const create = (name, out) => cli('create', path.join(dir, name), out, '--collection', collection, '--metadata', path.join(dir, `l2_${name}.parquet`));
  create('all', path.join(served, 'three.tacozip'));
  create('all', path.join(served, 'fold'));
  create('a', path.join(served, 'parts', 'a.tacozip'));
  create('b', path.join(served, 'parts', 'b.tacozip'));
  cli('tacocat', path.join(served, 'parts', 'a.tacozip'), path.join(served, 'parts', 'b.tacozip'), '-o', path.join(served, 'parts'));
  cli('tacollection', path.join(served, 'parts', 'a.tacozip'), path.join(served, 'parts', 'b.tacozip'), '-o', path.join(served, 'parts', 'TACOLLECTION.json'));
}
makeThreeLevels();

// Every file under `dir` as a map of relative path → Blob.
function treeBlobs(dir, prefix = '') {
  const out = new Map();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + e.name;
    if (e.isDirectory()) for (const [k, v] of treeBlobs(path.join(dir, e.name), `${rel}/`)) out.set(k, v);
    else out.set(rel, new Blob([fs.readFileSync(path.join(dir, e.name))]));
  }
  return out;
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

// name → [CLI path, open locally, URL under the server]
const threeForms = {
  zip: ['three.tacozip', (p) => openDataset(new Blob([fs.readFileSync(p)]), { name: p }), '/three.tacozip'],
  folder: ['fold', (p) => openDataset(treeBlobs(p), { name: p }), '/fold/'],
  tacocat: ['parts/.tacocat', (p) => openDataset(treeBlobs(path.dirname(p)), { name: path.dirname(p) }), '/parts/.tacocat'],
  // Without .tacocat/, which a map holding both would open first.
  tacollection: [
    'parts/TACOLLECTION.json',
    (p) => openDataset(new Map([...treeBlobs(path.dirname(p))].filter(([k]) => !k.startsWith('.tacocat/'))), { name: path.dirname(p) }),
    '/parts/TACOLLECTION.json',
  ],
};
const sorted = (list) => [...list].sort();

for (const [form, [rel, openLocal, url]] of Object.entries(threeForms)) {
  for (const where of ['local', 'url']) {
    test(`3 levels, ${form} (${where}): filters equal taco filter`, async () => {
      const file = path.join(tmp, 'demo', rel);
      const ds = where === 'local' ? await openLocal(file) : await openDataset(`${baseUrl}${url}`);
      assert.equal(ds.levels.length, 3);
      assert.equal(ds.format, form);
      let nonTrivial = 0;
      // Boxes: crossing several, touching a corner, a degenerate one on a point, one inside a
      // polygon (no edge crosses it), one meeting all, one meeting none.
      for (const level of [1, 2]) {
        for (const b of [[-40, -20, -30, -10], [-60, -30, -59, -29], [-54, -27, -54, -27], [-59, -29.5, -58, -29], [0, 0, 100, 100], [-100, -100, -90, -90]]) {
          const args = [`--bbox=${b.join(',')}`, '--level', String(level)];
          let expected;
          try {
            expected = sorted(cliIds(args, file));
          } catch {
            expected = null; // no geometry at that level: both refuse
          }
          if (expected === null) {
            await assert.rejects(ds.filterBbox(...b, { level }), /No geometry column found in level 1/);
            continue;
          }
          const view = await ds.filterBbox(...b, { level });
          assert.deepEqual(sorted(await ids(view)), expected, `bbox ${b} level ${level}`);
          if (expected.length > 0 && expected.length < 4) nonTrivial += 1;
          await view.close();
        }
      }
      for (const r of ['2020-02/2020-03', '../2020-01-16', '2020-04-15T04:00:00Z/2020-06', '2021-01-01/..', '2019']) {
        const expected = sorted(cliIds(['--datetime', r, '--level', '2'], file));
        const view = await ds.filterDatetime(r, { level: 2 });
        assert.deepEqual(sorted(await ids(view)), expected, `datetime ${r} level 2`);
        if (expected.length > 0 && expected.length < 4) nonTrivial += 1;
        await view.close();
      }
      assert.ok(nonTrivial >= 5, `only ${nonTrivial} cases keep some but not all samples`);
      const chained = await (await ds.filterBbox(-60, -30, 0, 0, { level: 2 })).filterDatetime('2020-03/..', { level: 2 });
      assert.deepEqual(sorted(await ids(chained)), sorted(cliIds(['--bbox=-60,-30,0,0', '--datetime', '2020-03/..', '--level', '2'], file)));
      await chained.close();
      await ds.close();
    });
  }
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
