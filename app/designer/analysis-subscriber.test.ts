import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Chain } from '../../src/chain/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { noAnalysis } from '../stores/analysis-slice.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import * as selectors from '../stores/selectors.ts';
import type { AnalysisResult } from './analysis.ts';
import { analyse } from './analysis-run.ts';
import { startAnalysis } from './analysis-subscriber.ts';
import { makeBenchChain } from './bench-fixture.ts';

const s = () => useEditorStore.getState();
/** The worker, in this thread: answers when the test says so, in order. */
function fakeWorker() {
  const asked: Chain[] = [];
  let answer: (chain: Chain, result: AnalysisResult) => void = () => undefined;
  return {
    asked,
    create: (onResult: typeof answer) => {
      answer = onResult;
      return { check: (chain: Chain) => void asked.push(chain), isChecking: (chain: Chain) => asked.includes(chain) };
    },
    answerNext: () => {
      const chain = asked.shift();
      if (chain) answer(chain, analyse({ id: 0, chain }));
    },
  };
}
/** A binding to a step that does not exist: one problem, on `answer`. */
const broken = (chain: Chain): Chain => ({
  ...chain,
  steps: chain.steps.map((step) => (step.id === 'answer' ? { ...step, config: { ...step.config, bindings: { facts: 'steps.ghost.facts', question: 'inputs.question' } } } : step)),
});

it('the analysis slice says pending until the subscriber has started (it loads after first paint)', () => {
  expect(s().analysis).toMatchObject({ pending: true, problems: [] });
});

describe('the analysis subscriber', () => {
  let stop: () => void = () => undefined;
  let worker: ReturnType<typeof fakeWorker>;
  beforeEach(() => {
    vi.useFakeTimers();
    s().openChain(null);
    s().setAnalysis(noAnalysis);
    worker = fakeWorker();
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
  });

  it('checks the chain already open when it starts, then each small revision at once', () => {
    s().openChain(twoStepChain());
    expect(s().analysis).toBe(noAnalysis);
    stop = startAnalysis(useEditorStore, { createWorker: worker.create });
    expect(s().analysis).toMatchObject({ pending: false, revision: selectors.selectChain(s()) });
    expect(selectors.selectProblems(s())).toEqual([]);

    s().replaceChain(broken(selectors.selectChain(s())!));
    // Synchronously, in the same update as the edit: no timer, no worker.
    expect(s().analysis.revision).toBe(selectors.selectChain(s()));
    expect(selectors.selectProblems(s()).map((p) => p.path)).toEqual(['$.steps[1].config.bindings.facts']);
    expect(selectors.selectProblemCounts(s()).get('answer')).toBe(1);
    expect(worker.asked).toEqual([]);

    // Undo goes back to a revision already checked: its results, as they were.
    const before = s().analysis;
    s().undo();
    expect(s().analysis.problems).toEqual([]);
    s().redo();
    expect(s().analysis).toBe(before);
  });

  it('checks a large chain in the worker after a pause in editing, showing the last results meanwhile', () => {
    stop = startAnalysis(useEditorStore, { createWorker: worker.create });
    s().openChain(makeBenchChain(100));
    expect(s().analysis).toMatchObject({ pending: true, revision: null });
    s().renameStep('s1', 'One');
    s().renameStep('s1', 'One!');
    expect(worker.asked).toEqual([]);
    vi.advanceTimersByTime(300);
    // One request, for the revision open after the pause.
    expect(worker.asked).toEqual([selectors.selectChain(s())]);
    worker.answerNext();
    expect(s().analysis).toMatchObject({ pending: false, revision: selectors.selectChain(s()) });
    const checked = s().analysis;

    s().renameStep('s2', 'Two');
    expect(s().analysis).toMatchObject({ pending: true, revision: checked.revision, lint: checked.lint });
    vi.advanceTimersByTime(300);
    worker.answerNext();
    expect(s().analysis).toMatchObject({ pending: false, revision: selectors.selectChain(s()) });

    // Another chain: nothing of the first one's results shows on it.
    s().openChain(twoStepChain());
    expect(s().analysis.revision).toBe(selectors.selectChain(s()));
    s().openChain(null);
    expect(s().analysis).toBe(noAnalysis);
  });

  it('keeps selectors pure: reading every one schedules nothing and changes nothing', () => {
    stop = startAnalysis(useEditorStore, { createWorker: worker.create });
    s().openChain(makeBenchChain(100));
    vi.advanceTimersByTime(1000);
    s().renameStep('s1', 'One');
    const timers = vi.getTimerCount();
    const state = s();
    for (const [name, select] of Object.entries(selectors)) {
      if (name.startsWith('select') && !['selectLive', 'selectRuns', 'selectReplay', 'selectReplayOpen', 'selectCurrentBoundary', 'selectFocusStepId', 'selectCurrentReport', 'selectMetrics', 'selectLossyEdgeIds'].includes(name)) {
        (select as (s: unknown) => unknown)(state);
      }
    }
    expect(vi.getTimerCount()).toBe(timers);
    expect(s()).toBe(state);
  });
});
