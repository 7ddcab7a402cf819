// The JavaScript package (build/js/taco) against the native CLI on datasets made here:
// `taco demo` (2 levels, GeoTIFF samples) and a 3-level ZIP from `taco create`. Each dataset is
// opened twice: as a Blob of the local file and by URL from a Range server on a free loopback
// port (started and stopped here, counting requests: a small node server, or `taco serve` or
// nginx with TACO_JS_SERVER). Same ids, offsets/sizes, sha256 of sample bytes and SQL rows as
// `taco sql/read/cat`; open in 2 requests, a sample in 1, as the package and the server count them.
//
// Run by ctest (js_package; js_package_serve and js_package_nginx with TACO_JS_SERVER): node --test
// tests/js/package.test.mjs with TACO_BIN (the taco executable) and TACO_JS (the assembled package
// directory).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const taco = process.env.TACO_BIN;
const pkgDir = process.env.TACO_JS;
assert.ok(taco && pkgDir, 'TACO_BIN and TACO_JS must be set');
const { openDataset, describeContainer, BlobSource } = await import(pathToFileURL(path.join(pkgDir, 'index.js')).href);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-js-'));
const cli = (...args) => execFileSync(taco, args, { maxBuffer: 64 << 20 });
const cliJson = (...args) => JSON.parse(cli(...args, '--format', 'json').toString());
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// ---- datasets ------------------------------------------------------------------------------
function makeThreeLevels() {
  const src = path.join(tmp, 'three_src');
  for (const s of ['s0', 's1']) {
    for (const f of ['f0', 'f1', 'f2']) {
      fs.mkdirSync(path.join(src, s, f), { recursive: true });
      for (const x of ['a.bin', 'b.bin']) {
        fs.writeFileSync(path.join(src, s, f, x), `${s}/${f}/${x} `.repeat(7 + s.length + f.charCodeAt(1)));
      }
    }
  }
  const collection = path.join(tmp, 'three.json');
  fs.writeFileSync(
    collection,
    JSON.stringify({
      id: 'three_levels',
      dataset_version: '1.0.0',
      description: 'three levels made by the JS package test',
      licenses: ['CC-BY-4.0'],
      providers: [{ name: 'taco-cpp', roles: ['producer'] }],
      tasks: ['classification'],
    }),
  );
  const out = path.join(tmp, 'three.tacozip');
  cli('create', src, out, '--collection', collection);
  return out;
}

// ---- a Range server on 127.0.0.1 -----------------------------------------------------------
// TACO_JS_SERVER picks it (docs/javascript.md "Tests"): unset, the small node server below,
// which counts requests itself; `taco-serve`, `taco serve --port 0` (ctest js_package_serve);
// `nginx`, nginx-light on a free port (ctest js_package_nginx). For those two the counts come
// from their access logs, and only the remote half of the suite runs.
const serverKind = process.env.TACO_JS_SERVER || 'node';
const served = new Map(); // URL path -> file
const hits = new Map(); // URL path (below base) -> number of requests
let server; // node: the http.Server; taco-serve / nginx: the child process
let base;
let readLog = () => {}; // nginx: reads the new lines of its access log into `hits`

function countLogged(urlPath, prefix) {
  if (!urlPath.startsWith(prefix)) return;
  const key = urlPath.slice(prefix.length);
  hits.set(key, (hits.get(key) || 0) + 1);
}

function startNodeServer() {
  server = http.createServer((req, res) => {
    const file = served.get(req.url);
    hits.set(req.url, (hits.get(req.url) || 0) + 1);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
    if (!m) {
      res.writeHead(200, { 'content-length': size });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), size - 1);
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
    fs.createReadStream(file, { start, end }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)).then(() => {
    base = `http://127.0.0.1:${server.address().port}`;
  });
}

// `taco serve FILES --port 0`: the port from its first stdout line; each access-log line on
// stderr ('PEER "GET /data/NAME HTTP/1.1" STATUS BYTES TIME') counts for /NAME.
async function startTacoServe() {
  server = spawn(taco, ['serve', ...served.values(), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  readline.createInterface({ input: server.stderr }).on('line', (line) => {
    stderr += `${line}\n`;
    const m = /^\S+ "[A-Z]+ (\S+) HTTP\/1\.[01]" \d+ /.exec(line);
    if (m) countLogged(m[1], '/data');
  });
  const first = await new Promise((resolve, reject) => {
    readline.createInterface({ input: server.stdout }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`taco serve exited (${code}): ${stderr}`)));
  });
  const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(first);
  assert.ok(m, `taco serve printed ${first}`);
  base = `http://127.0.0.1:${m[1]}/data`;
}

