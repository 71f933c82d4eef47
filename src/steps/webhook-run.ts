import { hashString } from '../chain/hash.ts';
import type { RunId, StepId } from '../chain/ids.ts';
import { shapeScrubber } from '../providers/scrub.ts';
import type { StepOutcome, StepRunContext } from './types.ts';
import type { WebhookConfig } from './webhook.ts';

/**
 * A webhook step's POST (webhook.ts holds its config and definition). Apart from the definition
 * so the step registry, which the designer's first paint carries, does not carry the scrubber:
 * the first run of a webhook loads it.
 */

export function idempotencyKey(runId: RunId, stepId: StepId): string {
  return `seamscope-${hashString(`${runId}:${stepId}`)}`;
}

export async function postWebhook(ctx: StepRunContext<WebhookConfig>): Promise<StepOutcome> {
  const key = idempotencyKey(ctx.runId, ctx.stepId);
  const body = JSON.stringify({ idempotency_key: key, run_id: ctx.runId, step_id: ctx.step.id, value: ctx.values.value ?? null });
  let lastError = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const doFetch = ctx.fetch;
      // Egress is confirmed for the webhook's own origin: a redirect elsewhere is not followed
      // (fetch would post the value on to wherever it points), it fails the step, saying so.
      const res = await doFetch(ctx.config.url, {
        method: 'POST', body, signal: ctx.signal, redirect: 'manual',
        headers: { ...ctx.config.headers, 'content-type': 'application/json', 'idempotency-key': key },
      });
      if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
        const to = res.headers.get('location');
        lastError = `the webhook answered with a redirect${to ? ` to ${to}` : ''}, which is not followed: the run may post only to the origin it was allowed`;
        break;
      }
      if (res.ok) return { status: 'succeeded', output: { status: res.status, idempotency_key: key, value: ctx.values.value ?? null }, terminal: 'output' };
      lastError = `the webhook answered ${res.status} ${res.statusText}`.trim();
      if (res.status < 500 && res.status !== 429) break;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      lastError = `could not reach the webhook: ${(error as Error).message}`;
    }
  }
  // The receiver's status text and the network error are not ours: scrubbed like a provider's.
  return { status: 'failed', failure: { code: 'side_effect_failed', message: shapeScrubber.text(lastError) } };
}
