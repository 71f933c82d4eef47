import type { BranchInto } from '../../src/chain/branch-edit.ts';
import { isMac } from '../designer/shortcuts.ts';
import { Dialog } from '../ui/Dialog.tsx';

/** A deletion that takes branches with it, waiting for the person's answer. */
export interface BranchLoss {
  steps: string[];
  routes: BranchInto[];
  resolve(yes: boolean): void;
}

const markAutofocus = (el: HTMLButtonElement | null) => el?.setAttribute('autofocus', '');

function routeWords(route: BranchInto): string {
  return route.label === 'otherwise' ? `${route.from} → ${route.to}, otherwise` : `${route.from} → ${route.to}, when "${route.label}"`;
}

/**
 * Asks before deleting a step some branch goes to: the route would go with it (a router left
 * without its otherwise fails on the labels it no longer catches). Names each route, and says
 * how to get both back.
 */
export function ConfirmBranchLoss({ loss, onAnswer }: { loss: BranchLoss; onAnswer(yes: boolean): void }) {
  const what = loss.steps.length === 1 ? loss.steps[0] : `${loss.steps.length} steps`;
  const routes = loss.routes.length === 1 ? 'route' : 'routes';
  return (
    <Dialog
      title={`Delete ${what}?`}
      testId="confirm.branchLoss"
      onClose={() => onAnswer(false)}
      footer={(
        <>
          <button type="button" className="button" onClick={() => onAnswer(false)}>Cancel</button>
          {/* The person asked to delete: Enter confirms, Esc cancels. The attribute (not React's
              autoFocus, which only calls focus() before the dialog opens) is what showModal focuses. */}
          <button type="button" className="button danger" data-testid="confirm.branchLoss.delete" ref={markAutofocus} onClick={() => onAnswer(true)}>
            Delete step and {routes}
          </button>
        </>
      )}
    >
      <p>{loss.steps.length === 1 ? `${what} is` : 'These steps are'} where a branch goes. Deleting {loss.steps.length === 1 ? 'it' : 'them'} also removes this {routes}:</p>
      <ul data-testid="confirm.branchLoss.routes">
        {loss.routes.map((r) => <li key={`${r.from}:${r.label}:${r.to}`} className="mono">{routeWords(r)}</li>)}
      </ul>
      <p className="muted small">{isMac() ? '⌘Z' : 'Ctrl+Z'} brings back the step and the {routes}.</p>
    </Dialog>
  );
}
