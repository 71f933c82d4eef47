import { boundaryLabelSchema } from './event-schemas.ts';
import type { BoundaryLabel, RunMeta } from './events.ts';

/**
 * Human sufficiency labels on a run: at most one per boundary, replaced when revised, removed
 * when withdrawn. Pure: the caller stores the returned list (`updateRun(id, { labels })` in the
 * app, the run file in the CLI), so a label that does not validate changes nothing stored.
 */
export type LabelResult = { ok: true; labels: BoundaryLabel[] } | { ok: false; message: string };

/** The label of one boundary, or null. */
export function labelOf(meta: Pick<RunMeta, 'labels'>, boundaryId: string): BoundaryLabel | null {
  return meta.labels?.find((l) => l.boundaryId === boundaryId) ?? null;
}

/** The run's labels with `label` set for its boundary (replacing an earlier one), in boundary order of first labelling. */
export function setBoundaryLabel(meta: Pick<RunMeta, 'labels'>, label: BoundaryLabel): LabelResult {
  const checked = boundaryLabelSchema.safeParse({ ...label, note: label.note.trim() });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, message: `${issue?.path.join('.') || 'label'}: ${issue?.message ?? 'invalid'}` };
  }
  const next = checked.data as BoundaryLabel;
  const current = meta.labels ?? [];
  const at = current.findIndex((l) => l.boundaryId === next.boundaryId);
  return { ok: true, labels: at < 0 ? [...current, next] : current.map((l, i) => (i === at ? next : l)) };
}

/** The run's labels without the one of `boundaryId` (unchanged when it had none). */
export function clearBoundaryLabel(meta: Pick<RunMeta, 'labels'>, boundaryId: string): BoundaryLabel[] {
  return (meta.labels ?? []).filter((l) => l.boundaryId !== boundaryId);
}
