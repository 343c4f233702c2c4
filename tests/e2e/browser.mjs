// Launches Debian's Chromium (headless, fresh profile) through playwright-core and
// starts the API test double on a free loopback port.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// The real server: `./agora serve --port P --db FILE` from the repository root.
async function startAgora() {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const root = join(here, '..', '..');
  const dir = mkdtempSync(join(tmpdir(), 'agora-e2e-'));
  const port = await freePort();
  const bin = process.env.AGORA_BIN || join(root, 'agora');
  const url = `http://127.0.0.1:${port}`;
  let child = null;
  const up = async () => {
    // AGORA_SERVE_ARGS: a suite's own flags ("--abandon-ms 4000"), after these.
    const extra = (process.env.AGORA_SERVE_ARGS || '').split(' ').filter(Boolean);
    child = spawn(bin, ['serve', '--port', String(port), '--db', join(dir, 'agora.db'), '--move-ms', '1000', ...extra], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) throw new Error(`agora serve exited with ${child.exitCode}`);
      try {
        if ((await fetch(url + '/')).ok) return;
      } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('agora serve did not answer');
  };
  const down = () => new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  await up();
  return {
    url, real: true,
    // Stops the server and starts it again on the same port and database.
    restart: async () => { await down(); await up(); },
    stop: () => { if (child) child.kill(); rmSync(dir, { recursive: true, force: true }); },
  };
}

/** The server under test: AGORA_URL (already running), AGORA_SERVE=1 (start
 *  `./agora serve`, or AGORA_BIN, on a free port with a fresh database), or by
 *  default the API test double. */
export async function startServer() {
  if (process.env.AGORA_URL) return { url: process.env.AGORA_URL.replace(/\/$/, ''), real: true, stop: () => {} };
  if (process.env.AGORA_SERVE === '1') return startAgora();
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'agora-double-'));
  let child = null;
  const up = (port) => new Promise((resolve, reject) => {
    child = spawn(process.execPath, [join(here, 'fake-api.mjs'), '--state', join(dir, 'games.json'), '--port', String(port), '--exit-with-parent'],
      { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`test double exited with ${code}`)));
  });
  const down = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  const port = await up(0);
  return {
    url: `http://127.0.0.1:${port}`, real: false,
    restart: async () => { await down(); await up(port); },
    stop: () => { child.kill(); rmSync(dir, { recursive: true, force: true }); },
  };
}

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  // playwright-core gives launch() a fresh temporary profile of its own and removes it
  // on close (it refuses --user-data-dir here); each test also gets a new context.
  return { browser, close: () => browser.close() };
}
