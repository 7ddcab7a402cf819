// openDataset(): a TACO dataset in any of its stored forms (FORMAT §1-§5):
//
//   form            input                                         levels / samples from
//   ZIP             URL or File/Blob of the .tacozip              TACO_HEADER ranges / its members
//   FOLDER          URL ending in '/', or a map path → Blob       METADATA/levelN.parquet / DATA/...
//   TACOCAT         URL of .../.tacocat or .../__TACOCAT__, a     .tacocat/ files or the __TACOCAT__
//                   Blob of __TACOCAT__ (+ options.parts), or a   header ranges / (offset, size) in
//                   map holding .tacocat/ or __TACOCAT__           the ZIP named by internal:source_file
//   TACOLLECTION    URL of a .json, or a map holding one          its parts (taco:sources.files),
//                   (taco:sources)                                routed by bbox/datetime, then unioned
//
// Request budget (remote): ZIP open = 2 requests (the first 64 KiB holding TACO_HEADER, then
// one ranged GET spanning every level Parquet and COLLECTION.json); a sample = 1 request. FOLDER
// and `.tacocat/` open = COLLECTION.json + one request per level (in parallel); `__TACOCAT__`
// open = 2; a sample = 1 (a FOLDER file's first 64 KiB, a TACOCAT part's range).
import { describeContainer, zipMembers } from './container.js';
import { engine, tableRows } from './engine.js';
import { parquetToIpc } from './parquet.js';
import { BlobTree, HttpTree, RequestCounter, fileMap, openSource } from './source.js';

let datasetCount = 0;
const kPaddingPrefix = '__TACOPAD__';
const kMaxLevels = 6;

export function quoteLiteral(text) {
  return `'${String(text).replace(/'/g, "''")}'`;
}
export function quoteIdentifier(text) {
  return `"${String(text).replace(/"/g, '""')}"`;
}

function parseJson(bytes, what) {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new Error(`${what}: not JSON: ${e.message}`);
  }
}

// The deepest level taco:pit_schema.hierarchy names (0 without one), as the native reader
// counts the level files of a FOLDER or `.tacocat/` (read/remote_tacocat.cc TacocatMaxDepth).
function maxDepth(collection, what) {
  const hierarchy = collection?.['taco:pit_schema']?.hierarchy;
  if (!hierarchy || typeof hierarchy !== 'object' || Array.isArray(hierarchy)) return 0;
  let depth = 0;
  for (const key of Object.keys(hierarchy)) {
    if (!/^\d{1,2}$/.test(key)) throw new Error(`${what}: taco:pit_schema hierarchy key '${key}' is not a level number`);
    if (Number(key) > kMaxLevels - 1) throw new Error(`${what}: taco:pit_schema names level ${key} (at most 5)`);
    depth = Math.max(depth, Number(key));
  }
  return depth;
}

// The SQL of internal:gdal_vsi at `level` (format/container.cc SamplePathExpression): `root`
// is an SQL expression of the dataset root (a quoted text, or a column for a TACOLLECTION).
function gdalVsiExpression(format, level, root) {
  const whenId = (expr) => `CASE WHEN id IS NOT NULL THEN ${expr} END`;
  const subfile = `'/vsisubfile/' || "internal:offset" || '_' || "internal:size" || ','`;
  if (format === 'zip') return whenId(`${subfile} || ${root}`);
  if (format === 'tacocat') return whenId(`${subfile} || ${root} || '/' || "internal:source_file"`);
  const data = `${root} || '/DATA/'`;
  if (level === 0) return `CASE type WHEN 'FILE' THEN ${data} || id WHEN 'FOLDER' THEN ${data} || id || '/__meta__' END`;
  return whenId(
    `CASE type WHEN 'FILE' THEN ${data} || "internal:relative_path" WHEN 'FOLDER' THEN ${data} || "internal:relative_path" || '__meta__' END`,
  );
}

