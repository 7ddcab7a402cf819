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
  constructor(url, { fetchImpl = globalThis.fetch } = {}) {
    this.name = String(url);
    this.url = url;
    // Called unbound: a browser's fetch refuses `this` = another object (Illegal invocation).
    this.fetch = (url, init) => fetchImpl(url, init);
    this.counter = new RequestCounter();
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

  async read(offset, length) {
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
  constructor(blob, name) {
    this.blob = blob;
    this.name = name || blob.name || '<blob>';
    this.size = blob.size;
    this.counter = new RequestCounter();
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
    return new BlobSource(input, options.name).open();
  }
  throw new TypeError('openDataset: expected a URL or a File/Blob');
}
