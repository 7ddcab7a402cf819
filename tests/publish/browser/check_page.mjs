// Opens a page written by `taco publish` in headless Debian Chromium and checks it as a reader
// would see it. Usage:
//   node check_page.mjs PAGE.html EXPECT.json [SCREENSHOT.png]
// EXPECT.json: {"title": "...", "texts": ["...", ...], "no_texts": [...]}: every `texts` entry
// must be visible in the rendered text (document.body.innerText), no `no_texts` entry may be.
// Fails (exit 1, one line per problem on stderr) on: any network request besides the page
// itself, any console error or page error, a wrong <title>, a missing text, an executable
// <script> element. CHROMIUM overrides the browser path (default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [page_path, expect_path, screenshot] = process.argv.slice(2);
if (!page_path || !expect_path) {
  console.error('usage: node check_page.mjs PAGE.html EXPECT.json [SCREENSHOT.png]');
  process.exit(2);
}
const expect = JSON.parse(fs.readFileSync(expect_path, 'utf8'));
const page_url = pathToFileURL(path.resolve(page_path)).href;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'taco-chromium-'));
const problems = [];
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
    timeout: 60000,
  });
  const requests = [];
  context.on('request', (r) => { if (r.url() !== page_url) requests.push(r.url()); });
  // Anything but the page itself is refused (and recorded above).
  await context.route('**/*', (route) => route.request().url() === page_url ? route.continue() : route.abort());
  const page = context.pages()[0] || await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(page_url, { waitUntil: 'load' });
  await page.waitForTimeout(200);
  const title = await page.title();
  if (expect.title !== undefined && title !== expect.title) problems.push(`title is ${JSON.stringify(title)}, expected ${JSON.stringify(expect.title)}`);
  const text = await page.evaluate(() => document.body.innerText);
  for (const t of expect.texts || []) if (!text.includes(t)) problems.push(`not visible: ${JSON.stringify(t)}`);
  for (const t of expect.no_texts || []) if (text.includes(t)) problems.push(`visible but must not be: ${JSON.stringify(t)}`);
  const scripts = await page.evaluate(() => [...document.querySelectorAll('script')].filter((s) => s.type !== 'application/ld+json').length);
  if (scripts) problems.push(`${scripts} executable <script> element(s) in the page`);
  const ld = await page.evaluate(() => [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent));
  for (const block of ld) { try { JSON.parse(block); } catch (e) { problems.push(`JSON-LD block does not parse: ${e.message}`); } }
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: expect.full_page !== false });
  for (const r of requests) problems.push(`network request: ${r}`);
} catch (e) {
  problems.push(`browser: ${e.message.split('\n')[0]}`);
} finally {
  if (context) await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
console.log(`ok: ${page_path}`);
