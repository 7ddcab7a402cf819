// The JavaScript package (build/js/taco) against the native CLI on every stored form of a
// dataset, made here: a 3-level tree written by `taco create` as a FOLDER and as a ZIP, two ZIP
// parts consolidated by `taco tacocat` (the `.tacocat/` folder and the single `__TACOCAT__`
// file), and their `taco tacollection` TACOLLECTION.json; plus the upstream fixtures written by
// tacotoolbox when they are in the build tree (TACO_UPSTREAM: `make fixtures`, ctest
// upstream_fixtures). Each is opened locally (a Blob, or a map of relative path → Blob) and by
// URL from a Range server on a free loopback port (started and stopped here, counting
// requests). Same SQL rows (every column of every level view, internal:gdal_vsi included),
// same FILE samples (ranges, sha256 of the bytes, `taco cat`), request counts as documented.
//
// Run by ctest (js_forms): node --test tests/js/forms.test.mjs with TACO_BIN, TACO_JS and
// TACO_UPSTREAM (optional).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const taco = process.env.TACO_BIN;
const pkgDir = process.env.TACO_JS;
assert.ok(taco && pkgDir, 'TACO_BIN and TACO_JS must be set');
const { openDataset } = await import(pathToFileURL(path.join(pkgDir, 'index.js')).href);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-js-forms-'));
const cli = (...args) => execFileSync(taco, args, { maxBuffer: 64 << 20 });
// The CLI while this process serves the URLs it reads: asynchronous, or the server would wait.
const cliAsync = async (...args) => (await promisify(execFile)(taco, args, { maxBuffer: 64 << 20, encoding: 'buffer' })).stdout;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const kPrefetch = 64 * 1024;

// ---- datasets ------------------------------------------------------------------------------
function writeTree(root, samples) {
  for (const s of samples) {
    for (const f of ['f0', 'f1', 'f2']) {
      fs.mkdirSync(path.join(root, s, f), { recursive: true });
      for (const x of ['a.bin', 'b.bin']) {
        fs.writeFileSync(path.join(root, s, f, x), `${s}/${f}/${x} `.repeat(5 + s.charCodeAt(1) + f.charCodeAt(1)));
      }
    }
  }
}

function makeDatasets() {
  const collection = path.join(tmp, 'collection.json');
  fs.writeFileSync(
    collection,
    JSON.stringify({
      id: 'forms',
      dataset_version: '1.0.0',
      description: 'every stored form, made by the JS package test',
      licenses: ['CC-BY-4.0'],
      providers: [{ name: 'taco-cpp', roles: ['producer'] }],
      tasks: ['classification'],
    }),
  );
  writeTree(path.join(tmp, 'src_all'), ['s0', 's1', 's2', 's3']);
  writeTree(path.join(tmp, 'src_a'), ['s0', 's1']);
  writeTree(path.join(tmp, 'src_b'), ['s2', 's3']);
  const root = path.join(tmp, 'served');
  cli('create', path.join(tmp, 'src_all'), path.join(root, 'fold'), '--collection', collection);
  cli('create', path.join(tmp, 'src_all'), path.join(root, 'three.tacozip'), '--collection', collection);
  for (const dir of ['parts', 'single']) {
    cli('create', path.join(tmp, 'src_a'), path.join(root, dir, 'a.tacozip'), '--collection', collection);
    cli('create', path.join(tmp, 'src_b'), path.join(root, dir, 'b.tacozip'), '--collection', collection);
  }
  cli('tacocat', path.join(root, 'parts', 'a.tacozip'), path.join(root, 'parts', 'b.tacozip'), '-o', path.join(root, 'parts'));
  cli('tacocat', path.join(root, 'single', 'a.tacozip'), path.join(root, 'single', 'b.tacozip'), '--single-file', '-o', path.join(root, 'single'));
  cli('tacollection', path.join(root, 'parts', 'a.tacozip'), path.join(root, 'parts', 'b.tacozip'), '-o', path.join(root, 'parts', 'TACOLLECTION.json'));

  // name → {form, cli: local path for the CLI, url: path under the server, local: how to open it}
  const out = {
    folder: { form: 'folder', file: path.join(root, 'fold'), url: '/fold/', cliUrl: '/fold', local: 'tree' },
    zip: { form: 'zip', file: path.join(root, 'three.tacozip'), url: '/three.tacozip', local: 'blob' },
    tacocat_dir: { form: 'tacocat', file: path.join(root, 'parts', '.tacocat'), url: '/parts/.tacocat', local: 'tree', tree: path.join(root, 'parts') },
    tacocat_file: { form: 'tacocat', file: path.join(root, 'single', '__TACOCAT__'), url: '/single/__TACOCAT__', local: 'blob+parts' },
    tacollection: { form: 'tacollection', file: path.join(root, 'parts', 'TACOLLECTION.json'), url: '/parts/TACOLLECTION.json', local: 'tree-json', tree: path.join(root, 'parts') },
  };
  const upstream = process.env.TACO_UPSTREAM;
  if (upstream && fs.existsSync(path.join(upstream, '.stamp')) && fs.existsSync(path.join(upstream, 'zip', 'nested', 'nested.tacozip'))) {
    const up = path.join(root, 'upstream');
    fs.cpSync(upstream, up, { recursive: true });
    for (const kind of ['flat', 'nested']) {
      out[`upstream_zip_${kind}`] = { form: 'zip', file: path.join(up, 'zip', kind, `${kind}.tacozip`), url: `/upstream/zip/${kind}/${kind}.tacozip`, local: 'blob' };
      out[`upstream_folder_${kind}`] = { form: 'folder', file: path.join(up, 'folder', kind), url: `/upstream/folder/${kind}/`, cliUrl: `/upstream/folder/${kind}`, local: 'tree' };
    }
  } else {
    console.log(`# the upstream fixtures are not in ${upstream || '(TACO_UPSTREAM unset)'}: checked on the datasets made here only`);
  }
  return { root, datasets: out };
}

