// Raster display arithmetic of the explorer (pure functions, no DOM): the percentile stretch,
// colour maps and histograms. The test recomputes the same stretch with numpy from GDAL's pixels,
// so the definitions here are the contract:
//   percentile p of a band = v[floor(p / 100 * (n - 1))] of its n valid values sorted ascending
//     (valid = not NaN and not the GDAL nodata value);
//   stretch(x) = clamp(floor((x - lo) / (hi - lo) * 255 + 0.5), 0, 255); a band with hi <= lo
//     maps to 0; a nodata pixel is drawn transparent (alpha 0).

const isValid = (nodata) => (nodata == null ? (v) => v === v : (v) => v === v && v !== nodata);

/** The values at percentiles `pcts` (e.g. [2, 98]) of a band's valid values; null if none. */
export function percentiles(values, pcts, nodata = null) {
  const ok = isValid(nodata);
  const integer = values instanceof Uint8Array || values instanceof Uint16Array || values instanceof Int8Array ||
    values instanceof Int16Array || values instanceof Uint8ClampedArray;
  if (integer) {
    // Counting sort: exact and linear for 8/16-bit bands.
    const offset = values instanceof Int8Array ? 128 : values instanceof Int16Array ? 32768 : 0;
    const counts = new Uint32Array(values instanceof Uint8Array || values instanceof Int8Array || values instanceof Uint8ClampedArray ? 256 : 65536);
    let n = 0;
    for (let i = 0; i < values.length; i += 1) {
      const v = values[i];
      if (nodata != null && v === nodata) continue;
      counts[v + offset] += 1;
      n += 1;
    }
    if (n === 0) return null;
    const ranks = pcts.map((p) => Math.floor((p / 100) * (n - 1)));
    const out = new Array(pcts.length);
    let seen = 0;
    let next = 0;
    const order = ranks.map((r, i) => [r, i]).sort((a, b) => a[0] - b[0]);
    for (let b = 0; b < counts.length && next < order.length; b += 1) {
      seen += counts[b];
      while (next < order.length && order[next][0] < seen) {
        out[order[next][1]] = b - offset;
        next += 1;
      }
    }
    return out;
  }
  const valid = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i += 1) {
    const v = Number(values[i]);
    if (ok(v)) valid[n++] = v;
  }
  if (n === 0) return null;
  const sorted = valid.subarray(0, n).sort();
  return pcts.map((p) => sorted[Math.floor((p / 100) * (n - 1))]);
}

/** stretch(x) of the contract above for one value. */
export function stretchValue(x, lo, hi) {
  if (!(hi > lo)) return 0;
  const v = Math.floor(((x - lo) / (hi - lo)) * 255 + 0.5);
  return v < 0 ? 0 : v > 255 ? 255 : v;
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
 * through a colour map, each band stretched between its own [lo, hi].
 * bands: [TypedArray] (1 or 3), limits: [[lo, hi]] per band.
 */
export function composite(bands, limits, nodata = null, colourMap = 'grey') {
  const n = bands[0].length;
  const out = new Uint8ClampedArray(n * 4);
  const lut = bands.length === 1 ? colourTable(colourMap) : null;
  const scale = limits.map(([lo, hi]) => [lo, hi]);
  for (let i = 0; i < n; i += 1) {
    let masked = false;
    for (let b = 0; b < bands.length; b += 1) {
      const v = bands[b][i];
      if (v !== v || (nodata != null && v === nodata)) masked = true;
    }
    const o = i * 4;
    if (masked) continue; // transparent
    if (lut) {
      const s = stretchValue(bands[0][i], scale[0][0], scale[0][1]);
      out[o] = lut[s * 3];
      out[o + 1] = lut[s * 3 + 1];
      out[o + 2] = lut[s * 3 + 2];
    } else {
      out[o] = stretchValue(bands[0][i], scale[0][0], scale[0][1]);
      out[o + 1] = stretchValue(bands[1][i], scale[1][0], scale[1][1]);
      out[o + 2] = stretchValue(bands[2][i], scale[2][0], scale[2][1]);
    }
    out[o + 3] = 255;
  }
  return out;
}

/** {min, max, counts} of a band's valid values in `bins` equal bins over [min, max]. */
export function histogram(values, bins = 64, nodata = null) {
  const ok = isValid(nodata);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (!ok(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const counts = new Uint32Array(bins);
  if (min > max) return { min: null, max: null, counts };
  const width = max > min ? (max - min) / bins : 1;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (!ok(v)) continue;
    counts[Math.min(bins - 1, Math.floor((v - min) / width))] += 1;
  }
  return { min, max, counts };
}
