import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createMockModelServer } from '../src/testing/mock-server.ts';
import { expect, test } from './fixtures/app.ts';

/**
 * Egress and keys, driven through the app: a webhook origin is confirmed once per device
 * before anything is sent there; and a key an endpoint echoes back (error bodies, answer
 * text, response headers) reaches no IndexedDB table, no download and no console line.
 */

/** Every IndexedDB table of the app except `secrets` (the one place a key is meant to live), as JSON text. */
function readRecords(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => new Promise<Record<string, string>>((done, fail) => {
    const open = indexedDB.open('seamscope');
    open.onerror = () => fail(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const names = [...db.objectStoreNames];
      const out: Record<string, string> = {};
      const tx = db.transaction(names);
      for (const name of names) {
        const all = tx.objectStore(name).getAll();
        all.onsuccess = () => (out[name] = JSON.stringify(all.result));
      }
      tx.oncomplete = () => done(out);
      tx.onerror = () => fail(tx.error);
    };
  }));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function chainWithWebhook(url: string) {
  return {
    format: 'seamscope.chain', version: 1, id: 'egress-hook', name: 'Answer, then post it',
    inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'trusted', example: 'How many days do I have?' }],
    steps: [
      { id: 'answer', kind: 'model', name: 'Answer', position: { x: 0, y: 0 }, config: { bindings: { question: 'inputs.question' }, prompt: 'Answer briefly: {question}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } } },
      { id: 'send', kind: 'webhook', name: 'Send', position: { x: 300, y: 0 }, config: { bindings: { value: 'steps.answer' }, url } },
    ],
  };
}

