// Byte sources: where a dataset's bytes come from. Each source knows its size after open()
// and serves read(offset, length) -> Uint8Array of exactly `length` bytes, counting what
// reaches the network or the Blob.
//
//   HttpSource  an http(s) URL: open() is ONE ranged GET of the first 64 KiB (the size comes
//               from Content-Range); reads inside those bytes cost nothing, every other read
//               is one ranged GET checked for status 206, its start and its length.
//   BlobSource  a File or Blob (a file picked in a page, or a Node Blob): Blob.slice().
//
// A network error is retried once; HTTP errors are not. Errors are Error objects whose message
// starts with the URL or file name.

export const kOpenPrefetch = 64 * 1024;

/** Counts the requests (ranged GETs or Blob slices) and bytes of one source. */
export class RequestCounter {
  constructor() {
    this.requests = 0;
    this.bytes = 0;
    this.log = [];
  }
  add(offset, length) {
    this.requests += 1;
    this.bytes += length;
    this.log.push([offset, length]);
  }
  reset() {
    this.requests = 0;
    this.bytes = 0;
    this.log = [];
  }
}

function parseContentRange(value) {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value || '');
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

export class HttpSource {
  // options.counter: a RequestCounter shared with other sources (the files of one dataset).
  constructor(url, { fetchImpl = globalThis.fetch, counter } = {}) {
    this.name = String(url);
    this.url = url;
    // Called unbound: a browser's fetch refuses `this` = another object (Illegal invocation).
    this.fetch = (url, init) => fetchImpl(url, init);
    this.counter = counter || new RequestCounter();
    this.size = null;
    this.prefix = new Uint8Array(0);
  }

  async get(offset, length) {
    const end = offset + length - 1;
    this.counter.add(offset, length);
    let response;
    // One retry on a network error (e.g. a kept-alive connection the server closed meanwhile).
    for (let attempt = 0; ; attempt += 1) {
      try {
        response = await this.fetch(this.url, { headers: { Range: `bytes=${offset}-${end}` } });
        break;
      } catch (e) {
        if (attempt === 0) continue;
        throw new Error(`${this.name}: request of bytes ${offset}-${end} failed: ${e.cause?.message || e.message}`);
      }
    }
    if (response.status === 404) throw new Error(`${this.name}: not found (HTTP 404)`);
    const body = new Uint8Array(await response.arrayBuffer());
    if (response.status === 200) {
      // A server without Range support: the whole object.
      return { body: body.subarray(offset, offset + length), total: body.length, whole: body };
    }
    if (response.status !== 206) throw new Error(`${this.name}: HTTP ${response.status} for bytes ${offset}-${end}`);
    const range = parseContentRange(response.headers.get('content-range'));
    if (!range || range.start !== offset) {
      throw new Error(`${this.name}: answer to bytes ${offset}-${end} has Content-Range '${response.headers.get('content-range')}'`);
    }
    return { body, total: range.total, range };
  }

  async open() {
    const got = await this.get(0, kOpenPrefetch);
    if (got.total == null) throw new Error(`${this.name}: the server did not say the object's size`);
    this.size = got.total;
    this.prefix = got.whole ? got.whole : got.body;
    if (!got.whole && this.prefix.length !== Math.min(kOpenPrefetch, this.size)) {
      throw new Error(`${this.name}: got ${this.prefix.length} bytes of the first ${Math.min(kOpenPrefetch, this.size)}`);
    }
    return this;
  }

  /** The whole object: open() (one request), then the rest past the first 64 KiB if any. */
  async readAll() {
    if (this.size == null) await this.open();
    return this.read(0, this.size);
  }

  /**
   * For a source not opened yet: ONE ranged GET of [offset, offset + length) (clamped at the
   * end of the object), which gives the size; the bytes are kept, so that reads inside them
   * cost nothing.
   */
  async learnSize(offset, length) {
    const got = await this.get(offset, length);
    if (got.total == null) throw new Error(`${this.name}: the server did not say the object's size`);
    this.size = got.total;
    this.kept = got.whole ? { start: 0, body: got.whole } : { start: offset, body: got.body };
    return this;
  }

  async read(offset, length) {
    const k = this.kept;
    if (k && offset >= k.start && offset + length <= k.start + k.body.length) return k.body.slice(offset - k.start, offset - k.start + length);
    if (this.size == null) {
      // Not opened (a part of a TACOCAT or TACOLLECTION read lazily): the first read gives
      // the size; it is checked against the answer's Content-Range.
      const got = await this.get(offset, length);
      if (got.total != null) this.size = got.total;
      checkRange(this, offset, length);
      if (got.body.length !== length) throw new Error(`${this.name}: got ${got.body.length} bytes for the ${length} bytes at ${offset}`);
      return got.body;
    }
    checkRange(this, offset, length);
    if (offset + length <= this.prefix.length) return this.prefix.slice(offset, offset + length);
    const got = await this.get(offset, length);
    if (got.body.length !== length) {
      throw new Error(`${this.name}: got ${got.body.length} bytes for the ${length} bytes at ${offset}`);
    }
    return got.body;
  }
}

