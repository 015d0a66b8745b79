// How responsive the page of a big rollouts file is (docs/speed.md#view):
// writes N rollout lines with tests/fixtures/rollouts/make.py, draws them
// with `partkit view`, opens the page in a real headless Chromium and times
// what a person does first: the page loading, sorting the index by reward
// (both ways), the reward filter, the text search and opening the compare
// view. A measurement, not a test: it prints figures and fails only when
// something does not work.
//
//   PARTKIT_BIN=target/release/partkit node tests/browser/index_speed.mjs [LINES]
//   REUSE=1 node tests/browser/index_speed.mjs [LINES]   (the last page again)

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = resolve(process.env.PARTKIT_BIN ?? join(root, 'target/release/partkit'));
const lines = Number(process.argv[2] ?? 50000);
const reuse = process.env.REUSE === '1';
const out = join(root, 'target/view-speed');
mkdirSync(out, { recursive: true });
const input = join(out, `rollouts-${lines}.jsonl`);
const page = join(out, `rollouts-${lines}.html`);

const time = (body) => { const t = process.hrtime.bigint(); body(); return Number(process.hrtime.bigint() - t) / 1e9; };
// REUSE=1 opens the page drawn by the last run again.
const again = reuse && existsSync(page);
const made = again ? 0 : time(() => execFileSync('python3', [join(root, 'tests/fixtures/rollouts/make.py'), '--lines', String(lines), '--out', input]));
const drawn = again ? 0 : time(() => execFileSync(bin, ['--no-config', 'view', input, '-o', page], { stdio: ['ignore', 'ignore', 'inherit'] }));
console.log(`${lines.toLocaleString('en')} lines: input ${(statSync(input).size / 1e6).toFixed(1)} MB made in ${made.toFixed(1)} s; `
  + `page ${(statSync(page).size / 1e6).toFixed(1)} MB drawn in ${drawn.toFixed(1)} s`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const tab = await browser.newPage({ viewport: { width: 1100, height: 900 } });
const errors = [];
tab.on('pageerror', (e) => errors.push(e.message));
tab.setDefaultTimeout(600_000);

let t = Date.now();
await tab.goto('file://' + page, { timeout: 600_000 });
console.log(`load (parsed, laid out, script run): ${((Date.now() - t) / 1000).toFixed(1)} s`);

// Each step is timed in the page, from the event to the next frame drawn.
async function step(name, action) {
  const ms = await tab.evaluate(action);
  console.log(`${name}: ${ms.toFixed(0)} ms`);
  return ms;
}
const frame = 'new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))';
const timed = (body) => `(async () => { const t = performance.now(); ${body}; await ${frame}; return performance.now() - t; })()`;

await step('sort by reward', timed(`document.querySelectorAll('table.lines th')[2].click()`));
const first = await tab.$eval('table.lines tbody tr:not(.spacer)', (r) => r.cells[2].textContent);
await step('sort by reward, the other way', timed(`document.querySelectorAll('table.lines th')[2].click()`));
const top = await tab.$eval('table.lines tbody tr:not(.spacer)', (r) => r.cells[2].textContent);
assert.ok(Number(first) < Number(top), `${first} then ${top}`);
await step('filter: reward < 1', timed(`const r = document.getElementById('reward'); r.value = '< 1'; r.dispatchEvent(new Event('input'))`));
const shown = await tab.locator('#shown').innerText();
await step('filter cleared', timed(`const r = document.getElementById('reward'); r.value = ''; r.dispatchEvent(new Event('input'))`));
await step('search (first, reads every text)', timed(`const q = document.getElementById('q'); q.value = 'ticket 777)'; q.dispatchEvent(new Event('input'))`));
const found = await tab.locator('#shown').innerText();
await step('search again', timed(`const q = document.getElementById('q'); q.value = 'ticket 7777)'; q.dispatchEvent(new Event('input'))`));
await step('search cleared', timed(`const q = document.getElementById('q'); q.value = ''; q.dispatchEvent(new Event('input'))`));
const link = await tab.$eval('details.tasks a.compare', (a) => a.getAttribute('href'));
await step('compare opened', timed(`location.hash = ${JSON.stringify(link)}; await new Promise((done) => addEventListener('hashchange', done, { once: true }))`));
assert.equal(await tab.locator('#compare .compare-grid').count(), 1);
console.log(`shown with reward < 1: ${shown}; found by the search: ${found}; compare: ${link}`);
const memory = await tab.evaluate(() => performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : -1);
console.log(`script heap: ${memory} MB`);
assert.deepEqual(errors, []);
await browser.close();
