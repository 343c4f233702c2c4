// Launches Debian's Chromium (headless, fresh profile) through playwright-core and
// starts the API test double on a free loopback port.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function startServer() {
  // AGORA_URL points the tests at a running server instead (the real `agora serve`).
  if (process.env.AGORA_URL) return { url: process.env.AGORA_URL.replace(/\/$/, ''), stop: () => {} };
  const child = spawn(process.execPath, [join(here, 'fake-api.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`test double exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
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
