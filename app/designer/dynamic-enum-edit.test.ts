import { describe, expect, it } from 'vitest';
import { resolveDynamicEnums } from '../../src/steps/dynamic-enum.ts';
import { setDynamicEnum, stringFields } from './dynamic-enum-edit.ts';

const schema = {
  type: 'object',
  properties: {
    quotes: { type: 'array', maxItems: 5, items: { type: 'object', properties: { section_id: { type: 'string', enum: ['a'] }, quote: { type: 'string' } } } },
    answer: { type: 'string' },
    n: { type: 'number' },
  },
};

describe('dynamic enum helper', () => {
  it('lists string fields, nested in arrays and objects', () => {
    expect(stringFields(schema).map((f) => f.label)).toEqual(['quotes[].section_id', 'quotes[].quote', 'answer']);
  });

  it('marks a field so the run fills its enum from the bound document, and unmarks it', () => {
    const path = stringFields(schema)[0]!.path;
    const marked = setDynamicEnum(schema, path, { binding: 'document', from: 'sectionIds' });
    const node = (marked as typeof schema).properties.quotes.items.properties.section_id as Record<string, unknown>;
    expect(node).toEqual({ type: 'string', 'x-dynamicEnum': { binding: 'document', from: 'sectionIds' } });
    expect(stringFields(marked)[0]?.dynamic).toEqual({ binding: 'document', from: 'sectionIds' });
    expect(schema.properties.quotes.items.properties.section_id.enum).toEqual(['a']);
    const resolved = resolveDynamicEnums(marked, { document: '§ 1 First.\nText.\n\n§ 2 Second.\nMore.' });
    expect('schema' in resolved).toBe(true);
    const unmarked = setDynamicEnum(marked, path, null);
    expect(stringFields(unmarked)[0]?.dynamic).toBeNull();
  });
});
