import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EndpointProfile } from '../../src/providers/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { usePaneStore } from '../ui/panes/pane-store.ts';
import { readActiveProfileId, startPreferences } from './preferences.ts';

/** A localStorage that counts its writes. */
function fakeStorage(initial: Record<string, string>) {
  const items = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    writes,
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => {
      writes.push(k);
      items.set(k, v);
    },
  };
}

describe('preferences', () => {
  let storage: ReturnType<typeof fakeStorage>;
  let stop: () => void = () => undefined;
  beforeEach(() => {
    storage = fakeStorage({
      'seamscope.canvasTool': 'select',
      'seamscope.panes': JSON.stringify({ panes: { inspector: { size: 420, collapsed: false } }, replayColumns: [2, 1, 1] }),
      'seamscope.activeProfile': 'p1',
    });
    vi.stubGlobal('localStorage', storage);
    stop = startPreferences(useEditorStore, usePaneStore);
  });
  afterEach(() => {
    stop();
    vi.unstubAllGlobals();
  });

  it('restores what this device kept, before anything is written', () => {
    expect(useEditorStore.getState().canvasTool).toBe('select');
    expect(usePaneStore.getState().panes.inspector).toEqual({ size: 420, collapsed: false });
    expect(usePaneStore.getState().replayColumns).toEqual([2, 1, 1]);
    expect(readActiveProfileId()).toBe('p1');
    expect(storage.writes).toEqual([]);
  });

  it('writes from subscriptions, only what changed: the tool, pane sizes when a drag ends, a chosen profile', () => {
    useEditorStore.getState().setCanvasTool('pan');
    expect(storage.items.get('seamscope.canvasTool')).toBe('pan');

    const panes = usePaneStore.getState();
    panes.setPane('sidebar', { size: 300, collapsed: false });
    panes.setPane('sidebar', { size: 310, collapsed: false });
    expect(storage.writes).toEqual(['seamscope.canvasTool']);
    usePaneStore.getState().commit();
    expect(JSON.parse(storage.items.get('seamscope.panes')!).panes.sidebar).toEqual({ size: 310, collapsed: false });
    usePaneStore.getState().toggle('sidebar');
    expect(JSON.parse(storage.items.get('seamscope.panes')!).panes.sidebar).toEqual({ size: 310, collapsed: true });

    // Loading the profiles picks the first one: not a choice, so the kept one stays.
    useEditorStore.getState().setProfiles([{ id: 'demo' }, { id: 'p1' }] as unknown as EndpointProfile[]);
    expect(storage.items.get('seamscope.activeProfile')).toBe('p1');
    useEditorStore.getState().setActiveProfile('p1');
    useEditorStore.getState().setActiveProfile('demo');
    expect(storage.items.get('seamscope.activeProfile')).toBe('demo');
  });
});
