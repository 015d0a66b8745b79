// Opens pages made by `partkit view` in a real headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core) and checks what a person
// sees: the images drawn, the tool-call pairs, the findings, the search and
// filters working under the page's Content-Security-Policy, recorded markup
// shown as text and never run, and no request leaving the page; and, when
// the shared cassettes are there (../shared/cassettes beside the clone),
// the page of a real cassette and of a HAR file: interaction rows searched
// and filtered, a streamed response assembled, secret headers REDACTED;
// and the page of rollouts (tests/fixtures/rollouts/tasks.jsonl): sorted by
// reward, filtered by reward, a folded prompt opened, two rollouts of a
// task compared. Screenshots go under target/view/ for a person to look at
// (rollouts.png is the one docs/commands/view.md shows).
//
//   PARTKIT_BIN=target/debug/partkit node tests/browser/view.mjs

import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = resolve(process.env.PARTKIT_BIN ?? join(root, 'target/debug/partkit'));
const out = join(root, 'target/view');
mkdirSync(out, { recursive: true });

const b64 = (name) => readFileSync(join(root, 'tests/fixtures', name)).toString('base64');

// A transcript: a user image, a call answered by a result with an image, a
// call left unanswered, a result with no call, a declared type that is not
// the content (a finding).
const transcript = {
  messages: [
    { role: 'user', content: [
      { type: 'text', text: 'What is in this image?' },
      { type: 'image', mimeType: 'image/jpeg', data: b64('tiny.jpg'), name: 'photo.jpg' }] },
    { role: 'assistant', content: [
      { type: 'tool_call', id: 'call_1', name: 'zoom', arguments: { x: 10, y: 20 } },
      { type: 'tool_call', id: 'call_2', name: 'crop', arguments: {} }] },
    { role: 'tool', content: [
      { type: 'tool_result', call_id: 'call_1', name: 'zoom', content: [
        { type: 'text', text: 'zoomed:' },
        { type: 'image', mimeType: 'image/jpeg', data: b64('tiny.png') }] },
      { type: 'tool_result', call_id: 'call_9', name: 'ghost', content: [{ type: 'text', text: 'nobody asked' }] }] },
    { role: 'assistant', content: [
      { type: 'text', text: 'Here is the sound.' },
      { type: 'audio', mimeType: 'audio/wav', data: b64('tone.wav') },
      { type: 'file', mimeType: 'application/pdf', data: b64('doc.pdf'), name: 'report.pdf' },
      { type: 'image', mimeType: 'image/png', url: 'https://example.com/never-fetched.png' }] },
  ],
};

// Recorded strings that would run script or load something if they became markup.
const hostile = {
  messages: [
    { role: 'user', content: [
      { type: 'text', text: '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"></textarea><b>bold</b>' },
      { type: 'image', mimeType: 'image/png', url: 'javascript:window.__xss = 3' },
      { type: 'file', mimeType: 'application/pdf', data: b64('doc.pdf'), name: '"><script>window.__xss=4</script>.pdf' }] },
    { role: 'assistant', content: [
      { type: 'tool_call', id: '</code><script>window.__xss=5</script>', name: '<img src=x onerror=window.__xss=6>',
        arguments: { html: '</textarea><svg onload="window.__xss=7">' } }] },
  ],
};

// 1,000 tool replies, one with a line that is not JSON.
const replies = [];
for (let n = 1; n <= 1000; n++) {
  replies.push(JSON.stringify({
    tool_output_images: [{ image_url: `data:image/png;base64,${b64('tiny.png')}`, label: `shot ${n}` }],
    step: n,
  }));
}
replies[9] = '{not json';

// 2,500 small replies: more rows than the index holds at once.
const many = [];
for (let n = 1; n <= 2500; n++) {
  many.push(JSON.stringify({ step: n, note: `step ${n} of many` }));
}

