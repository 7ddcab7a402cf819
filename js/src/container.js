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

async function call(fn, source, extra = [], extraTypes = null, onReply = null) {
  const M = await wasm();
  const run = async () => {
    M.tacoReadRange = async (offset, length, pointer) => {
      const bytes = await source.read(offset, length);
      M.HEAPU8.set(bytes, pointer); // HEAPU8 read after the await: memory may have grown
    };
    const types = ['number', 'string', ...(extraTypes || extra.map(() => 'number'))];
    const text = await M.ccall(fn, 'string', types, [source.size, source.name, ...extra], { async: true });
    const answer = JSON.parse(text);
    if (!answer.ok) throw new Error(answer.error);
    return onReply ? onReply(M, answer) : answer;
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

/**
 * Every ZIP member (central directory + local headers): [{name, header, offset, size, crc32,
 * method}]. options.resolve = false: the central directory only (offset 0; header = the local
 * header's offset), no read per member.
 */
export async function zipMembers(source, options = {}) {
  return (await call('taco_zip_members', source, [options.resolve === false ? 0 : 1])).members;
}

/**
 * The bytes of the STORE member whose data is [offset, offset + size) of `source`, read and
 * checked as the native reader does (zip::ReadVerifiedMember in the wasm build): one read (the
 * local header window before the data, the data, 24 bytes after), the member's name against
 * `expected` ({exact: 'DATA/a/b.tif'} or {lastPart: 'b.tif'} or null) and its CRC-32 (unless
 * checkCrc is false). Errors are the native messages ("<what>: CRC-32 mismatch: ...").
 */
export function readMember(source, offset, size, { expected = null, what, checkCrc = true } = {}) {
  const kind = expected?.exact != null ? 1 : expected?.lastPart != null ? 2 : 0;
  const text = expected?.exact ?? expected?.lastPart ?? '';
  return call(
    'taco_read_member',
    source,
    [offset, size, kind, text, what || `${source.name}: member at ${offset}`, checkCrc ? 1 : 0],
    ['number', 'number', 'number', 'string', 'string', 'number'],
    (M, answer) => M.HEAPU8.slice(answer.pointer, answer.pointer + answer.size),
  );
}

/** Instantiates the WebAssembly module ahead of the first call (prepare()). */
export async function loadContainerModule() {
  await wasm();
}
