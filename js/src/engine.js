// The SQL engine: one duckdb-wasm database per process/page, from the bundles of the pinned
// @duckdb/duckdb-wasm — in Node the blocking build read from node_modules, in a browser the
// worker build from files served next to this package (./duckdb/, copied by the build), never
// from a CDN. The level Parquets are registered as in-memory file buffers; each dataset gets
// its own schema and connection (search_path), so that `data` and `level0..N` are its own.

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

let enginePromise = null;

async function nodeEngine() {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const duckdb = require('@duckdb/duckdb-wasm/blocking');
  const path = require('node:path');
  const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));
  const bundles = {
    mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate();
  return {
    async register(name, bytes) {
      db.registerFileBuffer(name, bytes);
    },
    async connect() {
      const c = db.connect();
      return {
        query: async (sql) => c.query(sql),
        insertIPC: async (ipc, schema, name) => c.insertArrowFromIPCStream(ipc, { schema, name, create: true }),
        close: async () => c.close(),
      };
    },
  };
}

async function browserEngine() {
  const duckdb = await import('@duckdb/duckdb-wasm');
  const base = new URL('./duckdb/', import.meta.url);
  const bundles = {
    mvp: { mainModule: new URL('duckdb-mvp.wasm', base).href, mainWorker: new URL('duckdb-browser-mvp.worker.js', base).href },
    eh: { mainModule: new URL('duckdb-eh.wasm', base).href, mainWorker: new URL('duckdb-browser-eh.worker.js', base).href },
  };
  const bundle = await duckdb.selectBundle(bundles);
  const worker = new Worker(bundle.mainWorker);
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(bundle.mainModule);
  return {
    async register(name, bytes) {
      await db.registerFileBuffer(name, bytes);
    },
    async connect() {
      const c = await db.connect();
      return {
        query: (sql) => c.query(sql),
        insertIPC: (ipc, schema, name) => c.insertArrowFromIPCStream(ipc, { schema, name, create: true }),
        close: () => c.close(),
      };
    },
  };
}

export function engine() {
  if (!enginePromise) enginePromise = isNode ? nodeEngine() : browserEngine();
  return enginePromise;
}

/** An Arrow value as plain JS: lists as arrays, structs as objects, BigInt as Number when exact. */
export function plain(value) {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (value == null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (typeof value.toArray === 'function' && !(value instanceof Array)) return Array.from(value.toArray(), plain);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value.toJSON === 'function') value = value.toJSON();
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = plain(v);
  return out;
}

/** Rows of an Arrow table as plain objects (column order kept). */
export function tableRows(table) {
  const names = table.schema.fields.map((f) => f.name);
  const rows = [];
  for (const row of table.toArray()) {
    const obj = {};
    for (const n of names) obj[n] = plain(row[n]);
    rows.push(obj);
  }
  return rows;
}
