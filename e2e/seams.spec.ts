import { expect, test } from './fixtures/app.ts';

/**
 * Seeing the seam (seeds 000 and 001): the summarise → answer boundary is flagged likely
 * lossy with the dropped day counts marked in the source; a fork with an edited summary puts
 * the numbers back and the diff shows what changed.
 */
test('summarise-then-answer: the lossy boundary, the dropped day counts, a fork that keeps them, and the diff', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);

  // Likely lossy, in the boundary header and on the canvas edge; not malformed.
  await expect(page.getByTestId('replay.lossy')).toHaveText('Likely lossy');
  await expect(page.getByTestId('replay.malformed')).toHaveCount(0);
  await expect(page.getByTestId('replay.survival')).toContainText('22 of 22 durations dropped — question asks for duration');
  // Why each fact was judged asked: its relevance score, the question's words found around it, its kind.
  const asked = page.getByTestId('replay.askedFact').filter({ hasText: '180-day period' });
  await expect(asked).toHaveCount(1);
  // It is the best candidate: the question asks how long to request one, and this is that deadline.
  await expect(asked).toContainText(/dropped \(score [\d.]+ \(best\); matched day, request, reconsideration; a duration, as "How many days" asks\)/);
  const edge = app.edge('data:summarise->answer:summary');
  await expect(edge).toHaveClass(/edge-lossy/);
  await expect(edge).toContainText('likely lossy');

  // The day counts are marked dropped in the source, and the pane scrolled to the one the headline names.
  const dropped = page.getByTestId('replay.source').locator('[data-testid="replay.fact"][data-state="dropped"]', { hasText: '180-day period' });
  await expect(dropped).toHaveCount(1);
  await expect(dropped).toHaveClass(/is-asked/);
  await expect(page.getByTestId('replay.source').locator('[data-testid="replay.fact"][data-lead="true"]')).toBeInViewport();
  await app.screenshot('seams-lossy-boundary');

  // Fork at the summary with the numbers put back.
  const parentId = (await page.locator('[data-testid^="runs.item."]').first().getAttribute('data-testid'))!.slice('runs.item.'.length);
  await page.getByTestId('replay.fork.summarise').click();
  const fork = page.getByTestId('fork');
  await expect(fork).toBeVisible();
  await expect(page.getByTestId('fork.plan')).toContainText('Rerun');
  await expect(page.getByTestId('fork.plan')).toContainText('Answer');
  // An intermediate that breaks the step's schema blocks the rerun, with the reason.
  await app.setEditorText(page.getByTestId('fork.editor'), '{"summary": 180}');
  await expect(page.getByTestId('fork.errors')).toContainText('/summary: must be string');
  await expect(page.getByTestId('fork.start')).toBeDisabled();
  await app.setEditorText(
    page.getByTestId('fork.editor'),
    JSON.stringify({ summary: 'A member may request reconsideration of a redetermination within the 180-day period after receiving notice of it. Expedited reconsiderations are decided within a 72-hour period.' }),
  );
  await expect(page.getByTestId('fork.errors')).toHaveCount(0);
  await app.screenshot('seams-fork-dialog');
  await page.getByTestId('fork.start').click();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();

  // The fork is in the run list, marked, and its answer has the numbers.
  const forkItem = page.locator('[data-testid^="runs.item."]', { hasText: 'fork of' });
  await expect(forkItem).toHaveCount(1);
  await expect(forkItem).toContainText('at summarise');
  await expect(page.getByTestId(`runs.parent.${(await forkItem.getAttribute('data-testid'))!.slice('runs.item.'.length)}`)).toBeVisible();
  await expect(page.getByTestId('replay.step.summarise')).toContainText('reused');
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(page.getByTestId('replay.lossy')).toHaveCount(0);
  await expect(page.getByTestId('replay.output')).toContainText('180');

  // Compare with the parent: the summary and the answer changed.
  await page.getByTestId('replay.compareParent').click();
  const diff = page.getByTestId('diff');
  await expect(diff).toBeVisible();
  await expect(diff).toContainText('(parent)');
  await expect(page.getByTestId('diff.step.summarise')).toContainText('180-day period');
  await expect(page.getByTestId('diff.step.answer')).toContainText('180');
  await expect(page.getByTestId('diff.step.answer')).toContainText('promptly');
  await app.screenshot('seams-diff');
  await page.getByTestId('diff.close').click();
  await expect(diff).toHaveCount(0);

  // The parent is one click away.
  await page.getByTestId('replay.parent').click();
  await expect(page.getByTestId(`runs.item.${parentId}`)).toHaveClass(/is-open/);
});

