import { expect, test } from './fixtures/app.ts';

/**
 * The asked fact leads (#28 item 4): on the summarise → answer demo the boundary headline names
 * the dropped 180-day period the question asks about, and the source pane opens on it; the
 * counts leave out the source note; a router reading a label is not told it lost facts.
 */
test('summarise-then-answer: the headline names the 180-day period and the source opens on it', async ({ app, page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);

  const lead = page.getByTestId('replay.lead');
  await expect(lead).toContainText('180-day period: dropped — the question asks how many days to request a reconsideration');
  // It comes before the per-kind counts, and the first asked fact listed is the same one.
  await expect(page.getByTestId('replay.survival')).toHaveText(/^180-day period: dropped/);
  await expect(page.getByTestId('replay.askedFact').first()).toContainText('180-day period');

  // The source pane opened on it: the lead fact is marked and in view.
  const leadFact = page.getByTestId('replay.source').locator('[data-testid="replay.fact"][data-lead="true"]');
  await expect(leadFact).toHaveCount(1);
  await expect(leadFact).toHaveText('180-day period');
  await expect(leadFact).toBeInViewport();
  // The source note's citation and year are not counted as facts.
  await expect(page.getByTestId('replay.source')).toContainText('2 about the document itself not counted');
  await expect(page.getByTestId('replay.source').locator('[data-testid="replay.fact"]', { hasText: '17 U.S.C. 105' })).toHaveCount(0);
  // Conditions are marked like numbers (#29 item 6): the statute's clauses, dropped or kept, with the words that matched.
  const source = page.getByTestId('replay.source');
  await expect(source.locator('[data-testid="replay.fact"][data-kind="condition"][data-clause][data-state="dropped"]').first()).toBeAttached();
  const kept = source.locator('[data-testid="replay.fact"][data-clause="prerequisite"][data-state="survived"]', { hasText: 'only if notice is filed with the Secretary' });
  await expect(kept).toHaveCount(1);
  await expect(kept).toHaveAttribute('title', /words the intermediate says too: .*notic/);
  await app.screenshot('asked-fact-leads-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(leadFact).toBeVisible();
  await leadFact.scrollIntoViewIfNeeded();
  await app.screenshot('asked-fact-leads-1280');
});

test('support ticket: a router reading a label is not headlined with the ticket facts it never needed', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-support-ticket');
  await app.run();
  await app.expectRunStatus(/succeeded|escalated/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(classify\)\s*→.*\(route_intent\)/);
  await expect(page.getByTestId('replay.notNeeded')).toContainText('chooses a route from a label');
  await expect(page.getByTestId('replay.lead')).toHaveCount(0);
  await expect(page.getByTestId('replay.lossy')).toHaveCount(0);
});
