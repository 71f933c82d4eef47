import { describe, expect, it } from 'vitest';
import { resolveSize, separatorKey, shiftBorder, startSize, KEY_STEP, FINE_KEY_STEP } from './pane-size.ts';
import { readPaneSizes } from './pane-store.ts';

const side = { min: 200, max: 420, collapsible: true };

describe('resolveSize', () => {
  it('clamps a drag to the limits', () => {
    expect(resolveSize(150, { ...side, collapsible: false })).toEqual({ size: 200, collapsed: false });
    expect(resolveSize(900, side)).toEqual({ size: 420, collapsed: false });
    expect(resolveSize(300.6, side)).toEqual({ size: 301, collapsed: false });
  });
  it('folds a foldable pane dragged under half its minimum, keeping a size to come back to', () => {
    expect(resolveSize(99, side)).toEqual({ size: 200, collapsed: true });
    expect(resolveSize(101, side)).toEqual({ size: 200, collapsed: false });
  });
  it('never lets the maximum fall under the minimum (a small window)', () => {
    expect(resolveSize(500, { min: 280, max: 100, collapsible: false }).size).toBe(280);
  });
  it('starts a drag of a folded pane from its folded size', () => {
    expect(startSize({ size: 300, collapsed: true }, 0)).toBe(0);
    expect(startSize({ size: 300, collapsed: true }, 40)).toBe(40);
    expect(startSize({ size: 300, collapsed: false }, 40)).toBe(300);
  });
});

describe('shiftBorder', () => {
  it('trades width between two neighbours only', () => {
    expect(shiftBorder(300, 300, 120, 160, 160)).toEqual([420, 180]);
    expect(shiftBorder(300, 300, -50, 160, 160)).toEqual([250, 350]);
  });
  it('keeps both over their minimums', () => {
    expect(shiftBorder(300, 300, 1000, 160, 160)).toEqual([440, 160]);
    expect(shiftBorder(300, 300, -1000, 160, 160)).toEqual([160, 440]);
  });
});

describe('separatorKey', () => {
  it('moves along its own axis only', () => {
    expect(separatorKey('ArrowLeft', false, 'x')).toEqual({ kind: 'move', delta: -KEY_STEP });
    expect(separatorKey('ArrowRight', true, 'x')).toEqual({ kind: 'move', delta: FINE_KEY_STEP });
    expect(separatorKey('ArrowUp', false, 'x')).toBeNull();
    expect(separatorKey('ArrowUp', false, 'y')).toEqual({ kind: 'move', delta: -KEY_STEP });
    expect(separatorKey('ArrowLeft', false, 'y')).toBeNull();
  });
  it('jumps with Home and End and folds with Enter', () => {
    expect(separatorKey('Home', false, 'x')).toEqual({ kind: 'min' });
    expect(separatorKey('End', false, 'y')).toEqual({ kind: 'max' });
    expect(separatorKey('Enter', false, 'x')).toEqual({ kind: 'toggle' });
    expect(separatorKey('a', false, 'x')).toBeNull();
  });
});

describe('readPaneSizes', () => {
  it('falls back to defaults for missing, broken or hostile storage', () => {
    const base = readPaneSizes(null);
    expect(base.panes.sidebar).toEqual({ size: 256, collapsed: false });
    expect(readPaneSizes('{not json')).toEqual(base);
    expect(readPaneSizes('null')).toEqual(base);
    expect(readPaneSizes('{"panes":{"sidebar":{"size":1e400},"inspector":{"size":-5},"replay":{"size":"9"}}}').panes).toEqual(base.panes);
    expect(readPaneSizes('{"__proto__":{"panes":1},"replayColumns":[1,2]}')).toEqual(base);
  });
  it('keeps what a person set', () => {
    const s = readPaneSizes(JSON.stringify({ panes: { inspector: { size: 440.4, collapsed: true } }, replayColumns: [400, 300, 300] }));
    expect(s.panes.inspector).toEqual({ size: 440, collapsed: true });
    expect(s.panes.sidebar.size).toBe(256);
    expect(s.replayColumns).toEqual([400, 300, 300]);
  });
});
