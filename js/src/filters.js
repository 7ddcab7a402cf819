// filterBbox / filterDatetime with the core's semantics (src/read/filters.cc, FORMAT §6.5-§6.7):
//
// - the column: the one asked for, else the first present of istac:geometry, stac:centroid,
//   istac:centroid (bbox) or istac:time_start, stac:time_start (datetime) at that level;
// - bbox: the WKB geometry meets the closed box (a point inside it, a segment crossing it, or
//   the box inside a polygon, even-odd over its rings), tested here by a WKB reader in JS
//   (duckdb-wasm has no spatial extension), as table/wkb_geometry.cc does natively;
// - datetime: STAC `A/B`, `A`, `../B`, `A/..`; ends YYYY, YYYY-MM, YYYY-MM-DD are whole UTC
//   periods, YYYY-MM-DDTHH:MM[:SS[.f]][Z|±HH:MM] instants (naive = UTC); inclusive;
// - a filter at level L > 0 keeps the matching level-L rows, then each level above keeps the
//   rows with a kept child, level 0 (`data`) the samples with a kept descendant. Chained
//   filters start from the rows earlier filters kept at that level.

const kMicrosPerDay = 86400n * 1000000n;

function daysFromCivil(y, m, d) {
  // H. Hinnant's days_from_civil.
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
const isLeap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y, m) => [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] + (m === 2 && isLeap(y) ? 1 : 0);

// One end: {first, last} microseconds (BigInt) of its period, or a string saying why not.
function parseEnd(text) {
  let pos = 0;
  const digits = (n) => {
    const part = text.slice(pos, pos + n);
    if (part.length !== n || !/^\d+$/.test(part)) return null;
    pos += n;
    return Number(part);
  };
  const accept = (c) => (text[pos] === c ? (pos += 1, true) : false);
  const atEnd = () => pos === text.length;
  const day = (y, m, d) => BigInt(daysFromCivil(y, m, d)) * kMicrosPerDay;
  const y = digits(4);
  if (y === null) return 'expected a year YYYY first';
  if (atEnd()) return { first: day(y, 1, 1), last: day(y + 1, 1, 1) - 1n };
  let mo = null;
  if (!accept('-') || (mo = digits(2)) === null) return 'expected YYYY-MM';
  if (mo < 1 || mo > 12) return `month ${mo} does not exist`;
  if (atEnd()) return { first: day(y, mo, 1), last: day(y, mo, 1) + BigInt(daysInMonth(y, mo)) * kMicrosPerDay - 1n };
  let d = null;
  if (!accept('-') || (d = digits(2)) === null) return 'expected YYYY-MM-DD';
  if (d < 1 || d > daysInMonth(y, mo)) return `day ${d} does not exist in that month`;
  const start = day(y, mo, d);
  if (atEnd()) return { first: start, last: start + kMicrosPerDay - 1n };
  if (!(accept('T') || accept('t') || accept(' '))) return "expected 'T' and a time after the date";
  let h = null;
  let mi = null;
  let sec = 0;
  let micros = 0;
  if ((h = digits(2)) === null || !accept(':') || (mi = digits(2)) === null) return 'expected a time HH:MM[:SS[.fraction]]';
  if (accept(':')) {
    if ((sec = digits(2)) === null) return 'expected seconds SS after HH:MM:';
    if (accept('.') || accept(',')) {
      let scale = 100000;
      let digit = digits(1);
      if (digit === null) return 'expected digits after the decimal point';
      do {
        micros += digit * scale;
        scale = Math.trunc(scale / 10);
      } while ((digit = digits(1)) !== null);
    }
  }
  if (h > 24 || mi > 59 || sec > 60 || (h === 24 && (mi !== 0 || sec !== 0 || micros !== 0))) {
    return `the time ${text.slice(11)} does not exist`;
  }
  let offset = 0;
  if (accept('Z') || accept('z')) {
    // UTC
  } else if (text[pos] === '+' || text[pos] === '-') {
    const negative = accept('-');
    if (!negative) accept('+');
    const oh = digits(2);
    if (oh === null) return 'expected a UTC offset ±HH[:MM]';
    let om = 0;
    if (accept(':')) {
      if ((om = digits(2)) === null) return 'expected a UTC offset ±HH:MM';
    } else {
      om = digits(2) ?? 0;
    }
    if (oh > 23 || om > 59) return 'the UTC offset does not exist';
    offset = (oh * 3600 + om * 60) * (negative ? -1 : 1);
  }
  if (!atEnd()) return 'unexpected text after the time';
  const first = start + BigInt(h * 3600 + mi * 60 + sec - offset) * 1000000n + BigInt(micros);
  return { first, last: first };
}

