// Parquet → Arrow IPC through parquet-wasm (pinned): duckdb-wasm has no Parquet reader built in
// (its parquet extension would be fetched from an extension repository at run time, which this
// package never does), so each level Parquet is decoded here and inserted into duckdb-wasm as
// an Arrow table with the same column types. In Node the module loads its wasm from
// node_modules; in a browser from ./parquet/ next to this package (copied by the build).
const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;

let ready = null;

/** Loads parquet-wasm (once). */
export function loadParquet() {
  if (!ready) {
    ready = (async () => {
      if (isNode) return import('parquet-wasm');
      const mod = await import('parquet-wasm/esm');
      await mod.default(new URL('./parquet/parquet_wasm_bg.wasm', import.meta.url));
      return mod;
    })();
  }
  return ready;
}

/** The Arrow IPC stream of a Parquet file's bytes. Errors name `what`. */
export async function parquetToIpc(bytes, what) {
  const pq = await loadParquet();
  try {
    return pq.readParquet(bytes).intoIPCStream();
  } catch (e) {
    throw new Error(`${what}: not a readable Parquet file: ${e.message || e}`);
  }
}
