// SPDX-License-Identifier: GPL-2.0-only
// Opens a speedscope file in the speedscope app of the npm package
// (dist/release, served here on 127.0.0.1) in headless Debian chromium,
// driven by puppeteer-core, the way a user opens a file by URL
// (#profileURL=...).  Passes when the app shows the name of the file's
// first profile, with no page error, no console error and no request
// leaving 127.0.0.1.
//   node tests/js/speedscope_app.js FILE SCREENSHOT.png
// Exit 0 pass, 1 fail, 2 cannot run (chromium or the packages missing).
'use strict';
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');

const CHROMIUM = '/usr/bin/chromium';
const file = process.argv[2], shot = process.argv[3];
let puppeteer;
try {
  puppeteer = require('puppeteer-core');
} catch (e) {
  console.log('cannot load puppeteer-core: ' + e.message);
  process.exit(2);
}
const release = path.join(__dirname, 'node_modules/speedscope/dist/release');
if (!fs.existsSync(path.join(release, 'index.html')) || !fs.existsSync(CHROMIUM)) {
  console.log('speedscope release or ' + CHROMIUM + ' missing');
  process.exit(2);
}
const want = JSON.parse(fs.readFileSync(file, 'utf8')).profiles[0].name;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png' };

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split(/[?#]/)[0]);
  const p = url === '/profile.json' ? file : path.join(release, path.normalize(url));
  if (url !== '/profile.json' && !p.startsWith(release)) {
    res.writeHead(403);
    return res.end();
  }
  fs.readFile(p, (err, data) => {
    if (err) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream' });
    res.end(data);
  });
});

async function main() {
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = 'http://127.0.0.1:' + server.address().port;
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfev-chromium-'));
  const problems = [];
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profileDir,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync',
      '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:'))
        problems.push('request left 127.0.0.1: ' + r.url());
    });
    await page.setViewport({ width: 1200, height: 700 });
    await page.goto(base + '/index.html#profileURL=' + encodeURIComponent(base + '/profile.json'),
      { waitUntil: 'load' });
    let shown = false;
    try {
      await page.waitForFunction((n) => document.body && document.body.innerText.includes(n),
        { timeout: 20000 }, want);
      shown = true;
    } catch (e) {
      problems.push('the profile name ' + JSON.stringify(want) + ' never showed: ' +
        JSON.stringify((await page.evaluate(() => document.body.innerText)).slice(0, 300)));
    }
    if (shown) {
      // the flame chart is drawn into canvases once the profile is loaded
      const canvases = await page.evaluate(() => document.querySelectorAll('canvas').length);
      if (!canvases)
        problems.push('no canvas drawn');
    }
    if (shot)
      await page.screenshot({ path: shot });
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
  if (problems.length) {
    console.log('FAIL: ' + problems.join('\n      '));
    process.exit(1);
  }
  console.log(file + ': the speedscope app shows ' + JSON.stringify(want) + ', no error');
}

main().catch((e) => {
  console.log('FAIL: ' + e.stack);
  server.close();
  process.exit(1);
});
