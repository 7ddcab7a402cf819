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
  /** Offset of the member's local header. */
  header: number;
  crc32: number;
  /** 0 = STORE. */
  method: number;
}

export declare function describeContainer(source: ByteSource): Promise<ContainerInfo>;
/** resolve = false: the central directory only (offset 0), no read per member. */
export declare function zipMembers(source: ByteSource, options?: { resolve?: boolean }): Promise<ZipMember[]>;

export interface Column {
  name: string;
  /** DuckDB type, e.g. VARCHAR, BIGINT, FLOAT[][]. */
  type: string;
}

export interface Level {
  level: number;
  /** The level Parquet's range in a ZIP or __TACOCAT__ (undefined for the other forms). */
  offset?: number;
  size?: number;
  /** Its path in a FOLDER ("METADATA/level0.parquet") or .tacocat/ ("level0.parquet"). */
  file?: string;
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
  /** The member's range (ZIP, TACOCAT part); null in a FOLDER. */
  offset: number | null;
  size: number | null;
  currentId: number;
  /** TACOCAT: the ZIP holding it (internal:source_file). */
  sourceFile: string | null;
  /** TACOLLECTION: the index of its part (internal:source_part). */
  sourcePart: number | null;
  /** Where its bytes are in the dataset's tree: DATA/... (FOLDER), the part (TACOCAT). */
  file: string | null;
  row: Row;
}

/** A key: a sample id, '@N' or a number N for the position N (0-based). */
export type Key = string | number;

export interface Raster {
  width: number;
  height: number;
  bands: ArrayLike<number>[];
}

export type DatasetFormat = 'zip' | 'tacocat' | 'folder' | 'tacollection';

export declare class Dataset {
  readonly name: string;
  readonly format: DatasetFormat;
  /** TACO_HEADER / TACO_GHOST / __TACOCAT__; null for the forms without a header. */
  readonly header: string | null;
  /** The parsed COLLECTION.json. */
  readonly collection: Record<string, unknown>;
  readonly levels: Level[];
  readonly collectionRange: ByteRange | null;
  /** Requests of every file of the dataset. */
  readonly counter: RequestCounter;
  /** The GDAL root of internal:gdal_vsi (a path, or /vsicurl/URL); null for a TACOLLECTION. */
  readonly vsiRoot: string | null;
  /** TACOLLECTION: the parts opened (ZIP datasets, in taco:sources.files order). */
  readonly parts?: Dataset[];
  readonly routing?: { opened: string[]; skipped: number; total: number };
  /** CRC-32 of the ZIP members read (default true; set false to read damaged bytes). */
  verifyCrc: boolean;
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
  /**
   * The samples whose WKB geometry at `level` meets the closed box (cascading to level 0),
   * as the core's filter_bbox: a new Dataset (its own connection; close it).
   */
  filterBbox(minx: number, miny: number, maxx: number, maxy: number, options?: FilterOptions): Promise<Dataset>;
  /** The samples in the STAC range ('A/B', 'A', '../B', 'A/..'; inclusive, UTC) at `level`. */
  filterDatetime(range: string, options?: FilterOptions): Promise<Dataset>;
  close(): Promise<void>;
}

export interface FilterOptions {
  /** The level tested (default 0); a match below cascades up to level 0. */
  level?: number;
  /** The column (default: istac:geometry, stac:centroid, istac:centroid / istac:time_start, stac:time_start). */
  column?: string;
}

/** Relative path → Blob: a Map, an object, or a FileList / File[] of a picked directory. */
export type FileTree = Map<string, Blob> | Record<string, Blob> | ArrayLike<File>;

export interface OpenOptions {
  fetch?: typeof fetch;
  /** The name errors and internal:gdal_vsi use (a Blob's or a tree's path). */
  name?: string;
  /** A __TACOCAT__ Blob: the files beside it (its ZIPs), and their directory's name. */
  parts?: FileTree;
  partsName?: string;
  /** A directory URL without its trailing '/'. */
  format?: 'folder';
  /** Check the CRC-32 of the ZIP members read (default true). */
  verifyCrc?: boolean;
  /** Open filtered: filterBbox(...bbox) then filterDatetime(datetime), at `level` (default 0). */
  bbox?: [number, number, number, number];
  datetime?: string;
  level?: number;
  geometryColumn?: string;
  timeColumn?: string;
}

/**
 * Opens a dataset: a ZIP / __TACOCAT__ / FOLDER ('/'-ending URL) / .tacocat / TACOLLECTION
 * (.json) by http(s) URL, a ZIP or __TACOCAT__ File/Blob, or the files of a tree.
 */
export declare function openDataset(input: string | URL | Blob | FileTree, options?: OpenOptions): Promise<Dataset>;

/**
 * Starts duckdb-wasm (in a browser its worker), parquet-wasm and the container layer's
 * WebAssembly module ahead of the first openDataset(), e.g. while a page waits for its user.
 * Idempotent.
 */
export declare function prepare(): Promise<void>;