/** A STAC datetime range as {start, end} UTC microseconds (BigInt or null), as read::ParseDateRange. */
export function parseDateRange(text) {
  const quoted = `datetime '${text}'`;
  const syntax =
    ' (expected A, A/B, ../B or A/.. where each end is YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.f]][Z|±HH:MM]; UTC when no offset is given)';
  const slash = text.indexOf('/');
  if (slash >= 0 && text.indexOf('/', slash + 1) >= 0) throw new Error(`${quoted}: more than one '/'${syntax}`);
  const a = (slash < 0 ? text : text.slice(0, slash)).trim();
  const b = slash < 0 ? '' : text.slice(slash + 1).trim();
  const end = (part) => {
    const p = parseEnd(part);
    if (typeof p === 'string') throw new Error(`${quoted}: '${part}': ${p}${syntax}`);
    return p;
  };
  if (slash < 0) {
    if (a === '') throw new Error(`${quoted}: empty${syntax}`);
    const p = end(a);
    return { start: p.first, end: p.last };
  }
  const isOpen = (s) => s === '' || s === '..';
  if (isOpen(a) && isOpen(b)) throw new Error(`${quoted}: both ends are open${syntax}`);
  const range = { start: isOpen(a) ? null : end(a).first, end: isOpen(b) ? null : end(b).last };
  if (range.start !== null && range.end !== null && range.start > range.end) throw new Error(`${quoted}: the start is after the end`);
  return range;
}

