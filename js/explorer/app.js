// The TACO explorer page (docs/javascript.md): opens a dataset by URL (?url= or the URL box)
// or as a local file (File, no server), shows its collection card, each level as a paged table
// with an SQL box, the level-0 footprints/centroids on an offline map, navigates FOLDERs and
// previews GeoTIFF samples (RGB composite or one band with a colour map, 2-98 % stretch, and
// histogram). Uses the package's public API only (openDataset, prepare, Dataset.sql/sample/
// readBytes/counter) plus geotiff.js to decode a sample's bytes once for all band choices.
//
// Timings (performance.now(), ms) are shown in the page and kept in window.__tacoTimings:
//   engine      starting duckdb-wasm and parquet-wasm (once per page, begun at page load)
//   open        openDataset() (the container layer, COLLECTION.json, the level Parquets)
//   firstPage   the first page of level 0 (count + 50 rows) after open
//   openRequests / firstPageRequests  the dataset's requests (ranged GETs or Blob slices) so far
//   sql, preview (+ previewRequests; previewRead/Decode/Draw: its parts), navigate: the last of each
// Errors are shown in #error (and kept in window.__tacoErrors), never only in the console.
import { openDataset, prepare } from '@taco-cpp/taco';
import { fromArrayBuffer } from 'geotiff';
import { useNativeInflate } from './inflate.js';
import { drawMap } from './map.js';
import { BINS, bandStats, colourMaps, composite } from './raster.js';
import { isLonLat, parseGeometry } from './wkb.js';

useNativeInflate();

const PAGE = 50;
const MAP_ROWS = 20000; // level-0 rows drawn on the map at most
const $ = (id) => document.getElementById(id);
const timings = (window.__tacoTimings = {});
const errors = (window.__tacoErrors = []);
let ds = null;
let view = null; // the table shown: {title, level, parents, base (SQL), count (SQL), page, total, rows}
let crumbs = []; // FOLDERs navigated into: [{id, level, currentId}]
let preview = null; // {name, image, bands: [TypedArray], nodata}

function setState(state, text) {
  document.body.dataset.state = state;
  $('status').textContent = text;
}

function showError(e) {
  const message = e?.message || String(e);
  errors.push(message);
  $('error').textContent = message;
  $('error').hidden = false;
  setState('error', 'error');
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
  if (document.body.dataset.state === 'error') setState(ds ? 'ready' : 'idle', ds ? 'ready' : 'open a dataset');
}

function guard(fn) {
  return async (...args) => {
    try {
      clearError();
      await fn(...args);
    } catch (e) {
      showError(e);
    }
  };
}

function showTimings() {
  const f = (k) => (timings[k] == null ? null : `${k} ${Math.round(timings[k])} ms`);
  const parts = ['engine', 'open', 'firstPage', 'sql', 'navigate', 'preview'].map(f).filter(Boolean);
  if (timings.openRequests != null) parts.push(`requests: open ${timings.openRequests}, +first page ${timings.firstPageRequests - timings.openRequests}`);
  if (timings.previewRequests != null) parts.push(`preview ${timings.previewRequests}`);
  if (timings.preview != null) parts.push(`preview = read ${Math.round(timings.previewRead)} + decode ${Math.round(timings.previewDecode)} + draw ${Math.round(timings.previewDraw)} ms`);
  $('timings').textContent = parts.join(' · ');
}

const quoteId = (s) => `"${String(s).replace(/"/g, '""')}"`;

// ---- cells -------------------------------------------------------------------------------
function cellText(value, column) {
  if (value == null) return '';
  if (value instanceof Uint8Array) {
    if (/geometry|centroid/.test(column)) {
      const g = parseGeometry(value);
      if (g && g.points.length === 1 && g.lines.length === 0) return `POINT (${g.points[0].map((v) => +v.toFixed(5)).join(' ')})`;
      if (g) return `geometry: ${g.lines.length} ring(s), ${value.length} bytes`;
    }
    return `<${value.length} bytes>`;
  }
  if (typeof value === 'number' && /time|date/.test(column) && Math.abs(value) > 1e11) return new Date(value).toISOString();
  if (typeof value === 'object') {
    const text = JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? v.toString() : v));
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  }
  return String(value);
}