const notPadding = `NOT coalesce(starts_with(id, ${quoteLiteral(kPaddingPrefix)}), false)`;

export class Dataset {
  constructor(init) {
    Object.assign(this, init);
    this.rowCache = new Map(); // 'level:parent key' -> rows (the levels never change)
  }

  /** Requests (ranged GETs / Blob slices) made so far: {requests, bytes, log}. */
  get counter() {
    return this.requestCounter;
  }

  /** SQL over `data` (level 0 without internal:* but internal:gdal_vsi), `data_raw` and `level0..N`: rows. */
  async sql(query) {
    return tableRows(await this.conn.query(query));
  }

  /** The children at a position: level-0 rows for [], else the children of that FOLDER. */
  async children(...keys) {
    if (keys.length === 0) return this.levelRows(0, null);
    const parent = await this.sample(...keys);
    if (parent.type !== 'FOLDER') throw new Error(`${this.name}: '${parent.path}' is a FILE, it has no children`);
    return this.rowsUnder(parent);
  }

  async rowsUnder(parent) {
    const level = parent.level + 1;
    if (level >= this.levels.length) throw new Error(`${this.name}: level ${level} does not exist`);
    return this.levelRows(level, parent);
  }

  // Rows of level `level` in stored order, padding left out; under `parent` (its children:
  // same parent id, and in a TACOCAT or TACOLLECTION the same part) or all of level 0.
  async levelRows(level, parent) {
    let where = notPadding;
    if (parent) {
      where += ` AND "internal:parent_id" = ${parent.currentId}`;
      if (this.format === 'tacocat') where += ` AND "internal:source_file" = ${quoteLiteral(parent.sourceFile)}`;
      if (this.format === 'tacollection') where += ` AND "internal:source_part" = ${parent.sourcePart}`;
    }
    const key = `${level}:${parent ? `${parent.sourcePart ?? ''}|${parent.sourceFile ?? ''}|${parent.currentId}` : ''}`;
    if (!this.rowCache.has(key)) {
      const rows = await this.sql(`SELECT * FROM level${level}_table WHERE ${where} ORDER BY ${this.orderBy}`);
      this.rowCache.set(key, rows);
    }
    return [...this.rowCache.get(key)];
  }

  /**
   * Navigates by keys, one per level: a sample id, or '@N' / a number for the position N.
   * Returns {id, type, level, path, offset, size, currentId, sourceFile, file, sourcePart, row}.
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
        offset: row['internal:offset'] ?? null,
        size: row['internal:size'] ?? null,
        currentId: row['internal:current_id'],
        sourceFile: row['internal:source_file'] ?? null,
        sourcePart: row['internal:source_part'] ?? null,
        file: null,
        row,
      };
      found.file = this.sampleFile(found);
    }
    return found;
  }

  // Where a sample's bytes are: the path in the tree (FOLDER: DATA/...; TACOCAT: the part).
  sampleFile(s) {
    if (this.format === 'folder') {
      const rel = s.level === 0 ? s.id + (s.type === 'FOLDER' ? '/' : '') : s.row['internal:relative_path'];
      if (typeof rel !== 'string') throw new Error(`${this.name}: sample '${s.path}' has no internal:relative_path`);
      return `DATA/${rel}${s.type === 'FOLDER' ? '__meta__' : ''}`;
    }
    if (this.format === 'tacocat') return s.sourceFile;
    return null;
  }

  /** A sample's bytes (a FILE, or a FOLDER's __meta__) in one request, its CRC-32 checked where stored. */
  async readBytes(sampleOrKeys) {
    const s = Array.isArray(sampleOrKeys) ? await this.sample(...sampleOrKeys) : sampleOrKeys;
    if (this.format === 'tacollection') {
      const part = this.parts[s.sourcePart];
      if (!part) throw new Error(`${this.name}: sample '${s.path}' names no part (internal:source_part ${s.sourcePart})`);
      return part.readBytes({ ...s, file: part.sampleFile(s) });
    }
    if (this.format === 'folder') return this.tree.source(s.file).readAll();
    if (typeof s.offset !== 'number' || typeof s.size !== 'number') {
      throw new Error(`${this.name}: sample '${s.path}' has no byte range`);
    }
    if (this.format === 'tacocat') {
      if (!this.partsTree) throw new Error(`${this.name}: the ZIPs of this TACOCAT were not given (options.parts)`);
      if (typeof s.sourceFile !== 'string') throw new Error(`${this.name}: sample '${s.path}' has no internal:source_file`);
      return this.readMember(this.partsTree.source(s.sourceFile), s);
    }
    return this.readMember(this.source, s);
  }

