// The container layer: taco_format.mjs, the WebAssembly build of taco-cpp's src/format
// (js/wasm/taco_wasm.cc), driven over a byte source. One module instance per process/page;
// calls are queued because the module is not reentrant.
import createModule from './taco_format.mjs';

let modulePromise = null;
let queue = Promise.resolve();

function wasm() {
  if (!modulePromise) modulePromise = createModule();
  return modulePromise;
}

async function call(fn, source) {
  const M = await wasm();
  const run = async () => {
    M.tacoReadRange = async (offset, length, pointer) => {
      const bytes = await source.read(offset, length);
      M.HEAPU8.set(bytes, pointer); // HEAPU8 read after the await: memory may have grown
    };
    const text = await M.ccall(fn, 'string', ['number', 'string'], [source.size, source.name], { async: true });
    const answer = JSON.parse(text);
    if (!answer.ok) throw new Error(answer.error);
    return answer;
  };
  const result = queue.then(run, run);
  queue = result.catch(() => {});
  return result;
}

/**
 * The container of a single-file dataset: {format: 'zip'|'tacocat', header, levels: [{offset,
 * size}], collection: {offset, size}}. Reads the first 256 bytes.
 */
export function describeContainer(source) {
  return call('taco_describe', source);
}

/** Every ZIP member (central directory + local headers): [{name, offset, size, crc32, method}]. */
export async function zipMembers(source) {
  return (await call('taco_zip_members', source)).members;
}

/** Instantiates the WebAssembly module ahead of the first call (prepare()). */
export async function loadContainerModule() {
  await wasm();
}
