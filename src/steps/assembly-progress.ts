import { parseRef, refStep, resolveRef } from '../chain/refs.ts';
import type { Chain } from '../chain/schema.ts';
import type { TraceEvent } from '../trace/events.ts';
import { assembleGroups, sourceGroupsOf, unitRange, type AssembledClause, type Assembly } from './assemble-core.ts';
import type { AssembleConfig } from './assemble.ts';
import { typedStep } from './index.ts';
import { stepRegistry } from './index.ts';

/**
 * Partial delivery: while a split → map → assemble run goes, the document fills in
 * from the top in unit order as groups finish. Folded from the trace alone — the split's
 * groups from its `step.finished`, each group's rewrite from the map's `step.unit` events —
 * so the app's live and replay views and the CLI's progress lines show the same thing, and a
 * resumed run (whose restored units are in the same trace) shows them too.
 */

export type ProgressGroupStatus = 'assembled' | 'done' | 'pending' | 'failed';

export interface ProgressGroup {
  /** 1-based, in unit order. */
  index: number;
  group_key: string;
  unit_ids: string[];
  /**
   * `assembled`: in the top part shown; `done`: finished, but below a group still pending;
   * `pending`: not finished yet; `failed`: its unit failed (the assembly will name it missing).
   */
  status: ProgressGroupStatus;
  /** A finished assembly took this group's replacement (the two-pass repair). */
  replaced?: boolean;
}

export interface AssemblyProgress {
  /** The assemble step this folds toward, and the map whose units fill it. */
  stepId: string;
  mapStepId: string;
  total: number;
  /** Groups finished ok, anywhere. */
  done: number;
  /** Groups assembled from the top without a gap. */
  contiguous: number;
  /** The text of the top `contiguous` groups, as the assemble step will write it. */
  text: string;
  /** First and last unit id of the top part, or null when nothing is assembled yet. */
  units: { first: string; last: string } | null;
  groups: ProgressGroup[];
  /** The assemble step itself has finished. */
  finished: boolean;
}

/** The fan-out step a ref finally reads, through steps that pass one binding on unchanged (gates). */
function fanOutBehind(byId: ReadonlyMap<string, Chain['steps'][number]>, ref: string): string | null {
  for (let id = refStep(ref), hops = 0; id && hops < 16; hops++) {
    const step = byId.get(id);
    const def = step ? stepRegistry.get(step.kind) : undefined;
    if (!step || !def) return null;
    if (def.units) return id;
    if (def.produces.by !== 'passThrough') return null;
    const parsed = def.config.safeParse(step.config);
    const next = parsed.success ? def.bindings(parsed.data)[def.produces.binding] : undefined;
    id = next ? refStep(next) : null;
  }
  return null;
}

/** "1.1–4.2": the units of the top part, for a progress line. */
export function progressLine(p: AssemblyProgress): string {
  const units = p.units ? ` (units ${p.units.first}–${p.units.last})` : '';
  return `assembled ${p.contiguous}/${p.total} groups${units}`;
}

interface AssemblyTarget {
  mapStepId: string;
  /** The assemble steps that merge this map, in chain order (the two-pass chain has the draft and the final one). */
  steps: { step: Chain['steps'][number]; config: AssembleConfig; groupsRef: string }[];
}

/**
 * The trace folded toward partial delivery, one event at a time. The chain is read once (each
 * step's config parsed once, when the fold is made); each event costs a map lookup, and only an
 * event of a step the assembly depends on is kept. `progress()` then costs the map's groups,
 * never the trace: a long run's live view and the CLI's progress lines stay linear.
 */
export interface AssemblyFold {
  /** Folds one event in; true when it can change the progress (a step the assembly reads). */
  add(event: TraceEvent): boolean;
  progress(): AssemblyProgress[];
}

export function createAssemblyFold(chain: Chain): AssemblyFold {
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const targets = new Map<string, AssemblyTarget>();
  for (const step of chain.steps) {
    // Only an assemble step is parsed in full; any other kind is skipped on its kind alone.
    if (step.kind !== 'assemble') continue;
    const typed = typedStep(step);
    if (typed?.kind !== 'assemble') continue;
    const { groups: groupsRef, results: resultsRef } = typed.config.bindings;
    if (!groupsRef || !resultsRef || parseRef(groupsRef).root !== 'steps') continue;
    const mapStepId = fanOutBehind(byId, resultsRef);
    if (!mapStepId) continue;
    const target = targets.get(mapStepId) ?? { mapStepId, steps: [] };
    target.steps.push({ step, config: typed.config, groupsRef });
    targets.set(mapStepId, target);
  }
  // The steps whose finished output the progress reads: each map, its assemble steps and the steps holding their groups.
  const watched = new Set<string>();
  for (const t of targets.values()) {
    watched.add(t.mapStepId);
    for (const s of t.steps) {
      watched.add(s.step.id);
      const groupsStep = refStep(s.groupsRef);
      if (groupsStep) watched.add(groupsStep);
    }
  }
  const outputs = new Map<string, unknown>();
  const units = new Map<string, Map<string, { ok: boolean; output: unknown }>>();
  return {
    add(e) {
      if (e.type === 'step.finished' && e.status === 'succeeded' && watched.has(e.stepId)) {
        outputs.set(e.stepId, e.output);
        return true;
      }
      if (e.type === 'step.unit' && targets.has(e.stepId)) {
        let byUnit = units.get(e.stepId);
        if (!byUnit) units.set(e.stepId, (byUnit = new Map()));
        byUnit.set(e.unitId, { ok: e.status === 'ok', output: e.output });
        return true;
      }
      return false;
    },
    progress: () => [...targets.values()].flatMap((t) => progressOf(t, outputs, units.get(t.mapStepId)) ?? []),
  };
}

