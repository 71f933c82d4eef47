import type { StateCreator } from 'zustand';
import type { EndpointProfile } from '../../src/providers/index.ts';
import type { EditorState } from './editor-store.ts';

/** One line of the chain library (the chain itself stays in the database until opened). */
export interface ChainSummary {
  id: string;
  name: string;
  updatedAt: number;
}

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
  /** A button on the toast (Undo after a delete); the toast closes when it is pressed. */
  action?: { label: string; run(): void };
}

/**
 * The library list, endpoint profiles and toasts. The lists mirror the database; they are
 * set by app/persistence after it has written, never written from here.
 */
export interface WorkspaceSlice {
  library: readonly ChainSummary[];
  profiles: readonly EndpointProfile[];
  activeProfileId: string;
  toasts: readonly Toast[];
  setLibrary(library: readonly ChainSummary[]): void;
  upsertLibraryEntry(entry: ChainSummary): void;
  setProfiles(profiles: readonly EndpointProfile[]): void;
  setActiveProfile(id: string): void;
  pushToast(kind: Toast['kind'], text: string, action?: Toast['action']): number;
  dismissToast(id: number): void;
}

let nextToastId = 1;

export const createWorkspaceSlice: StateCreator<EditorState, [], [], WorkspaceSlice> = (set) => ({
  library: [],
  // Filled in by bootstrap once the provider module has loaded (it starts with the demo profile).
  profiles: [],
  activeProfileId: '',
  toasts: [],
  setLibrary: (library) => set({ library }),
  upsertLibraryEntry: (entry) =>
    set((state) => {
      const rest = state.library.filter((e) => e.id !== entry.id);
      return { library: [entry, ...rest].sort((a, b) => b.updatedAt - a.updatedAt) };
    }),
  setProfiles: (profiles) =>
    set((state) => ({
      profiles,
      activeProfileId: profiles.some((p) => p.id === state.activeProfileId) ? state.activeProfileId : (profiles[0]?.id ?? ''),
    })),
  setActiveProfile: (id) => set({ activeProfileId: id }),
  pushToast: (kind, text, action) => {
    const id = nextToastId++;
    set((state) => ({ toasts: [...state.toasts.slice(-3), action ? { id, kind, text, action } : { id, kind, text }] }));
    return id;
  },
  dismissToast: (id) => set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) })),
});