/** UTC microseconds as 'YYYY-MM-DD HH:MM:SS.ffffff+00' (read::FormatUtcInstant). */
export function formatUtcInstant(micros) {
  const days = micros / kMicrosPerDay - (micros % kMicrosPerDay < 0n ? 1n : 0n);
  let rest = Number(micros - days * kMicrosPerDay);
  const date = new Date(Number(days) * 86400000);
  const pad = (v, n = 2) => String(v).padStart(n, '0');
  const h = Math.floor(rest / 3600e6);
  rest -= h * 3600e6;
  const mi = Math.floor(rest / 60e6);
  rest -= mi * 60e6;
  const s = Math.floor(rest / 1e6);
  const us = rest - s * 1e6;
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(h)}:${pad(mi)}:${pad(s)}.${pad(us, 6)}+00`;
}

// ---- WKB -------------------------------------------------------------------------------------

const kMaxWkbDepth = 32;

function inside(x, y, b) {
  return x >= b.minx && x <= b.maxx && y >= b.miny && y <= b.maxy;
}

// Liang-Barsky clipping of the closed segment a-b against the closed box.
function segmentMeetsBox(a, b, box) {
  if (inside(a[0], a[1], box) || inside(b[0], b[1], box)) return true;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const p = [-dx, dx, -dy, dy];
  const q = [a[0] - box.minx, box.maxx - a[0], a[1] - box.miny, box.maxy - a[1]];
  let t0 = 0;
  let t1 = 1;
  for (let i = 0; i < 4; i += 1) {
    if (p[i] === 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const r = q[i] / p[i];
    if (p[i] < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

// Even-odd rule over all rings (holes included).
function pointInRings(x, y, rings) {
  let isIn = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
      const a = ring[i];
      const b = ring[j];
      if (a[1] > y !== b[1] > y && x < ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]) + a[0]) isIn = !isIn;
    }
  }
  return isIn;
}

/** Whether WKB (ISO or EWKB, 2-4 dimensions) meets the closed box {minx, miny, maxx, maxy}; throws on bad WKB. */
export function wkbIntersectsBox(bytes, box) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let hit = false;
  const need = (n) => {
    if (pos + n > bytes.byteLength) throw new Error(`WKB: truncated at byte ${pos} (${bytes.byteLength} bytes)`);
  };
  const u32 = (little) => {
    need(4);
    const v = view.getUint32(pos, little);
    pos += 4;
    return v;
  };
  const f64 = (little) => {
    need(8);
    const v = view.getFloat64(pos, little);
    pos += 8;
    return v;
  };
  const count = (little, minBytesEach) => {
    const n = u32(little);
    if (n * minBytesEach > bytes.byteLength - pos) throw new Error(`WKB: count ${n} exceeds the remaining bytes`);
    return n;
  };
  const coord = (little, dims) => {
    const c = [f64(little), f64(little)];
    for (let d = 2; d < dims; d += 1) f64(little);
    return c;
  };
  const points = (little, dims) => {
    const n = count(little, 8 * dims);
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(coord(little, dims));
    return out;
  };
  const testLine = (pts) => {
    if (pts.length === 1) hit = hit || inside(pts[0][0], pts[0][1], box);
    for (let i = 1; i < pts.length && !hit; i += 1) hit = segmentMeetsBox(pts[i - 1], pts[i], box);
  };
  const geometry = (depth) => {
    if (depth > kMaxWkbDepth) throw new Error('WKB: geometry nested deeper than 32 levels');
    need(1);
    const order = bytes[pos];
    if (order > 1) throw new Error(`WKB: bad byte-order marker ${order}`);
    pos += 1;
    const little = order === 1;
    let code = u32(little);
    // EWKB flags (Z, M, SRID), overridden by ISO codes (1000 Z, 2000 M, 3000 ZM), as
    // table/wkb_reader.h ReadWkbHeader.
    let hasZ = (code & 0x80000000) !== 0;
    let hasM = (code & 0x40000000) !== 0;
    if (code & 0x20000000) u32(little);
    code = (code & 0x0fffffff) >>> 0;
    if (code >= 1000 && code < 4000) {
      const flavour = Math.floor(code / 1000);
      hasZ = flavour === 1 || flavour === 3;
      hasM = flavour === 2 || flavour === 3;
      code %= 1000;
    }
    if (code < 1 || code > 7) throw new Error(`WKB: unknown geometry type ${code}`);
    const dims = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0);
    switch (code) {
      case 1: {
        const [x, y] = coord(little, dims);
        if (!Number.isNaN(x) && !Number.isNaN(y)) hit = hit || inside(x, y, box);
        return;
      }
      case 2:
        testLine(points(little, dims));
        return;
      case 3: {
        const n = count(little, 4);
        let rings = [];
        for (let i = 0; i < n; i += 1) {
          const ring = points(little, dims);
          testLine(ring);
          rings.push(ring);
        }
        rings = rings.filter((r) => r.length >= 3);
        if (!hit && rings.length) hit = pointInRings(box.minx, box.miny, rings);
        return;
      }
      case 4:
      case 5:
      case 6:
      case 7: {
        const n = count(little, 5);
        for (let i = 0; i < n; i += 1) geometry(depth + 1);
        return;
      }
      default:
        throw new Error(`WKB: unknown geometry type ${code}`);
    }
  };
  geometry(0);
  if (pos !== bytes.byteLength) throw new Error(`WKB: ${bytes.byteLength - pos} trailing bytes`);
  return hit;
}
