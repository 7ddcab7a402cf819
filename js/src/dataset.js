// openDataset(): a TACO ZIP (or a single-file __TACOCAT__) by URL or File/Blob.
//
// Request budget (remote ZIP): open = 2 requests (the first 64 KiB, holding TACO_HEADER and
// giving the size; then one ranged GET spanning every level Parquet and COLLECTION.json, which
// the writers place together); SQL and navigation then run on those bytes; a sample's bytes =
// 1 request (readBytes, readRaster).
import { describeContainer, zipMembers } from './container.js';
import { engine, tableRows } from './engine.js';
import { parquetToIpc } from './parquet.js';
import { openSource } from './source.js';

let datasetCount = 0;

function quoteLiteral(text) {
  return `'${String(text).replace(/'/g, "''")}'`;
}
function quoteIdentifier(text) {
  return `"${String(text).replace(/"/g, '""')}"`;
}

export class Dataset {
  constructor(source, container, collection, conn, schema, levelColumns) {
    this.source = source;
    this.name = source.name;
    this.format = container.format;
    this.header = container.header;
    this.collection = collection;
    this.levels = container.levels.map((r, i) => ({ level: i, offset: r.offset, size: r.size, columns: levelColumns[i] }));
    this.collectionRange = container.collection;
    this.conn = conn;
    this.schema = schema;
    this.rowCache = new Map(); // 'level:parent current id' -> rows (the levels never change)
  }

  /** Requests (ranged GETs / Blob slices) made so far: {requests, bytes, log}. */
  get counter() {
    return this.source.counter;
  }

  /** SQL over `data` (level 0 without internal:* columns), `data_raw` and `level0..N`: rows. */
  async sql(query) {
    return tableRows(await this.conn.query(query));
  }

  /** The children at a position: level-0 rows for [], else the children of that FOLDER. */
  async children(...keys) {
    if (keys.length === 0) return this.cachedRows('0', 'SELECT * FROM level0 ORDER BY "internal:current_id"');
    const parent = await this.sample(...keys);
    if (parent.type !== 'FOLDER') throw new Error(`${this.name}: '${parent.path}' is a FILE, it has no children`);
    return this.rowsUnder(parent);
  }

  async rowsUnder(parent) {
    const level = parent.level + 1;
    if (level >= this.levels.length) throw new Error(`${this.name}: level ${level} does not exist`);
    return this.cachedRows(
      `${level}:${parent.currentId}`,
      `SELECT * FROM level${level} WHERE "internal:parent_id" = ${parent.currentId} ORDER BY "internal:current_id"`,
    );
  }

  async cachedRows(key, query) {
    if (!this.rowCache.has(key)) this.rowCache.set(key, await this.sql(query));
    return [...this.rowCache.get(key)];
  }

  /**
   * Navigates by keys, one per level: a sample id, or '@N' / a number for the position N.
   * Returns {id, type, level, path, offset, size, currentId, row}.
   */
  async sample(...keys) {
    if (keys.length === 0) throw new TypeError('sample: at least one key');
    let rows = await this.children();
    let found = null;
    const path = [];
    for (let depth = 0; depth < keys.length; depth += 1) {
      if (depth > 0) {
        if (found.type !== 'FOLDER') throw new Error(`${this.name}: '${path.join('/')}' is a FILE, it has no children`);
        rows = await this.rowsUnder(found);
      }
      const key = keys[depth];
      let row;
      if (typeof key === 'number' || /^@\d+$/.test(key)) {
        const index = typeof key === 'number' ? key : Number(key.slice(1));
        row = rows[index];
      } else {
        const matches = rows.filter((r) => r.id === key);
        if (matches.length > 1) throw new Error(`${this.name}: id '${key}' is not unique at level ${depth} (use @N)`);
        row = matches[0];
      }
      if (!row) throw new Error(`${this.name}: no sample '${key}' at level ${depth}${path.length ? ` under '${path.join('/')}'` : ''}`);
      path.push(row.id);
      found = {
        id: row.id,
        type: row.type,
        level: depth,
        path: path.join('/'),
        offset: row['internal:offset'],
        size: row['internal:size'],
        currentId: row['internal:current_id'],
        sourceFile: row['internal:source_file'] ?? null,
        row,
      };
    }
    return found;
  }

