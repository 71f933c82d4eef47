import { useId, useState } from 'react';
import { estimateSufficiency, type BoundaryReport } from '../../../src/inspect/index.ts';
import { labelOf, type Boundary, type RunMeta, type SufficiencyVerdict } from '../../../src/trace/index.ts';
import { labelBoundary } from '../label-actions.ts';
import { JudgeBar } from '../judge/JudgeBar.tsx';
import { DocLink } from '../../ui/DocLink.tsx';

const choices: { verdict: SufficiencyVerdict; text: string }[] = [
  { verdict: 'derivable', text: 'Derivable' },
  { verdict: 'not-derivable', text: 'Not derivable' },
  { verdict: 'unsure', text: 'Unsure' },
];
const words: Record<SufficiencyVerdict, string> = { derivable: 'derivable', 'not-derivable': 'not derivable', unsure: 'unsure' };
const NOTE_MAX = 4000;

interface Props {
  meta: RunMeta;
  boundary: Boundary;
  report: BoundaryReport | null;
  live: boolean;
}

/**
 * Sufficiency at this boundary: could the consumer's answer be derived from what it received?
 * The estimate (from the facts the question asks for) sits beside a person's label, which is
 * stored with the run and travels in its exports. Keyed by run and boundary by the caller, so
 * the draft resets when either changes.
 */
export function SufficiencyBar({ meta, boundary, report, live }: Props) {
  const saved = labelOf(meta, boundary.id);
  const [verdict, setVerdict] = useState<SufficiencyVerdict | null>(saved?.verdict ?? null);
  const [note, setNote] = useState(saved?.note ?? '');
  const [busy, setBusy] = useState(false);
  const name = useId();
  const estimate = report ? estimateSufficiency(boundary, report) : null;
  const changed = verdict !== (saved?.verdict ?? null) || note.trim() !== (saved?.note ?? '');

  const save = async (next: SufficiencyVerdict | null) => {
    setBusy(true);
    const ok = await labelBoundary(meta.id, boundary, next, next === null ? '' : note);
    setBusy(false);
    if (ok && next === null) {
      setVerdict(null);
      setNote('');
    }
  };

  return (
    <form
      className="sufficiency-bar"
      data-testid="replay.sufficiency"
      aria-label="Sufficiency at this boundary"
      onSubmit={(e) => {
        e.preventDefault();
        if (verdict && changed && !busy) void save(verdict);
      }}
    >
      <span className="sufficiency-title">Sufficiency</span>
      <DocLink page="concepts" anchor="sufficiency" topic="Sufficiency" />
      {estimate && (
        <span className={`verdict sufficiency-estimate is-${estimate.verdict}`} data-testid="replay.sufficiencyEstimate" title={estimate.reason}>
          {estimate.verdict === 'unknown' ? 'Not estimated' : `Estimated ${estimate.verdict}`}
        </span>
      )}
      <fieldset className="sufficiency-choices" disabled={live || busy}>
        <legend className="visually-hidden">Your judgement: can the answer be derived from this handoff?</legend>
        {choices.map((c) => (
          <label key={c.verdict} className={verdict === c.verdict ? 'is-chosen' : ''}>
            <input type="radio" name={name} value={c.verdict} checked={verdict === c.verdict} onChange={() => setVerdict(c.verdict)} />
            {c.text}
          </label>
        ))}
        <input
          className="sufficiency-note"
          type="text"
          aria-label="Note on this label"
          placeholder="Note (what is missing, what would be needed)"
          maxLength={NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <button type="submit" className="button small primary" disabled={!verdict || !changed}>
          {saved ? 'Update label' : 'Save label'}
        </button>
        {saved && (
          <button type="button" className="button small" onClick={() => void save(null)}>
            Clear
          </button>
        )}
      </fieldset>
      {saved && !changed && (
        <span className="muted" data-testid="replay.sufficiencyLabel">
          Labelled {words[saved.verdict]} {new Date(saved.at).toLocaleString()}
        </span>
      )}
      {live && <span className="muted">Label once the run has finished</span>}
      <JudgeBar meta={meta} boundary={boundary} live={live} />
    </form>
  );
}
