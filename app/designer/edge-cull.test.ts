import { describe, expect, it } from 'vitest';
import { buildEdges, buildNodes } from '../canvas/flow-elements.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { cullEdges, cullKey, edgeExtents, windowOf } from './edge-cull.ts';

const options = { selectedStepId: null, selectedInput: null, problemCounts: new Map(), lintCounts: new Map(), runInfo: new Map(), measured: {}, dragging: {}, highlight: null };

describe('edge culling', () => {
  it('keeps the window while the view pans less than half a screen, and it always covers the view', () => {
    const at = (x: number) => cullKey(-x, 0, 1, 1000, 800);
    expect(at(0)).toBe(at(200));
    expect(at(0)).not.toBe(at(600));
    for (const [tx, zoom] of [[-137, 0.6], [512, 0.45], [-3000, 1.3]] as const) {
      const win = windowOf(cullKey(tx, 40, zoom, 1000, 800))!;
      const view = { x: -tx / zoom, y: -40 / zoom, w: 1000 / zoom, h: 800 / zoom };
      expect(win.x).toBeLessThanOrEqual(view.x);
      expect(win.y).toBeLessThanOrEqual(view.y);
      expect(win.x + win.w).toBeGreaterThanOrEqual(view.x + view.w);
      expect(win.y + win.h).toBeGreaterThanOrEqual(view.y + view.h);
    }
  });

  it('hands React Flow only the edges near the view, never dropping one that is on screen, selected or dragged', () => {
    const chain = makeBenchChain(3000);
    const nodes = buildNodes(chain, canvasRegistry, options).map((n) => ({ ...n, measured: { width: 212, height: 176 } }));
    const edges = buildEdges(chain, canvasRegistry, [], null);
    const win = windowOf(cullKey(0, 0, 0.5, 1000, 800))!;
    const kept = cullEdges(edges, edgeExtents(edges, nodes), win, (e) => e.id === 'data:s2998->s2999:s2998');
    expect(kept.length).toBeLessThan(edges.length / 5);
    expect(kept.some((e) => e.id === 'data:s2998->s2999:s2998')).toBe(true);
    const view = { x1: 0, y1: 0, x2: 2000, y2: 1600 };
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const onScreen = edges.filter((e) => {
      const a = byId.get(e.source)!.position;
      const b = byId.get(e.target)!.position;
      return Math.max(a.x, b.x) + 212 >= view.x1 && Math.min(a.x, b.x) <= view.x2 && Math.max(a.y, b.y) + 176 >= view.y1 && Math.min(a.y, b.y) <= view.y2;
    });
    for (const e of onScreen) expect(kept).toContain(e);
    expect(cullEdges(edges.slice(0, 100), edgeExtents(edges.slice(0, 100), nodes), win, () => false)).toHaveLength(100);
    // An edge whose end is not on the canvas (yet) is kept rather than lost.
    const orphan = { ...edges[2999]!, id: 'orphan', source: 'missing' };
    expect(cullEdges([...edges, orphan], edgeExtents([...edges, orphan], nodes), win, () => false)).toContain(orphan);
  });
});