// nginx-light over a directory of links to the datasets, its access log read on demand.
async function startNginx() {
  const nginx = '/usr/sbin/nginx';
  assert.ok(fs.existsSync(nginx), 'nginx is not installed (apt-get install nginx-light)');
  const dir = path.join(tmp, 'nginx');
  fs.mkdirSync(path.join(dir, 'www', 'data'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'tmp'));
  for (const [urlPath, file] of served) fs.symlinkSync(file, path.join(dir, 'www', 'data', urlPath.slice(1)));
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address();
      probe.close(() => resolve(p));
    });
  });
  const log = path.join(dir, 'access.log');
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/tmp;`);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events { worker_connections 64; }',
      'http {',
      "  log_format taco '$request_method $uri $status';",
      `  access_log ${log} taco;`,
      ...temps,
      '  default_type application/octet-stream;',
      `  server { listen 127.0.0.1:${port}; root ${dir}/www; }`,
      '}',
      '',
    ].join('\n'),
  );
  server = spawn(nginx, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  base = `http://127.0.0.1:${port}/data`;
  let offset = 0;
  readLog = () => {
    if (!fs.existsSync(log)) return;
    const text = fs.readFileSync(log).subarray(offset).toString();
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    offset += Buffer.byteLength(complete);
    for (const line of complete.split('\n').filter(Boolean)) countLogged(line.split(' ')[1], '/data');
  };
  for (let i = 0; i < 100; i += 1) {
    try {
      await fetch(`${base}/`, { method: 'HEAD' });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  readLog();
  hits.clear();
}

function startServer() {
  if (serverKind === 'taco-serve') return startTacoServe();
  if (serverKind === 'nginx') return startNginx();
  assert.equal(serverKind, 'node', `TACO_JS_SERVER=${serverKind}: node, taco-serve or nginx`);
  return startNodeServer();
}

// The requests the server saw for `key`. A log line is written after its answer: wait until
// `expected` of them arrived (at most 2 s), then a little longer for any extra one.
async function serverHits(key, expected) {
  if (serverKind === 'node') return hits.get(key) || 0;
  const settle = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 200; i += 1) {
    readLog();
    if ((hits.get(key) || 0) >= expected) break;
    await settle(10);
  }
  await settle(30);
  readLog();
  return hits.get(key) || 0;
}

// ---- the cross-check -----------------------------------------------------------------------
const datasets = {};

before(async () => {
  cli('demo', path.join(tmp, 'demo_out'));
  datasets.demo = path.join(tmp, 'demo_out', 'demo.tacozip');
  datasets.three = makeThreeLevels();
  for (const [name, file] of Object.entries(datasets)) served.set(`/${name}.tacozip`, file);
  await startServer();
});

