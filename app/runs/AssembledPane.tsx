import { placeholderText, type AssemblyProgress } from '../../src/steps/assembly-progress.ts';

interface Props {
  progress: AssemblyProgress;
  live: boolean;
}

/**
 * Partial delivery: the assembled document as it fills in from the top. The top
 * contiguous part is shown as text (model output, rendered as text, never as HTML); every
 * group below it is a placeholder saying whether it is pending, done but waiting for the ones
 * above, or failed. Re-renders as the run's events arrive; the fold is in the core
 * (src/steps/assembly-progress.ts) and is the same one the CLI prints from.
 */
export function AssembledPane({ progress, live }: Props) {
  const below = progress.groups.filter((g) => g.status !== 'assembled');
  const replaced = progress.groups.filter((g) => g.replaced).length;
  const units = progress.units ? ` · units ${progress.units.first}–${progress.units.last}` : '';
  return (
    <div className="replay-panes">
      <section className="pane assembled-pane" aria-label="Assembled so far" data-testid="replay.assembled">
        <div className="pane-title">
          {progress.finished && !live ? 'Assembled document' : 'Assembled so far'}{' '}
          <span className="muted" data-testid="replay.assembled.count">
            {progress.contiguous} of {progress.total} groups from the top{units}
            {progress.done > progress.contiguous ? ` · ${progress.done - progress.contiguous} more done below a pending group` : ''}
            {replaced > 0 ? ` · ${replaced} rewritten again after the defect list` : ''}
          </span>
        </div>
        <ol className="assembled-strip" aria-label="Groups in clause order" data-testid="replay.assembled.strip">
          {progress.groups.map((g) => (
            <li
              key={g.group_key}
              className={`assembled-chip is-${g.status}${g.replaced ? ' is-replaced' : ''}`}
              title={g.status === 'assembled' ? `group ${g.index} of ${progress.total} assembled${g.replaced ? ', rewritten again after the defect list' : ''}` : placeholderText(g, progress.total)}
            >
              {g.index}
            </li>
          ))}
        </ol>
        {progress.contiguous === 0 && <p className="muted small">{live ? 'Waiting for the first group: the document fills in from the top, in clause order.' : 'No group at the top of the document finished.'}</p>}
        {progress.text && (
          <pre className="text-block source-text assembled-text" data-testid="replay.assembled.text">
            {progress.text}
          </pre>
        )}
        {below.length > 0 && (
          <ol className="assembled-placeholders" data-testid="replay.assembled.placeholders">
            {below.map((g) => (
              <li key={g.group_key} className={`assembled-placeholder is-${g.status}`} data-testid={`replay.assembled.group.${g.index}`}>
                {placeholderText(g, progress.total)}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