  // The bytes of a ZIP member at (offset, size) of `source`.
  async readMember(source, s) {
    return source.read(s.offset, s.size);
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
    for (const p of this.parts || []) await p.close();
    await this.conn.close();
  }
}

// A new schema with its own connection.
async function newSchema() {
  const db = await engine(); // one database; each dataset its own schema
  datasetCount += 1;
  const schema = `taco_${datasetCount}`;
  const conn = await db.connect();
  await conn.query(`CREATE SCHEMA ${schema}`);
  await conn.query(`SET search_path = ${quoteLiteral(schema)}`);
  return { conn, schema };
}

async function describeColumns(conn, relation) {
  const cols = tableRows(await conn.query(`DESCRIBE ${relation}`));
  return cols.map((c) => ({ name: c.column_name, type: c.column_type }));
}

// level<i>_table from each level Parquet; level<i> views with internal:gdal_vsi, padding
// hidden; data_raw and data (views.cc CreateLevelViews); then the bbox/datetime selection.
async function buildViews(conn, schema, format, levelBytes, root, name, filter) {
  for (let i = 0; i < levelBytes.length; i += 1) {
    const ipc = await parquetToIpc(levelBytes[i], `${name}: METADATA/level${i}.parquet`);
    await conn.insertIPC(ipc, schema, `level${i}_table`);
  }
  const rootSql = quoteLiteral(root);
  for (let i = 0; i < levelBytes.length; i += 1) {
    await conn.query(
      `CREATE VIEW ${schema}.level${i} AS SELECT *, ${gdalVsiExpression(format, i, rootSql)} AS "internal:gdal_vsi" FROM ${schema}.level${i}_table WHERE ${notPadding}`,
    );
  }
  return finishViews(conn, schema, levelBytes.length, name, filter);
}

async function finishViews(conn, schema, numLevels, name, filter) {
  const levelColumns = [];
  for (let i = 0; i < numLevels; i += 1) levelColumns.push(await describeColumns(conn, `${schema}.level${i}`));
  void filter;
  await conn.query(`CREATE VIEW ${schema}.data_raw AS SELECT * FROM ${schema}.level0`);
  const hidden = (c) => c.name.startsWith('internal:') && c.name !== 'internal:gdal_vsi';
  const visible = levelColumns[0].filter((c) => !hidden(c)).map((c) => quoteIdentifier(c.name));
  await conn.query(`CREATE VIEW ${schema}.data AS SELECT ${visible.join(', ')} FROM ${schema}.data_raw`);
  return levelColumns;
}

function levelInfo(ranges, levelColumns, files) {
  return levelColumns.map((columns, i) => ({
    level: i,
    offset: ranges?.[i]?.offset,
    size: ranges?.[i]?.size,
    file: files?.[i],
    columns,
  }));
}

// bbox/datetime selections (the core's filter_bbox/filter_datetime) are not in this package
// yet: asking for one is an error rather than an unfiltered answer.
function filterOf(options) {
  if (options.bbox != null || (options.datetime != null && options.datetime !== '')) {
    throw new Error('openDataset: the bbox and datetime options are not supported by this package yet');
  }
  return null;
}

// ---- single files: a TACO ZIP or a __TACOCAT__ ---------------------------------------------