function page(name, text) {
  const input = join(out, name);
  writeFileSync(input, text);
  const html = input.replace(/\.jsonl?$/, '.html');
  execFileSync(bin, ['--no-config', 'view', input, '-o', html], { stdio: ['ignore', 'ignore', 'inherit'] });
  return html;
}

const pages = {
  transcript: page('transcript.json', JSON.stringify(transcript)),
  hostile: page('hostile.json', JSON.stringify(hostile)),
  replies: page('replies.jsonl', replies.join('\n') + '\n'),
  many: page('many.jsonl', many.join('\n') + '\n'),
};

// Real recordings, read where they are (never copied into the clone).
const cassettes = join(root, '../shared/cassettes');
function recordingPage(file, name, cwd = cassettes) {
  const html = join(out, name);
  // Run from the file's folder, so that the page names the file as a
  // reader would see it (`vcrpy/…`), not this machine's path to it.
  execFileSync(bin, ['--no-config', 'view', file, '-o', html], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return html;
}
pages.rollouts = recordingPage('tasks.jsonl', 'rollouts.html', join(root, 'tests/fixtures/rollouts'));
if (existsSync(join(cassettes, 'README.md'))) {
  pages.cassette = recordingPage('vcrpy/pydantic-ai-03.yaml', 'cassette.html');
  pages.har = recordingPage('har/mirascope-01.har', 'har.html');
} else {
  console.log(`skip the recordings: ${cassettes} is not there`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** Opens a page and records what goes wrong on it. */
async function open(path) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const tab = await context.newPage();
  const seen = { errors: [], dialogs: [], requests: [] };
  tab.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') seen.errors.push(m.text()); });
  tab.on('pageerror', (e) => seen.errors.push(e.message));
  tab.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss(); });
  tab.on('request', (r) => { if (!/^(data|file):/.test(r.url())) seen.requests.push(r.url()); });
  await tab.goto('file://' + path);
  await tab.waitForLoadState('load');
  return { tab, seen, context };
}