test('retrieval pipeline: the truncation view shows the fifth chunk cut by the 4,000-token budget', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-retrieval-pipeline');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(retrieve\)\s*→.*\(generate\)/);

  await expect(page.getByTestId('replay.truncated')).toContainText('{chunks}');
  const view = page.getByTestId('replay.truncation');
  await expect(view).toBeVisible();
  await expect(view.locator('.seg-budget')).toContainText('budget 4,000');
  await expect(view.locator('.seg-cut')).toContainText(/[\d,]+ cut/);
  const sentence = page.getByTestId('replay.truncation.sentence');
  await expect(sentence).toContainText(/^Given 5 chunks, read \d/);
  await expect(sentence).toContainText('the budget of 4,000 tokens cut');
  await expect(sentence).toContainText('from the end of {chunks}');
  // The fifth chunk never reached the model.
  await expect(sentence).toContainText(/Not read at all: s\d+/);
  await app.screenshot('seams-truncation');

  // The generator's own attempt is there too, and the citation gate's verdict on its output.
  await app.stepToBoundary(/\(generate\)\s*→.*\(citations\)/);
  await expect(page.getByTestId('replay.check.citations')).toBeVisible();
});

test('import a corpus OTLP trace (Vercel AI SDK) and step through its calls', async ({ app, page }) => {
  await app.open();
  await expect(app.libraryItem('demo-summarise-then-answer')).toBeVisible();
  await page.getByTestId('trace.import').setInputFiles(new URL('./fixtures/traces/vercel-ai-sdk-v6-openai.otlp.json', import.meta.url).pathname);
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported 4 model call(s)' })).toBeVisible();
  await app.expectStoredReplay();
  await expect(page.locator('[data-testid^="library.item."]', { hasText: 'ai.generateText' })).toHaveCount(1);
  await expect(page.locator('[data-testid^="runs.item."]')).toHaveCount(1);

  // No data crossed between these calls, so ← → step call by call (labelled by span name, id second).
  const label = page.getByTestId('replay.boundary');
  await expect(label).toHaveText(/^step .*\(ai_generateText_doGenerate\)$/);
  await page.getByTestId('replay.prev').focus();
  await page.keyboard.press('ArrowRight');
  await expect(label).toHaveText(/^step .*\(ai_generateText_doGenerate_2\)$/);
  await page.getByTestId('replay.next').click();
  await expect(label).toHaveText(/^step .*\(ai_generateObject_doGenerate\)$/);
  await expect(page.getByTestId('replay.output')).not.toHaveText('(none)');
  await page.getByTestId('replay.next').click();
  await expect(label).toHaveText(/^step .*\(ai_streamText_doStream\)$/);
  await expect(page.getByTestId('replay.next')).toBeDisabled();
  await expect(page.getByTestId('replay').getByText('Sent to', { exact: false })).toBeVisible();
  await app.screenshot('seams-import-vercel');

  // Importing the same file again stores nothing new.
  await page.getByTestId('trace.import').setInputFiles(new URL('./fixtures/traces/vercel-ai-sdk-v6-openai.otlp.json', import.meta.url).pathname);
  await expect(page.getByTestId('toast').filter({ hasText: 'imported before' })).toBeVisible();
  await expect(page.locator('[data-testid^="runs.item."]')).toHaveCount(1);
});

test('a run exports to OTLP and imports back as the same replay; broken and hostile files change nothing', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.expectStoredReplay();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('replay.exportOtlp').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.otlp\.json$/);
  const path = await download.path();

  const libraryBefore = await page.locator('[data-testid^="library.item."]').count();
  const runs = page.locator('[data-testid^="runs.item."]');
  await expect(runs).toHaveCount(1);

  // Refused files: the error is shown and nothing stored changes.
  for (const [name, body] of [
    ['broken.otlp.json', '{"resourceSpans": ['],
    ['proto.otlp.json', '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"x","spanId":"y","name":"n"}]}]}]}'],
    ['nested.otlp.json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['polluted.otlp.json', '{"resourceSpans":[],"__proto__":{"polluted":true}}'],
  ] as const) {
    await page.getByTestId('trace.import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(body) });
    await expect(page.getByTestId('toast').filter({ hasText: 'Import failed' }).last()).toBeVisible();
    await expect(page.locator('[data-testid^="library.item."]')).toHaveCount(libraryBefore);
    await expect(runs).toHaveCount(1);
  }
  expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();

  await page.getByTestId('trace.import').setInputFiles(path);
  await expect(page.getByTestId('toast').filter({ hasText: 'Imported 2 model call(s)' })).toBeVisible();
  await expect(runs).toHaveCount(2);
  await expect(page.locator('[data-testid^="library.item."]')).toHaveCount(libraryBefore);
  await app.expectStoredReplay();
  await app.stepToBoundary(/\(summarise\)\s*→.*\(answer\)/);
  await expect(page.getByTestId('replay.lossy')).toBeVisible();
  await expect(page.getByTestId('replay.source').locator('[data-testid="replay.fact"][data-state="dropped"]', { hasText: '180-day period' })).toHaveCount(1);
});