async function openSingleFile(source, options, partsTree) {
  const container = await describeContainer(source);
  const ranges = [...container.levels, container.collection];
  const start = Math.min(...ranges.map((r) => r.offset));
  const end = Math.max(...ranges.map((r) => r.offset + r.size));
  const span = await source.read(start, end - start);
  const slice = (r) => span.slice(r.offset - start, r.offset - start + r.size);
  const collection = parseJson(slice(container.collection), `${source.name}: COLLECTION.json`);
  const { conn, schema } = await newSchema();
  const format = container.format;
  const root = format === 'zip' ? options.vsiRoot ?? vsiRootOf(source.name) : partsTree?.vsiRoot ?? parentOf(vsiRootOf(source.name));
  const levelColumns = await buildViews(conn, schema, format, container.levels.map(slice), root, source.name, filterOf(options));
  return new Dataset({
    name: source.name,
    format,
    header: container.header,
    collection,
    levels: levelInfo(container.levels, levelColumns),
    collectionRange: container.collection,
    conn,
    schema,
    source,
    partsTree: partsTree ?? null,
    requestCounter: source.counter,
    orderBy: 'rowid',
    vsiRoot: root,
  });
}

function isUrl(name) {
  return /^https?:\/\//.test(name);
}
function vsiRootOf(name) {
  return isUrl(name) ? `/vsicurl/${name}` : name;
}
function parentOf(p) {
  const i = p.replace(/\/$/, '').lastIndexOf('/');
  return i < 0 ? '.' : p.slice(0, i);
}

// ---- trees: FOLDER, .tacocat/ ----------------------------------------------------------------

// COLLECTION.json and METADATA/levelN.parquet (FOLDER) or levelN.parquet (.tacocat/) of `tree`.
async function readLevelFiles(tree, layout) {
  const collectionBytes = await tree.source('COLLECTION.json').readAll();
  const collection = parseJson(collectionBytes, `${tree.name}: COLLECTION.json`);
  const depth = maxDepth(collection, `${tree.name}: COLLECTION.json`);
  const files = [];
  for (let i = 0; i <= depth; i += 1) files.push(layout === 'folder' ? `METADATA/level${i}.parquet` : `level${i}.parquet`);
  const bytes = await Promise.all(
    files.map((f) =>
      tree
        .source(f)
        .readAll()
        .catch((e) => {
          throw new Error(`${e.message} (taco:pit_schema in ${tree.name}COLLECTION.json names levels 0..${depth})`);
        }),
    ),
  );
  return { collection, files, bytes };
}

async function openTree(tree, format, options, partsTree) {
  const { collection, files, bytes } = await readLevelFiles(tree, format);
  const { conn, schema } = await newSchema();
  const root = format === 'folder' ? tree.vsiRoot : partsTree.vsiRoot;
  const levelColumns = await buildViews(conn, schema, format, bytes, root, tree.name, filterOf(options));
  return new Dataset({
    name: tree.name,
    format,
    header: null,
    collection,
    levels: levelInfo(null, levelColumns, files),
    collectionRange: null,
    conn,
    schema,
    source: null,
    tree,
    partsTree: partsTree ?? null,
    requestCounter: tree.counter,
    orderBy: 'rowid',
    vsiRoot: root,
  });
}

// ---- TACOLLECTION ----------------------------------------------------------------------------

