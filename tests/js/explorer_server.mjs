// A loopback HTTP server for the explorer page's tests, bench and screenshots: the static
// directory `root` (build/js/explorer) at /, and each dataset at /data/<name> with Range requests
// (206 + Content-Range; 416 without a Range header). Counts the requests per dataset.
// serveExplorer(root, {name: path}, {indexHtml}) -> Promise<{base, hits: {name: n}, close()}>,
// on a free port; `indexHtml`, when given, is the page at / (the package test's page).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css', '.json': 'application/json' };

export async function serveExplorer(root, datasets, { indexHtml } = {}) {
  const hits = Object.fromEntries(Object.keys(datasets).map((k) => [k, 0]));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (indexHtml !== undefined && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(indexHtml);
      return;
    }
    const name = url.pathname.startsWith('/data/') ? decodeURIComponent(url.pathname.slice(6)) : null;
    if (name != null) {
      if (!(name in datasets)) {
        res.writeHead(404).end();
        return;
      }
      hits[name] += 1;
      const file = datasets[name];
      const size = fs.statSync(file).size;
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || '');
      if (!m) {
        res.writeHead(416).end();
        return;
      }
      const start = Number(m[1]);
      const end = Math.min(Number(m[2]), size - 1);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    const local = path.join(root, path.normalize(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!local.startsWith(root) || !fs.existsSync(local) || fs.statSync(local).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.extname(local)] || 'application/octet-stream' });
    fs.createReadStream(local).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    hits,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Debian's headless Chromium through playwright-core (a node_modules directory). */
export async function launchChromium(playwrightModules, profileDir) {
  const { createRequire } = await import('node:module');
  const require = createRequire(path.join(playwrightModules, 'x.js'));
  const { chromium } = require('playwright-core');
  return chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    timeout: 60000,
  });
}
