import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/app.ts';

/**
 * Nothing important out of reach (issue 31, item 2), at 1440×900 and 1280×720 in the library,
 * the replay (a fork, whose row carries the most actions) and Evaluate: every text cut short
 * (an ellipsis, or clipped by its box) has its full text on hover, and the replay's steps fit
 * beside Compare and Export without scrolling sideways.
 */
const sizes = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
];

const statute = new URL('../public/demo/datasets/statute-appeals.dataset.jsonl', import.meta.url);

/**
 * Every visible element whose text is wider than its box and clipped (an ellipsis or overflow
 * hidden; scrolling boxes are not cut), with the title its hover shows (its own or an ancestor's).
 */
async function cutWithoutFullText(page: Page): Promise<{ text: string; title: string | null }[]> {
  return page.locator('body *').evaluateAll((els) => els.flatMap((el) => {
    // (A 1 px box is text for screen readers only: .visually-hidden.)
    if (el instanceof HTMLSelectElement) {
      // A closed select shows its chosen option, cut by its box without any overflow to measure: measure the text.
      const chosen = el.selectedOptions[0]?.textContent?.trim() ?? '';
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(el).font;
      const room = el.clientWidth - parseFloat(getComputedStyle(el).paddingLeft) - 20;
      const r = el.getBoundingClientRect();
      if (!chosen || ctx.measureText(chosen).width <= room || r.width === 0 || r.bottom < 0 || r.top > innerHeight) return [];
      return el.title.includes(chosen) ? [] : [{ text: chosen, title: el.title || null }];
    }
    if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth <= 1) return [];
    const style = getComputedStyle(el);
    const clipped = style.textOverflow === 'ellipsis' || style.overflowX === 'hidden' || style.overflowX === 'clip';
    if (!clipped || style.visibility === 'hidden' || el.closest('.visually-hidden')) return [];
    // Text of its own: a box that clips children (each checked on its own) is not a cut text.
    const own = [...el.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent).join('').trim();
    if (!own) return [];
    const r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) return [];
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    const holder = el.closest('[title]');
    const title = holder ? holder.getAttribute('title')!.replace(/\s+/g, ' ') : null;
    return title && title.includes(text.replace(/…$/, '')) ? [] : [{ text, title }];
  }));
}

for (const size of sizes) {
  test(`at ${size.width}×${size.height}: cut texts are whole on hover in the library, replay and Evaluate; the replay's steps fit`, async ({ app, page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(size);
    await app.open();
    expect(await cutWithoutFullText(page), 'library').toEqual([]);

    await app.openChain('demo-summarise-then-answer');
    await app.run();
    await app.expectRunStatus(/succeeded/i);
    await app.openLatestRun();
    await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
    await app.forkWithOutput('summarise', { summary: 'The policy has parts.' });
    await expect(page.getByTestId('replay.compareParent')).toBeVisible();
    expect(await cutWithoutFullText(page), 'replay').toEqual([]);

    // The steps row: no sideways scrolling; every chip and action whole on screen, none on another.
    const timeline = page.locator('.replay .timeline');
    expect(await timeline.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    const row = (await page.locator('.replay-steps-row').boundingBox())!;
    const parts = [...await page.locator('.replay .timeline-card').all(), ...await page.locator('.replay-steps-row > .button, .replay-actions > *').all()];
    const boxes = [];
    for (const part of parts) {
      const b = (await part.boundingBox())!;
      expect(b.x >= row.x - 0.5 && b.x + b.width <= row.x + row.width + 0.5 && b.x + b.width <= size.width, 'inside the row and the window').toBe(true);
      boxes.push(b);
    }
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(a.x + a.width <= b.x + 0.5 || b.x + b.width <= a.x + 0.5 || a.y + a.height <= b.y + 0.5 || b.y + b.height <= a.y + 0.5).toBe(true);
    }
    // Each step's name is there to read (cut at most to a few characters, whole on hover).
    for (const name of await page.locator('.replay .timeline-name').all()) expect((await name.boundingBox())!.width).toBeGreaterThanOrEqual(30);
    await app.screenshot(`full-text-replay-${size.width}`);

    await page.getByTestId('eval.open').click();
    const lines = (await readFile(statute, 'utf8')).trim().split('\n');
    await page.getByTestId('eval.import').setInputFiles({ name: 'statute-2.dataset.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${lines.slice(0, 3).join('\n')}\n`) });
    await page.getByTestId('eval.chain.demo-summarise-then-answer').click();
    await page.getByTestId('eval.controls').click();
    expect(await cutWithoutFullText(page), 'evaluate, before a run').toEqual([]);
    await page.getByTestId('eval.start').click();
    await expect(page.getByTestId('eval.table')).toBeVisible({ timeout: 90_000 });
    await page.getByTestId('eval.row.demo-summarise-then-answer').getByRole('button').click();
    await expect(page.getByTestId('eval.details')).toBeVisible();
    expect(await cutWithoutFullText(page), 'evaluate, the table and a row\'s details').toEqual([]);
    await app.screenshot(`full-text-evaluate-${size.width}`);
  });
}