// The parts a TACOLLECTION routes to (tacollection_route.cc RouteTacollection): every
// taco:sources.files entry whose extent meets the box and the time range.
function routeParts(collection, what, bbox, range) {
  const sources = collection?.['taco:sources'];
  if (!sources || typeof sources !== 'object' || !Array.isArray(sources.files)) {
    throw new Error(`${what}: no taco:sources.files (a .json is read as a TACOLLECTION; open a FOLDER dataset by its directory)`);
  }
  if (sources.files.length === 0) throw new Error(`${what}: taco:sources.files is empty`);
  const extents = Array.isArray(sources.extents) ? sources.extents : null;
  const kept = [];
  let skipped = 0;
  sources.files.forEach((file, i) => {
    if (typeof file !== 'string') throw new Error(`${what}: taco:sources.files[${i}] is not a string`);
    if (/\.json$/i.test(file)) throw new Error(`${what}: refused: part '${file}' is another .json (parts are containers)`);
    let extent = null;
    if (extents) {
      for (const e of extents) if (e && typeof e === 'object' && e.file === file) extent = e;
      if (!extent && extents[i] && typeof extents[i] === 'object' && !('file' in extents[i])) extent = extents[i];
    }
    const where = `${what}: taco:sources.extents of '${file}'`;
    let keep = true;
    void where;
    void bbox;
    void range;
    if (keep) kept.push(file);
    else skipped += 1;
  });
  return { kept, skipped, total: sources.files.length };
}