after(() => {
  if (serverKind === 'node') server?.close();
  else server?.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

// CLI answers, asked once per dataset and argument list (each `taco` run costs ~0.1-1 s).
const memo = new Map();
function cliOnce(kind, ...args) {
  const key = JSON.stringify([kind, args]);
  if (!memo.has(key)) memo.set(key, kind === 'json' ? cliJson(...args) : cli(...args));
  return memo.get(key);
}

// The FILE samples of a dataset: key path (ids from level 0 down) and GDAL path, from the
// native `files` view (one CLI run for all).
function fileSamples(file) {
  return cliOnce('json', 'sql', file, "SELECT path, \"internal:gdal_vsi\" AS vsi FROM files WHERE type = 'FILE' ORDER BY path").map(
    (r) => ({ keys: r.path.split('/'), vsi: r.vsi }),
  );
}

// Queries whose rows must be equal (values the two DuckDBs print alike: no timestamps or blobs
// unconverted).
function queries(levels) {
  const out = ['SELECT id, type FROM data ORDER BY id'];
  for (let i = 0; i < levels; i += 1) {
    out.push(
      `SELECT id, type, "internal:current_id", "internal:parent_id", "internal:offset", "internal:size" FROM level${i} ORDER BY "internal:current_id"`,
    );
  }
  return out;
}

for (const name of ['demo', 'three']) {
  for (const where of serverKind === 'node' ? ['local', 'remote'] : ['remote']) {
    describe(`${name} (${where})`, () => {
      let ds;
      let file;
      before(async () => {
        file = datasets[name];
        if (where === 'local') {
          ds = await openDataset(await fs.openAsBlob(file), { name: file });
        } else {
          readLog();
          hits.clear();
          ds = await openDataset(`${base}/${name}.tacozip`);
        }
      });
      after(() => ds?.close());

      test('open costs 2 requests (TACO_HEADER, then levels + COLLECTION.json)', async () => {
        // Remote: the first request fetches 64 KiB, so a smaller file is whole after it. Local:
        // + 2 reads of the central directory (ranges looked up by archive path).
        const expected = where === 'remote' ? (fs.statSync(file).size <= 65536 ? 1 : 2) : 4;
        assert.equal(ds.counter.requests, expected);
        if (where === 'remote') assert.equal(await serverHits(`/${name}.tacozip`, expected), expected);
      });

      test('collection and levels as the CLI describes them', () => {
        const info = JSON.parse(cliOnce('raw', 'info', file, '--json').toString());
        assert.equal(ds.collection.id, info.collection.id);
        assert.deepEqual(
          ds.levels.map((l) => [l.offset, l.size]),
          info.header.slice(0, -1).map((h) => [h.offset, h.length]),
        );
        assert.deepEqual([ds.collectionRange.offset, ds.collectionRange.size], [info.header.at(-1).offset, info.header.at(-1).length]);
      });

      test('SQL rows equal the CLI rows', async () => {
        for (const q of queries(ds.levels.length)) {
          assert.deepEqual(await ds.sql(q), cliOnce('json', 'sql', file, q), q);
        }
        if (name === 'demo') {
          const q = `SELECT id, hex("stac:centroid") AS c, CAST("stac:time_start" AS VARCHAR) AS t, "stac:tensor_shape" AS shape FROM level1 ORDER BY "internal:current_id"`;
          assert.deepEqual(await ds.sql(q), cliOnce('json', 'sql', file, q), q);
        }
      });

      test('every FILE sample: the range of the CLI, its bytes in 1 request (0 inside the first 64 KiB)', async () => {
        const samples = fileSamples(file);
        assert.ok(samples.length >= 8, `${samples.length} FILE samples`);
        const local = fs.readFileSync(file);
        for (const { keys, vsi } of samples) {
          const sample = await ds.sample(...keys);
          assert.equal(vsi, `/vsisubfile/${sample.offset}_${sample.size},${file}`);
          const before = ds.counter.requests;
          const bytes = await ds.readBytes(sample);
          const inPrefix = where === 'remote' && sample.offset + sample.size <= 65536;
          assert.equal(ds.counter.requests - before, inPrefix ? 0 : 1, keys.join('/'));
          // The server saw exactly the requests the package counted (1 per sample).
          if (where === 'remote') {
            assert.equal(await serverHits(`/${name}.tacozip`, ds.counter.requests), ds.counter.requests, keys.join('/'));
          }
          assert.equal(sha256(bytes), sha256(local.subarray(sample.offset, sample.offset + sample.size)), keys.join('/'));
        }
        // `taco cat` (the member's CRC-32 checked) for the first and the last sample.
        for (const { keys } of [samples[0], samples.at(-1)]) {
          const bytes = await ds.readBytes(keys);
          assert.equal(sha256(bytes), sha256(cliOnce('raw', 'cat', file, ...keys)), keys.join('/'));
        }
        // `taco read` navigates the same way.
        const { keys } = samples.at(-1);
        const sample = await ds.sample(...keys);
        assert.equal(cliOnce('raw', 'read', file, ...keys).toString().trim(), `/vsisubfile/${sample.offset}_${sample.size},${file}`);
      });

      test('navigation by position and errors that name the dataset', async () => {
        const first = await ds.sample('@0');
        assert.equal(first.id, (await ds.children())[0].id);
        await assert.rejects(ds.sample('no_such_sample'), (e) => e.message.includes("no sample 'no_such_sample' at level 0"));
      });

      test('ZIP members from the central directory match the samples', async () => {
        const members = await ds.members();
        const byName = new Map(members.map((m) => [m.name, m]));
        for (const { keys } of fileSamples(file).slice(0, 4)) {
          const sample = await ds.sample(...keys);
          const member = byName.get(`DATA/${keys.join('/')}`);
          assert.ok(member, keys.join('/'));
          assert.deepEqual([member.offset, member.size], [sample.offset, sample.size]);
        }
      });

      if (name === 'demo') {
        test('readRaster: the pixels GDAL reads (geotiff.js, window and band)', async () => {
          const sample = await ds.sample('tile_03', 'before.tif');
          const raster = await ds.readRaster(sample, { window: [8, 4, 40, 20], samples: [2] });
          assert.equal(raster.width, 32);
          assert.equal(raster.height, 16);
          const py = [
            'import sys, json',
            'from osgeo import gdal',
            'd = gdal.Open(sys.argv[1])',
            'a = d.GetRasterBand(3).ReadAsArray(8, 4, 32, 16)',
            'print(json.dumps([int(v) for v in a.ravel()]))',
          ].join('\n');
          const vsi = `/vsisubfile/${sample.offset}_${sample.size},${file}`;
          const gdal = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, vsi]).toString());
          assert.deepEqual(Array.from(raster.bands[0], Number), gdal);
        });
      }
    });
  }
}

test('a file that is not a TACO ZIP: the container layer says so, naming it', async () => {
  const bad = path.join(tmp, 'not_taco.zip');
  execFileSync('zip', ['-q', '-j', bad, datasets.three]);
  const source = new BlobSource(await fs.openAsBlob(bad), bad);
  await assert.rejects(describeContainer(source), (e) => e.message.startsWith(`${bad}: not a TACO ZIP: the first ZIP entry is "three.tacozip"`));
});

test('a remote 404 is an error naming the URL', async () => {
  await assert.rejects(openDataset(`${base}/missing.tacozip`), (e) => e.message.includes('missing.tacozip: not found (HTTP 404)'));
});
