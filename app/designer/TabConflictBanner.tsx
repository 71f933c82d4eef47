import { useEditorStore } from '../stores/editor-store.ts';
import { selectTabConflict } from '../stores/selectors.ts';


/** Another tab saved this chain while this one had unsaved edits: the person chooses. */
export function TabConflictBanner({ chainId }: { chainId: string }) {
  const conflict = useEditorStore(selectTabConflict);
  if (conflict?.chainId !== chainId) return null;
  const act = (which: 'reloadFromOtherTab' | 'keepMine') =>
    void import('../library/tab-sync.ts').then((m) => m[which](chainId)).catch((e: Error) => useEditorStore.getState().pushToast('error', e.message));
  return (
    <div className="tab-conflict" role="alert" data-testid="tab.conflict">
      <span>This chain changed in another tab.</span>
      <button type="button" className="button small" data-testid="tab.conflict.reload" onClick={() => act('reloadFromOtherTab')}>
        Reload
      </button>
      <button type="button" className="button small" data-testid="tab.conflict.keep" onClick={() => act('keepMine')}>
        Keep mine
      </button>
    </div>
  );
}
