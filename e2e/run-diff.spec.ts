import { expect, test, type AppPage } from './fixtures/app.ts';

/**
 * The run diff reads: the words that changed are marked on each side, the step column shows
 * the step's name (id second) without breaking it letter by letter, and no toast sits on it.
 */
const SUMMARY = 'A member may request reconsideration of a redetermination within the 180-day period after receiving notice of it.';

async function openDiff(app: AppPage): Promise<void> {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.forkWithOutput('summarise', { summary: SUMMARY });
  await app.page.getByTestId('replay.compareParent').click();
  await expect(app.page.getByTestId('diff')).toBeVisible();
}

for (const size of [{ width: 1440, height: 900 }, { width: 1280, height: 720 }, { width: 1024, height: 700 }]) {
  test(`run diff at ${size.width}×${size.height}: word highlights and a readable step column`, async ({ app, page }) => {
    await page.setViewportSize(size);
    await openDiff(app);
    const summarise = page.getByTestId('diff.step.summarise');
    // B's summary is all new words against A's; the answer shows just the words that changed.
    await expect(summarise.locator('[data-testid="diff.outputB"] ins.word-added').first()).toBeVisible();
    await expect(summarise.locator('[data-testid="diff.outputB"] ins.word-added', { hasText: '180-day' })).toHaveCount(1);
    const answer = page.getByTestId('diff.step.answer');
    await expect(answer.locator('ins.word-added', { hasText: '180' }).first()).toBeVisible();
    await expect(answer.locator('del.word-removed').first()).toBeVisible();
    // Some words are common to both answers, so not everything is marked.
    expect(await answer.locator('[data-testid="diff.outputB"]').evaluate((pre) => [...pre.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim().length > 0))).toBe(true);

    // The step column: the name first, the id second, each line at least a word wide.
    const name = summarise.locator('.diff-step-name');
    await expect(name).toHaveText('Summarise the policy');
    await expect(summarise.locator('.diff-step-id')).toHaveText('summarise');
    const lines = await name.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || '16')));
    expect(lines).toBeLessThanOrEqual(2);
    expect((await name.boundingBox())!.width).toBeGreaterThan(100);

    // Toasts stand clear of the dock, where the diff is.
    const toast = page.getByTestId('toast').first();
    // (A toast can close between the check and the measure: then there is nothing to stand clear.)
    const t = (await toast.isVisible()) ? await toast.boundingBox() : null;
    if (t) {
      const dock = (await page.getByTestId('pane.replay').boundingBox())!;
      expect(t.y + t.height).toBeLessThanOrEqual(dock.y + 1);
    }
    await app.screenshot(`run-diff-${size.width}`);
  });
}
