import { useMemo } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { runOutputs, type RunOutput } from '../../src/inspect/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { preview } from '../ui/format.ts';

const STATE_WORDS: Record<RunOutput['state'], string> = { returned: 'returned', empty: 'returned nothing', skipped: 'skipped', failed: 'failed', 'not run': 'not run' };

/**
 * Each output of the run by name, with what it returned or why it has nothing. Shown when a chain
 * has several outputs (or its one output has no value), so a branch that never delivered is seen
 * beside the one that did. A click goes to that output's boundary.
 */
export function ReplayOutputs({ chain, events, onPick }: { chain: Chain | undefined; events: readonly TraceEvent[]; onPick: (stepId: string) => void }) {
  const outputs = useMemo(() => runOutputs(chain, events), [chain, events]);
  if (outputs.length === 0 || (outputs.length === 1 && outputs[0]?.state === 'returned')) return null;
  return (
    <div className="replay-outputs" data-testid="replay.outputs" aria-label="Outputs of this run">
      <span className="replay-outputs-title small muted">Outputs</span>
      {outputs.map((o) => {
        const said = o.state === 'returned' ? preview(o.value, 60) : `${STATE_WORDS[o.state]}: ${o.reason ?? ''}`;
        const full = o.state === 'returned' ? (typeof o.value === 'string' ? o.value : JSON.stringify(o.value, null, 2)) : `${STATE_WORDS[o.state]}: ${o.reason ?? ''}`;
        return (
          <button key={o.stepId} type="button" className={`replay-output is-${o.state.replace(' ', '-')}`} data-testid={`replay.output.${o.stepId}`} title={`${o.name} (${o.stepId})\n${full}`} onClick={() => onPick(o.stepId)}>
            <strong>{o.name}</strong> <span className="replay-output-value">{said}</span>
          </button>
        );
      })}
    </div>
  );
}
