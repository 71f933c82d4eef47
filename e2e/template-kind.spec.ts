import { expect, test } from './fixtures/app.ts';
import { drawEdge, dropFromPalette, source, target } from './fixtures/canvas.ts';

/**
 * The template kind reaches the designer through the registry alone: the palette lists it, the
 * inspector edits it with the generic fields, and a chain made of it runs with no model call.
 */
test('a template step from the palette is edited with generic fields and runs without a model call', async ({ app, page }) => {
  await app.open();
  await page.getByTestId('library.new').click();
  await expect(page.getByTestId('palette.step.template')).toBeVisible();
  await app.screenshot('template-palette');

  await dropFromPalette(page, 'template', { x: 0.25, y: 0.4 });
  await expect(app.node('template_1')).toBeVisible();
  await dropFromPalette(page, 'output', { x: 0.7, y: 0.4 });
  await expect(app.node('output_1')).toBeVisible();

  await app.node('template_1').click();
  await expect(page.getByTestId('inspector.field.bindings')).toBeVisible();
  await app.typeInto(page.getByTestId('inspector.field.text'), 'Your appeal must be filed within 180 days.');
  await expect(app.node('template_1')).toContainText('Your appeal must be filed within 180 days.');
  await drawEdge(page, source(app, 'template_1'), target(app, 'output_1'));
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await app.screenshot('template-inspector');

  await app.run();
  await app.expectRunStatus(/succeeded/i);
});
