// Screenshots of the explorer page for docs/ (make docs-screenshots, scripts/docs_screenshots.sh):
// `taco demo`'s ZIP opened by URL from a loopback server in Debian's headless Chromium:
//   OUT/explorer-dataset.png  the collection card, the map, level 0's table
//   OUT/explorer-preview.png  tile_03/before.tif previewed (RGB composite, histogram)
// Usage: node scripts/explorer_screenshots.mjs BUILD_DIR PLAYWRIGHT_NODE_MODULES OUT_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, serveExplorer } from '../tests/js/explorer_server.mjs';

const [build, playwright, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!out) {
  console.error('usage: explorer_screenshots.mjs BUILD_DIR PLAYWRIGHT_NODE_MODULES OUT_DIR');
  process.exit(2);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-explorer-shots-'));
let server;
let context;
try {
  execFileSync(path.join(build, 'taco'), ['demo', path.join(tmp, 'demo'), '-q']);
  server = await serveExplorer(path.join(build, 'js', 'explorer'), { 'demo.tacozip': path.join(tmp, 'demo', 'demo.tacozip') });
  context = await launchChromium(playwright, path.join(tmp, 'profile'));
  const tab = context.pages()[0] || (await context.newPage());
  await tab.goto(`${server.base}/?url=/data/demo.tacozip`);
  await tab.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 120000 });
  const error = await tab.$eval('#error', (e) => (e.hidden ? '' : e.textContent));
  if (error) throw new Error(`the page shows an error: ${error}`);
  await tab.screenshot({ path: path.join(out, 'explorer-dataset.png'), fullPage: true });
  await tab.click('#table tbody tr[data-id="tile_03"]');
  await tab.waitForFunction(() => document.querySelector('#crumbs').textContent.includes('tile_03'));
  await tab.click('#table tbody tr[data-id="before.tif"]');
  await tab.waitForFunction(() => !document.querySelector('#preview').hidden && window.__tacoTimings.preview > 0);
  await tab.$eval('#preview', (e) => e.scrollIntoView());
  await tab.screenshot({ path: path.join(out, 'explorer-preview.png'), fullPage: true });
  console.log(`explorer screenshots: ${path.join(out, 'explorer-dataset.png')} ${path.join(out, 'explorer-preview.png')}`);
} finally {
  await context?.close();
  await server?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
