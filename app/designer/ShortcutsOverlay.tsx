import { useEditorStore } from '../stores/editor-store.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { keyLabel, shortcuts } from './shortcuts.ts';

/** The `?` help: every shortcut, the replay's and the pane borders' too. */
export function ShortcutsOverlay() {
  const close = () => useEditorStore.getState().setOverlay(null);
  return (
    <Dialog title="Keyboard shortcuts" testId="shortcuts" onClose={close}>
      <table className="shortcuts-table">
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.does}>
              <td className="shortcut-keys">
                {s.keys.map((k) => (
                  <kbd key={k}>{keyLabel(k)}</kbd>
                ))}
              </td>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