const count = (tab, selector) => tab.locator(selector).count();
let failed = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}\n${error.stack}`);
  }
}

await check('a transcript: images, tool-call pairs, findings, media chips', async () => {
  const { tab, seen, context } = await open(pages.transcript);
  // Both thumbnails decoded and drawn (a broken image has naturalWidth 0).
  const widths = await tab.$$eval('img.thumb', (all) => all.map((i) => i.naturalWidth));
  assert.deepEqual(widths, [4, 4]);
  assert.equal(await count(tab, '.tool-call'), 2);
  assert.equal(await count(tab, '.tool-call .mark.good'), 1);
  assert.equal(await count(tab, '.tool-call .mark.bad'), 1);
  assert.equal(await count(tab, '.tool-result.paired'), 1);
  assert.equal(await count(tab, '.tool-result.orphan'), 1);
  assert.equal(await count(tab, 'li.finding'), 3);
  assert.equal(await count(tab, 'audio[controls]'), 1);
  assert.match(await tab.locator('.chip.url').innerText(), /URL, not fetched: https:\/\/example\.com\/never-fetched\.png/);
  assert.match(await tab.locator('#summary').innerText(), /1 document · 3 images · 2 tool calls \(1 unanswered, 1 orphan result\) · 3 errors/);
  // The summary is drawn above the documents, though written after them.
  const top = await tab.locator('#summary').boundingBox();
  const doc = await tab.locator('section.doc').boundingBox();
  assert.ok(top.y < doc.y);
  // The audio element has a source the browser accepts under the policy.
  const audio = await tab.$eval('audio', (a) => new Promise((done) => {
    if (a.readyState > 0) { done(a.duration); return; }
    a.addEventListener('loadedmetadata', () => done(a.duration));
    a.addEventListener('error', () => done(-1));
    a.load();
  }));
  assert.ok(audio > 0, `audio duration ${audio}`);
  await tab.screenshot({ path: join(out, 'transcript.png'), fullPage: true });
  assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
  await context.close();
});

await check('recorded markup is shown as text and never runs', async () => {
  const { tab, seen, context } = await open(pages.hostile);
  assert.equal(await tab.evaluate(() => window.__xss), undefined);
  assert.equal(await count(tab, 'script'), 1);
  assert.equal(await count(tab, 'svg, b, textarea, [onerror], [onload]'), 0);
  assert.equal(await count(tab, 'img'), 0, 'the URL image is not drawn');
  const text = await tab.locator('main').innerText();
  for (const shown of ['<script>window.__xss = 1</script>', '<img src=x onerror="window.__xss = 2">',
    'javascript:window.__xss = 3', '"><script>window.__xss=4</script>.pdf', '<img src=x onerror=window.__xss=6>',
    '</textarea><svg onload=\\"window.__xss=7\\">']) {
    assert.ok(text.includes(shown), `not shown as text: ${shown}`);
  }
  await tab.screenshot({ path: join(out, 'hostile.png'), fullPage: true });
  assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
  await context.close();
});

await check('1,000 replies: the index, search and filters run under the policy', async () => {
  const { tab, seen, context } = await open(pages.replies);
  assert.equal(await count(tab, 'section.doc'), 1000);
  assert.equal(await count(tab, 'tr[data-line]'), 1000);
  assert.equal(await tab.locator('#shown').innerText(), '1,000');
  await tab.locator('#q').fill('shot 500');
  assert.equal(await tab.locator('#shown').innerText(), '1');
  assert.equal(await count(tab, 'section.doc:not(.hidden)'), 1);
  assert.equal(await count(tab, 'tr[data-line]:not(.hidden)'), 1);
  await tab.locator('#q').fill('');
  await tab.locator('#only-findings').check();
  assert.equal(await tab.locator('#shown').innerText(), '1');
  assert.equal(await tab.locator('section.doc:not(.hidden)').getAttribute('data-line'), '10');
  await tab.locator('#only-findings').uncheck();
  await tab.screenshot({ path: join(out, 'replies.png') });
  assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
  await context.close();
});

await check('rollouts: sorted and filtered by reward, a fold opened, two rollouts compared', async () => {
  const { tab, seen, context } = await open(pages.rollouts);
  const lines = () => tab.$$eval('table.lines tbody tr[data-line]', (all) => all.map((r) => Number(r.getAttribute('data-line'))));
  const rewards = () => tab.$$eval('table.lines tbody tr[data-line]', (all) => all.map((r) => r.cells[2].textContent));
  assert.deepEqual(await lines(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  // Sorted by reward: a click, then the other way; ties keep file order.
  const reward = tab.locator('table.lines th', { hasText: 'reward' });
  await reward.click();
  assert.equal(await reward.getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await lines(), [2, 3, 4, 9, 11, 1, 5, 6, 7, 8, 10, 12]);
  await reward.click();
  assert.equal(await reward.getAttribute('aria-sort'), 'descending');
  assert.deepEqual((await rewards()).slice(0, 7), ['1.0', '1.0', '1.0', '1.0', '1.0', '1.0', '1']);
  // Sorted by task, as text.
  await tab.locator('table.lines th', { hasText: 'task' }).click();
  assert.deepEqual((await lines()).slice(0, 6), [1, 3, 5, 2, 4, 6]);
  // The reward filter: rows and sections; a text it cannot read is marked.
  await tab.locator('#reward').fill('< 1');
  assert.equal(await tab.locator('#shown').innerText(), '5');
  assert.deepEqual((await lines()).sort((a, b) => a - b), [2, 3, 4, 9, 11]);
  assert.equal(await count(tab, 'main section.doc:not(.hidden)'), 5);
  await tab.locator('#reward').fill('reward >= 1');
  assert.equal(await tab.locator('#shown').innerText(), '7');
  await tab.locator('#reward').fill('high');
  assert.equal(await tab.locator('#reward').getAttribute('class'), 'invalid');
  assert.equal(await tab.locator('#shown').innerText(), '12');
  await tab.locator('#reward').fill('');
  // The tasks: five, their rewards side by side.
  assert.equal(await count(tab, 'details.tasks tbody tr'), 5);
  assert.equal(await tab.locator('details.tasks tbody tr').first().locator('td.rewards').innerText(), '1.0 0.0 1.0');
  await tab.screenshot({ path: join(out, 'rollouts.png') });
  // The 122-line prompt is folded: its first lines show, the rest opens on a click.
  const fold = tab.locator('#line-1 .turn.system details.fold');
  assert.equal(await fold.getAttribute('open'), null);
  assert.equal(await fold.locator('pre.rest').isVisible(), false);
  assert.match(await fold.locator('summary').innerText(), /116 more lines/);
  await fold.locator('summary').click();
  assert.equal(await fold.locator('pre.rest').isVisible(), true);
  assert.equal(await fold.locator('.more').isVisible(), false);
  // The tool list drawn once at the top, and a document's pointer to it.
  assert.equal(await count(tab, '.tool-lists details.tools'), 2);
  await tab.locator('#line-7 .tools-ref a').click();
  assert.equal(new URL(tab.url()).hash, '#tools-1');
  // Compare: task 0's lowest against its highest, turn by turn.
  await tab.locator('details.tasks tbody tr').first().locator('a.compare').click();
  assert.equal(new URL(tab.url()).hash, '#compare-3-1');
  // The view is built on the hashchange event, after the click returns.
  const view = tab.locator('#compare');
  await view.waitFor({ state: 'visible' });
  assert.equal(await tab.locator('main.docs').isVisible(), false);
  assert.equal(await count(tab, '#compare .compare-grid > .cell'), 10);
  assert.equal(await count(tab, '#compare .cell.same'), 4, 'the system and user turns are the same');
  assert.equal(await count(tab, '#compare [id]'), 0, 'the copies hold no ids');
  assert.equal(await count(tab, '#compare details.fold[open]'), 0, 'the copies start folded');
  assert.deepEqual(await tab.$$eval('#compare select', (all) => all.map((s) => s.value)), ['3', '1']);
  await tab.screenshot({ path: join(out, 'compare.png') });
  // Another rollout of the task on the right.
  await tab.locator('#compare select').nth(1).selectOption('5');
  await tab.waitForURL(/#compare-3-5$/);
  await tab.waitForFunction(() => [...document.querySelectorAll('#compare select')].map((s) => s.value).join() === '3,5');
  await tab.locator('#compare a.close').click();
  await view.waitFor({ state: 'detached' });
  assert.ok(await tab.locator('main.docs').isVisible());
  assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
  await context.close();
});

await check('2,500 lines: the index holds the rows in view, sorts and filters them all', async () => {
  const { tab, seen, context } = await open(pages.many);
  const rows = () => tab.$$eval('table.lines tbody tr[data-line]', (all) => all.map((r) => Number(r.getAttribute('data-line'))));
  const first = await rows();
  assert.ok(first.length < 100, `${first.length} rows drawn`);
  assert.deepEqual(first.slice(0, 3), [1, 2, 3]);
  assert.equal(await count(tab, 'table.lines tr.spacer'), 2);
  // Scrolled to the end: the last rows are drawn in place of the first.
  await tab.locator('.index .rows').evaluate((box) => { box.scrollTop = box.scrollHeight; });
  await tab.waitForFunction(() => document.querySelector('table.lines tbody tr[data-line="2500"]') !== null);
  assert.ok(!(await rows()).includes(1));
  // Sorted by line, the other way: 2,500 first.
  const line = tab.locator('table.lines th', { hasText: 'line' });
  await line.click();
  await line.click();
  await tab.locator('.index .rows').evaluate((box) => { box.scrollTop = 0; });
  await tab.waitForFunction(() => document.querySelector('table.lines tbody tr[data-line]').getAttribute('data-line') === '2500');
  // The search: one row left, and the table holds all of them again.
  await tab.locator('#q').fill('step 1234 of');
  assert.equal(await tab.locator('#shown').innerText(), '1');
  assert.deepEqual(await rows(), [1234]);
  assert.equal(await count(tab, 'table.lines tr.spacer'), 0);
  assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
  await context.close();
});

if (pages.cassette) {
  await check('a cassette: a section and a row per interaction, searched and filtered', async () => {
    const { tab, seen, context } = await open(pages.cassette);
    assert.equal(await count(tab, 'section.doc.interaction'), 4);
    assert.equal(await count(tab, 'tr[data-interaction]'), 4);
    assert.equal(await tab.locator('#shown').innerText(), '4');
    assert.match(await tab.locator('#summary').innerText(), /^4 interactions · 8 documents · 1 image · 9 tool calls .* 0 errors · 5 warnings$/);
    const widths = await tab.$$eval('img.thumb', (all) => all.map((i) => i.naturalWidth));
    assert.equal(widths.length, 1);
    assert.ok(widths[0] > 0, 'the image is drawn');
    const visible = (selector) => tab.$$eval(`${selector}:not(.hidden)`, (all) => all.map((e) => e.getAttribute('data-interaction')));
    // The search: the model's last answer is only in the last interaction.
    await tab.locator('#q').fill('cross-section');
    assert.equal(await tab.locator('#shown').innerText(), '1');
    assert.deepEqual(await visible('section.doc'), ['4']);
    assert.deepEqual(await visible('tr[data-interaction]'), ['4']);
    await tab.locator('#q').fill('Unknown tool name');
    assert.deepEqual(await visible('tr[data-interaction]'), ['2', '3', '4']);
    await tab.locator('#q').fill('');
    // The filters: the warnings sit in interactions 2-4, the image in 4.
    await tab.locator('#only-findings').check();
    assert.equal(await tab.locator('#shown').innerText(), '3');
    assert.deepEqual(await visible('section.doc'), ['2', '3', '4']);
    assert.deepEqual(await visible('tr[data-interaction]'), ['2', '3', '4']);
    await tab.screenshot({ path: join(out, 'cassette.png') });
    await tab.locator('#only-images').check();
    assert.deepEqual(await visible('tr[data-interaction]'), ['4']);
    await tab.locator('#only-findings').uncheck();
    await tab.locator('#only-images').uncheck();
    assert.equal(await tab.locator('#shown').innerText(), '4');
    assert.equal(await count(tab, 'li.finding.warning'), 5);
    assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
    await context.close();
  });

  await check('a HAR file: streamed responses assembled, secret headers REDACTED', async () => {
    const { tab, seen, context } = await open(pages.har);
    assert.equal(await count(tab, 'section.doc.interaction'), 2);
    assert.equal(await count(tab, '.side.response .note.stream'), 2);
    assert.match(await tab.locator('.side.response .note.stream').first().innerText(), /^assembled from \d+ events of server-sent events \(anthropic stream\)$/);
    // The headers open on a click; a secret one shows no value.
    const headers = tab.locator('section#interaction-1 .side.request details.headers');
    assert.match(await headers.locator('summary').innerText(), /headers \(\d+ redacted\)/);
    await headers.locator('summary').click();
    assert.equal(await headers.locator('.redacted').first().innerText(), 'REDACTED');
    assert.ok(await headers.locator('.redacted').first().isVisible());
    await tab.screenshot({ path: join(out, 'har.png'), fullPage: true });
    assert.deepEqual(seen, { errors: [], dialogs: [], requests: [] });
    await context.close();
  });
}

await browser.close();
for (const [name, path] of Object.entries(pages)) {
  console.log(`page ${name}: ${path} (${statSync(path).size.toLocaleString('en')} bytes)`);
}
console.log(`screenshots: ${out}/*.png`);
process.exit(failed ? 1 : 0);
