import { useEffect } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectToasts } from '../stores/selectors.ts';
import type { Toast } from '../stores/workspace-slice.ts';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useEditorStore((s) => s.dismissToast);
  useEffect(() => {
    // Errors stay long enough to read; information goes quickly.
    const timer = setTimeout(() => dismiss(toast.id), toast.kind === 'error' ? 12000 : 4000);
    return () => clearTimeout(timer);
  }, [toast.id, toast.kind, dismiss]);
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span data-testid="toast">{toast.text}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}

/** Status and error messages, newest last. */
export function Toasts() {
  const toasts = useEditorStore(selectToasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
