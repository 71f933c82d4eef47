import { afterEach, describe, expect, it } from 'vitest';
import { startTestCollector, type TestCollector } from '../testing/collect-fixtures.ts';
import { hostileCollectorRequests, tryHostileRequests } from '../testing/hostile-collect.ts';

/** The battery's hostile collector requests (suite B4), at the collector's default limits: each a 4xx with its reason, nothing written. */
let open: TestCollector | null = null;
afterEach(async () => {
  await open?.stop();
  open = null;
});

describe('seamscope collect under hostile requests', () => {
  it('answers each with its 4xx and reason and writes nothing, then still takes a good request', async () => {
    open = await startTestCollector();
    const outcomes = await tryHostileRequests(open);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(outcomes.map((o) => o.id)).toEqual(hostileCollectorRequests().map((r) => r.id));
    const good = await fetch(`${open.collector.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"resourceSpans":[]}' });
    expect(good.status).toBe(200);
  }, 60_000);
});
