import { describe, expect, it } from 'vitest';
import { readableViewport, type Box } from './readable-fit.ts';

const options = { minZoom: 0.91, maxZoom: 1, padding: 20, top: 40 };
const row = (n: number, y = 0): Box[] => Array.from({ length: n }, (_, i) => ({ x: i * 320, y, width: 212, height: 100 }));
const onScreen = (b: Box, v: { x: number; y: number; zoom: number }) => ({ left: b.x * v.zoom + v.x, right: (b.x + b.width) * v.zoom + v.x, top: b.y * v.zoom + v.y, bottom: (b.y + b.height) * v.zoom + v.y });

describe('readableViewport', () => {
  it('shows a chain that fits whole, centred, at most at 100 %', () => {
    const v = readableViewport(row(2), { width: 1000, height: 600 }, options)!;
    expect(v.whole).toBe(true);
    expect(v.zoom).toBe(1);
    const first = onScreen(row(2)[0]!, v);
    const last = onScreen(row(2)[1]!, v);
    expect(first.left - 20).toBeCloseTo(1000 - 20 - last.right);
  });

  it('zooms out to fit, but not below the readable zoom', () => {
    const v = readableViewport(row(3), { width: 820, height: 600 }, options)!;
    expect(v.whole).toBe(true);
    expect(v.zoom).toBeGreaterThanOrEqual(0.91);
    expect(v.zoom).toBeLessThan(1);
    for (const b of row(3)) {
      const s = onScreen(b, v);
      expect(s.left).toBeGreaterThanOrEqual(20 - 1e-9);
      expect(s.right).toBeLessThanOrEqual(800 + 1e-9);
    }
  });

  it('shows the start of a chain too wide to fit readably, at the readable zoom', () => {
    const nodes = row(8);
    const v = readableViewport(nodes, { width: 700, height: 600 }, options)!;
    expect(v).toMatchObject({ whole: false, zoom: 0.91 });
    expect(onScreen(nodes[0]!, v).left).toBeCloseTo(20);
    // Vertically the first cards sit in the middle of the space under the toolbar.
    const s = onScreen(nodes[0]!, v);
    expect((s.top + s.bottom) / 2).toBeCloseTo(40 + 20 + (600 - 80) / 2);
  });

  it('puts a first column taller than the view from its top, under the toolbar', () => {
    const column = Array.from({ length: 9 }, (_, i) => ({ x: 0, y: i * 140, width: 212, height: 100 }));
    const v = readableViewport([...column, ...row(6, 0).map((b) => ({ ...b, x: b.x + 400 }))], { width: 700, height: 500 }, options)!;
    expect(v.whole).toBe(false);
    expect(onScreen(column[0]!, v).top).toBeCloseTo(60);
  });

  it('has nothing to fit on an empty chain or an unmeasured canvas', () => {
    expect(readableViewport([], { width: 800, height: 600 }, options)).toBeNull();
    expect(readableViewport(row(2), { width: 0, height: 0 }, options)).toBeNull();
  });
});
