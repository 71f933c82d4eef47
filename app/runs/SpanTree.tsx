import type { RunMeta, SpanNode } from '../../src/trace/index.ts';
import { formatMs } from '../ui/format.ts';

interface Props {
  meta: RunMeta;
  /** The step the replay shows now (its span is marked). */
  currentStep: string | null;
  onPick(stepId: string): void;
  /** Opens the rerun dialog for a model span (absent while a run is going). */
  onRerun?: (stepId: string) => void;
}

const KIND_WORD: Record<SpanNode['kind'], string> = { agent: 'agent', chain: 'chain', model: 'model', tool: 'tool', retrieval: 'retrieval', span: 'span' };

/**
 * An imported trace as the tracing tools show it: the span tree (what called what), each span's
 * kind, and its time on one axis from the trace's start. A model span opens the boundary view of
 * the step it became; the other spans are shown, not stepped through (they made no step).
 */
export function SpanTree({ meta, currentStep, onPick, onRerun }: Props) {
  const nodes = meta.spans ?? [];
  if (nodes.length === 0) return null;

  const end = nodes.reduce((max, n) => Math.max(max, n.startMs + n.durationMs), 0) || 1;
  return (
    <div className="span-tree" data-testid="replay.spanTree" role="tree" aria-label="Span tree">
      <div className="span-line">
        <div className="span-tree-head muted small">
          <span>{nodes.length} span{nodes.length === 1 ? '' : 's'}{meta.spansOmitted ? ` (${meta.spansOmitted} more not shown)` : ''}</span>
          <span className="span-axis" aria-hidden="true"><span>0</span><span>{formatMs(end)}</span></span>
        </div>
      </div>
      {nodes.map((n) => {
        const label = `${KIND_WORD[n.kind]} ${n.name}, ${formatMs(n.durationMs)} from ${formatMs(n.startMs)}${n.error ? `, failed: ${n.error}` : ''}`;
        const bar = { left: `${(100 * n.startMs) / end}%`, width: `max(2px, ${(100 * n.durationMs) / end}%)` };
        const body = (
          <>
            <span className={`span-kind kind-${n.kind}`}>{KIND_WORD[n.kind]}</span>
            <span className="span-name" style={{ paddingLeft: `${n.depth * 14}px` }} title={n.name}>{n.name}</span>
            <span className="span-time" aria-hidden="true"><span className={n.error ? 'span-bar is-failed' : `span-bar kind-${n.kind}`} style={bar} /></span>
            <span className="span-ms muted small">{formatMs(n.durationMs)}</span>
          </>
        );
        const stepId = n.stepId;
        // The rerun action sits beside its row, not in it: a button cannot hold another button.
        return stepId ? (
          <div key={n.id} className="span-line">
            <button
              type="button"
              role="treeitem"
              aria-level={n.depth + 1}
              aria-selected={stepId === currentStep}
              className={stepId === currentStep ? 'span-row is-current' : 'span-row'}
              data-testid={`replay.span.${stepId}`}
              title={`${label}. Open its boundary`}
              onClick={() => onPick(stepId)}
            >
              {body}
            </button>
            <button
              type="button"
              className="link-button small"
              data-testid={`replay.span.rerun.${stepId}`}
              aria-label={`Rerun ${n.name} (${stepId})`}
              title={onRerun ? 'Send this call again with an edited prompt or model, then the later calls that read its output' : 'Wait for the run to end'}
              disabled={!onRerun}
              onClick={() => onRerun?.(stepId)}
            >
              Rerun…
            </button>
          </div>
        ) : (
          <div key={n.id} className="span-line">
            <div role="treeitem" aria-level={n.depth + 1} className={n.error ? 'span-row is-failed' : 'span-row'} title={label}>
              {body}
            </div>
          </div>
        );
      })}
    </div>
  );
}
