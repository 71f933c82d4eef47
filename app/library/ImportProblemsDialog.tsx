import type { ChainProblem } from '../../src/chain/parse.ts';
import { Dialog } from '../ui/Dialog.tsx';

/** Why a file was refused. Nothing from it was stored. */
export function ImportProblemsDialog({ file, problems, onClose }: { file: string; problems: ChainProblem[]; onClose(): void }) {
  return (
    <Dialog
      title="This file was not imported"
      testId="import.problems"
      onClose={onClose}
      footer={
        <button type="button" className="button primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <p>
        <strong>{file}</strong> has {problems.length} problem{problems.length === 1 ? '' : 's'}. Nothing was added to the library.
      </p>
      <ul className="import-problems">
        {problems.map((p, i) => (
          <li key={i} className="mono">
            {`${p.path} — ${p.message}`}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
