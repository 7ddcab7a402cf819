// Types of @taco-cpp/taco (docs/javascript.md).

export interface ByteRange {
  offset: number;
  size: number;
}

/** Requests (ranged GETs or Blob slices) and bytes read through one source. */
export declare class RequestCounter {
  requests: number;
  bytes: number;
  /** [offset, length] of every request, in order. */
  log: Array<[number, number]>;
  reset(): void;
}

export interface ByteSource {
  readonly name: string;
  readonly size: number;
  readonly counter: RequestCounter;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export declare class HttpSource implements ByteSource {
  constructor(url: string, options?: { fetchImpl?: typeof fetch });
  readonly name: string;
  readonly size: number;
  readonly counter: RequestCounter;
  open(): Promise<HttpSource>;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export declare class BlobSource implements ByteSource {
  constructor(blob: Blob, name?: string);
  readonly name: string;
  readonly size: number;
  readonly counter: RequestCounter;
  open(): Promise<BlobSource>;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export declare function openSource(input: string | URL | Blob, options?: { fetchImpl?: typeof fetch; name?: string }): Promise<ByteSource>;

/** What the WebAssembly container layer found at the start of a single-file dataset. */
export interface ContainerInfo {
  format: 'zip' | 'tacocat';
  header: 'TACO_HEADER' | 'TACO_GHOST' | '__TACOCAT__';
  /** Byte ranges of METADATA/level0.parquet, level1, ... */
  levels: ByteRange[];
  /** Byte range of COLLECTION.json. */
  collection: ByteRange;
}

export interface ZipMember extends ByteRange {
  name: string;
  crc32: number;
  /** 0 = STORE. */
  method: number;
}

export declare function describeContainer(source: ByteSource): Promise<ContainerInfo>;
export declare function zipMembers(source: ByteSource): Promise<ZipMember[]>;

export interface Column {
  name: string;
  /** DuckDB type, e.g. VARCHAR, BIGINT, FLOAT[][]. */
  type: string;
}

export interface Level extends ByteRange {
  level: number;
  columns: Column[];
}

/** A row: lists as arrays, BLOBs as Uint8Array, integers as number (bigint past 2^53), timestamps as ms. */
export type Row = Record<string, unknown>;

export interface Sample {
  id: string;
  type: 'FILE' | 'FOLDER';
  level: number;
  /** Ids from level 0 down, joined by '/'. */
  path: string;
  offset: number;
  size: number;
  currentId: number;
  sourceFile: string | null;
  row: Row;
}

/** A key: a sample id, '@N' or a number N for the position N (0-based). */
export type Key = string | number;

export interface Raster {
  width: number;
  height: number;
  bands: ArrayLike<number>[];
}

export declare class Dataset {
  readonly name: string;
  readonly format: 'zip' | 'tacocat';
  readonly header: string;
  /** The parsed COLLECTION.json. */
  readonly collection: Record<string, unknown>;
  readonly levels: Level[];
  readonly collectionRange: ByteRange;
  readonly counter: RequestCounter;
  /** SQL over data (level 0 without internal:* columns), data_raw and level0..levelN. */
  sql(query: string): Promise<Row[]>;
  /** The level-0 rows, or the children of the FOLDER at `keys`. */
  children(...keys: Key[]): Promise<Row[]>;
  sample(...keys: Key[]): Promise<Sample>;
  /** A sample's bytes in one request. */
  readBytes(sample: Sample | Key[]): Promise<Uint8Array>;
  /** A GeoTIFF sample's pixels (geotiff.js); window = [x0, y0, x1, y1], samples = band indexes. */
  readRaster(sample: Sample | Key[], options?: { window?: [number, number, number, number]; samples?: number[] }): Promise<Raster>;
  /** Every ZIP member with its data range (central directory). */
  members(): Promise<ZipMember[]>;
  close(): Promise<void>;
}

/** Opens a TACO ZIP or __TACOCAT__ file by http(s) URL (Range requests) or as a File/Blob. */
export declare function openDataset(input: string | URL | Blob, options?: { fetch?: typeof fetch; name?: string }): Promise<Dataset>;

/**
 * Starts duckdb-wasm (in a browser its worker), parquet-wasm and the container layer's
 * WebAssembly module ahead of the first openDataset(), e.g. while a page waits for its user.
 * Idempotent.
 */
export declare function prepare(): Promise<void>;
