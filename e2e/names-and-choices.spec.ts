import { expect, test } from './fixtures/app.ts';

/**
 * Files are named after the chain (not "chain.ts"), and the endpoint profile a person picked is
 * still picked after a reload on this device.
 */
test('exported files take the chain name', async ({ app, page }) => {
  await app.open();
  await app.openChain('demo-support-ticket');
  const slug = 'support-ticket-extract-classify-route-in-code-draft-check';

  const chainFile = page.waitForEvent('download');
  await page.getByTestId('library.export').click();
  expect((await chainFile).suggestedFilename()).toBe(`${slug}.chain.json`);

  await page.getByTestId('export.open').click();
  await expect(page.getByTestId('export.preview')).toHaveAttribute('data-file', `${slug}.ts`);
  const zip = page.waitForEvent('download');
  await page.getByTestId('export.download').click();
  expect((await zip).suggestedFilename()).toBe(`${slug}-ts.zip`);
  await page.getByTestId('export.lang.py').click();
  await expect(page.getByTestId('export.preview')).toHaveAttribute('data-file', `${slug.replace(/-/g, '_')}.py`);
});

test('the chosen endpoint profile stays chosen after a reload', async ({ app, page }) => {
  await app.open();
  await app.addMockProfile('Mock endpoint');
  const select = page.getByTestId('profile.select');
  await expect(select.locator('option:checked')).toContainText('Mock endpoint');
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await expect(select.locator('option:checked')).toContainText('Mock endpoint');
  // Choosing the demo model again is remembered as well.
  await select.selectOption({ label: (await select.locator('option', { hasText: 'Demo model' }).textContent())! });
  await page.reload();
  await expect(page.getByTestId('canvas')).toBeVisible();
  await expect(select.locator('option:checked')).toContainText('Demo model');
});
