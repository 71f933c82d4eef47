import { describe, expect, it } from 'vitest';
import type { PendingTrace } from './assembler.ts';
import { traceToOtlp } from './finish.ts';
import type { IncomingSpan } from './payload.ts';

/** A finished trace put back into one OTLP/JSON payload, as the writer threads import it. */
describe('traceToOtlp', () => {
  it('keeps each span under its own resource and scope when two services\' spans arrive interleaved', () => {
    const web = { attributes: [{ key: 'service.name', value: { stringValue: 'web' } }] };
    const worker = { attributes: [{ key: 'service.name', value: { stringValue: 'worker' } }] };
    const span = (spanId: string, resource: IncomingSpan['resource'], scope: string): IncomingSpan => ({
      traceId: 'ab'.repeat(16), spanId, isRoot: false, resource, scope: { name: scope }, bytes: 1,
      span: { traceId: 'ab'.repeat(16), spanId, name: spanId, startTimeUnixNano: '1', endTimeUnixNano: '2' } as IncomingSpan['span'],
    });
    const spans = [span('01'.repeat(8), web, 'http'), span('02'.repeat(8), worker, 'openai'), span('03'.repeat(8), web, 'openai')];
    const trace: PendingTrace = { traceId: 'ab'.repeat(16), spans, logs: new Map(), logCount: 0, bytes: 3, lastSeenMs: 0, dueMs: 0, part: 1 };
    const { data } = traceToOtlp(trace);
    const shape = data.resourceSpans.map((rs) => [rs.resource?.attributes?.[0]?.value?.stringValue, rs.scopeSpans.map((ss) => [ss.scope?.name, ss.spans.map((s) => s.name)])]);
    expect(shape).toEqual([
      ['web', [['http', ['01'.repeat(8)]], ['openai', ['03'.repeat(8)]]]],
      ['worker', [['openai', ['02'.repeat(8)]]]],
    ]);
  });
});
