import { describe, expect, it } from 'vitest';
import { placeEdgePrompt } from './prompt-placement.ts';

const card = (x: number, y: number) => ({ x, y, width: 160, height: 80 });
const size = { width: 260, height: 200 };

describe('placeEdgePrompt', () => {
  it('sits under the middle of an edge between cards side by side', () => {
    expect(placeEdgePrompt(card(0, 0), card(500, 0), size, 10)).toEqual({ x: 330 - 130, y: 50 });
  });

  it('moves off a card that the first places would hide: a target up and left of the source\'s handle', () => {
    // The router at (340, 240), its Output up and left of its right handle (as in the e2e layout).
    const from = card(340, 240);
    const to = card(330, 0);
    const at = placeEdgePrompt(from, to, size, 10);
    const box = { ...at, ...size };
    const hides = (r: { x: number; y: number; width: number; height: number }) =>
      Math.min(box.x + box.width, r.x + r.width) > Math.max(box.x, r.x) && Math.min(box.y + box.height, r.y + r.height) > Math.max(box.y, r.y);
    expect(hides(from) || hides(to)).toBe(false);
  });

  it('stays in the part of the canvas in view', () => {
    const view = { x: 0, y: 0, width: 700, height: 600 };
    const at = placeEdgePrompt(card(100, 300), card(500, 40), size, 10, view);
    expect(at.x).toBeGreaterThanOrEqual(0);
    expect(at.x + size.width).toBeLessThanOrEqual(700);
    expect(at.y + size.height).toBeLessThanOrEqual(600);
  });
});