async function openCollection(tree, jsonName, options) {
  const collection = parseJson(await tree.source(jsonName).readAll(), `${tree.name}${jsonName}`);
  const what = `${tree.name}${tree.name.endsWith('/') ? '' : '/'}${jsonName}: TACOLLECTION`;
  const filter = filterOf(options);
  const routing = routeParts(collection, what, filter?.bbox, filter?.datetime);
  // Every part skipped: the first one gives the (empty) selection its columns (OpenRouted).
  const opened = routing.kept.length ? routing.kept : [collection['taco:sources'].files[0]];
  const parts = await Promise.all(
    opened.map((file) => {
      const source = tree.source(file);
      return source.open().then((s) => openSingleFile(s, { vsiRoot: vsiRootOf(s.name) }, null));
    }),
  );
  for (const p of parts) {
    if (p.format !== 'zip') throw new Error(`${what}: part '${p.name}' is not a TACO ZIP`);
  }
  const { conn, schema } = await newSchema();
  const numLevels = Math.min(...parts.map((p) => p.levels.length));
  // Per part: level 0 (its data_raw without internal:gdal_vsi), levels below restricted to the
  // children of the rows above (concat.cc).
  for (let i = 0; i < parts.length; i += 1) {
    const p = parts[i];
    await conn.query(`CREATE VIEW ${schema}.ds${i}_level0 AS SELECT * EXCLUDE ("internal:gdal_vsi") FROM ${p.schema}.data_raw`);
    for (let l = 1; l < numLevels; l += 1) {
      await conn.query(
        `CREATE VIEW ${schema}.ds${i}_level${l} AS SELECT * FROM ${p.schema}.level${l}_table WHERE "internal:parent_id" IN (SELECT "internal:current_id" FROM ${schema}.ds${i}_level${l - 1})`,
      );
    }
  }
  for (let l = 0; l < numLevels; l += 1) {
    const names = [];
    for (let i = 0; i < parts.length; i += 1) names.push((await describeColumns(conn, `${schema}.ds${i}_level${l}`)).map((c) => c.name));
    // The columns every part has, in byte order (std::set in concat.cc).
    const common = names[0].filter((n) => names.every((list) => list.includes(n))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const select = common.map(quoteIdentifier).join(', ');
    const union = parts
      .map(
        (p, i) =>
          `SELECT ${select}, ${quoteLiteral(p.vsiRoot)} AS "internal:source_path", ${i}::BIGINT AS "internal:source_part" FROM ${schema}.ds${i}_level${l}`,
      )
      .join(' UNION ALL ');
    await conn.query(`CREATE VIEW ${schema}.level${l}_table AS ${union}`);
    await conn.query(
      `CREATE VIEW ${schema}.level${l} AS SELECT *, ${gdalVsiExpression('zip', l, '"internal:source_path"')} AS "internal:gdal_vsi" FROM ${schema}.level${l}_table WHERE ${notPadding}`,
    );
  }
  const levelColumns = await finishViews(conn, schema, numLevels, what, routing.kept.length ? filter : filter && { ...filter });
  const counter = tree.counter;
  return new Dataset({
    name: `${tree.name}${jsonName}`,
    format: 'tacollection',
    header: null,
    collection,
    levels: levelInfo(null, levelColumns),
    collectionRange: null,
    conn,
    schema,
    source: null,
    tree,
    parts,
    routing: { opened, skipped: routing.skipped, total: routing.total },
    requestCounter: counter,
    orderBy: '"internal:source_part", "internal:current_id"',
    vsiRoot: null,
  });
}

// ---- the entry point -------------------------------------------------------------------------

function isBlob(x) {
  return x && typeof x.slice === 'function' && typeof x.size === 'number' && typeof x.arrayBuffer === 'function';
}

async function openUrl(url, options) {
  const text = String(url);
  const u = new URL(text);
  const pathName = u.pathname.replace(/\/+$/, '');
  const last = decodeURIComponent(pathName.slice(pathName.lastIndexOf('/') + 1));
  const counter = new RequestCounter();
  const treeAt = (dirUrl) => new HttpTree(dirUrl, { fetchImpl: options.fetch, counter });
  if (/\.json$/i.test(last)) {
    const base = new URL('.', text).href;
    return openCollection(treeAt(base), text.slice(base.length), options);
  }
  if (last === '.tacocat') {
    const dir = `${u.origin}${pathName}/`;
    return openTree(treeAt(dir), 'tacocat', options, treeAt(new URL('..', dir).href));
  }
  if (text.endsWith('/') || options.format === 'folder') {
    const dir = text.endsWith('/') ? text : `${text}/`;
    const tree = treeAt(dir);
    try {
      return await openTree(tree, 'folder', options);
    } catch (e) {
      // No COLLECTION.json: a directory holding .tacocat/ (the native reader's detection).
      if (!/HTTP 404/.test(e.message) || options.format === 'folder') throw e;
      return openTree(tree.sub('.tacocat'), 'tacocat', options, tree);
    }
  }
  const source = await openSource(text, { fetchImpl: options.fetch, name: options.name, counter });
  return openSingleFile(source, options, treeAt(new URL('.', text).href));
}

async function openFiles(input, options) {
  const { files, name } = fileMap(input, options.name);
  const counter = new RequestCounter();
  const tree = new BlobTree(files, name, counter);
  if (files.has('COLLECTION.json')) return openTree(tree, 'folder', options);
  if (files.has('.tacocat/COLLECTION.json')) return openTree(tree.sub('.tacocat'), 'tacocat', options, tree);
  if (files.has('__TACOCAT__')) return openSingleFile(tree.source('__TACOCAT__'), options, tree);
  const jsons = [...files.keys()].filter((k) => /\.json$/i.test(k) && !k.includes('/'));
  if (jsons.length === 1) return openCollection(tree, jsons[0], options);
  throw new Error(`${name}: not a TACO dataset: no COLLECTION.json, .tacocat/, __TACOCAT__ or TACOLLECTION .json among the files`);
}

/**
 * Opens a dataset (see the table at the top): a URL string/URL, a File/Blob (ZIP or
 * __TACOCAT__), or the files of a tree (FileList / File[] of a picked directory, a Map or an
 * object of relative path → Blob).
 * options: {fetch, name, parts (the files beside a __TACOCAT__ Blob), bbox, datetime, level,
 * format ('folder' for a directory URL without the trailing '/')}.
 */
export async function openDataset(input, options = {}) {
  if (typeof input === 'string' || input instanceof URL) return openUrl(input, options);
  if (isBlob(input)) {
    const source = await openSource(input, { name: options.name });
    let partsTree = null;
    if (options.parts) {
      const { files, name } = fileMap(options.parts, options.partsName || parentOf(source.name));
      partsTree = new BlobTree(files, name, source.counter);
    }
    return openSingleFile(source, options, partsTree);
  }
  if (input && typeof input === 'object') return openFiles(input, options);
  throw new TypeError('openDataset: expected a URL, a File/Blob, or a map of relative path → Blob');
}