export class BlobSource {
  constructor(blob, name, counter) {
    this.blob = blob;
    this.name = name || blob.name || '<blob>';
    this.size = blob.size;
    this.counter = counter || new RequestCounter();
  }
  async readAll() {
    return this.read(0, this.size);
  }
  async open() {
    return this;
  }
  async read(offset, length) {
    checkRange(this, offset, length);
    this.counter.add(offset, length);
    const buffer = await this.blob.slice(offset, offset + length).arrayBuffer();
    return new Uint8Array(buffer);
  }
}

function checkRange(source, offset, length) {
  if (!(offset >= 0 && length >= 0 && offset + length <= source.size)) {
    throw new Error(`${source.name}: range ${offset}+${length} is outside the ${source.size}-byte file`);
  }
}

/** A source for a URL string/URL object, or a Blob/File. */
export async function openSource(input, options = {}) {
  if (typeof input === 'string' || input instanceof URL) return new HttpSource(String(input), options).open();
  if (input && typeof input.slice === 'function' && typeof input.size === 'number') {
    return new BlobSource(input, options.name, options.counter).open();
  }
  throw new TypeError('openDataset: expected a URL or a File/Blob');
}

/**
 * The files of a dataset that is more than one file (a FOLDER, a TACOCAT and the ZIPs beside
 * it, a TACOLLECTION and its parts), by path relative to a root, every read counted on one
 * counter. source(path) is opened lazily (its first read is its first request).
 *   HttpTree  a base URL (ending in '/'): path → base + path, with each component
 *             percent-encoded; the paths come from metadata, so '..', '.', empty components,
 *             absolute paths and backslashes are refused.
 *   BlobTree  a map of relative path → Blob (a directory picked in a page, or files in Node).
 */
export class HttpTree {
  constructor(base, { fetchImpl, counter } = {}) {
    this.base = String(base).endsWith('/') ? String(base) : `${base}/`;
    this.name = this.base;
    this.fetchImpl = fetchImpl;
    this.counter = counter || new RequestCounter();
    this.sources = new Map();
  }
  has() {
    return null; // unknown without a request
  }
  source(relative) {
    const clean = checkRelative(relative, this.base);
    if (!this.sources.has(clean)) {
      const url = this.base + clean.split('/').map(encodeURIComponent).join('/');
      this.sources.set(clean, new HttpSource(url, { fetchImpl: this.fetchImpl, counter: this.counter }));
    }
    return this.sources.get(clean);
  }
  /** The tree of a sub-directory (its paths relative to it). */
  sub(relative) {
    const clean = checkRelative(relative, this.base);
    const t = new HttpTree(this.base + clean.split('/').map(encodeURIComponent).join('/'), { fetchImpl: this.fetchImpl, counter: this.counter });
    return t;
  }
  /** The root of GDAL paths of this tree (a /vsicurl/ URL without the trailing '/'). */
  get vsiRoot() {
    return `/vsicurl/${this.base.replace(/\/$/, '')}`;
  }
}

export class BlobTree {
  // files: Map or object of relative path → Blob; name: what errors and GDAL paths call the root.
  constructor(files, name, counter) {
    this.files = files instanceof Map ? files : new Map(Object.entries(files));
    this.name = name || '<files>';
    this.counter = counter || new RequestCounter();
    this.sources = new Map();
  }
  has(relative) {
    return this.files.has(relative);
  }
  source(relative) {
    const clean = checkRelative(relative, this.name);
    const blob = this.files.get(clean);
    if (!blob) throw new Error(`${this.name}: no file '${clean}' among the files given`);
    if (!this.sources.has(clean)) this.sources.set(clean, new BlobSource(blob, joinName(this.name, clean), this.counter));
    return this.sources.get(clean);
  }
  sub(relative) {
    const clean = checkRelative(relative, this.name);
    const prefix = `${clean}/`;
    const files = new Map();
    for (const [k, v] of this.files) if (k.startsWith(prefix)) files.set(k.slice(prefix.length), v);
    return new BlobTree(files, joinName(this.name, clean), this.counter);
  }
  get vsiRoot() {
    return this.name;
  }
}

function joinName(root, relative) {
  return root.endsWith('/') ? root + relative : `${root}/${relative}`;
}

function checkRelative(relative, where) {
  const text = String(relative);
  const parts = text.split('/');
  if (text.startsWith('/') || text.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`${where}: refused path '${text}' (it could leave the dataset)`);
  }
  return text;
}

/**
 * A map of relative path → Blob from a FileList / File[] (a directory picked with
 * <input webkitdirectory>: webkitRelativePath starts with the directory's name, dropped here),
 * a Map or a plain object. Returns {files, name}.
 */
export function fileMap(input, name) {
  if (input instanceof Map) return { files: input, name: name || '<files>' };
  const list = typeof input.length === 'number' ? Array.from(input) : null;
  if (!list) return { files: new Map(Object.entries(input)), name: name || '<files>' };
  const paths = list.map((f) => f.webkitRelativePath || f.name);
  const firsts = new Set(paths.map((p) => p.split('/')[0]));
  const strip = firsts.size === 1 && paths.every((p) => p.includes('/'));
  const files = new Map();
  list.forEach((f, i) => files.set(strip ? paths[i].slice(paths[i].indexOf('/') + 1) : paths[i], f));
  return { files, name: name || (strip ? [...firsts][0] : '<files>') };
}
