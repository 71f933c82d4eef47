import { expect, test } from './fixtures/app.ts';

/**
 * A chain's run budget, set by typing: a bad value is refused where it is typed and never
 * reaches the chain; a limit stops the run, failed, with the reason, and is kept with the chain.
 */
test('a step budget typed into the chain panel stops the run after that many steps, and stays with the chain', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-summarise-then-answer');
  const budget = page.getByTestId('chain.budget');
  await budget.locator('summary').click();
  await expect(page.getByTestId('chain.budget.summary')).toHaveText('no limits');

  // Not a number: an error under the box, the chain unchanged.
  await app.typeInto(page.getByTestId('chain.budget.maxSteps'), 'two');
  await expect(budget.getByText('Enter a positive number, or leave it empty for no limit')).toBeVisible();
  await expect(page.getByTestId('chain.budget.summary')).toHaveText('no limits');
  await app.typeInto(page.getByTestId('chain.budget.maxSteps'), '0');
  await expect(budget.getByText('Enter a whole number from 1')).toBeVisible();

  await app.typeInto(page.getByTestId('chain.budget.maxSteps'), '1');
  await app.typeInto(page.getByTestId('chain.budget.maxTimeMs'), '90');
  await expect(page.getByTestId('chain.budget.summary')).toHaveText('1 step · 90 seconds');
  await app.screenshot('run-budget-1440');

  await app.run();
  await app.expectRunStatus(/failed/i);
  await app.openLatestRun();
  await expect(page.getByTestId('replay')).toContainText(/Run budget reached: step budget of 1 reached/);

  // Kept with the chain: after a reload the limits are there.
  await page.reload();
  await expect(page.locator('.library-row.is-open')).toHaveCount(1);
  await expect(page.getByTestId('chain.budget.summary')).toHaveText('1 step · 90 seconds');
  // Emptying a box removes that limit.
  await app.typeInto(page.getByTestId('chain.budget.maxSteps'), '');
  await expect(page.getByTestId('chain.budget.summary')).toHaveText('90 seconds');
});
