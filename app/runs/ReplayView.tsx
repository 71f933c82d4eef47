import { lazy, Suspense, useMemo, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { usePaneLayout } from '../ui/layout-context.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectLive, selectReplay } from '../stores/selectors.ts';
import { boundaryLabel, stepLabel } from '../../src/trace/index.ts';
import { BoundaryHeader } from './boundary/BoundaryHeader.tsx';
import { BoundaryPanes } from './BoundaryPanes.tsx';
import { SufficiencyBar } from './boundary/SufficiencyBar.tsx';
import { DiffView } from './diff/DiffView.tsx';
import { ReplayActions, ReplayHeader } from './ReplayHeader.tsx';
import { StepOnlyPanes } from './StepOnlyPanes.tsx';
import { Timeline } from './Timeline.tsx';
import { AddToDatasetButton } from './dataset/AddToDatasetButton.tsx';
import { useReplayKeys } from './use-replay-keys.ts';
import { modelContractOf } from '../designer/model-contract.ts';
import { createAssemblyFoldCache } from './assembly-fold-cache.ts';
import { AssembledPane } from './AssembledPane.tsx';
import { ReplayOutputs } from './ReplayOutputs.tsx';
import { SpanTree } from './SpanTree.tsx';

// The fork dialog brings the engine (validator, providers); it loads when first opened.
const ForkDialog = lazy(() => import('./fork/ForkDialog.tsx').then((m) => ({ default: m.ForkDialog })));
// A span of an imported trace reruns from its recorded messages (src/engine/rerun-span.ts), not from a chain.
const TraceRerunDialog = lazy(() => import('./fork/TraceRerunDialog.tsx').then((m) => ({ default: m.TraceRerunDialog })));

/** A step's input budget in tokens from the chain the run used (0: none set). */
function budgetOf(chain: Chain, stepId: string): number {
  const step = chain.steps?.find((s) => s.id === stepId);
  return (step && modelContractOf(step)?.inputBudget) ?? 0;
}

/**
 * A run, boundary by boundary. Built from the trace alone: replay never calls a model. While
 * a run is live the same view grows as its events arrive. The canvas highlights the current
 * producer, consumer and edge (and flags lossy edges) from the same store state.
 */
export function ReplayView() {
  const replay = useRunStore(selectReplay);
  const liveRun = useRunStore(selectLive);
  const running = liveRun?.status === 'running';
  // Which dialog: a span's Rerun… reruns its recorded call; a step card's fork edits the intermediate.
  const [fork, setFork] = useState<{ stepId: string; fromSpan: boolean } | null>(null);
  const forkStep = fork?.stepId ?? null;
  // null: the default — the assembled document while a split → map → assemble run is live.
  const [assembledChoice, setAssembledChoice] = useState<{ runId: string; show: boolean } | null>(null);
  const chain = replay?.meta.chain as Chain | undefined;
  const events = replay?.events;
  // A live run's new events are folded in as they arrive, never the whole trace again.
  const [progressOf] = useState(createAssemblyFoldCache);
  const assembly = useMemo(() => (chain?.steps && events ? progressOf(chain, events) : null), [progressOf, chain, events]);
  const folded = usePaneLayout().collapsed.replay;
  useReplayKeys(replay !== null);
  if (!replay) return null;
  const { meta, view, index, reports, compare, live } = replay;
  const showAssembled = assembly !== null && !compare && (assembledChoice?.runId === meta.id ? assembledChoice.show : live);
  const boundary = view.boundaries[index] ?? null;
  const report = boundary ? (reports[index] ?? null) : null;
  const stepById = new Map(view.steps.map((s) => [s.stepId, s]));
  const names = new Map(view.steps.map((s) => [s.stepId, s.name]));
  // No data crossed between two steps (one step ran, or an imported trace): ← → go step by step.
  const focus = view.boundaries.length === 0 ? (view.steps[index] ?? null) : null;
  const canFork = !live && !running;
  const fromTrace = fork?.fromSpan === true && (meta.spans ?? []).some((n) => n.stepId === fork.stepId);
  const closeFork = () => setFork(null);

  const pick = (stepId: string) => {
    if (view.boundaries.length === 0) {
      useRunStore.getState().setBoundary(Math.max(0, view.steps.findIndex((s) => s.stepId === stepId)));
      return;
    }
    const at = view.boundaries.findIndex((b) => b.consumer === stepId);
    const from = at >= 0 ? at : view.boundaries.findIndex((b) => b.producer === stepId);
    if (from >= 0) useRunStore.getState().setBoundary(from);
  };
  const label = boundary
    ? boundaryLabel(view, boundary)
    : focus
      ? `step ${stepLabel(focus.stepId, focus.name)}`
      : live
        ? 'Waiting for a boundary…'
        : 'No steps';

  return (
    <section className={folded ? 'replay is-folded' : 'replay'} data-testid="replay" aria-label="Replay">
      <ReplayHeader
        replay={replay}
        boundaryLabel={label}
        boundaryTitle={label}
      />
      <div className="replay-steps-row">
        <Timeline meta={meta} view={view} events={replay.events} current={compare ? null : (boundary ?? (focus ? { producer: focus.stepId, consumer: '' } : null))} onPick={pick} onFork={canFork ? (stepId) => setFork({ stepId, fromSpan: false }) : undefined} />
        {assembly && (
          <button
            type="button"
            className={showAssembled ? 'button small is-on' : 'button small'}
            data-testid="replay.assembledToggle"
            aria-pressed={showAssembled}
            title="The assembled document as it fills in from the top, group by group in clause order"
            onClick={() => setAssembledChoice({ runId: meta.id, show: !showAssembled })}
          >
            Assembled {assembly.contiguous}/{assembly.total}
          </button>
        )}
        <AddToDatasetButton meta={meta} events={replay.events} disabled={live} />
        <ReplayActions replay={replay} />
      </div>
      {!live && !compare && <ReplayOutputs chain={chain} events={replay.events} onPick={pick} />}
      {!compare && <SpanTree meta={meta} currentStep={focus?.stepId ?? boundary?.consumer ?? null} onPick={pick} onRerun={canFork ? (stepId) => setFork({ stepId, fromSpan: true }) : undefined} />}
      {meta.error && <div className="replay-error">{meta.error}</div>}
      {compare ? (
        <DiffView compare={compare} names={names} />
      ) : showAssembled && assembly ? (
        <AssembledPane progress={assembly} live={live} />
      ) : boundary ? (
        <>
          <BoundaryHeader boundary={boundary} report={report} producer={stepById.get(boundary.producer)} consumer={stepById.get(boundary.consumer)} view={view} />
          <SufficiencyBar key={`${meta.id}:${boundary.id}`} meta={meta} boundary={boundary} report={report} live={live} />
          <BoundaryPanes
            boundary={boundary}
            report={report}
            producer={stepById.get(boundary.producer)}
            consumer={stepById.get(boundary.consumer)}
            consumerBudget={budgetOf(meta.chain as Chain, boundary.consumer)}
          />
        </>
      ) : focus ? (
        <StepOnlyPanes
          meta={meta}
          step={focus}
          budget={budgetOf(meta.chain as Chain, focus.stepId)}
          partial={live && liveRun?.runId === meta.id ? liveRun.partial[focus.stepId]?.text : undefined}
        />
      ) : (
        <p className="replay-empty muted">{live ? 'Starting…' : 'No step ran in this run.'}</p>
      )}
      {forkStep && (
        <Suspense fallback={null}>
          {fromTrace ? (
            <TraceRerunDialog key={`${meta.id}:${forkStep}`} replay={replay} stepId={forkStep} onClose={closeFork} />
          ) : (
            <ForkDialog key={`${meta.id}:${forkStep}`} replay={replay} stepId={forkStep} onClose={closeFork} />
          )}
        </Suspense>
      )}
    </section>
  );
}
