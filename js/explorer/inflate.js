// DEFLATE tiles of GeoTIFF samples inflated by the browser's own zlib (DecompressionStream,
// 'deflate' = the zlib format TIFF uses) instead of geotiff.js's JavaScript inflate (pako):
// the decode step of a preview was most of its time. Registered for TIFF compression 8 and
// 32946 with geotiff.js's addDecoder (predictors are still applied by geotiff.js's BaseDecoder).
// Browsers without DecompressionStream keep geotiff.js's decoder.
import { addDecoder, BaseDecoder } from 'geotiff';

class NativeDeflateDecoder extends BaseDecoder {
  async decodeBlock(buffer) {
    const stream = new Blob([buffer]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Response(stream).arrayBuffer();
  }
}

export function useNativeInflate() {
  if (typeof DecompressionStream !== 'function') return false;
  addDecoder([8, 32946], async () => NativeDeflateDecoder, undefined, false);
  return true;
}
