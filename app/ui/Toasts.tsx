import { useEffect } from 'react';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectToasts } from '../stores/selectors.ts';
import type { Toast } from '../stores/workspace-slice.ts';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useEditorStore((s) => s.dismissToast);
  useEffect(() => {
    // Errors stay long enough to read; information goes quickly; an undo offer waits a little longer.
    const timer = setTimeout(() => dismiss(toast.id), toast.kind === 'error' ? 12000 : toast.action ? 10000 : 4000);
    return () => clearTimeout(timer);
  }, [toast.id, toast.kind, toast.action, dismiss]);
  return (
    <div className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <span data-testid="toast">{toast.text}</span>
      {toast.action && (
        <button
          type="button"
          className="button small"
          data-testid={`toast.${toast.action.label.toLowerCase()}`}
          onClick={() => {
            dismiss(toast.id);
            toast.action?.run();
          }}
        >
          {toast.action.label}
        </button>
      )}
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
