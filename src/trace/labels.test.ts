import { describe, expect, it } from 'vitest';
import { LABEL_NOTE_MAX } from './event-schemas.ts';
import type { BoundaryLabel } from './events.ts';
import { clearBoundaryLabel, labelOf, setBoundaryLabel } from './labels.ts';
import { parseRunFile, toRunFile } from './run-file.ts';
import { exportRunToOtlp } from './otlp/export.ts';
import { importOtlpTrace } from './otlp/import.ts';
import { stepRegistry } from '../steps/index.ts';
import { runChain } from '../engine/run.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from './repository.ts';
import { buildRunView } from './replay.ts';

const label = (over: Partial<BoundaryLabel> = {}): BoundaryLabel => ({
  boundaryId: 'data:extract->answer:facts', producer: 'extract', consumer: 'answer', verdict: 'derivable', note: '', at: 1, ...over,
});

describe('boundary labels', () => {
  it('keeps one label per boundary: revising replaces, clearing removes', () => {
    const first = setBoundaryLabel({}, label());
    if (!first.ok) throw new Error(first.message);
    const other = setBoundaryLabel({ labels: first.labels }, label({ boundaryId: 'b2', verdict: 'unsure' }));
    if (!other.ok) throw new Error(other.message);
    const revised = setBoundaryLabel({ labels: other.labels }, label({ verdict: 'not-derivable', note: 'the 72 hours are gone', at: 2 }));
    if (!revised.ok) throw new Error(revised.message);
    expect(revised.labels.map((l) => [l.boundaryId, l.verdict])).toEqual([['data:extract->answer:facts', 'not-derivable'], ['b2', 'unsure']]);
    expect(labelOf({ labels: revised.labels }, 'b2')?.verdict).toBe('unsure');
    expect(clearBoundaryLabel({ labels: revised.labels }, 'b2').map((l) => l.boundaryId)).toEqual(['data:extract->answer:facts']);
  });

  it('refuses a label that would not read back, and names the field', () => {
    const long = setBoundaryLabel({}, label({ note: 'x'.repeat(LABEL_NOTE_MAX + 1) }));
    expect(long).toMatchObject({ ok: false });
    expect(!long.ok && long.message).toMatch(/^note:/);
    expect(setBoundaryLabel({}, label({ verdict: 'maybe' as never }))).toMatchObject({ ok: false });
    expect(setBoundaryLabel({}, label({ boundaryId: '' }))).toMatchObject({ ok: false });
  });
});

describe('labels travel with the run', () => {
  async function labelledRun() {
    const repo = createMemoryRunRepository();
    const meta = await runChain({
      chain: twoStepChain(), inputs: { document: 'File within 180 days.', question: 'How long?' },
      provider: createScriptedProvider([{ facts: ['File within 180 days.'] }, { answer: '180 days' }]),
      model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
    });
    const events = await repo.getEvents(meta.id);
    const boundary = buildRunView(meta, events, stepRegistry).boundaries.find((b) => b.producer === 'extract');
    if (!boundary) throw new Error('no boundary from extract');
    const set = setBoundaryLabel(meta, label({ boundaryId: boundary.id, note: 'the deadline is there' }));
    if (!set.ok) throw new Error(set.message);
    return { meta: { ...meta, labels: set.labels }, events };
  }

  it('in a .run.json file', async () => {
    const { meta, events } = await labelledRun();
    const read = parseRunFile(JSON.stringify(toRunFile(meta, events)));
    expect(read.ok && read.file.run.labels).toEqual(meta.labels);
  });

  it('a run file with two labels for one boundary is refused with the path', async () => {
    const { meta, events } = await labelledRun();
    const twice = { ...meta, labels: [...(meta.labels ?? []), ...(meta.labels ?? [])] };
    const read = parseRunFile(JSON.stringify(toRunFile(twice, events)));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.message).toContain('labels');
  });

  it('in OTLP: an event on the producing step span, and back on re-import', async () => {
    const { meta, events } = await labelledRun();
    const otlp = exportRunToOtlp(meta, events);
    const spans = otlp.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
    const step = spans.find((s) => s.name === 'step extract');
    const event = step?.events?.find((e) => e.name === 'seamscope.boundary.label');
    expect(event?.attributes).toEqual(expect.arrayContaining([
      { key: 'seamscope.sufficiency.verdict', value: { stringValue: 'derivable' } },
      { key: 'seamscope.sufficiency.note', value: { stringValue: 'the deadline is there' } },
    ]));
    const back = importOtlpTrace(JSON.stringify(otlp), stepRegistry);
    expect(back.ok && back.run.labels).toEqual(meta.labels);
  });

  it('a damaged label list in an OTLP file is dropped with a warning, the run still imports', async () => {
    const { meta, events } = await labelledRun();
    const otlp = exportRunToOtlp(meta, events);
    const root = otlp.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    const attr = root?.attributes?.find((a) => a.key === 'seamscope.run.labels');
    if (!attr) throw new Error('no labels attribute');
    attr.value = { stringValue: JSON.stringify([{ boundaryId: 'x', verdict: 'certain' }]) };
    const back = importOtlpTrace(JSON.stringify(otlp), stepRegistry);
    expect(back.ok).toBe(true);
    expect(back.ok && back.run.labels).toBeUndefined();
    expect(back.ok && back.warnings).toContain('the sufficiency labels in the export are not valid; they were not imported');
  });
});
