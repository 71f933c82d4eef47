import type { FidelityEntry, FidelityReport } from '../../src/formats/index.ts';
import { Dialog } from '../ui/Dialog.tsx';

const SECTIONS = [
  { key: 'kept', title: 'Carried over exactly' },
  { key: 'changed', title: 'Changed' },
  { key: 'dropped', title: 'Not carried over' },
] as const;

function Entry({ entry }: { entry: FidelityEntry }) {
  return (
    <li>
      <span className="import-report-where">{entry.where}</span>: {entry.what}
      {entry.why && <span className="muted"> — {entry.why}</span>}
    </li>
  );
}

/** What an import from another tool kept, changed and dropped (the same report sits in the chain's meta). */
export function ImportReportDialog({ chain, report, onClose }: { chain: string; report: FidelityReport; onClose(): void }) {
  return (
    <Dialog
      title={`Imported from ${report.tool}`}
      testId="import.report"
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <p>
        <strong>{chain}</strong>: {report.kept.length} carried over exactly, {report.changed.length} changed, {report.dropped.length} not carried over.
      </p>
      {SECTIONS.map(({ key, title }) => report[key].length > 0 && (
        <section key={key} className="import-report" data-testid={`import.report.${key}`}>
          <h3 className="small">{title}</h3>
          <ul>
            {report[key].map((e, i) => (
              <Entry key={i} entry={e} />
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}
