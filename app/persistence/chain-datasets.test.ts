import { afterEach, describe, expect, it, vi } from 'vitest';

/** A localStorage over a map. */
function storage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

/** The module as a fresh page loads it (it reads the links once, at start-up). */
async function load(initial: Record<string, string> = {}) {
  const store = storage(initial);
  vi.stubGlobal('localStorage', store);
  vi.resetModules();
  return { store, ...(await import('./chain-datasets.ts')) };
}

describe('chain → dataset links', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('links the chains ticked to the dataset picked, and a reload finds the links', async () => {
    const first = await load();
    first.useChainDatasets.getState().link(['demo-a', 'demo-b'], 'ds1');
    first.useChainDatasets.getState().link(['demo-b'], 'ds2');
    expect(first.linkedDataset('demo-a')).toBe('ds1');
    expect(first.linkedDataset('demo-b')).toBe('ds2');
    expect(first.linkedDataset('demo-c')).toBeNull();
    const again = await load(Object.fromEntries(first.store.items));
    expect(again.linkedDataset('demo-b')).toBe('ds2');
  });

  it('reads only chain id → dataset id text from storage, and no chain id reaches the prototype', async () => {
    const { linkedDataset, useChainDatasets } = await load({ 'seamscope.chainDatasets': JSON.stringify({ a: 'ds1', b: 7, c: { x: 1 } }) });
    expect(useChainDatasets.getState().links).toEqual({ a: 'ds1' });
    expect(linkedDataset('constructor')).toBeNull();
    expect(linkedDataset('__proto__')).toBeNull();
    expect((await load({ 'seamscope.chainDatasets': '[1,2' })).useChainDatasets.getState().links).toEqual({});
  });

  it('writes nothing when every chain is already linked, and keeps working without storage', async () => {
    const { store, useChainDatasets } = await load();
    useChainDatasets.getState().link(['a'], 'ds1');
    const links = useChainDatasets.getState().links;
    useChainDatasets.getState().link(['a'], 'ds1');
    expect(useChainDatasets.getState().links).toBe(links);
    store.setItem = () => {
      throw new Error('quota');
    };
    useChainDatasets.getState().link(['b'], 'ds1');
    expect(useChainDatasets.getState().links).toEqual({ a: 'ds1', b: 'ds1' });
  });
});
