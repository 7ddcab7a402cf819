// Geometries of the level columns for the map: WKB (ISO and EWKB, either byte order; points,
// lines, polygons, their multi forms and collections) and the legacy WKT `POINT (x y)`.
// parseGeometry(value) -> {points: [[x, y]], lines: [[[x, y], ...]]} (polygon rings are lines),
// or null for a value it cannot read (never throws).

function readWkb(view, state, out) {
  const little = view.getUint8(state.at) === 1;
  state.at += 1;
  let code = view.getUint32(state.at, little);
  state.at += 4;
  let dims = 2;
  if (code & 0x20000000) state.at += 4; // EWKB SRID
  if (code & 0x80000000) dims += 1;
  if (code & 0x40000000) dims += 1;
  code &= 0x0fffffff;
  const iso = Math.floor(code / 1000);
  if (iso === 1 || iso === 2) dims += 1;
  if (iso === 3) dims += 2;
  const type = code % 1000;
  const f64 = () => {
    const v = view.getFloat64(state.at, little);
    state.at += 8;
    return v;
  };
  const u32 = () => {
    const v = view.getUint32(state.at, little);
    state.at += 4;
    return v;
  };
  const point = () => {
    const p = [f64(), f64()];
    state.at += 8 * (dims - 2);
    return p;
  };
  const line = () => {
    const n = u32();
    if (n * dims * 8 > view.byteLength - state.at) throw new Error('truncated');
    const pts = [];
    for (let i = 0; i < n; i += 1) pts.push(point());
    return pts;
  };
  if (type === 1) {
    const p = point();
    if (p[0] === p[0] && p[1] === p[1]) out.points.push(p);
  } else if (type === 2) {
    out.lines.push(line());
  } else if (type === 3) {
    const rings = u32();
    for (let r = 0; r < rings; r += 1) out.lines.push(line());
  } else if (type >= 4 && type <= 7) {
    const parts = u32();
    for (let i = 0; i < parts; i += 1) readWkb(view, state, out);
  } else {
    throw new Error(`geometry type ${type}`);
  }
}

export function parseGeometry(value) {
  const out = { points: [], lines: [] };
  try {
    if (value instanceof Uint8Array) {
      readWkb(new DataView(value.buffer, value.byteOffset, value.byteLength), { at: 0 }, out);
      return out;
    }
    if (typeof value === 'string') {
      const m = /^\s*POINT\s*\(\s*([-+\d.eE]+)\s+([-+\d.eE]+)\s*\)\s*$/i.exec(value);
      if (!m) return null;
      out.points.push([Number(m[1]), Number(m[2])]);
      return out;
    }
  } catch {
    return null;
  }
  return null;
}

/** True when every coordinate lies within lon/lat bounds (a geometry in another CRS is not drawn). */
export function isLonLat(geom) {
  const inside = ([x, y]) => x >= -180 && x <= 180 && y >= -90 && y <= 90;
  return geom.points.every(inside) && geom.lines.every((l) => l.every(inside));
}
