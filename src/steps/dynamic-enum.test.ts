import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { resolveDynamicEnums } from './dynamic-enum.ts';

const statute = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');

const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'enum', name: 'Enum',
  inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [{
    id: 'select', kind: 'model', name: 'Select', position: { x: 0, y: 0 },
    config: {
      bindings: { document: 'inputs.document' }, prompt: 'Pick a section of {document}', retries: 1,
      outputSchema: {
        type: 'object', additionalProperties: false, required: ['section_id'],
        properties: { section_id: { type: 'string', 'x-dynamicEnum': { binding: 'document', from: 'sectionIds' } } },
      },
    },
  }],
};

describe('dynamic enums', () => {
  it('sends the document’s own section ids as a strict enum and rejects an invented one', async () => {
    const provider = createScriptedProvider([{ section_id: '(z)(9)' }, { section_id: '(b)(1)(D)(i)' }]);
    const repo = createMemoryRunRepository();
    const run = await runChain({ chain, inputs: { document: statute }, provider, repo, model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, countTokens: (t) => t.length });
    const sent = provider.requests[0]?.contract;
    const enumValues = ((sent?.schema.properties as Record<string, { enum?: string[] }>).section_id?.enum) ?? [];
    expect(enumValues).toContain('(b)(1)(D)(i)');
    expect(enumValues).not.toContain('(z)(9)');
    expect(sent?.strict).toBe(true);
    expect(JSON.stringify(sent?.schema)).not.toContain('x-dynamicEnum');
    const attempts = (await repo.getEvents(run.id)).filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt');
    expect(attempts[0]?.record.failure).toBe('schema_violation');
    expect(attempts[0]?.record.errors[0]).toContain('/section_id: must be equal to one of the allowed values');
    expect(run.status).toBe('succeeded');
  });

  it('builds enums from an array binding and reports a missing binding plainly', () => {
    const schema = { type: 'string', 'x-dynamicEnum': { binding: 'groups', from: 'values', path: 'ids' } };
    expect(resolveDynamicEnums(schema, { groups: { ids: ['1.1', '1.2', '1.1'] } })).toEqual({ schema: { type: 'string', enum: ['1.1', '1.2'] } });
    expect(resolveDynamicEnums(schema, {})).toEqual({ error: 'the dynamic enum reads "groups", which is not bound' });
    const items = { type: 'string', 'x-dynamicEnum': { binding: 'retrieved', from: 'values', path: 'sections[*].section_id' } };
    expect(resolveDynamicEnums(items, { retrieved: { sections: [{ section_id: '(b)(1)' }, { section_id: '(c)(3)' }] } })).toEqual({ schema: { type: 'string', enum: ['(b)(1)', '(c)(3)'] } });
  });
});
