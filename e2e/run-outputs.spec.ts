import { expect, test } from './fixtures/app.ts';

/**
 * A chain with two outputs (an answer, and "no answer in the document" behind a router): the
 * replay names each output with what it returned or why it has nothing, so the branch that never
 * delivered is said beside the one that did, and a click goes to the output's boundary.
 */
test('the replay shows each output of a run: the one that returned and the branch the router skipped', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-select-quotes-then-answer');
  await app.run();
  await app.expectRunStatus(/succeeded/i);
  await app.openLatestRun();
  const outputs = page.getByTestId('replay.outputs');
  await expect(outputs).toBeVisible();
  await expect(page.getByTestId('replay.output.final')).toContainText('Answer');
  await expect(page.getByTestId('replay.output.final')).toContainText('180');
  const skipped = page.getByTestId('replay.output.no_answer');
  await expect(skipped).toContainText('skipped');
  await expect(skipped).toContainText('route_evidence read');
  await page.getByTestId('replay.output.final').click();
  await expect(page.getByTestId('replay.boundary')).toContainText('Answer');
  await app.screenshot('run-outputs-1440');
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(skipped).toBeVisible();
  await app.screenshot('run-outputs-1280');
});
