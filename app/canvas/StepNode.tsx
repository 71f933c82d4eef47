import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { memo } from 'react';
import { estimateStepSize } from '../designer/canvas-nodes.ts';
import { canvasRegistry } from '../designer/canvas-registry.ts';
import { benchHooks } from '../designer/bench-hooks.ts';
import { DETAIL_ZOOM } from './palette-constants.ts';
import type { StepFlowNode } from './flow-elements.ts';

const statusLabel: Record<string, string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  skipped: 'Skipped',
  abstained: 'Abstained',
  escalated: 'Escalated',
  pending: 'Pending',
};

interface Summary {
  title: string;
  lines: string[];
}

// Configs are immutable (edits make new objects), so a card panned out of view and back, or
// remounted, reuses its summary instead of parsing the config again.
const summaries = new WeakMap<object, Summary>();

/** The summary lines come from the registry; a config that does not parse says so instead. */
function stepSummary(kind: string, config: Record<string, unknown>): Summary {
  const cached = summaries.get(config);
  if (cached) return cached;
  const def = canvasRegistry.get(kind);
  const parsed = def?.config.safeParse(config);
  const summary = !def
    ? { title: kind, lines: ['unknown step kind'] }
    : { title: def.title, lines: parsed?.success ? def.summary(parsed.data) : ['the settings have problems'] };
  summaries.set(config, summary);
  return summary;
}

// A boolean per card: a card re-renders when the zoom crosses the line, not on every zoom frame.
const farSelector = (s: ReactFlowState) => s.transform[2] < DETAIL_ZOOM;

/**
 * Zoomed out, a card shows what can still be read: its kind, its name in large type, its run
 * status and problem count. Same height as the full card (so nothing re-measures or moves), far
 * less DOM, so a large chain zoomed out is cheaper to draw.
 */
function FarCard({ data, title, lineCount, selected }: { data: StepFlowNode['data']; title: string; lineCount: number; selected: boolean }) {
  const { step, problems, warnings, run, role } = data;
  const { height } = estimateStepSize(step, lineCount, problems > 0 || warnings > 0);
  const classes = ['step-node', 'is-far', run ? `status-${run.status}` : '', role ? `role-${role}` : '', selected ? 'is-selected' : ''];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      data-testid={`step.${step.id}`}
      data-status={run?.status}
      data-detail="far"
      style={{ height }}
      // Further out the card drops its kind, then all its text (app/canvas/overview-scale.ts): the hover still says it all.
      title={[title, step.name || step.id, run ? (statusLabel[run.status] ?? run.status) : '', problems > 0 ? `${problems} problem${problems === 1 ? '' : 's'}` : ''].filter(Boolean).join(' · ')}
    >
      <Handle type="target" position={Position.Left} className="step-handle" />
      <div className="far-head">
        <span className="step-kind">{title}</span>
        {run && <span className="status-dot" />}
        {problems > 0 && <span className="problem-badge" data-testid={`step.${step.id}.problems`}>{problems}</span>}
      </div>
      <div className="far-name">{step.name || step.id}</div>
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
}

/**
 * The one generic node for every step kind. Re-renders only when its data object changes,
 * which happens when this step, its problems, its run status or the replay highlight change.
 */
export const StepNode = memo(function StepNode({ data, selected }: NodeProps<StepFlowNode>) {
  const { step, problems, warnings, run, role, metrics } = data;
  const { title, lines } = stepSummary(step.kind, step.config);
  const far = useStore(farSelector);
  if (far) return <FarCard data={data} title={title} lineCount={lines.length} selected={selected} />;
  const classes = ['step-node', run ? `status-${run.status}` : '', role ? `role-${role}` : '', selected ? 'is-selected' : ''];
  return (
    <div className={classes.filter(Boolean).join(' ')} data-testid={`step.${step.id}`} data-status={run?.status}>
      <Handle type="target" position={Position.Left} className="step-handle" />
      <div className="step-node-head" {...(benchHooks ? { 'data-bench-drag': '' } : {})}>
        <span className="step-kind">{title}</span>
        {run && (
          <span className="step-status" data-testid={`step.${step.id}.status`}>
            <span className="status-dot" />
            {statusLabel[run.status] ?? run.status}
          </span>
        )}
        {warnings > 0 && problems === 0 && (
          <span className="lint-badge" title={`${warnings} design warning${warnings === 1 ? '' : 's'}`} data-testid={`step.${step.id}.lint`}>
            {warnings}
          </span>
        )}
        {problems > 0 && (
          <span className="problem-badge" title={`${problems} problem${problems === 1 ? '' : 's'}`} data-testid={`step.${step.id}.problems`}>
            {problems}
          </span>
        )}
      </div>
      <div className="step-name">{step.name || step.id}</div>
      <div className="step-id">{step.id}</div>
      {lines.length > 0 && (
        <ul className="step-summary">
          {lines.slice(0, 6).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
          {lines.length > 6 && <li className="muted">+{lines.length - 6} more</li>}
        </ul>
      )}
      {run?.partial && (
        <div className="step-partial" data-testid={`step.${step.id}.partial`} title="Streaming in">
          {run.partial}
        </div>
      )}
      {(run?.endpointError ?? run?.failure) && <div className="step-error">{run.endpointError ?? run.failure}</div>}
      {metrics && (
        <div className="step-metrics" data-testid={`step.${step.id}.metrics`} title={metrics.title}>
          {metrics.label}
        </div>
      )}
      <Handle type="source" position={Position.Right} className="step-handle" />
    </div>
  );
});
