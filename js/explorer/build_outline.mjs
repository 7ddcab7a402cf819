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
const lines = topo.arcs.map((arc) => {
  let x = 0;
  let y = 0;
  const flat = [];
  for (const [dx, dy] of arc) {
    x += dx;
    y += dy;
    flat.push(round(x * sx + tx), round(y * sy + ty));
  }
  return flat;
});
const text = JSON.stringify({ source: 'Natural Earth 1:110m land (public domain), via world-atlas 2.0.2', lines });
fs.writeFileSync(`${output}.tmp`, text);
fs.renameSync(`${output}.tmp`, output);
