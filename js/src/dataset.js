// openDataset(): a TACO dataset in any of its stored forms (FORMAT §1-§5):
//
//   form            input                                         levels / samples from
//   ZIP             URL or File/Blob of the .tacozip              TACO_HEADER ranges / its members
//   FOLDER          URL ending in '/', or a map path → Blob       METADATA/levelN.parquet / DATA/...
//   TACOCAT         URL of .../.tacocat or .../__TACOCAT__, a     .tacocat/ files or the __TACOCAT__
//                   Blob of __TACOCAT__ (+ options.parts), or a   header ranges / (offset, size) in
//                   map holding .tacocat/ or __TACOCAT__           the ZIP named by internal:source_file
//   TACOLLECTION    URL of a .json, or a map holding one          its parts (taco:sources.files,
//                   (taco:sources)                                ZIPs), unioned as Dataset::Concat
//
// Request budget (remote): ZIP open = 2 requests (the first 64 KiB holding TACO_HEADER, then
// one ranged GET spanning every level Parquet and COLLECTION.json); a sample = 1 request. FOLDER
// and `.tacocat/` open = COLLECTION.json + one request per level (in parallel); `__TACOCAT__`
// open = 2; a sample = 1 (a FOLDER file's first 64 KiB, a TACOCAT part's range). Every ZIP
// member read is checked (name, CRC-32) by the wasm build of zip::ReadVerifiedMember.
import { describeContainer, readMember, zipMembers } from './container.js';
import { engine, tableRows } from './engine.js';
import { formatUtcInstant, parseDateRange, wkbIntersectsBox } from './filters.js';
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

