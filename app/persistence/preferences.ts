import type { StoreApi } from 'zustand';
import type { EditorState } from '../stores/editor-store.ts';
import type { CanvasTool } from '../stores/view-slice.ts';
import { readPaneSizes, type PaneSizes } from '../ui/panes/pane-store.ts';

/**
 * This device's preferences in localStorage: the canvas tool, the pane sizes and the selected
 * endpoint profile (a preference, not a secret). Read once at start-up; written here, by store
 * subscriptions, when they change; store actions only set state. Storage can be unavailable
 * (private mode, a sandboxed frame, a full quota): the choices then last for the page.
 */
const KEYS = { canvasTool: 'seamscope.canvasTool', panes: 'seamscope.panes', activeProfile: 'seamscope.activeProfile' } as const;

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Full or blocked storage: the app works the same, the choice is just not kept.
  }
}

/** The profile selected on this device last time (bootstrap restores it once the profiles load). */
export function readActiveProfileId(): string | null {
  return read(KEYS.activeProfile);
}

type PaneStoreApi = StoreApi<{ kept: PaneSizes; restore(sizes: PaneSizes): void }>;

/**
 * Restores the kept canvas tool and pane sizes into the stores, then keeps them (and the
 * selected profile) as they change. Call before the first render, so the first paint has them.
 */
export function startPreferences(editor: StoreApi<EditorState>, panes: PaneStoreApi): () => void {
  const tool = read(KEYS.canvasTool);
  if (tool === 'select' || tool === 'pan') editor.getState().setCanvasTool(tool satisfies CanvasTool);
  panes.getState().restore(readPaneSizes(read(KEYS.panes)));

  const stopEditor = editor.subscribe((state, prev) => {
    if (state.canvasTool !== prev.canvasTool) write(KEYS.canvasTool, state.canvasTool);
    // '' → the first profile is the list loading, not a choice: the stored one is restored next.
    if (state.activeProfileId !== prev.activeProfileId && prev.activeProfileId !== '') write(KEYS.activeProfile, state.activeProfileId);
  });
  const stopPanes = panes.subscribe((state, prev) => {
    if (state.kept !== prev.kept) write(KEYS.panes, JSON.stringify(state.kept));
  });
  return () => {
    stopEditor();
    stopPanes();
  };
}