// ---- collection card ---------------------------------------------------------------------
function renderCard(c) {
  const card = $('card');
  card.replaceChildren();
  const h = document.createElement('h2');
  h.textContent = c.title || c.id || '(untitled)';
  card.append(h);
  const dl = document.createElement('dl');
  const add = (term, value) => {
    if (value == null || value === '') return;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    if (value instanceof Node) dd.append(value);
    else dd.textContent = value;
    dl.append(dt, dd);
  };
  add('id', c.id);
  add('description', c.description);
  add('version', c.dataset_version);
  add('licences', (c.licenses || []).join(', '));
  add('providers', (c.providers || []).map((p) => [p.name || p.organization, (p.roles || (p.role ? [p.role] : [])).join('/')].filter(Boolean).join(' — ')).join('; '));
  const sp = c.extent?.spatial;
  const bbox = Array.isArray(sp?.bbox) ? sp.bbox[0] : sp;
  const deg = (v) => (typeof v === 'number' ? String(+v.toFixed(5)) : String(v));
  if (Array.isArray(bbox)) add('spatial extent', `W ${deg(bbox[0])}, S ${deg(bbox[1])}, E ${deg(bbox[2])}, N ${deg(bbox[3])}`);
  const tm = c.extent?.temporal;
  const interval = Array.isArray(tm?.interval) ? tm.interval[0] : tm;
  if (Array.isArray(interval)) add('temporal extent', `${interval[0] ?? '..'} / ${interval[1] ?? '..'}`);
  add('tasks', (c.tasks || []).join(', '));
  add('keywords', (c.keywords || []).join(', '));
  const pit = c['taco:pit_schema'];
  if (pit) {
    const pre = document.createElement('pre');
    const lines = [`level 0: ${pit.root?.n} × ${pit.root?.type}`];
    for (const [depth, patterns] of Object.entries(pit.hierarchy || {})) {
      for (const p of patterns) lines.push(`level ${depth}: ${p.n} rows, pattern ${(p.id || []).map((id, i) => `${id}:${p.type?.[i]}`).join(', ')}`);
    }
    pre.textContent = lines.join('\n');
    add('PIT schema', pre);
  }
  card.append(dl);
}

// ---- tables ------------------------------------------------------------------------------
function levelView(level) {
  const cols = ds.levels[level].columns.map((c) => c.name);
  const order = cols.includes('internal:current_id') ? ' ORDER BY "internal:current_id"' : '';
  return {
    title: `level ${level}`,
    level,
    parents: null,
    base: `SELECT * FROM level${level}${order}`,
    count: `SELECT count(*) AS n FROM level${level}`,
    page: 0,
  };
}

function childrenView(parent) {
  const level = parent.level + 1;
  return {
    title: `${crumbs.map((c) => c.id).join(' / ')} (level ${level})`,
    level,
    parents: [...crumbs],
    base: `SELECT * FROM level${level} WHERE "internal:parent_id" = ${parent.currentId} ORDER BY "internal:current_id"`,
    count: `SELECT count(*) AS n FROM level${level} WHERE "internal:parent_id" = ${parent.currentId}`,
    page: 0,
  };
}

/** Runs the view's page: a SELECT is paged in SQL (LIMIT/OFFSET), anything else in the page. */
async function loadPage(v) {
  const pageable = /^\s*(select|with|from|values|table)\b/i.test(v.base);
  if (pageable) {
    if (v.total == null) v.total = Number((await ds.sql(v.count || `SELECT count(*) AS n FROM (${v.base})`))[0].n);
    v.rows = await ds.sql(`SELECT * FROM (${v.base}) LIMIT ${PAGE} OFFSET ${v.page * PAGE}`);
  } else {
    if (v.all == null) v.all = await ds.sql(v.base);
    v.total = v.all.length;
    v.rows = v.all.slice(v.page * PAGE, (v.page + 1) * PAGE);
  }
}

function renderTable(v) {
  $('view-title').textContent = v.title;
  $('sql').value = v.base;
  const pages = Math.max(1, Math.ceil(v.total / PAGE));
  $('page-info').textContent = `page ${v.page + 1} of ${pages} · ${v.total} rows`;
  $('prev').disabled = v.page === 0;
  $('next').disabled = v.page + 1 >= pages;
  $('up').hidden = crumbs.length === 0;
  const table = $('table');
  table.replaceChildren();
  const columns = v.rows.length ? Object.keys(v.rows[0]) : [];
  const head = table.createTHead().insertRow();
  for (const c of columns) {
    const th = document.createElement('th');
    th.textContent = c;
    head.append(th);
  }
  const body = table.createTBody();
  v.rows.forEach((row, i) => {
    const tr = body.insertRow();
    tr.dataset.index = String(i);
    const navigable = v.level != null && (row.type === 'FOLDER' || row.type === 'FILE');
    if (navigable) {
      tr.classList.add('nav', row.type === 'FOLDER' ? 'folder' : 'file');
      tr.dataset.id = String(row.id);
      tr.addEventListener('click', guard(() => openRow(v, row)));
    }
    for (const c of columns) tr.insertCell().textContent = cellText(row[c], c);
  });
}

