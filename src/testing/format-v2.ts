import type { ChainMigration } from '../chain/versions.ts';
import type { TraceMigration } from '../trace/versions.ts';

/**
 * A version 2 of both formats, for the tests that prove every load path migrates
 * (src/testing/format-v2.test.ts, app/persistence/format-v2.test.ts): mocked in as the
 * versions modules, it makes today's shapes "version 2" and the fixtures in
 * fixtures/format-v1/ (written with the older names) "version 1".
 */
const renameKey = (value: Record<string, unknown>, from: string, to: string): Record<string, unknown> => {
  if (!Object.hasOwn(value, from)) return value;
  const { [from]: moved, ...rest } = value;
  return moved === '' && to === 'description' ? rest : { ...rest, [to]: moved };
};

const chainOneToTwo: ChainMigration = (chain) => {
  const renamed = renameKey(chain, 'summary', 'description');
  const steps = Array.isArray(renamed.steps) ? renamed.steps : [];
  return {
    ...renamed,
    steps: steps.map((step: Record<string, unknown>) =>
      step.kind === 'model' && step.config && typeof step.config === 'object' ? { ...step, config: renameKey(step.config as Record<string, unknown>, 'template', 'prompt') } : step),
  };
};

const traceOneToTwo: TraceMigration = {
  meta: (meta) => renameKey(meta, 'modelName', 'model'),
  event: (event) => (event.type === 'step.finished' ? renameKey(event, 'durationMs', 'latencyMs') : event),
};

export const formatV2 = {
  chainModule: { CHAIN_VERSION: 2, CHAIN_MIGRATIONS: { 1: chainOneToTwo } },
  traceModule: { TRACE_VERSION: 2, TRACE_MIGRATIONS: { 1: traceOneToTwo } },
  /** The fixture as version 2 reads it (for comparing with what a load path returns). */
  upgradedChain: (v1: Record<string, unknown>) => ({ ...chainOneToTwo(v1), version: 2 }),
};
