import { describe, expect, it } from 'vitest';
import { lazyModule } from './lazy-module.ts';

describe('lazyModule', () => {
  it('imports once; the module is ready without an await only after its import resolved', async () => {
    let loads = 0;
    const mod = lazyModule(async () => ({ n: ++loads }));
    expect(mod.ready()).toBeUndefined();
    const first = mod();
    expect(mod.ready()).toBeUndefined();
    expect(await first).toEqual({ n: 1 });
    expect(mod.ready()).toEqual({ n: 1 });
    expect(await mod()).toBe(mod.ready());
    expect(loads).toBe(1);
  });

  it('a failed import is tried again next time and is never ready', async () => {
    let loads = 0;
    const mod = lazyModule(async () => {
      if (++loads === 1) throw new Error('chunk dropped');
      return { ok: true };
    });
    await expect(mod()).rejects.toThrow('chunk dropped');
    expect(mod.ready()).toBeUndefined();
    expect(await mod()).toEqual({ ok: true });
    expect(mod.ready()).toEqual({ ok: true });
    expect(loads).toBe(2);
  });
});
