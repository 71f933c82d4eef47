import type { BoundaryReport } from '../../src/inspect/index.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain, LintFinding } from '../../src/chain/index.ts';
import type { EndpointProfile } from '../../src/providers/index.ts';
import type { EditorState } from './editor-store.ts';
import type { UnsavedEdit } from './view-slice.ts';
import type { RunState } from './run-store.ts';

/**
 * Module-level selectors: stable identities, so components re-render only when the
 * selected value changes. They only read: nothing here schedules work, imports a module or
 * writes anywhere (an ESLint block in eslint.config.js and analysis-subscriber.test.ts hold them
 * to that). Derived values are cached per input object (chains are immutable, so an unchanged
 * chain keeps its cached values).
 */

/** The open chain: the present of its undo history (the store keeps no other copy). */
export const selectChain = (s: EditorState) => s.history?.present ?? null;
export const selectLibrary = (s: EditorState) => s.library;
export const selectProfiles = (s: EditorState) => s.profiles;
export const selectActiveProfileId = (s: EditorState) => s.activeProfileId;
export const selectToasts = (s: EditorState) => s.toasts;
export const selectSelectedStepId = (s: EditorState) => s.selectedStepId;
export const selectSelectedInput = (s: EditorState) => s.selectedInput;
export const selectSelectedEdgeIds = (s: EditorState) => s.selectedEdgeIds;
export const selectSelectedStepIds = (s: EditorState) => s.selectedStepIds;
export const selectHoveredEdge = (s: EditorState) => s.hoveredEdge;
export const selectOverlay = (s: EditorState) => s.overlay;
export const selectCompoundingOpen = (s: EditorState) => s.compoundingOpen;
export const selectTabConflict = (s: EditorState) => s.tabConflict;

export const selectSelectedStep = (s: EditorState) => (s.selectedStepId ? selectChain(s)?.steps.find((step) => step.id === s.selectedStepId) ?? null : null);

/** The selected profile; null only in the moment before the provider module has loaded. */
export const selectActiveProfile = (s: EditorState): EndpointProfile | null => s.profiles.find((p) => p.id === s.activeProfileId) ?? s.profiles[0] ?? null;

// The open chain's checks: filled by app/designer/analysis-subscriber.ts, read here (pure reads).
export const selectAnalysisPending = (s: EditorState) => s.analysis.pending;
export const selectProblems = (s: EditorState) => s.analysis.problems;
/** Design lint (warnings a reviewer would raise); empty while the chain has problems. */
export const selectLint = (s: EditorState) => s.analysis.lint;
const noFindings: readonly LintFinding[] = [];
const lintErrorCache = new WeakMap<readonly LintFinding[], readonly LintFinding[]>();
/**
 * Design findings of error severity (a read nothing is bound to, a webhook before the end): they
 * are problems, counted under Problems and blocking Run, not notes. One array per lint array.
 */
export function selectLintErrors(s: EditorState): readonly LintFinding[] {
  const lint = s.analysis.lint;
  let errors = lintErrorCache.get(lint);
  if (!errors) {
    const found = lint.filter((f) => f.severity === 'error');
    errors = found.length ? found : noFindings;
    lintErrorCache.set(lint, errors);
  }
  return errors;
}
/** Data edges whose boundary contract leaves a decision unanswered (the canvas marks them). */
export const selectUnansweredEdgeIds = (s: EditorState) => s.analysis.unanswered;
/** Step id → number of problems on it, for the node badges. */
export const selectProblemCounts = (s: EditorState) => s.analysis.problemCounts;
/** Step id → number of design warnings on it (info is left off the canvas). */
export const selectLintCounts = (s: EditorState) => s.analysis.lintWarningCounts;
/** Step id → number of design errors on it (a binding its kind needs, unbound): badged as problems. */
export const selectLintErrorCounts = (s: EditorState) => s.analysis.lintErrorCounts;

const noEdits: readonly UnsavedEdit[] = [];
const editListCache = new WeakMap<object, { chain: Chain | null; list: readonly UnsavedEdit[] }>();

/** Editors holding text that is not saved (not valid), on steps of the open chain; one array per state. */
export function selectUnsavedEdits(s: EditorState): readonly UnsavedEdit[] {
  const all = s.unsavedEdits;
  const chain = selectChain(s);
  const cached = editListCache.get(all);
  if (cached && cached.chain === chain) return cached.list;
  const found = chain ? Object.values(all).filter((e) => chain.steps.some((step) => step.id === e.stepId)) : [];
  const list = found.length ? found : noEdits;
  editListCache.set(all, { chain, list });
  return list;
}

/**
 * Why Run cannot start, in words, or null: an editor holding invalid text comes first (the
 * chain would run without the person's edit), then the chain's problems.
 */
export function runBlocker(unsaved: readonly UnsavedEdit[], problems: readonly ChainProblem[], designErrors: readonly LintFinding[] = []): string | null {
  const first = unsaved[0];
  if (first) return `${first.stepId}: the ${first.field.toLowerCase()} is not saved (${first.message}). Fix it or undo the edit to run.`;
  if (problems.length) return `Fix the ${problems.length} problem${problems.length === 1 ? '' : 's'} first (see Problems).`;
  const design = designErrors[0];
  if (design) return `${design.stepId ?? 'chain'}: ${design.message}${designErrors.length > 1 ? ` (and ${designErrors.length - 1} more under Problems)` : ''}`;
  return null;
}

/** `$.steps[3].config.prompt` → the id of step 3. */
export function stepIdForPath(chain: Chain, path: string): string | null {
  const match = /^\$\.steps\[(\d+)\]/.exec(path);
  return match ? chain.steps[Number(match[1])]?.id ?? null : null;
}

export const selectLive = (s: RunState) => s.live;
export const selectRuns = (s: RunState) => s.runs;
export const selectReplay = (s: RunState) => s.replay;
export const selectReplayOpen = (s: RunState) => s.replay !== null;
export const selectCurrentBoundary = (s: RunState) => (s.replay ? s.replay.view.boundaries[s.replay.index] ?? null : null);
/** In a run with no boundaries, replay steps through steps: the one on show. */
export const selectFocusStepId = (s: RunState) => (s.replay && s.replay.view.boundaries.length === 0 ? (s.replay.view.steps[s.replay.index]?.stepId ?? null) : null);
export const selectCurrentReport = (s: RunState) => (s.replay ? s.replay.reports[s.replay.index] ?? null : null);
export const selectMetrics = (s: RunState) => s.metrics;

const noEdges: ReadonlySet<string> = new Set();
const lossyCache = new WeakMap<readonly BoundaryReport[], ReadonlySet<string>>();

/** Canvas edge ids (= boundary ids) the replayed run flags as likely lossy, once per report list. */
export function selectLossyEdgeIds(s: RunState): ReadonlySet<string> {
  const reports = s.replay?.reports;
  if (!reports?.length) return noEdges;
  let ids = lossyCache.get(reports);
  if (!ids) {
    ids = new Set(reports.filter((r) => r.lossy).map((r) => r.boundaryId));
    lossyCache.set(reports, ids);
  }
  return ids;
}
