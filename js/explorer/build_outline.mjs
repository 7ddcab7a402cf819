// Build step of the explorer (scripts/build_js.sh): the coastline outline shipped with the page,
// from the pinned npm package world-atlas (Natural Earth 1:110m land, public domain; TopoJSON).
// Every arc of the `land` object is decoded (quantized, delta-encoded) to lon/lat and written
// as {"source", "lines": [[lon0, lat0, lon1, lat1, ...], ...]} with 2 decimals: drawing the arcs
// draws the coastlines, so no ring assembly is needed.
// Usage: node build_outline.mjs land-110m.json OUT.json
import fs from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: build_outline.mjs land-110m.json OUT.json');
  process.exit(2);
}
const topo = JSON.parse(fs.readFileSync(input, 'utf8'));
if (topo.type !== 'Topology' || !topo.transform || !Array.isArray(topo.arcs)) {
  console.error(`build_outline: ${input}: not a quantized TopoJSON topology`);
  process.exit(2);
}
const [sx, sy] = topo.transform.scale;
const [tx, ty] = topo.transform.translate;
const round = (v) => Math.round(v * 100) / 100;
// An arc that crosses the antimeridian (a step of more than 180 degrees of longitude) is split
// there, so that it is not drawn as a line across the whole map.
const lines = [];
for (const arc of topo.arcs) {
  let x = 0;
  let y = 0;
  let flat = [];
  for (const [dx, dy] of arc) {
    x += dx;
    y += dy;
    const lon = round(x * sx + tx);
    const lat = round(y * sy + ty);
    if (flat.length && Math.abs(lon - flat[flat.length - 2]) > 180) {
      if (flat.length > 2) lines.push(flat);
      flat = [];
    }
    flat.push(lon, lat);
  }
  if (flat.length > 2) lines.push(flat);
}
const text = JSON.stringify({ source: 'Natural Earth 1:110m land (public domain), via world-atlas 2.0.2', lines });
fs.writeFileSync(`${output}.tmp`, text);
fs.renameSync(`${output}.tmp`, output);
