import { describe, expect, it } from 'vitest';
import { boundaryLabel, stepLabel } from './boundary-label.ts';

describe('boundary labels', () => {
  it('name first, id second', () => {
    const names = new Map([['model_1', 'Extract facts'], ['model_2', 'Classify']]);
    expect(boundaryLabel('model_1', 'model_2', (id) => names.get(id))).toBe('Extract facts (model_1) → Classify (model_2)');
  });
  it('an id alone when there is no other name', () => {
    expect(stepLabel('answer', 'answer')).toBe('answer');
    expect(stepLabel('answer', undefined)).toBe('answer');
    expect(boundaryLabel('a', 'b', () => undefined)).toBe('a → b');
  });
});
