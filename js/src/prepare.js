// prepare(): starts what a first openDataset() needs — duckdb-wasm (in a browser its worker,
// and a first query through a connection), parquet-wasm and the container layer's WebAssembly
// module — so that a page can start them while its user is still choosing a dataset.
// Idempotent; openDataset() starts them itself when prepare() was not called.
import { loadContainerModule } from './container.js';
import { engine } from './engine.js';
import { loadParquet } from './parquet.js';

let prepared = null;

export function prepare() {
  if (!prepared) {
    prepared = (async () => {
      const warmEngine = (async () => {
        const conn = await (await engine()).connect();
        await conn.query('SELECT 1');
        await conn.close();
      })();
      await Promise.all([warmEngine, loadParquet(), loadContainerModule()]);
    })();
  }
  return prepared;
}