  /** A sample's bytes (a FILE's member, or a FOLDER's __meta__) in one request. */
  async readBytes(sampleOrKeys) {
    const s = Array.isArray(sampleOrKeys) ? await this.sample(...sampleOrKeys) : sampleOrKeys;
    if (s.sourceFile != null) throw new Error(`${this.name}: samples of a TACOCAT are in its ZIPs (not read yet by this package)`);
    if (typeof s.offset !== 'number' || typeof s.size !== 'number') {
      throw new Error(`${this.name}: sample '${s.path}' has no byte range`);
    }
    return this.source.read(s.offset, s.size);
  }

  /**
   * A GeoTIFF sample's pixels through geotiff.js: {width, height, bands: [TypedArray...]}.
   * options: {window: [x0, y0, x1, y1], samples: [band indexes]}.
   */
  async readRaster(sampleOrKeys, options = {}) {
    const bytes = await this.readBytes(sampleOrKeys);
    const { fromArrayBuffer } = await import('geotiff');
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const tiff = await fromArrayBuffer(buffer);
    const image = await tiff.getImage();
    const rasters = await image.readRasters({ window: options.window, samples: options.samples });
    return { width: rasters.width, height: rasters.height, bands: Array.from(rasters) };
  }

  /** Every member of the ZIP with its data range, from the central directory (2-3 requests). */
  async members() {
    if (this.format !== 'zip') throw new Error(`${this.name}: only a ZIP has members`);
    return zipMembers(this.source);
  }

  async close() {
    await this.conn.close();
  }
}

/**
 * Opens a dataset from a URL (http(s), Range requests) or a File/Blob.
 * options: {fetch, name}.
 */
export async function openDataset(input, options = {}) {
  const source = await openSource(input, { fetchImpl: options.fetch, name: options.name });
  const container = await describeContainer(source);
  const ranges = [...container.levels, container.collection];
  const start = Math.min(...ranges.map((r) => r.offset));
  const end = Math.max(...ranges.map((r) => r.offset + r.size));
  const span = await source.read(start, end - start);
  const slice = (r) => span.slice(r.offset - start, r.offset - start + r.size);
  let collection;
  try {
    collection = JSON.parse(new TextDecoder().decode(slice(container.collection)));
  } catch (e) {
    throw new Error(`${source.name}: COLLECTION.json: ${e.message}`);
  }

  const db = await engine(); // one database; each dataset its own schema
  datasetCount += 1;
  const schema = `taco_${datasetCount}`;
  const conn = await db.connect();
  await conn.query(`CREATE SCHEMA ${schema}`);
  await conn.query(`SET search_path = ${quoteLiteral(schema)}`);
  const levelColumns = [];
  for (let i = 0; i < container.levels.length; i += 1) {
    const ipc = await parquetToIpc(slice(container.levels[i]), `${source.name}: METADATA/level${i}.parquet`);
    await conn.insertIPC(ipc, schema, `level${i}`);
    const cols = tableRows(await conn.query(`DESCRIBE ${schema}.level${i}`));
    levelColumns.push(cols.map((c) => ({ name: c.column_name, type: c.column_type })));
  }
  await conn.query(`CREATE VIEW ${schema}.data_raw AS SELECT * FROM ${schema}.level0`);
  const visible = levelColumns[0].filter((c) => !c.name.startsWith('internal:')).map((c) => quoteIdentifier(c.name));
  await conn.query(`CREATE VIEW ${schema}.data AS SELECT ${visible.join(', ') || '*'} FROM ${schema}.level0`);
  return new Dataset(source, container, collection, conn, schema, levelColumns);
}
