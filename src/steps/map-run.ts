import type { ModelConfig } from './model.config.ts';
import { selectUnits, type MapConfig, type UnitResult } from './map.ts';
import { getPath } from '../chain/refs.ts';
import { isRecord } from '../files/json-value.ts';
import { runContractCall } from './model-call.ts';
import type { StepOutcome, StepRunContext } from './types.ts';

/**
 * A map step's run: one contract call per selected unit, at most `concurrency` at once, each
 * finished unit durable before more work is done. Loaded on the first run (map.ts imports it
 * lazily), so the registry in the app's first load does not carry it.
 */

/** Runs `task` over `items` with at most `limit` in flight, keeping results in input order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The map step's run (see map.ts). */
export async function runMap(ctx: StepRunContext<MapConfig>): Promise<StepOutcome> {
  const items = ctx.values.items;
  if (!Array.isArray(items)) return { status: 'failed', failure: { code: 'missing_input', message: `the map needs a collection bound as "items"; got ${items === undefined ? 'nothing' : typeof items}` } };
  if (items.length === 0) return { status: 'failed', failure: { code: 'missing_input', message: 'the collection bound as "items" is empty: stopping before any model call rather than inventing units' } };
  const { itemName, unitIdField, concurrency } = ctx.config;
  const selected = selectUnits(items, unitIdField, ctx.values.only);
  if (!selected) {
    const message = unitIdField ? `"only" must be a list of unit ids or of records with "${unitIdField}"` : 'a map reading "only" needs a unit id field to match the units it names';
    return { status: 'failed', failure: { code: 'missing_input', message } };
  }
  const shared = Object.fromEntries(Object.entries(ctx.values).filter(([k]) => k !== 'items'));
  const untrusted = new Set(ctx.untrusted);
  if (ctx.untrusted.has('items')) untrusted.add(itemName);
  const unitConfig: ModelConfig = ctx.config;
  const idPath = unitIdField.split('.');

  const results = await mapWithConcurrency(selected, concurrency, async ({ item, id: unitId }, index): Promise<UnitResult> => {
    const done = ctx.completedUnits?.get(unitId);
    if (done) return { unit_id: unitId, status: done.status, output: done.output ?? null, error_detail: done.error ?? null };
    // Inside a unit, `only` reads just the entries naming it (a group's own defects, not every group's).
    const own = Array.isArray(ctx.values.only) ? { only: ctx.values.only.filter((v) => String(isRecord(v) ? getPath(v, idPath) : v) === unitId) } : {};
    const outcome = await runContractCall(ctx, { config: unitConfig, values: { ...shared, ...own, [itemName]: item }, untrusted, unit: unitId });
    const result: UnitResult = outcome.status === 'succeeded'
      ? { unit_id: unitId, status: 'ok', output: outcome.output, error_detail: null }
      : { unit_id: unitId, status: 'error', output: null, error_detail: { code: outcome.failure.code, message: outcome.failure.message } };
    ctx.emit({ type: 'step.unit', at: ctx.now(), stepId: ctx.step.id, unitId, index, status: result.status, output: result.output, ...(result.error_detail ? { error: result.error_detail } : {}) });
    // Each finished unit is durable before more work is done, so a resume never repeats it.
    await ctx.checkpoint();
    return result;
  });
  const okCount = results.filter((r) => r.status === 'ok').length;
  return { status: 'succeeded', output: { results, ok_count: okCount, error_count: results.length - okCount } };
}
