// prepare(): starts the engines a first openDataset() needs (duckdb-wasm, and in a browser its
// worker; parquet-wasm), so that a page can start them while its user is still choosing a
// dataset. Idempotent; openDataset() starts them itself when prepare() was not called.
import { engine } from './engine.js';
import { loadParquet } from './parquet.js';

export async function prepare() {
  await Promise.all([engine(), loadParquet()]);
}