test.describe('a webhook is egress', () => {
  let hook: Server;
  let hookOrigin = '';
  const posts: string[] = [];
  test.beforeAll(async () => {
    hook = createServer((req, res) => {
      // The app posts from its own origin, so the receiver must answer CORS like any real one.
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, idempotency-key', 'access-control-allow-methods': 'POST' };
      if (req.method === 'POST') posts.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(req.method === 'OPTIONS' ? 204 : 200, cors).end(req.method === 'OPTIONS' ? '' : '{}'));
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookOrigin = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((r) => hook.close(() => r())));

  test('asked once per origin per device: refusing stops the run with nothing sent; allowing posts', async ({ app, page }) => {
    await app.open();
    const chain = chainWithWebhook(`${hookOrigin}/hook`);
    await page.getByTestId('library.import').setInputFiles({ name: 'hook.chain.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(chain)) });
    await expect(page.getByTestId('step.send')).toBeVisible();
    // Lint marks the unconfirmed egress on the webhook step.
    const finding = page.getByTestId('lint.item').filter({ hasText: 'unconfirmed-egress' });
    await expect(finding).toContainText(hookOrigin);
    await expect(finding).toContainText('send');

    await app.run();
    const dialog = page.getByTestId('webhook.confirm');
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('webhook.confirm.origin')).toHaveText(hookOrigin);
    await expect(page.getByTestId('webhook.confirm.chain')).toHaveText(chain.name);
    await page.getByTestId('webhook.confirm.no').click();
    await expect(page.locator('.toast').filter({ hasText: 'Run stopped' })).toContainText(hookOrigin);
    expect(posts).toEqual([]);
    // Refused on this device: the next run stops without asking, and still sends nothing.
    await expect(finding).toContainText('did not allow');
    await app.run();
    await expect(page.locator('.toast').filter({ hasText: 'not allowed on this device' }).first()).toBeVisible();
    await expect(dialog).toHaveCount(0);
    expect(posts).toEqual([]);
    expect(JSON.parse((await readRecords(page)).runs ?? '[]')).toEqual([]);

    // Ask again, allow: the run posts once; later runs do not ask.
    await page.getByTestId('lint.egress.forget').click();
    await app.run();
    await expect(dialog).toBeVisible();
    await page.getByTestId('webhook.confirm.yes').click();
    await app.expectRunStatus(/succeeded/i);
    expect(posts).toEqual(['/hook']);
    await expect(page.getByTestId('lint.item').filter({ hasText: 'unconfirmed-egress' })).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('canvas')).toBeVisible();
    await app.libraryItem('egress-hook').click();
    await app.run();
    // The status line already says "succeeded" (the last run's) before this run ends: the post
    // itself is what shows this run went through without asking.
    await expect.poll(() => posts).toEqual(['/hook', '/hook']);
    await app.expectRunStatus(/succeeded/i);
    await expect(dialog).toHaveCount(0);
  });
});

test('a key echoed by the endpoint reaches no IndexedDB table, download or console line', async ({ app, page }) => {
  test.setTimeout(120_000);
  const CANARY = 'sk-canary-e2e-9fKq3ZtW7pXv';
  const CANARY_PART = 'canary-e2e-9fKq3ZtW7pXv';
  // Its own mock, requiring the canary, that stops by itself if the test dies.
  const echo = await createMockModelServer({ apiKey: CANARY, idleExitMs: 120_000 });
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  try {
    await app.open();
    // A base URL with a user name or password is refused by the profile form.
    await page.getByTestId('profile.manage').click();
    if (await page.getByTestId('profile.new').isVisible()) await page.getByTestId('profile.new').click();
    await app.typeInto(page.getByTestId('profile.form.name'), 'With userinfo');
    await app.typeInto(page.getByTestId('profile.form.baseUrl'), `http://me:${CANARY}@127.0.0.1:${echo.port}/v1`);
    await page.getByTestId('profile.save').click();
    await expect(page.locator('.profile-form .field-error').first()).toContainText('user name or password');
    await page.keyboard.press('Escape');

    await app.openChain('demo-summarise-then-answer');
    // Both protocols: a transport retry echoing it, an answer that is the key, then every call a 401 echoing it.
    for (const [kind, baseUrl] of [['anthropic', echo.url], ['openai', `${echo.url}/v1`]] as const) {
      await app.addProfile({ name: `Echoing ${kind} endpoint`, kind, baseUrl, model: 'echo-model', apiKey: CANARY });
      echo.reset();
      echo.enqueue({ fault: 'echo_key', status: 500 }, { fault: 'echo_key', status: 200 });
      echo.setResponder(() => ({ fault: 'echo_key', status: 401 }));
      await app.run();
      // The second protocol's run starts while the first one's "failed" still shows: wait for its
      // calls before reading the status, or the old status passes for the new run's.
      await expect.poll(() => echo.requests.filter((r) => r.method === 'POST' && r.protocol === kind).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
      await app.expectRunStatus(/failed/i);
      await expect(page.locator('.toast').filter({ hasText: 'failed' }).first()).toBeVisible();
    }

    await app.openLatestRun();
    await app.expectStoredReplay();
    await expect(page.getByTestId('replay')).toContainText('[redacted]');
    const dir = mkdtempSync(join(tmpdir(), 'seamscope-canary-e2e-'));
    const download = async (testId: string, name: string) => {
      const downloading = page.waitForEvent('download');
      await page.getByTestId(testId).click();
      await (await downloading).saveAs(join(dir, name));
    };
    await download('replay.exportOtlp', 'run.otlp.json');
    for (const lang of ['ts', 'py'] as const) {
      await page.getByTestId('export.open').click();
      await page.getByTestId(`export.lang.${lang}`).click();
      await expect(page.getByTestId('export.preview')).toContainText('Generated by Seamscope');
      await download('export.download', `${lang}.zip`);
      execFileSync('python3', ['-m', 'zipfile', '-e', join(dir, `${lang}.zip`), join(dir, lang)]);
      await page.keyboard.press('Escape');
    }

    const files = filesUnder(dir).filter((f) => !f.endsWith('.zip'));
    expect(files.length).toBeGreaterThan(4);
    for (const file of files) expect(readFileSync(file, 'utf8').includes(CANARY_PART), file).toBe(false);
    const records = await readRecords(page);
    expect(Object.keys(records)).toEqual(expect.arrayContaining(['chains', 'runs', 'events', 'profiles', 'secrets']));
    // The secrets table is where the key lives, on purpose; nowhere else.
    expect(records.secrets).toContain(CANARY_PART);
    for (const [table, text] of Object.entries(records)) if (table !== 'secrets') expect(text.includes(CANARY_PART), `IndexedDB table ${table}`).toBe(false);
    expect(records.events).toContain('Incorrect API key provided');
    expect(JSON.parse(records.runs ?? '[]')).toHaveLength(2);
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(storage.includes(CANARY_PART)).toBe(false);
    expect((await page.locator('body').innerText()).includes(CANARY_PART)).toBe(false);
    expect(consoleLines.join('\n').includes(CANARY_PART)).toBe(false);
  } finally {
    await echo.close();
  }
});
