// Raster display arithmetic of the explorer (pure functions, no DOM): the percentile stretch,
// colour maps and histograms. The test recomputes the same stretch with numpy from GDAL's pixels,
// so the definitions here are the contract:
//   percentile p of a band = v[floor(p / 100 * (n - 1))] of its n valid values sorted ascending
//     (valid = not NaN and not the GDAL nodata value);
//   stretch(x) = clamp(floor((x - lo) / (hi - lo) * 255 + 0.5), 0, 255) with lo, hi the 2nd and
//     98th percentiles; a band with hi <= lo maps to 0; a nodata pixel is drawn transparent.
// 8- and 16-bit integer bands go through one counting pass (percentiles, histogram and a
// lookup table from it); other types through a sorted copy.

export const STRETCH = [2, 98];
export const BINS = 64;

/** stretch(x) of the contract above for one value. */
export function stretchValue(x, lo, hi) {
  if (!(hi > lo)) return 0;
  const v = Math.floor(((x - lo) / (hi - lo)) * 255 + 0.5);
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

function integerRange(values) {
  if (values instanceof Uint8Array || values instanceof Uint8ClampedArray) return 0;
  if (values instanceof Int8Array) return 128;
  if (values instanceof Uint16Array) return 0;
  if (values instanceof Int16Array) return 32768;
  return null;
}

/**
 * A band's display statistics: {n, lo, hi, min, max, counts (BINS bins over [min, max]),
 * map(i) -> 0..255 for pixel i}. n = 0 (no valid value) gives lo = hi = min = max = null.
 */
export function bandStats(values, nodata = null, pcts = STRETCH) {
  const offset = integerRange(values);
  const ranks = (n) => pcts.map((p) => Math.floor((p / 100) * (n - 1)));
  const hist = new Uint32Array(BINS);
  if (offset != null) {
    const size = values instanceof Uint16Array || values instanceof Int16Array ? 65536 : 256;
    const counts = new Uint32Array(size);
    for (let i = 0; i < values.length; i += 1) counts[values[i] + offset] += 1;
    if (nodata != null && Number.isInteger(nodata) && nodata + offset >= 0 && nodata + offset < size) counts[nodata + offset] = 0;
    let n = 0;
    let first = -1;
    let last = -1;
    for (let b = 0; b < size; b += 1) {
      if (counts[b] === 0) continue;
      n += counts[b];
      if (first < 0) first = b;
      last = b;
    }
    if (n === 0) return { n, lo: null, hi: null, min: null, max: null, counts: hist, map: () => 0 };
    const want = ranks(n);
    const got = new Array(want.length);
    let seen = 0;
    let found = 0;
    for (let b = first; b <= last && found < want.length; b += 1) {
      seen += counts[b];
      for (let j = 0; j < want.length; j += 1) {
        if (got[j] == null && want[j] < seen) {
          got[j] = b - offset;
          found += 1;
        }
      }
    }
    const [lo, hi] = got;
    const min = first - offset;
    const max = last - offset;
    const width = max > min ? (max - min) / BINS : 1;
    const lut = new Uint8Array(size);
    for (let b = first; b <= last; b += 1) {
      lut[b] = stretchValue(b - offset, lo, hi);
      if (counts[b]) hist[Math.min(BINS - 1, Math.floor((b - offset - min) / width))] += counts[b];
    }
    for (let b = last + 1; b < size; b += 1) lut[b] = 255; // only nodata can be there
    return { n, lo, hi, min, max, counts: hist, map: (i) => lut[values[i] + offset] };
  }
  const valid = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i += 1) {
    const v = Number(values[i]);
    if (v === v && v !== nodata) valid[n++] = v;
  }
  if (n === 0) return { n, lo: null, hi: null, min: null, max: null, counts: hist, map: () => 0 };
  const sorted = valid.subarray(0, n).sort();
  const [lo, hi] = ranks(n).map((r) => sorted[r]);
  const min = sorted[0];
  const max = sorted[n - 1];
  const width = max > min ? (max - min) / BINS : 1;
  for (let i = 0; i < n; i += 1) hist[Math.min(BINS - 1, Math.floor((sorted[i] - min) / width))] += 1;
  return { n, lo, hi, min, max, counts: hist, map: (i) => stretchValue(values[i], lo, hi) };
}

// Colour maps: 256 RGB entries. viridis from its published anchors (every 1/9), linear between.
const anchors = {
  viridis: ['440154', '482878', '3e4989', '31688e', '26828e', '1f9e89', '35b779', '6ece58', 'b5de2b', 'fde725'],
  grey: ['000000', 'ffffff'],
  terrain: ['333399', '0294fa', '24d36d', 'fefe98', '80605b', 'ffffff'],
};
export const colourMaps = Object.keys(anchors);

export function colourTable(name) {
  const hex = anchors[name] || anchors.grey;
  const rgb = hex.map((h) => [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)));
  const lut = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i += 1) {
    const t = (i / 255) * (rgb.length - 1);
    const k = Math.min(Math.floor(t), rgb.length - 2);
    const f = t - k;
    for (let c = 0; c < 3; c += 1) lut[i * 3 + c] = Math.round(rgb[k][c] * (1 - f) + rgb[k + 1][c] * f);
  }
  return lut;
}

/**
 * RGBA pixels (Uint8ClampedArray of width*height*4) of 3 bands (an RGB composite) or 1 band
 * through a colour map; bands: [TypedArray] (1 or 3), stats: their bandStats().
 */
export function composite(bands, stats, nodata = null, colourMap = 'grey') {
  const n = bands[0].length;
  const out = new Uint8ClampedArray(n * 4);
  const masked = (i) => {
    for (let b = 0; b < bands.length; b += 1) {
      const v = bands[b][i];
      if (v !== v || v === nodata) return true;
    }
    return false;
  };
  const checkMask = nodata != null || !(integerRange(bands[0]) != null);
  if (bands.length === 1) {
    const lut = colourTable(colourMap);
    const map = stats[0].map;
    for (let i = 0, o = 0; i < n; i += 1, o += 4) {
      if (checkMask && masked(i)) continue; // transparent
      const s = map(i) * 3;
      out[o] = lut[s];
      out[o + 1] = lut[s + 1];
      out[o + 2] = lut[s + 2];
      out[o + 3] = 255;
    }
    return out;
  }
  const [r, g, b] = stats.map((s) => s.map);
  for (let i = 0, o = 0; i < n; i += 1, o += 4) {
    if (checkMask && masked(i)) continue;
    out[o] = r(i);
    out[o + 1] = g(i);
    out[o + 2] = b(i);
    out[o + 3] = 255;
  }
  return out;
}
