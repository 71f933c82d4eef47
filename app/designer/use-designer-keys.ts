import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useEffect } from 'react';
import type { FlowEdge, FlowNode } from '../canvas/flow-elements.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { keyOwner, modalOpen } from './key-scope.ts';
import { adoptClipboardText, autoLayoutChain, copySelection, cutSelection, duplicateSelection, fitAll, paste, selectAll, selectedSteps } from './commands.ts';

/** Text boxes, selects and Monaco keep their own keys; the inspector's boxes share undo with the canvas. */
function editableTarget(target: EventTarget | null): Element | null {
  const owner = keyOwner(target);
  return owner && !owner.matches('dialog, [role="dialog"]') ? owner : null;
}

const hasTextSelection = () => {
  const selection = globalThis.getSelection?.();
  return !!selection && !selection.isCollapsed && selection.toString().length > 0;
};

/**
 * The designer's keyboard: undo/redo everywhere except inside Monaco and text boxes outside the
 * inspector (those keep the browser's own undo), copy/cut/paste/duplicate/select-all on the
 * canvas selection, Delete/Backspace remove it, Shift+L auto layout, F fit view, V/H the select and pan
 * tools, ? the shortcut help, Esc closes the help, the compounding panel or the contract card. None of them acts on a key typed in a text box, editor or dialog.
 */
export function useDesignerKeys(): void {
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const store = useStoreApi<FlowNode, FlowEdge>();
  useEffect(() => {
    const s = useEditorStore.getState;
    let pendingPaste: ReturnType<typeof setTimeout> | null = null;
    // What the key handler just copied, for the copy event that follows (the system clipboard).
    let copied: string | null = null;

    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const editable = editableTarget(e.target);
      const dialogOpen = modalOpen();

      if (mod && (key === 'z' || key === 'y')) {
        if (editable && (editable.closest('.monaco-editor') || !editable.closest('.inspector'))) return;
        if (dialogOpen) return;
        e.preventDefault();
        if (key === 'y' || e.shiftKey) s().redo();
        else s().undo();
        return;
      }
      if (editable || dialogOpen || keyOwner(e.target)) return;
      if (!mod && !e.altKey && (e.key === 'Delete' || e.key === 'Backspace')) {
        const nodes = rf.getNodes().filter((n) => n.selected);
        const edges = rf.getEdges().filter((edge) => edge.selected);
        if (nodes.length || edges.length) {
          e.preventDefault();
          // React Flow removes the nodes' edges with them and reports all of it to onDelete (one undo step).
          void rf.deleteElements({ nodes, edges });
        }
        return;
      }
      if (mod && (key === 'c' || key === 'x') && !hasTextSelection()) {
        copied = key === 'c' ? copySelection() : cutSelection();
        setTimeout(() => (copied = null), 100);
      } else if (mod && key === 'v') {
        // The paste event below may bring a fragment copied in another tab; if the browser sends
        // none, paste what this tab copied.
        if (pendingPaste) clearTimeout(pendingPaste);
        pendingPaste = setTimeout(() => {
          pendingPaste = null;
          paste(rf);
        }, 60);
      } else if (mod && key === 'd') {
        e.preventDefault();
        duplicateSelection();
      } else if (mod && key === 'a') {
        e.preventDefault();
        selectAll();
      } else if (!mod && !e.altKey && e.shiftKey && key === 'l') {
        e.preventDefault();
        void autoLayoutChain(rf, store);
      } else if (!mod && !e.altKey && !e.shiftKey && key === 'f') {
        fitAll(rf, store);
      } else if (!mod && !e.altKey && !e.shiftKey && (key === 'v' || key === 'h')) {
        s().setCanvasTool(key === 'v' ? 'select' : 'pan');
      } else if (e.key === '?') {
        e.preventDefault();
        s().setOverlay(s().overlay === 'shortcuts' ? null : 'shortcuts');
      } else if (e.key === 'Escape') {
        // The nearest thing first: the help, then a popover over the canvas, then the selection.
        if (s().overlay) s().setOverlay(null);
        else if (s().compoundingOpen) s().setCompoundingOpen(false);
        else if (s().hoveredEdge) s().setHoveredEdge(null);
        else if (selectedSteps().length) s().selectSteps([]);
      }
    };

    const onCopy = (e: ClipboardEvent) => {
      if (editableTarget(e.target) || hasTextSelection() || !e.clipboardData) return;
      // The system clipboard carries the fragment too, so another tab can paste it.
      const json = copied ?? (e.type === 'cut' ? cutSelection() : copySelection());
      copied = null;
      if (!json) return;
      e.clipboardData.setData('text/plain', json);
      e.preventDefault();
    };

    const onPaste = (e: ClipboardEvent) => {
      if (editableTarget(e.target)) return;
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (pendingPaste) clearTimeout(pendingPaste);
      pendingPaste = null;
      if (text) adoptClipboardText(text);
      if (paste(rf).length) e.preventDefault();
    };

    window.addEventListener('keydown', onKeyDown);
    document.addEventListener('copy', onCopy);
    document.addEventListener('cut', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      if (pendingPaste) clearTimeout(pendingPaste);
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('cut', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, [rf, store]);
}
