import type { Page } from '@playwright/test';
import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * No screen cuts text off without a way to read it. The checker flags a visible element whose
 * own text overflows a box that clips it (overflow hidden/clip, scrollWidth/Height past its
 * client size), or whose text runs past a clipping ancestor, unless the text can be read
 * another way: a title on it or an ancestor, an aria-describedby tooltip, or a scrollable box
 * between it and the clip. Monaco's internals and React Flow's hidden accessibility text are
 * left out; nodes on the canvas can be panned into view, so the canvas counts as scrollable.
 */
interface Overflow {
  what: string;
  text: string;
  how: string;
}

async function findOverflows(page: Page, scope = 'body'): Promise<Overflow[]> {
  return page.evaluate((scopeSelector) => {
    const CLIPS = ['hidden', 'clip'];
    const SCROLLS = ['auto', 'scroll'];
    const out: { what: string; text: string; how: string }[] = [];
    const describe = (el: Element) => {
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id ? `[data-testid="${id}"]` : ''}${cls}`;
    };
    const readable = (el: Element) => !!el.closest('[title]:not([title=""]), [aria-describedby]');
    const ownText = (el: Element) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim().length > 0);
    const root = document.querySelector(scopeSelector) ?? document.body;
    for (const el of root.querySelectorAll<HTMLElement>('*')) {
      if (el.closest('.monaco-editor, .monaco-aria-container, [id^="react-flow__"], .visually-hidden, option, script, style')) continue;
      const texts = ownText(el);
      if (texts.length === 0) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility !== 'visible' || Number(cs.opacity) === 0) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const text = texts.map((t) => t.textContent!.trim()).join(' ').slice(0, 80);
      if (readable(el) || SCROLLS.includes(cs.overflowX) || SCROLLS.includes(cs.overflowY)) continue;
      // 1. The element clips its own text.
      const clipsX = CLIPS.includes(cs.overflowX) && el.scrollWidth > el.clientWidth + 1;
      const clipsY = CLIPS.includes(cs.overflowY) && el.scrollHeight > el.clientHeight + 1;
      if (clipsX || clipsY) {
        out.push({ what: describe(el), text, how: `clips its text (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})` });
        continue;
      }
      // 2. Its text runs past the nearest ancestor that clips (a scrollable one on the way is fine).
      const range = document.createRange();
      const rects = texts.flatMap((t) => {
        range.selectNodeContents(t);
        return [...range.getClientRects()];
      });
      if (rects.length === 0) continue;
      const extent = {
        left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
        top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
      };
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const as = getComputedStyle(a);
        if (SCROLLS.includes(as.overflowX) || SCROLLS.includes(as.overflowY) || a.classList.contains('react-flow')) break;
        if (!CLIPS.includes(as.overflowX) && !CLIPS.includes(as.overflowY)) continue;
        if (readable(a)) break;
        const r = a.getBoundingClientRect();
        const past = (CLIPS.includes(as.overflowX) && (extent.left < r.left - 1 || extent.right > r.right + 1))
          || (CLIPS.includes(as.overflowY) && (extent.top < r.top - 1 || extent.bottom > r.bottom + 1));
        // Text wholly outside the clip is hidden on purpose (a folded pane), not cut.
        const inside = extent.right > r.left && extent.left < r.right && extent.bottom > r.top && extent.top < r.bottom;
        if (past && inside) out.push({ what: describe(el), text, how: `runs past ${describe(a)}` });
        break;
      }
    }
    return out;
  }, scope);
}

async function expectNoOverflow(page: Page, where: string, scope?: string): Promise<void> {
  const found = await findOverflows(page, scope);
  expect(found, `${where}: text cut off with no way to read it`).toEqual([]);
}

test('the checker flags real overflows and passes readable ones', async ({ app, page }) => {
  await app.open();
  await page.evaluate(() => {
    const host = document.createElement('div');
    host.id = 'overflow-probe';
    host.innerHTML = `
      <div data-testid="probe.ellipsis" style="width:60px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">a long library name that is cut</div>
      <div data-testid="probe.titled" title="a long library name that is cut" style="width:60px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">a long library name that is cut</div>
      <div style="width:60px;overflow:hidden"><span data-testid="probe.child" style="white-space:nowrap">a child running past its clipped parent</span></div>
      <div style="width:60px;overflow:auto"><span style="white-space:nowrap">scrollable, so it can be read</span></div>
      <div style="width:60px;height:16px;overflow:hidden;line-height:16px" data-testid="probe.tall">two lines of text that wrap and are cut at one line</div>
      <div style="width:200px">fits comfortably</div>`;
    host.style.cssText = 'position:fixed;left:0;top:0;z-index:9999;background:white;width:220px';
    document.body.append(host);
  });
  const found = await findOverflows(page, '#overflow-probe');
  expect(found.map((f) => f.what).sort()).toEqual(['div[data-testid="probe.ellipsis"]', 'div[data-testid="probe.tall"]', 'span[data-testid="probe.child"]'].sort());
});

async function openScreens(app: AppPage, page: Page, size: string): Promise<void> {
  await app.open();
  // The designer with a demo chain open and a step selected.
  await app.openChain('demo-support-ticket');
  await app.showWholeChain();
  await app.node('classify').click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  await expectNoOverflow(page, `${size} designer with a step selected`);

  // A router's step panel (its routes table).
  await app.openChain('demo-select-quotes-then-answer');
  await app.showWholeChain();
  await app.node('route_evidence').click();
  await expectNoOverflow(page, `${size} router step panel`);

  // Shortcuts overlay.
  await page.getByTestId('canvas').locator('.react-flow__pane').click({ position: { x: 30, y: 300 } });
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts')).toBeVisible();
  await expectNoOverflow(page, `${size} shortcuts`, '[data-testid="shortcuts"]');
  await page.keyboard.press('Escape');

  // Profiles dialog with a new profile form.
  await page.getByTestId('profile.manage').click();
  if (await page.getByTestId('profile.new').isVisible()) await page.getByTestId('profile.new').click();
  await expect(page.getByTestId('profile.form.name')).toBeVisible();
  await expectNoOverflow(page, `${size} profile form`, '[data-testid="profile.dialog"]');
  await page.keyboard.press('Escape');

  // Export dialog.
  await app.openChain('demo-summarise-then-answer');
  await page.getByTestId('export.open').click();
  await expect(page.getByTestId('export.preview')).toBeVisible();
  await expectNoOverflow(page, `${size} export dialog`, '[data-testid="export.dialog"]');
  await app.screenshot(`export-dialog-${size}`);
  await page.keyboard.press('Escape');

  // Run dialog.
  await page.getByTestId('run.open').click();
  await expect(page.getByTestId('run.dialog')).toBeVisible();
  await expectNoOverflow(page, `${size} run dialog`, '[data-testid="run.dialog"]');
  await page.getByTestId('run.start').click();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expectNoOverflow(page, `${size} replay`);

  // Run diff of two runs (the fork against its parent).
  await app.forkWithOutput('summarise', { summary: 'Reconsideration within the 180-day period after notice.' });
  await page.getByTestId('replay.compareParent').click();
  await expect(page.getByTestId('diff')).toBeVisible();
  await expectNoOverflow(page, `${size} run diff`);

  // Metrics dialog.
  await page.getByTestId('runs.metrics').click();
  await expect(page.getByTestId('metrics.dialog')).toBeVisible();
  await expectNoOverflow(page, `${size} metrics`, '[data-testid="metrics.dialog"]');
  await page.keyboard.press('Escape');
}

for (const size of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }]) {
  test(`no cut-off text on the main screens at ${size.width}×${size.height}`, async ({ app, page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    await openScreens(app, page, `${size.width}`);
  });
}

test('the export dialog at 1024×700', async ({ app, page }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await page.getByTestId('export.open').click();
  await expect(page.getByTestId('export.preview')).toBeVisible();
  await expectNoOverflow(page, '1024 export dialog', '[data-testid="export.dialog"]');
  await app.screenshot('export-dialog-1024');
});