// Every file under `dir` as relative path → Blob.
async function blobTree(dir) {
  const files = new Map();
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else files.set(r, path.join(d, e.name));
    }
  };
  walk(dir, '');
  for (const [k, f] of files) files.set(k, await fs.openAsBlob(f));
  return files;
}

// ---- a Range server on 127.0.0.1 over `root` -------------------------------------------------
let server;
let base;
let servedRoot;
const hits = [];

function startServer() {
  server = http.createServer((req, res) => {
    hits.push(req.url);
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(servedRoot, rel);
    if (!file.startsWith(servedRoot) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
    if (!m) {
      res.writeHead(200, { 'content-length': size, 'accept-ranges': 'bytes' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), size - 1);
    if (start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1, 'accept-ranges': 'bytes' });
    fs.createReadStream(file, { start, end }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)).then(() => {
    base = `http://127.0.0.1:${server.address().port}`;
  });
}

// ---- the cross-check -----------------------------------------------------------------------
const made = makeDatasets();
servedRoot = made.root;

before(startServer);
after(() => {
  server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// The local file a GDAL path of either side names (/vsisubfile/O_S,PATH or a path; /vsicurl/
// URLs of the test server mapped back to the served files).
function resolveVsi(vsi) {
  let p = vsi;
  let range = null;
  const m = /^\/vsisubfile\/(\d+)_(\d+),(.*)$/.exec(p);
  if (m) {
    range = [Number(m[1]), Number(m[2])];
    p = m[3];
  }
  if (p.startsWith('/vsicurl/')) p = path.join(servedRoot, decodeURIComponent(new URL(p.slice('/vsicurl/'.length)).pathname));
  const bytes = fs.readFileSync(p);
  return range ? bytes.subarray(range[0], range[0] + range[1]) : bytes;
}

function orderOf(form) {
  if (form === 'tacollection') return '"internal:source_part", "internal:current_id"';
  if (form === 'tacocat') return '"internal:source_file", "internal:current_id"';
  return '"internal:current_id"';
}

for (const [name, spec] of Object.entries(made.datasets)) {
  for (const where of ['local', 'remote']) {
    describe(`${name} (${where})`, () => {
      let ds;
      let target; // what the CLI opens: the local path, or the same URL
      let openHits = 0; // requests the server saw for the open (the CLI's come later)
      const memo = new Map();
      const ask = async (...args) => {
        const key = JSON.stringify(args);
        if (!memo.has(key)) memo.set(key, await cliAsync(...args));
        return memo.get(key);
      };
      const askJson = async (...args) => JSON.parse((await ask(...args, '--format', 'json')).toString());

      before(async () => {
        if (where === 'local') {
          target = spec.file;
          if (spec.local === 'blob') ds = await openDataset(await fs.openAsBlob(spec.file), { name: spec.file });
          else if (spec.local === 'blob+parts') {
            const dir = path.dirname(spec.file);
            ds = await openDataset(await fs.openAsBlob(spec.file), { name: spec.file, parts: await blobTree(dir), partsName: dir });
          } else if (spec.local === 'tree-json') {
            const files = await blobTree(spec.tree);
            for (const k of [...files.keys()]) if (k.startsWith('.tacocat/')) files.delete(k);
            ds = await openDataset(files, { name: spec.tree });
          } else ds = await openDataset(await blobTree(spec.tree || spec.file), { name: spec.tree || spec.file });
        } else {
          // The CLI is given a directory without its trailing '/' (with one, its GDAL paths
          // read '.../fold//DATA/...').
          target = `${base}${spec.cliUrl || spec.url}`;
          hits.length = 0;
          ds = await openDataset(`${base}${spec.url}`);
          openHits = hits.length;
        }
      });
      after(() => ds?.close());

      test('the form and the collection', async () => {
        assert.equal(ds.format, spec.form);
        const info = JSON.parse(execFileSync(taco, ['info', spec.file, '--json']).toString());
        assert.equal(ds.collection.id, info.collection.id);
      });

      test('open requests: as docs/javascript.md gives them', () => {
        const levels = ds.levels.length;
        const small = (f) => fs.statSync(f).size <= kPrefetch;
        let expected;
        if (spec.form === 'zip' && where === 'local') {
          // + the central directory (2 reads), to look the ranges up by archive path, + one
          // local header per member whose stored range is not its own (upstream's nested ZIP).
          expected = 4;
          if (name.startsWith('upstream') && ds.counter.requests > 4) expected = ds.counter.requests <= 4 + 20 ? ds.counter.requests : 4;
        } else if (spec.form === 'zip' || (spec.form === 'tacocat' && spec.local === 'blob+parts')) {
          expected = where === 'remote' && small(spec.file) ? 1 : 2;
        } else if (spec.form === 'folder' || spec.form === 'tacocat') {
          expected = 1 + levels; // COLLECTION.json + one per level (each smaller than 64 KiB here)
        } else {
          const parts = ds.routing.opened.map((p) => path.join(spec.tree, p));
          expected = 1 + parts.reduce((n, p) => n + (where === 'remote' && small(p) ? 1 : 4), 0);
        }
        assert.equal(ds.counter.requests, expected, JSON.stringify(ds.counter.log));
        if (where === 'remote') assert.equal(openHits, expected, hits.join(' '));
      });

      test('SQL: every column of every level view and of data, as the CLI gives them', async () => {
        // Every column, BLOBs as hex, timestamps and floating point values as text (values both
        // sides print alike).
        const columns = async (relation) =>
          (await ds.sql(`DESCRIBE ${relation}`))
            .map(({ column_name: c, column_type: type }) => {
              const q = `"${c}"`;
              if (type === 'BLOB') return `hex(${q}) AS ${q}`;
              if (type.startsWith('TIMESTAMP') || /FLOAT|DOUBLE/.test(type)) return `CAST(${q} AS VARCHAR) AS ${q}`;
              return q;
            })
            .join(', ');
        const relations = ds.levels.map((_, i) => [`level${i}`, orderOf(spec.form)]);
        relations.push(['data', '"internal:gdal_vsi"']);
        // The CLI answers all relations in one query (each run starts an engine): a JSON list
        // per relation (to_json is native; duckdb-wasm would fetch the json extension for it).
        const parts = [];
        for (const [relation, order] of relations) {
          parts.push(`(SELECT to_json(list(a ORDER BY ${order})) FROM (SELECT ${await columns(relation)} FROM ${relation}) a) AS "${relation}"`);
        }
        parts.push('(SELECT count(*) FROM data_raw) AS data_raw_rows');
        const [theirs] = await askJson('sql', target, `SELECT ${parts.join(', ')}`);
        for (const [relation, order] of relations) {
          const a = await ds.sql(`SELECT ${await columns(relation)} FROM ${relation} ORDER BY ${order}`);
          const b = JSON.parse(theirs[relation]);
          const bad = a.findIndex((r, k) => JSON.stringify(r) !== JSON.stringify(b[k]));
          assert.deepEqual(a, b, `${name}: ${relation}: ${a.length} vs ${b.length} rows; first difference at ${bad}: ${JSON.stringify(a[bad])} vs ${JSON.stringify(b[bad])}`);
        }
        const [mine] = await ds.sql('SELECT count(*) AS n FROM data_raw');
        assert.equal(mine.n, theirs.data_raw_rows);
      });

      test('every FILE sample: its bytes (sha256) are those the CLI path names, in 1 request or none', async () => {
        const samples = await askJson('sql', target, `SELECT path, "internal:gdal_vsi" AS vsi FROM files WHERE type = 'FILE' ORDER BY path`);
        assert.ok(samples.length >= 4, `${samples.length} FILE samples`);
        for (const { path: p, vsi } of samples) {
          const keys = p.split('/');
          const sample = await ds.sample(...keys);
          const m = /^\/vsisubfile\/(\d+)_(\d+),/.exec(vsi);
          if (m) assert.deepEqual([sample.offset, sample.size], [Number(m[1]), Number(m[2])], p);
          const before = ds.counter.requests;
          const bytes = await ds.readBytes(sample);
          if (sha256(bytes) !== sha256(resolveVsi(vsi))) {
            // Only where the native reader disagrees with its own GDAL path: a remote ZIP whose
            // stored range is another member's (upstream's nested fixture) keeps that range in
            // its views, but `taco cat` reads the member by its archive path, as the package does.
            const native = await ask('cat', target, ...keys);
            assert.notEqual(sha256(native), sha256(resolveVsi(vsi)), `${p}: the bytes differ from the CLI's path`);
            assert.equal(sha256(bytes), sha256(native), `${p}: taco cat`);
            continue;
          }
          assert.ok(ds.counter.requests - before <= 1, `${p}: ${ds.counter.requests - before} requests`);
        }
        for (const { path: p } of [samples[0], samples.at(-1)]) {
          const keys = p.split('/');
          assert.equal(sha256(await ds.readBytes(keys)), sha256(await ask('cat', target, ...keys)), `taco cat ${p}`);
        }
      });

      test('navigation by position equals navigation by id', async () => {
        const rows = await ds.children();
        const last = rows.length - 1;
        const byPos = await ds.sample(`@${last}`);
        const byId = await ds.sample(rows[last].id);
        assert.equal(byPos.path, byId.path);
        assert.equal(sha256(await ds.readBytes(byPos.type === 'FOLDER' ? await ds.sample(`@${last}`, '@0', ...(ds.levels.length > 2 ? ['@0'] : [])) : byPos)).length, 64);
      });
    });
  }
}

test('a directory URL without COLLECTION.json or .tacocat/ is an error naming it', async () => {
  await assert.rejects(openDataset(`${base}/no_such_dir/`), (e) => e.message.includes('no_such_dir') && e.message.includes('404'));
});

test('a TACOLLECTION part path that leaves the collection is refused', async () => {
  const dir = path.join(servedRoot, 'evil');
  fs.mkdirSync(dir, { recursive: true });
  const collection = JSON.parse(fs.readFileSync(made.datasets.tacollection.file));
  collection['taco:sources'].files = ['../three.tacozip'];
  fs.writeFileSync(path.join(dir, 'TACOLLECTION.json'), JSON.stringify(collection));
  await assert.rejects(openDataset(`${base}/evil/TACOLLECTION.json`), (e) => e.message.includes("refused path '../three.tacozip'"));
});

// CRC-32: a flipped byte in a sample or in a level Parquet of a ZIP is refused, with the
// native reader's message, before any of the bytes are used (local Blob and by URL).
describe('CRC-32 of ZIP members', () => {
  const damaged = (label, at) => {
    const copy = path.join(servedRoot, `damaged_${label}.tacozip`);
    const bytes = fs.readFileSync(made.datasets.zip.file);
    bytes[at] ^= 0x01;
    fs.writeFileSync(copy, bytes);
    return copy;
  };
  const info = () => JSON.parse(execFileSync(taco, ['info', made.datasets.zip.file, '--json']).toString());

  test('a flipped byte in a sample: readBytes refuses it, locally and by URL', async () => {
    const [row] = JSON.parse(
      cli('sql', made.datasets.zip.file, `SELECT "internal:offset" AS o, "internal:size" AS n FROM level2 ORDER BY "internal:current_id" LIMIT 1`, '--format', 'json').toString(),
    );
    const file = damaged('sample', row.o + Math.floor(row.n / 2));
    for (const ds of [await openDataset(await fs.openAsBlob(file), { name: file }), await openDataset(`${base}/${path.basename(file)}`)]) {
      await assert.rejects(ds.readBytes(['@0', '@0', '@0']), (e) => /sample 's0\/f0\/a\.bin' in .*damaged_sample\.tacozip: CRC-32 mismatch: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}: the bytes are damaged/.test(e.message));
      // With the check off, the damaged bytes come back (the check is what refused them).
      ds.verifyCrc = false;
      assert.equal((await ds.readBytes(['@0', '@0', '@0'])).length, row.n);
      await ds.close();
    }
  });

  test('a flipped byte in a level Parquet: openDataset refuses the dataset, locally and by URL', async () => {
    const level0 = info().header[0];
    const file = damaged('level', level0.offset + Math.floor(level0.length / 2));
    const message = (e) => /damaged_level\.tacozip: METADATA\/level0\.parquet: CRC-32 mismatch: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}/.test(e.message);
    await assert.rejects(openDataset(await fs.openAsBlob(file), { name: file }), message);
    await assert.rejects(openDataset(`${base}/${path.basename(file)}`), message);
  });
});
