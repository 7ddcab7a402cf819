// The offline lon/lat map of the explorer: an equirectangular canvas with a graticule, the
// coastline outline shipped with the page (outline.json, built from world-atlas), and the
// footprints (lines) and centroids (points) of level-0 rows. No tile server, no request beyond
// outline.json from the page's own directory.

/** The view: the data's bounding box padded (at least 8 degrees wide), or the whole world. */
export function viewBox(features) {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  const add = ([x, y]) => {
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  };
  for (const p of features.points) add(p);
  for (const l of features.lines) l.forEach(add);
  if (!(w <= e)) return [-180, -90, 180, 90];
  const span = Math.max(8, (e - w) * 1.3, (n - s) * 1.3 * 2);
  const cx = (w + e) / 2;
  const cy = (s + n) / 2;
  const half = Math.min(180, span / 2);
  const x0 = Math.max(-180, Math.min(cx - half, 180 - 2 * half));
  const y0 = Math.max(-90, Math.min(cy - half / 2, 90 - half));
  return [x0, y0, x0 + 2 * half, y0 + half];
}

/** Draws the map on `canvas`: outline {lines: [[lon, lat, ...]]}, features from parseGeometry. */
export function drawMap(canvas, outline, features, box = viewBox(features)) {
  const ctx = canvas.getContext('2d');
  const { width, height } = canvas;
  const [x0, y0, x1, y1] = box;
  const px = (lon) => ((lon - x0) / (x1 - x0)) * width;
  const py = (lat) => height - ((lat - y0) / (y1 - y0)) * height;
  ctx.fillStyle = '#eef3f7';
  ctx.fillRect(0, 0, width, height);

  // Graticule: a step giving 4-12 lines across.
  const span = x1 - x0;
  const step = [1, 2, 5, 10, 15, 30, 60].find((st) => span / st <= 12) || 60;
  ctx.strokeStyle = '#c9d4dd';
  ctx.lineWidth = 1;
  ctx.fillStyle = '#7b8a97';
  ctx.font = '10px sans-serif';
  ctx.beginPath();
  for (let lon = Math.ceil(x0 / step) * step; lon <= x1; lon += step) {
    ctx.moveTo(px(lon) + 0.5, 0);
    ctx.lineTo(px(lon) + 0.5, height);
  }
  for (let lat = Math.ceil(y0 / step) * step; lat <= y1; lat += step) {
    ctx.moveTo(0, py(lat) + 0.5);
    ctx.lineTo(width, py(lat) + 0.5);
  }
  ctx.stroke();
  for (let lon = Math.ceil(x0 / step) * step; lon <= x1; lon += step) ctx.fillText(`${lon}°`, px(lon) + 2, height - 3);
  for (let lat = Math.ceil(y0 / step) * step; lat <= y1; lat += step) ctx.fillText(`${lat}°`, 2, py(lat) - 2);

  // Coastlines.
  ctx.strokeStyle = '#55697a';
  ctx.beginPath();
  for (const flat of outline?.lines || []) {
    for (let i = 0; i < flat.length; i += 2) {
      const X = px(flat[i]);
      const Y = py(flat[i + 1]);
      if (i === 0) ctx.moveTo(X, Y);
      else ctx.lineTo(X, Y);
    }
  }
  ctx.stroke();

  // Footprints, then centroids on top.
  ctx.strokeStyle = 'rgba(200, 60, 20, 0.9)';
  ctx.fillStyle = 'rgba(200, 60, 20, 0.15)';
  for (const ring of features.lines) {
    ctx.beginPath();
    ring.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(px(x), py(y)) : ctx.lineTo(px(x), py(y))));
    ctx.fill();
    ctx.stroke();
  }
  ctx.fillStyle = '#1f4fbf';
  for (const [x, y] of features.points) ctx.fillRect(px(x) - 2, py(y) - 2, 4, 4);
  return box;
}