async function show(v) {
  view = v;
  await loadPage(v);
  renderTable(v);
  for (const b of $('tabs').children) b.classList.toggle('active', crumbs.length === 0 && v.parents == null && Number(b.dataset.level) === v.level);
}

// ---- navigation and preview ---------------------------------------------------------------
function sampleOf(v, row) {
  const path = [...(v.parents || []).map((c) => c.id), row.id].join('/');
  return {
    id: row.id,
    type: row.type,
    level: v.level,
    path,
    offset: row['internal:offset'],
    size: row['internal:size'],
    currentId: row['internal:current_id'],
    sourceFile: row['internal:source_file'] ?? null,
    row,
  };
}

async function openRow(v, row) {
  const t0 = performance.now();
  let sample = sampleOf(v, row);
  if (typeof sample.offset !== 'number' && (v.parents != null || v.level === 0)) {
    // No byte range in the row (not a ZIP): the package's navigation by ids from the root.
    sample = await ds.sample(...[...(v.parents || []).map((c) => c.id), row.id]);
  }
  if (row.type === 'FOLDER') {
    if (v.level + 1 >= ds.levels.length) throw new Error(`${sample.path}: a FOLDER with no level ${v.level + 1} in this dataset`);
    crumbs = [...(v.parents || []), { id: row.id, level: v.level, currentId: sample.currentId }];
    await show(childrenView(sample));
    timings.navigate = performance.now() - t0;
    renderCrumbs();
    showTimings();
    return;
  }
  await previewSample(sample, t0);
}

function renderCrumbs() {
  $('crumbs').textContent = crumbs.length ? `inside: ${crumbs.map((c) => c.id).join(' / ')}` : '';
}

