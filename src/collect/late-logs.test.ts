import { describe, expect, it } from 'vitest';
import type { OtlpTraceData } from '../trace/otlp/otlp-json.ts';
import { joinEarlierLogs, WrittenParts } from './late-logs.ts';

/** One part of a trace as the writer thread remembers it: spans with the given ids and the events each already had. */
function part(spans: Record<string, string[]>): string {
  const data: OtlpTraceData = {
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'app' } }] },
      scopeSpans: [{ scope: { name: 'lib' }, spans: Object.entries(spans).map(([spanId, events]) => ({
        traceId: 'ab'.repeat(16), spanId, name: `span ${spanId}`, startTimeUnixNano: '1', endTimeUnixNano: '2',
        events: events.map((name) => ({ timeUnixNano: '1', name })),
      })) }],
    }],
  };
  return JSON.stringify(data);
}

const event = (name: string) => ({ timeUnixNano: '3', name });

describe('late log records and the parts already written', () => {
  it('joins each record to a copy of its span from the latest part that holds it, under the span\'s resource and scope', () => {
    const parts = [part({ a1: ['first'], b2: [] }), part({ a1: ['first', 'second'] })];
    const { data, joined } = joinEarlierLogs('', [['a1', [event('third')]], ['b2', [event('b late')]], ['c3', [event('no span')]]], parts);
    expect(joined).toBe(2);
    const spans = data.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((sp) => [r.resource?.attributes?.[0]?.value?.stringValue, s.scope?.name, sp.spanId, sp.events?.map((e) => e.name)])));
    expect(spans).toEqual([['app', 'lib', 'a1', ['first', 'second', 'third']], ['app', 'lib', 'b2', ['b late']]]);
  });

  it('keeps the late part\'s own spans first', () => {
    const own = part({ d4: [] });
    const { data } = joinEarlierLogs(own, [['a1', [event('late')]]], [part({ a1: [] })]);
    expect(data.resourceSpans.map((r) => r.scopeSpans[0]?.spans[0]?.spanId)).toEqual(['d4', 'a1']);
  });

  it('holds at most its characters, forgetting the trace written first', () => {
    const text = part({ a1: [] });
    const written = new WrittenParts(text.length * 3);
    written.remember('t1', text);
    written.remember('t2', text);
    written.remember('t1', text);
    expect(written.heldChars).toBe(text.length * 3);
    written.remember('t3', text);
    expect([written.partsOf('t1').length, written.partsOf('t2').length, written.partsOf('t3').length]).toEqual([0, 1, 1]);
    expect(written.heldChars).toBe(text.length * 2);
    // A text past the whole bound is not kept (and forgets nothing).
    written.remember('t4', 'x'.repeat(text.length * 4));
    expect(written.partsOf('t4')).toEqual([]);
    expect(written.heldChars).toBe(text.length * 2);
  });
});