// `dir` + '/' + `name` (one '/').
function joinPath(dir, name) {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
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
    if (this.root) {
      const rows = await this.root.levelRows(level, parent);
      if (level > 0) return rows;
      const keys = this.keyColumns();
      const keyOf = (r) => keys.map((k) => r[k]).join('\u0000');
      const kept = new Set((await this.sql(`SELECT ${keys.map(quoteIdentifier).join(', ')} FROM data_raw`)).map(keyOf));
      return rows.filter((r) => kept.has(keyOf(r)));
    }
    let where = notPadding;
    if (parent) {
      where += ` AND "internal:parent_id" = ${parent.currentId}`;
      if (this.format === 'tacocat') where += ` AND "internal:source_file" = ${quoteLiteral(parent.sourceFile)}`;
      if (this.format === 'tacollection') where += ` AND "internal:source_part" = ${parent.sourcePart}`;
    }
    const key = `${level}:${parent ? `${parent.sourcePart ?? ''}|${parent.sourceFile ?? ''}|${parent.currentId}` : ''}`;
    if (!this.rowCache.has(key)) {
      // A ZIP's rows come from its level views (ranges looked up by archive path); a
      // TACOCAT's from the stored tables in stored order (ids restart in every part).
      const from = this.format === 'tacocat' ? `level${level}_table` : `(SELECT * EXCLUDE ("internal:gdal_vsi") FROM level${level})`;
      const rows = await this.sql(`SELECT * FROM ${from} WHERE ${where} ORDER BY ${this.orderBy}`);
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

  // The archive path a sample's member must have (stored_member.h MemberName): the exact path
  // when the row gives it (level 0, or internal:relative_path), else its last part, the id.
  static memberName(s) {
    const meta = s.type === 'FOLDER' ? '__meta__' : '';
    if (s.level === 0) return { exact: `DATA/${s.id}${s.type === 'FOLDER' ? '/__meta__' : ''}` };
    const rel = s.row?.['internal:relative_path'];
    if (typeof rel === 'string') return { exact: `DATA/${rel}${meta}` };
    return { lastPart: s.type === 'FOLDER' ? '__meta__' : s.id };
  }

  // The bytes of a sample's ZIP member at (offset, size) of `source`: one read, the member's
  // name and CRC-32 checked (readMember). When the stored range is another member's (metadata
  // written by tacotoolbox with shifted offsets), the member is looked up by its archive path
  // in the central directory, as the native reader does, and read from there.
  async readMember(source, s) {
    const expected = Dataset.memberName(s);
    const what = `sample '${s.path}' in ${source.name}`;
    const checkCrc = this.verifyCrc !== false;
    // A part not read yet (TACOCAT, TACOLLECTION): its first read, header window + data +
    // trailer, also gives its size.
    if (source.size == null && source.learnSize) {
      const from = Math.max(0, s.offset - kLocalHeaderWindow);
      await source.learnSize(from, s.offset + s.size + kDataDescriptorMax - from);
    }
    try {
      return await readMember(source, s.offset, s.size, { expected, what, checkCrc });
    } catch (e) {
      if (!expected.exact || !/not the sample's/.test(e.message)) throw e;
      if (!this.directories) this.directories = new Map();
      if (!this.directories.has(source)) this.directories.set(source, zipMembers(source, { resolve: false }));
      const member = (await this.directories.get(source)).find((m) => m.name === expected.exact);
      if (!member) throw e;
      const header = await source.read(member.header, 30);
      const view = new DataView(header.buffer, header.byteOffset, 30);
      const data = member.header + 30 + view.getUint16(26, true) + view.getUint16(28, true);
      return readMember(source, data, member.size, { expected, what, checkCrc });
    }
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
    if (this.root) {
      // A filtered view: its own connection (and the dataset openDataset opened for it).
      await this.conn.close();
      if (this.closesRoot) await this.root.close();
      return;
    }
    for (const p of this.parts || []) await p.close();
    await this.conn.close();
  }

  /**
   * A new Dataset whose `data`/`data_raw` hold the level-0 samples whose geometry meets the
   * closed box [minx, maxx] x [miny, maxy] at `level` (cascading to level 0; see filters.js).
   * options: {level = 0, column = the first of istac:geometry, stac:centroid, istac:centroid}.
   */
  async filterBbox(minx, miny, maxx, maxy, options = {}) {
    const what = 'filterBbox';
    const box = { minx, miny, maxx, maxy };
    for (const v of Object.values(box)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${this.name}: ${what}: bbox coordinates must be finite numbers`);
    }
    if (minx > maxx || miny > maxy) {
      throw new Error(`${this.name}: ${what}: bbox must be minx,miny,maxx,maxy with minx <= maxx and miny <= maxy`);
    }
    const level = this.checkLevel(options.level);
    const base = this.baseRelation(level);
    const column = await this.pickColumn(base, level, options.column, ['istac:geometry', 'stac:centroid', 'istac:centroid'], 'geometry');
    if (column.type !== 'BLOB') throw new Error(`${this.name}: ${what}: column '${column.name}' is ${column.type}, not a WKB binary geometry`);
    const keys = this.keyColumns();
    const rows = await this.sql(`SELECT ${keys.map(quoteIdentifier).join(', ')}, ${quoteIdentifier(column.name)} AS g FROM ${base}`);
    const matching = rows.filter((r) => {
      if (r.g == null) return false;
      try {
        return wkbIntersectsBox(r.g, box);
      } catch (e) {
        throw new Error(`${this.name}: ${what}: column '${column.name}' at level ${level}: ${e.message}`);
      }
    });
    const table = `${this.schema}.match_${(matchCount += 1)}`;
    await this.conn.query(`CREATE TABLE ${table} (${keys.map((k, i) => `k${i} ${i === 1 && this.format === 'tacocat' ? 'VARCHAR' : 'BIGINT'}`).join(', ')})`);
    for (let i = 0; i < matching.length; i += 1000) {
      const values = matching
        .slice(i, i + 1000)
        .map((r) => `(${keys.map((k) => (typeof r[k] === 'string' ? quoteLiteral(r[k]) : r[k] == null ? 'NULL' : String(r[k]))).join(', ')})`)
        .join(', ');
      await this.conn.query(`INSERT INTO ${table} VALUES ${values}`);
    }
    const predicate = `EXISTS (SELECT 1 FROM ${table} m WHERE ${keys.map((k, i) => `m.k${i} = ${quoteIdentifier(k)}`).join(' AND ')})`;
    return this.cascade(predicate, level);
  }

  /**
   * A new Dataset whose `data`/`data_raw` hold the level-0 samples in the STAC range `range`
   * ('A/B', 'A', '../B', 'A/..'; inclusive, UTC) at `level` (cascading to level 0).
   * options: {level = 0, column = istac:time_start, else stac:time_start}.
   */
  async filterDatetime(range, options = {}) {
    const what = 'filterDatetime';
    if (typeof range !== 'string') throw new TypeError(`${this.name}: ${what}: the range is a string such as '2021-01-01/2021-06-30'`);
    let parsed;
    try {
      parsed = parseDateRange(range);
    } catch (e) {
      throw new Error(`${this.name}: ${e.message}`);
    }
    const level = this.checkLevel(options.level);
    const base = this.baseRelation(level);
    const column = await this.pickColumn(base, level, options.column, ['istac:time_start', 'stac:time_start'], 'time');
    if (!/^(TIMESTAMP|DATE|VARCHAR)/.test(column.type)) {
      throw new Error(`${this.name}: ${what}: column '${column.name}' is ${column.type}, not a timestamp, date or ISO-8601 string`);
    }
    const value = `TRY_CAST(${quoteIdentifier(column.name)} AS TIMESTAMPTZ)`;
    const terms = [];
    if (parsed.start !== null) terms.push(`${value} >= TIMESTAMPTZ ${quoteLiteral(formatUtcInstant(parsed.start))}`);
    if (parsed.end !== null) terms.push(`${value} <= TIMESTAMPTZ ${quoteLiteral(formatUtcInstant(parsed.end))}`);
    return this.cascade(terms.join(' AND '), level);
  }

  checkLevel(level = 0) {
    if (!Number.isInteger(level) || level < 0 || level >= this.levels.length) {
      throw new Error(`${this.name}: Level ${level} does not exist (levels 0..${this.levels.length - 1})`);
    }
    return level;
  }

  // The relation a filter at `level` starts from: data_raw at 0, else the rows earlier
  // filters kept at that level, else the level view.
  baseRelation(level) {
    if (level === 0) return `${this.schema}.data_raw`;
    return this.filtered?.[level] ?? `${this.schema}.level${level}`;
  }

  // The columns identifying a row of a level (filters.cc JoinOn).
  keyColumns() {
    const keys = ['internal:current_id'];
    if (this.format === 'tacocat') keys.push('internal:source_file');
    if (this.format === 'tacollection') keys.push('internal:source_part');
    return keys;
  }

  async pickColumn(relation, level, requested, candidates, kind) {
    const columns = await describeColumns(this.conn, relation);
    const names = columns.map((c) => c.name).join(', ');
    if (requested == null || requested === 'auto') {
      for (const name of candidates) {
        const c = columns.find((x) => x.name === name);
        if (c) return c;
      }
      throw new Error(`${this.name}: No ${kind} column found in level ${level} (looked for ${candidates.join(', ')}; columns: ${names})`);
    }
    const c = columns.find((x) => x.name === requested);
    if (!c) throw new Error(`${this.name}: Column '${requested}' not found in level ${level} (columns: ${names})`);
    return c;
  }

  // Dataset::CascadeFilter: a new schema and connection whose data_raw/data keep the level-0
  // rows matching `predicate` (level 0) or having a descendant matching it at `level`; levelN
  // stay the stored levels, as in the native views; the filtered levels are kept for the
  // next filter.
  async cascade(predicate, level) {
    const { conn, schema } = await newSchema();
    const on = (c, p) => this.keyColumns().map((k) => (k === 'internal:current_id' ? `${c}."internal:parent_id" = ${p}."internal:current_id"` : `${c}.${quoteIdentifier(k)} = ${p}.${quoteIdentifier(k)}`)).join(' AND ');
    const filtered = { ...(this.filtered ?? {}) };
    let dataRaw;
    if (level === 0) {
      dataRaw = `SELECT * FROM ${this.schema}.data_raw WHERE ${predicate}`;
    } else {
      let child = `${schema}.filtered_${level}`;
      await conn.query(`CREATE VIEW ${child} AS SELECT * FROM ${this.baseRelation(level)} WHERE ${predicate}`);
      filtered[level] = child;
      for (let l = level - 1; l >= 1; l -= 1) {
        const name = `${schema}.filtered_${l}`;
        await conn.query(`CREATE VIEW ${name} AS SELECT * FROM ${this.baseRelation(l)} p WHERE EXISTS (SELECT 1 FROM ${child} c WHERE ${on('c', 'p')})`);
        filtered[l] = name;
        child = name;
      }
      dataRaw = `SELECT * FROM ${this.schema}.data_raw p WHERE EXISTS (SELECT 1 FROM ${child} c WHERE ${on('c', 'p')})`;
    }
    for (let l = 0; l < this.levels.length; l += 1) {
      await conn.query(`CREATE VIEW ${schema}.level${l} AS SELECT * FROM ${this.schema}.level${l}`);
      await conn.query(`CREATE VIEW ${schema}.level${l}_table AS SELECT * FROM ${this.schema}.level${l}_table`);
    }
    await conn.query(`CREATE VIEW ${schema}.data_raw AS ${dataRaw}`);
    const visible = (await describeColumns(conn, `${this.schema}.data`)).map((c) => quoteIdentifier(c.name));
    await conn.query(`CREATE VIEW ${schema}.data AS SELECT ${visible.join(', ')} FROM ${schema}.data_raw`);
    const init = { ...this };
    delete init.rowCache;
    delete init.closesRoot;
    return new Dataset({ ...init, conn, schema, filtered, root: this.root ?? this });
  }
}

let matchCount = 0;

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
// hidden; data_raw and data (views.cc CreateLevelViews). Filters make views on top (cascade()).
// `members`: null, {list, source, levels} (levels: the levels to resolve, null = all), or a
// function of (conn, schema, numLevels) giving one once the level tables exist.
async function buildViews(conn, schema, format, levelBytes, root, name, members) {
  for (let i = 0; i < levelBytes.length; i += 1) {
    const ipc = await parquetToIpc(levelBytes[i], `${name}: METADATA/level${i}.parquet`);
    await conn.insertIPC(ipc, schema, `level${i}_table`);
  }
  if (typeof members === 'function') members = await members(conn, schema, levelBytes.length);
  if (members) await insertMembers(conn, schema, members, levelBytes.length);
  const rootSql = quoteLiteral(root);
  for (let i = 0; i < levelBytes.length; i += 1) {
    let rows = `${schema}.level${i}_table`;
    if (members && (!members.levels || members.levels.includes(i))) rows = await resolvedRows(conn, schema, i);
    await conn.query(
      `CREATE VIEW ${schema}.level${i} AS SELECT *, ${gdalVsiExpression(format, i, rootSql)} AS "internal:gdal_vsi" FROM ${rows} WHERE ${notPadding}`,
    );
  }
  return finishViews(conn, schema, levelBytes.length);
}

async function finishViews(conn, schema, numLevels) {
  const levelColumns = [];
  for (let i = 0; i < numLevels; i += 1) levelColumns.push(await describeColumns(conn, `${schema}.level${i}`));
  await conn.query(`CREATE VIEW ${schema}.data_raw AS SELECT * FROM ${schema}.level0`);
  const hidden = (c) => c.name.startsWith('internal:') && c.name !== 'internal:gdal_vsi';
  const visible = levelColumns[0].filter((c) => !hidden(c)).map((c) => quoteIdentifier(c.name));
  await conn.query(`CREATE VIEW ${schema}.data AS SELECT ${visible.join(', ')} FROM ${schema}.data_raw`);
  return levelColumns;
}

// The archive path of a row of level `level` (SQL over t), or null when it cannot be known
// (a level below 0 without internal:relative_path).
function archivePathSql(level, cols) {
  if (level === 0) return `'DATA/' || t.id || CASE t.type WHEN 'FOLDER' THEN '/__meta__' ELSE '' END`;
  if (cols.includes('internal:relative_path')) return `'DATA/' || t."internal:relative_path" || CASE t.type WHEN 'FOLDER' THEN '__meta__' ELSE '' END`;
  return null;
}

// A stored range is its member's when it starts right after that member's local header
// (30 bytes, the name, at most 64 KiB of extra field) and has the member's size.
const fitsMember = `(t."internal:offset" >= m.header + 30 + octet_length(encode(m.name)) AND t."internal:offset" <= m.header + 30 + octet_length(encode(m.name)) + 65535 AND t."internal:size" = m.size)`;

// The ZIP's members as a table (name, local header offset, size, data offset), from its
// central directory only; the data offset is filled, from the member's local header (one
// 30-byte read each), only for the members some row names with a range that is not theirs.
async function insertMembers(conn, schema, { list: members, source, levels, stored }, numLevels) {
  await conn.query(`CREATE TABLE ${schema}.zip_members (name VARCHAR, header BIGINT, size BIGINT, data BIGINT)`);
  for (let i = 0; i < members.length; i += 1000) {
    const values = members
      .slice(i, i + 1000)
      .map((m) => `(${quoteLiteral(m.name)}, ${m.header}, ${m.size}, NULL)`)
      .join(', ');
    await conn.query(`INSERT INTO ${schema}.zip_members VALUES ${values}`);
  }
  const wrong = new Set();
  for (let level = 0; level < numLevels; level += 1) {
    if (levels && !levels.includes(level)) continue;
    const cols = (await describeColumns(conn, `${schema}.level${level}_table`)).map((c) => c.name);
    if (!['id', 'type', 'internal:offset', 'internal:size'].every((c) => cols.includes(c))) continue;
    const archive = archivePathSql(level, cols);
    if (!archive) continue;
    const rows = tableRows(
      await conn.query(`SELECT m.name FROM ${schema}.level${level}_table t JOIN ${schema}.zip_members m ON m.name = ${archive} WHERE NOT ${fitsMember}`),
    );
    for (const r of rows) wrong.add(r.name);
  }
  const next = new Map();
  if (stored) {
    const byHeader = [...members].sort((a, b) => a.header - b.header);
    byHeader.forEach((m, i) => next.set(m.name, i + 1 < byHeader.length ? byHeader[i + 1].header : source.size));
  }
  for (const name of wrong) {
    const m = members.find((x) => x.name === name);
    if (stored) {
      // The one stored range inside the member's span with its size (no read).
      const from = m.header + 30 + new TextEncoder().encode(name).length;
      const fits = new Set(stored.filter((r) => r.size === m.size && r.offset >= from && r.offset + r.size <= next.get(name)).map((r) => r.offset));
      if (fits.size === 1) {
        await conn.query(`UPDATE ${schema}.zip_members SET data = ${[...fits][0]} WHERE name = ${quoteLiteral(name)}`);
        continue;
      }
    }
    const header = await source.read(m.header, 30);
    const view = new DataView(header.buffer, header.byteOffset, 30);
    if (view.getUint32(0, true) !== 0x04034b50) throw new Error(`${source.name}: no local header at ${m.header} for member '${name}' (a damaged ZIP)`);
    const data = m.header + 30 + view.getUint16(26, true) + view.getUint16(28, true);
    await conn.query(`UPDATE ${schema}.zip_members SET data = ${data} WHERE name = ${quoteLiteral(name)}`);
  }
}

// The levels >= 1 of a remote ZIP whose stored ranges break tacotoolbox's rule (the native
// read/shifted_ranges.h: in internal:current_id order, the parent path of the rows is the same
// within one internal:parent_id and increases, in byte order, from one parent to the next),
// as insertMembers' argument with the ZIP's members and the stored ranges of those levels;
// null when none does (no request). `ranges`: the header's pairs (the central directory is
// read in one request from the end of the last one).
async function shiftedMembers(conn, schema, numLevels, source, ranges) {
  const levels = [];
  for (let level = 1; level < numLevels; level += 1) {
    const table = `${schema}.level${level}_table`;
    const cols = (await describeColumns(conn, table)).map((c) => c.name);
    if (!['internal:offset', 'internal:size', 'internal:relative_path'].every((c) => cols.includes(c))) continue;
    if (!['internal:current_id', 'internal:parent_id'].every((c) => cols.includes(c))) {
      levels.push(level);
      continue;
    }
    const rows = `SELECT "internal:parent_id" AS pid, "internal:current_id" AS cid, regexp_extract(rtrim("internal:relative_path", '/'), '^(.*/)', 1) AS ppath FROM ${table}`;
    const w = 'OVER (ORDER BY cid)';
    const steps = `SELECT pid, cid, ppath, lag(pid) ${w} AS prev_pid, lag(ppath) ${w} AS prev_ppath, row_number() ${w} AS n FROM (${rows})`;
    const broken = tableRows(
      await conn.query(
        `SELECT count(*) AS n FROM (${steps}) WHERE pid IS NULL OR cid IS NULL OR ppath IS NULL OR ppath = '' OR (n > 1 AND (prev_pid IS NULL OR prev_ppath IS NULL OR CASE WHEN pid = prev_pid THEN ppath <> prev_ppath ELSE NOT (prev_ppath < ppath) END))`,
      ),
    );
    if (Number(broken[0].n) > 0) levels.push(level);
  }
  if (levels.length === 0) return null;
  const stored = [];
  for (const level of levels) {
    const rows = tableRows(await conn.query(`SELECT "internal:offset" AS o, "internal:size" AS s FROM ${schema}.level${level}_table WHERE "internal:offset" IS NOT NULL AND "internal:size" IS NOT NULL`));
    for (const r of rows) stored.push({ offset: Number(r.o), size: Number(r.s) });
  }
  const end = Math.max(...ranges.map((r) => r.offset + r.size));
  let directory = source;
  if (end < source.size && source.size - end <= 16 * 1024 * 1024) directory = spanSource(source, end, await source.read(end, source.size - end));
  return { list: await zipMembers(directory, { resolve: false }), source, levels, stored };
}

// Level `level` of a local ZIP with internal:offset/size of the member its archive path names
// (views.cc ResolvedLevelSelect, FORMAT §1.5: tacotoolbox writes shifted level-1 offsets
// when sibling ids are unsorted): DATA/<id> at level 0, DATA/<internal:relative_path> below,
// '__meta__' appended for a FOLDER. Levels below 0 without internal:relative_path, and rows
// whose path names no member, keep the stored range.
async function resolvedRows(conn, schema, level) {
  const cols = (await describeColumns(conn, `${schema}.level${level}_table`)).map((c) => c.name);
  const stored = `${schema}.level${level}_table`;
  if (!['id', 'type', 'internal:offset', 'internal:size'].every((c) => cols.includes(c))) return stored;
  const archive = archivePathSql(level, cols);
  if (!archive) return stored;
  const pick = (column, value) => `CASE WHEN m.name IS NULL OR ${fitsMember} THEN t.${column} ELSE ${value} END AS ${column}`;
  return `(SELECT t.* REPLACE (${pick('"internal:offset"', 'm.data')}, ${pick('"internal:size"', 'm.size')}) FROM ${stored} t LEFT JOIN ${schema}.zip_members m ON m.name = ${archive})`;
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

// openDataset's bbox/datetime options: the filters applied to the opened dataset (bbox first,
// then datetime, at options.level). A TACOLLECTION opens every part (no routing by extent yet).
async function applyFilters(opened, options) {
  let ds = opened;
  const filtered = async (next) => {
    try {
      return await next();
    } catch (e) {
      await opened.close();
      throw e;
    }
  };
  if (options.bbox != null) {
    const b = options.bbox;
    if (!Array.isArray(b) || b.length !== 4) {
      await opened.close();
      throw new Error(`${opened.name}: openDataset: bbox is [minx, miny, maxx, maxy]`);
    }
    ds = await filtered(() => ds.filterBbox(b[0], b[1], b[2], b[3], { level: options.level ?? 0, column: options.geometryColumn }));
  }
  if (options.datetime != null && options.datetime !== '') {
    ds = await filtered(() => ds.filterDatetime(options.datetime, { level: options.level ?? 0, column: options.timeColumn }));
  }
  if (ds !== opened) ds.closesRoot = true;
  return ds;
}

// ---- single files: a TACO ZIP or a __TACOCAT__ ---------------------------------------------

async function openSingleFile(source, options, partsTree) {
  const container = await describeContainer(source);
  const ranges = [...container.levels, container.collection];
  // A ZIP's metadata members are read with the local header before the first one, so that
  // each is checked (name, CRC-32) from the same bytes: still one request.
  const window = container.format === 'zip' ? kLocalHeaderWindow : 0;
  const first = Math.min(...ranges.map((r) => r.offset));
  const start = Math.max(0, first - window);
  const end = Math.min(source.size, Math.max(...ranges.map((r) => r.offset + r.size)) + (window ? kDataDescriptorMax : 0));
  const span = await source.read(start, end - start);
  let slice = (r) => span.slice(r.offset - start, r.offset - start + r.size);
  if (container.format === 'zip') {
    const inSpan = spanSource(source, start, span);
    const checked = new Map();
    const names = [...container.levels.map((_, i) => `METADATA/level${i}.parquet`), 'COLLECTION.json'];
    for (let i = 0; i < ranges.length; i += 1) {
      const r = ranges[i];
      const bytes = await readMember(inSpan, r.offset, r.size, {
        expected: { exact: names[i] },
        what: `${source.name}: ${names[i]}`,
        checkCrc: options.verifyCrc !== false,
      });
      checked.set(r, bytes);
    }
    slice = (r) => checked.get(r);
  }
  const collection = parseJson(slice(container.collection), `${source.name}: COLLECTION.json`);
  const { conn, schema } = await newSchema();
  const format = container.format;
  const root = format === 'zip' ? options.vsiRoot ?? vsiRootOf(source.name) : partsTree?.vsiRoot ?? parentOf(vsiRootOf(source.name));
  // A local ZIP's ranges are looked up by archive path, as the native views do for local
  // datasets (its central directory: 2 Blob reads, plus one per member whose stored range
  // is not its own). By URL, as natively (src/read/shifted_ranges.h), only the levels >= 1
  // whose stored ranges tacotoolbox may have shifted are looked up: the central directory in
  // one request from the end of the last metadata member, a member's data offset from the
  // stored ranges (a permutation of the members' own); each read checks the member's name
  // (readMember).
  let members = null;
  if (format === 'zip' && options.resolveMembers !== false) {
    members = isUrl(source.name)
      ? (c, s, n) => shiftedMembers(c, s, n, source, ranges)
      : { list: await zipMembers(source, { resolve: false }), source, levels: null };
  }
  const levelColumns = await buildViews(conn, schema, format, container.levels.map(slice), root, source.name, members);
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
    orderBy: format === 'tacocat' ? 'rowid' : '"internal:current_id"',
    vsiRoot: root,
    verifyCrc: options.verifyCrc !== false,
  });
}

// zip::kLocalHeaderWindow and kDataDescriptorMax (stored_member.h).
const kLocalHeaderWindow = 30 + 1024 + 20;
const kDataDescriptorMax = 24;

// `source` with the bytes [start, start + span.length) already in memory: reads inside them
// cost nothing, others go to `source`.
function spanSource(source, start, span) {
  return {
    name: source.name,
    size: source.size,
    read: async (offset, length) => {
      if (offset >= start && offset + length <= start + span.length) return span.slice(offset - start, offset - start + length);
      return source.read(offset, length);
    },
  };
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
  const collection = parseJson(collectionBytes, joinPath(tree.name, 'COLLECTION.json'));
  const depth = maxDepth(collection, joinPath(tree.name, 'COLLECTION.json'));
  const files = [];
  for (let i = 0; i <= depth; i += 1) files.push(layout === 'folder' ? `METADATA/level${i}.parquet` : `level${i}.parquet`);
  const bytes = await Promise.all(
    files.map((f) =>
      tree
        .source(f)
        .readAll()
        .catch((e) => {
          throw new Error(`${e.message} (taco:pit_schema in ${joinPath(tree.name, 'COLLECTION.json')} names levels 0..${depth})`);
        }),
    ),
  );
  return { collection, files, bytes };
}

async function openTree(tree, format, options, partsTree) {
  const { collection, files, bytes } = await readLevelFiles(tree, format);
  const { conn, schema } = await newSchema();
  const root = format === 'folder' ? tree.vsiRoot : partsTree.vsiRoot;
  const levelColumns = await buildViews(conn, schema, format, bytes, root, tree.name);
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
    orderBy: format === 'tacocat' ? 'rowid' : '"internal:current_id"',
    vsiRoot: root,
  });
}

// ---- TACOLLECTION ----------------------------------------------------------------------------

// The parts of a TACOLLECTION (tacollection_route.cc RouteTacollection without a box or a
// time range: every taco:sources.files entry), each checked as the native reader checks it.
function collectionParts(collection, what) {
  const sources = collection?.['taco:sources'];
  if (!sources || typeof sources !== 'object' || !Array.isArray(sources.files)) {
    throw new Error(`${what}: no taco:sources.files (a .json is read as a TACOLLECTION; open a FOLDER dataset by its directory)`);
  }
  if (sources.files.length === 0) throw new Error(`${what}: taco:sources.files is empty`);
  sources.files.forEach((file, i) => {
    if (typeof file !== 'string') throw new Error(`${what}: taco:sources.files[${i}] is not a string`);
    if (/\.json$/i.test(file)) throw new Error(`${what}: refused: part '${file}' is another .json (parts are containers)`);
  });
  return sources.files;
}

async function openCollection(tree, jsonName, options) {
  const collection = parseJson(await tree.source(jsonName).readAll(), joinPath(tree.name, jsonName));
  const what = `${joinPath(tree.name, jsonName)}: TACOLLECTION`;
  const opened = collectionParts(collection, what);
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
  const levelColumns = await finishViews(conn, schema, numLevels);
  const counter = tree.counter;
  return new Dataset({
    name: joinPath(tree.name, jsonName),
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
    routing: { opened, skipped: 0, total: opened.length },
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
  return applyFilters(await openUnfiltered(input, options), options);
}

async function openUnfiltered(input, options) {
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
