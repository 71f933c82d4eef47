import { describe, expect, it } from 'vitest';
import { routedChain } from '../testing/chain-fixtures.ts';
import type { TraceEvent } from '../trace/events.ts';
import { skippedSteps } from './skipped.ts';

const finished = (stepId: string, status: 'succeeded' | 'skipped' | 'failed'): TraceEvent => ({ type: 'step.finished', at: 1, stepId, status, latencyMs: 0 });

describe('skippedSteps', () => {
  it('says which route a router took instead of a skipped branch, and what it read', () => {
    const events: TraceEvent[] = [finished('classify', 'succeeded'), { type: 'step.route', at: 2, stepId: 'route', label: '"billing"', chosen: ['billing_reply'] }, finished('route', 'succeeded'), finished('billing_reply', 'succeeded'), finished('tech_reply', 'skipped')];
    expect(skippedSteps(routedChain(), events)).toEqual([{ stepId: 'tech_reply', reason: 'route read "billing" and chose billing_reply' }]);
  });

  it('names a router that never ran, and says so when the trace holds no reason', () => {
    const events: TraceEvent[] = [finished('classify', 'failed'), finished('route', 'skipped'), finished('tech_reply', 'skipped')];
    expect(skippedSteps(routedChain(), events)).toEqual([
      { stepId: 'route', reason: 'a step it reads did not run: classify (failed)' },
      { stepId: 'tech_reply', reason: 'its router route did not run (skipped)' },
    ]);
    expect(skippedSteps(undefined, [finished('x', 'skipped')])).toEqual([{ stepId: 'x', reason: 'skipped (the trace does not say why)' }]);
  });
});