function progressOf(target: AssemblyTarget, outputs: ReadonlyMap<string, unknown>, unitsOfMap: ReadonlyMap<string, { ok: boolean; output: unknown }> | undefined): AssemblyProgress | null {
  const { mapStepId, steps } = target;
  // While the run goes, the first assembly fills in from the map's units; once a later one
  // finished (with the repairs), its recorded output is the document.
  const chosen = steps.findLast((s) => outputs.has(s.step.id)) ?? (steps[0] as (typeof steps)[number]);
  const step = chosen.step;
  const recorded = outputs.get(step.id) as Assembly | undefined;
  const groups = sourceGroupsOf(resolveRef(chosen.groupsRef, { inputs: {}, outputs }));
  if (!groups) return null;
  const byUnit = new Map(unitsOfMap);
  let cfg: Pick<AssembleConfig, 'itemsPath' | 'idField' | 'textField'> = chosen.config;
  if (recorded && Array.isArray(recorded.clauses)) {
    // The finished assembly as it was recorded: its clauses by group, missing groups failed.
    byUnit.clear();
    cfg = { itemsPath: 'clauses', idField: 'id', textField: 'rewrite' };
    for (const g of groups) byUnit.set(g.group_key, { ok: false, output: { clauses: [] } });
    for (const c of recorded.clauses) {
      const entry = byUnit.get(c.group_key);
      if (entry) (entry.output as { clauses: AssembledClause[] }).clauses.push(c);
    }
    for (const g of recorded.groups ?? []) if (g.status !== 'missing' && byUnit.has(g.group_key)) (byUnit.get(g.group_key) as { ok: boolean }).ok = true;
  } else {
    // A finished map's output covers units restored from elsewhere (a fork's reused steps).
    const mapOutput = outputs.get(mapStepId) as { results?: { unit_id: string; status: string; output: unknown }[] } | undefined;
    for (const r of mapOutput?.results ?? []) if (!byUnit.has(r.unit_id)) byUnit.set(r.unit_id, { ok: r.status === 'ok', output: r.output });
  }
  const ok = new Map([...byUnit].filter(([, u]) => u.ok).map(([k, u]) => [k, u.output]));
  const assembly = assembleGroups(groups, ok, new Map(), cfg);
  let contiguous = 0;
  while (contiguous < groups.length && assembly.groups[contiguous]?.status === 'ok') contiguous++;
  const progressGroups = groups.map((g, i): ProgressGroup => {
    const usable = assembly.groups[i]?.status === 'ok';
    const status: ProgressGroupStatus = i < contiguous ? 'assembled' : usable ? 'done' : byUnit.has(g.group_key) ? 'failed' : 'pending';
    const replaced = recorded?.replaced_groups?.includes(g.group_key) ?? false;
    return { index: i + 1, group_key: g.group_key, unit_ids: g.unit_ids, status, ...(replaced ? { replaced } : {}) };
  });
  const top = contiguous > 0 ? assembleGroups(groups.slice(0, contiguous), ok, new Map(), cfg).document : '';
  const firstUnit = groups[0]?.unit_ids[0];
  const lastUnit = groups[contiguous - 1]?.unit_ids.at(-1);
  return {
    stepId: step.id, mapStepId, total: groups.length, done: assembly.assembled_count, contiguous, text: top,
    units: contiguous > 0 && firstUnit !== undefined && lastUnit !== undefined ? { first: firstUnit, last: lastUnit } : null,
    groups: progressGroups, finished: outputs.has(step.id),
  };
}

/**
 * The document so far for each map that an assemble step merges: the first assembly while the
 * run goes, the last finished one after (the two-pass chain's final document, with its repairs).
 * A whole trace at once; a live view keeps a fold (`createAssemblyFold`) and adds each new event.
 *
 * @example
 * for (const p of assemblyProgress(chain, events)) console.error(progressLine(p)); // assembled 3/9 groups (units 1.1–4.2)
 */
export function assemblyProgress(chain: Chain, events: readonly TraceEvent[]): AssemblyProgress[] {
  const fold = createAssemblyFold(chain);
  for (const e of events) fold.add(e);
  return fold.progress();
}

/** "group 4 of 9 pending: clauses 4.1–5.2": a placeholder's words. */
export function placeholderText(g: ProgressGroup, total: number): string {
  const state = g.status === 'done' ? 'done, waiting for the groups above' : g.status;
  return `group ${g.index} of ${total} ${state}: ${unitRange(g.unit_ids)}`;
}

/**
 * Progress lines for a live run: one each time the top part grows, so a terminal shows the
 * document filling in. Feed it every event; it answers with the lines to print (often none).
 * Each event is folded in once: an event no assembly depends on costs a lookup.
 */
export function createAssemblyTracker(chain: Chain): (event: TraceEvent) => string[] {
  const fold = createAssemblyFold(chain);
  const shown = new Map<string, number>();
  return (event) => {
    if (!fold.add(event)) return [];
    const lines: string[] = [];
    for (const p of fold.progress()) {
      const before = shown.get(p.mapStepId);
      if (before === p.contiguous || (before === undefined && p.contiguous === 0)) continue;
      shown.set(p.mapStepId, p.contiguous);
      lines.push(`${progressLine(p)} [${p.stepId}]`);
    }
    return lines;
  };
}