async function previewSample(sample, t0 = performance.now()) {
  const before = ds.counter.requests;
  setState('busy', `reading ${sample.path}`);
  const bytes = await ds.readBytes(sample);
  timings.previewRead = performance.now() - t0;
  const magic = String.fromCharCode(...bytes.subarray(0, 4));
  if (!['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(magic)) {
    throw new Error(`${sample.path}: not a GeoTIFF (${bytes.length} bytes; only GeoTIFF samples are previewed)`);
  }
  const tiff = await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const image = await tiff.getImage();
  const width = image.getWidth();
  const height = image.getHeight();
  const limit = 2048;
  const scale = Math.min(1, limit / Math.max(width, height));
  const options = scale < 1 ? { width: Math.round(width * scale), height: Math.round(height * scale), resampleMethod: 'nearest' } : {};
  const rasters = await image.readRasters(options);
  const nodata = image.getGDALNoData();
  timings.previewDecode = performance.now() - t0 - timings.previewRead;
  preview = { name: sample.path, width: rasters.width, height: rasters.height, full: [width, height], bands: Array.from(rasters), nodata };
  setupBandControls(preview.bands.length);
  const t1 = performance.now();
  renderPreview();
  timings.previewDraw = performance.now() - t1;
  timings.preview = performance.now() - t0;
  timings.previewRequests = ds.counter.requests - before;
  setState('ready', 'ready');
  showTimings();
}

function setupBandControls(count) {
  for (const id of ['band-r', 'band-g', 'band-b', 'band-1']) {
    const sel = $(id);
    sel.replaceChildren();
    for (let i = 0; i < count; i += 1) sel.add(new Option(`band ${i + 1}`, String(i)));
  }
  $('band-r').value = '0';
  $('band-g').value = String(Math.min(1, count - 1));
  $('band-b').value = String(Math.min(2, count - 1));
  $('band-1').value = '0';
  $('mode').value = count >= 3 ? 'rgb' : 'single';
}

/** Draws the preview for the chosen bands: the canvas holds exactly the stretched pixels. */
function renderPreview() {
  if (!preview) return;
  const mode = $('mode').value;
  const picks = mode === 'rgb' ? ['band-r', 'band-g', 'band-b'].map((id) => Number($(id).value)) : [Number($('band-1').value)];
  $('rgb-controls').hidden = mode !== 'rgb';
  $('single-controls').hidden = mode === 'rgb';
  const bands = picks.map((i) => preview.bands[i]);
  const stats = bands.map((b) => bandStats(b, preview.nodata));
  const limits = stats.map((st) => [st.lo, st.hi]);
  const pixels = composite(bands, stats, preview.nodata, $('colour-map').value);
  const canvas = $('raster');
  canvas.width = preview.width;
  canvas.height = preview.height;
  canvas.getContext('2d').putImageData(new ImageData(pixels, preview.width, preview.height), 0, 0);
  window.__tacoPreview = { bands: picks, limits, width: preview.width, height: preview.height, mode };
  drawHistogram(stats, mode === 'rgb' ? ['#d33', '#2a2', '#33d'] : ['#444']);
  const [w, h] = preview.full;
  $('preview-title').textContent = preview.name;
  $('preview-info').textContent = `${w} × ${h} px, ${preview.bands.length} band(s)${preview.nodata != null ? `, nodata ${preview.nodata}` : ''}` +
    `${preview.width !== w ? `, shown at ${preview.width} × ${preview.height}` : ''}; stretch 2-98 %: ` +
    limits.map(([lo, hi], i) => `band ${picks[i] + 1} [${lo}, ${hi}]`).join(', ');
  $('preview').hidden = false;
}

function drawHistogram(stats, colours) {
  const canvas = $('histogram');
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const valid = stats.filter((st) => st.n > 0);
  if (valid.length === 0) return;
  const min = Math.min(...valid.map((st) => st.min));
  const max = Math.max(...valid.map((st) => st.max));
  const top = Math.max(1, ...valid.flatMap((st) => Array.from(st.counts)));
  const x = (v) => (max > min ? ((v - min) / (max - min)) * (canvas.width - 1) : 0);
  stats.forEach((st, k) => {
    if (st.n === 0) return;
    ctx.strokeStyle = colours[k];
    ctx.beginPath();
    const width = (st.max - st.min) / BINS || 1;
    st.counts.forEach((c, i) => {
      const X = x(st.min + (i + 0.5) * width);
      const Y = canvas.height - 12 - (c / top) * (canvas.height - 16);
      if (i === 0) ctx.moveTo(X, Y);
      else ctx.lineTo(X, Y);
    });
    ctx.stroke();
    ctx.setLineDash([3, 3]);
    for (const v of [st.lo, st.hi]) {
      ctx.beginPath();
      ctx.moveTo(x(v), 0);
      ctx.lineTo(x(v), canvas.height - 12);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  });
  ctx.fillStyle = '#333';
  ctx.font = '10px sans-serif';
  ctx.fillText(String(min), 0, canvas.height - 1);
  const label = String(max);
  ctx.fillText(label, canvas.width - ctx.measureText(label).width, canvas.height - 1);
}

// ---- map ---------------------------------------------------------------------------------
let outline = null;
async function loadOutline() {
  if (!outline) {
    const r = await fetch(new URL('./outline.json', import.meta.url));
    if (!r.ok) throw new Error(`outline.json: HTTP ${r.status}`);
    outline = await r.json();
  }
  return outline;
}

async function renderMap() {
  const cols = ds.levels[0].columns.map((c) => c.name);
  const footprintCol = ['istac:geometry'].find((c) => cols.includes(c));
  const centroidCol = ['stac:centroid', 'istac:centroid'].find((c) => cols.includes(c));
  const features = { points: [], lines: [] };
  let skipped = 0;
  let total = 0;
  if (footprintCol || centroidCol) {
    const pick = [footprintCol, centroidCol].filter(Boolean).map(quoteId).join(', ');
    const rows = await ds.sql(`SELECT ${pick} FROM level0 LIMIT ${MAP_ROWS}`);
    total = rows.length;
    for (const row of rows) {
      if (footprintCol) {
        const g = parseGeometry(row[footprintCol]);
        if (g && isLonLat(g)) features.lines.push(...g.lines);
        else if (row[footprintCol] != null) skipped += 1;
      }
      if (centroidCol) {
        const g = parseGeometry(row[centroidCol]);
        if (g && isLonLat(g)) features.points.push(...g.points);
      }
    }
  }
  drawMap($('map'), await loadOutline(), features);
  const what = [footprintCol && `footprints (${footprintCol})`, centroidCol && `centroids (${centroidCol})`].filter(Boolean).join(' and ');
  $('map-info').textContent = what
    ? `${what} of ${total} level-0 rows${total === MAP_ROWS ? ` (the first ${MAP_ROWS})` : ''}${skipped ? `; ${skipped} footprints not in lon/lat, not drawn` : ''}`
    : 'level 0 has no geometry column (istac:geometry, stac:centroid, istac:centroid)';
}

// ---- opening -------------------------------------------------------------------------------
const engineReady = (async () => {
  const t0 = performance.now();
  await prepare();
  timings.engine = performance.now() - t0;
  showTimings();
})();

async function open(input) {
  setState('busy', `opening ${typeof input === 'string' ? input : input.name}`);
  await engineReady;
  crumbs = [];
  preview = null;
  $('preview').hidden = true;
  renderCrumbs();
  if (ds) await ds.close();
  ds = null;
  for (const k of Object.keys(timings)) if (k !== 'engine') delete timings[k];
  const t0 = performance.now();
  ds = await openDataset(input);
  timings.open = performance.now() - t0;
  timings.openRequests = ds.counter.requests;
  renderCard(ds.collection);
  const tabs = $('tabs');
  tabs.replaceChildren();
  ds.levels.forEach((l) => {
    const b = document.createElement('button');
    b.textContent = `level ${l.level}`;
    b.dataset.level = String(l.level);
    b.addEventListener('click', guard(async () => {
      crumbs = [];
      renderCrumbs();
      await show(levelView(l.level));
    }));
    tabs.append(b);
  });
  const t1 = performance.now();
  await show(levelView(0));
  timings.firstPage = performance.now() - t1;
  timings.firstPageRequests = ds.counter.requests;
  $('dataset').hidden = false;
  showTimings();
  await renderMap();
  setState('ready', 'ready');
}

async function runSql(event) {
  event.preventDefault();
  const query = $('sql').value.trim();
  if (!query) return;
  const t0 = performance.now();
  const v = { title: 'SQL result', level: null, parents: null, base: query.replace(/;\s*$/, ''), page: 0 };
  await show(v);
  timings.sql = performance.now() - t0;
  showTimings();
}

$('open-form').addEventListener('submit', guard(async (event) => {
  event.preventDefault();
  const url = $('url').value.trim();
  if (!url) throw new Error('enter a dataset URL');
  const absolute = new URL(url, location.href).href;
  history.replaceState(null, '', `?url=${encodeURIComponent(url)}`);
  await open(absolute);
}));
$('file').addEventListener('change', guard(async () => {
  const f = $('file').files[0];
  if (f) await open(f);
}));
$('sql-form').addEventListener('submit', guard(runSql));
$('prev').addEventListener('click', guard(async () => {
  view.page -= 1;
  await show(view);
}));
$('next').addEventListener('click', guard(async () => {
  view.page += 1;
  await show(view);
}));
$('up').addEventListener('click', guard(async () => {
  crumbs.pop();
  renderCrumbs();
  if (crumbs.length === 0) await show(levelView(0));
  else {
    const last = crumbs[crumbs.length - 1];
    await show(childrenView({ level: last.level, currentId: last.currentId }));
  }
}));
for (const id of ['mode', 'band-r', 'band-g', 'band-b', 'band-1', 'colour-map']) $(id).addEventListener('change', guard(async () => renderPreview()));
for (const name of colourMaps) $('colour-map').add(new Option(name, name));
$('colour-map').value = 'viridis';
window.addEventListener('error', (e) => showError(e.error || e.message));
window.addEventListener('unhandledrejection', (e) => showError(e.reason));

// The test's and the bench's handle: open(url or File) resolves when the page is drawn.
window.__explorer = { open: (input) => guard(open)(input), engineReady };

(async () => {
  const url = new URLSearchParams(location.search).get('url');
  try {
    await engineReady;
    if (url) {
      $('url').value = url;
      await open(new URL(url, location.href).href);
    } else {
      setState('idle', 'open a dataset by URL or pick a local file');
      await loadOutline().then((o) => drawMap($('map'), o, { points: [], lines: [] }));
    }
  } catch (e) {
    showError(e);
  }
})();
