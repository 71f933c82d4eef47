import { describe, expect, it } from 'vitest';
import { BLOCKS_ZOOM, COMPACT_ZOOM, overviewBand, overviewTextPx } from './overview-scale.ts';
import { DETAIL_ZOOM, MIN_SCREEN_TEXT_PX } from './palette-constants.ts';

describe('overview bands', () => {
  it('full cards from DETAIL_ZOOM up, then far, compact and blocks as the zoom falls', () => {
    expect(overviewBand(1)).toBe('detail');
    expect(overviewBand(DETAIL_ZOOM)).toBe('detail');
    expect(overviewBand(DETAIL_ZOOM - 0.01)).toBe('far');
    expect(overviewBand(COMPACT_ZOOM)).toBe('far');
    expect(overviewBand(COMPACT_ZOOM - 0.01)).toBe('compact');
    expect(overviewBand(BLOCKS_ZOOM)).toBe('compact');
    expect(overviewBand(BLOCKS_ZOOM - 0.01)).toBe('blocks');
  });

  it('overview text renders at the readable minimum on screen at any zoom', () => {
    for (const zoom of [0.2, 0.33, 0.5, 0.8]) expect(overviewTextPx(zoom) * zoom).toBeCloseTo(MIN_SCREEN_TEXT_PX, 6);
  });
});
