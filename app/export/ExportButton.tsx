import { lazy, Suspense, useState } from 'react';
import type { EndpointDefaults } from '../../src/export/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectActiveProfile, selectChain } from '../stores/selectors.ts';

// The dialog brings Monaco and the code emitters (~440 kB): loaded only when it opens.
const ExportDialog = lazy(() => import('./ExportDialog.tsx'));

/** "Export code" in the top bar: the open chain as a runnable TypeScript or Python program. */
export function ExportButton() {
  const chain = useEditorStore(selectChain);
  const profile = useEditorStore(selectActiveProfile);
  const [open, setOpen] = useState(false);
  if (!chain) return null;
  // A real endpoint's address and settings go into the program (the demo model has none); never its key.
  const endpoint: EndpointDefaults | undefined = profile && profile.kind !== 'demo'
    ? { protocol: profile.kind, baseUrl: profile.baseUrl, model: profile.model, maxOutputTokens: profile.maxOutputTokens, contextWindow: profile.contextWindow, structuredOutput: profile.structuredOutput }
    : undefined;
  return (
    <>
      <button type="button" className="button" data-testid="export.open" onClick={() => setOpen(true)} title="Export this chain as a TypeScript or Python program">
        Export code
      </button>
      {open && (
        <Suspense fallback={null}>
          <ExportDialog chain={chain} endpoint={endpoint} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
