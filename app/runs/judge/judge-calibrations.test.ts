import { beforeEach, describe, expect, it } from 'vitest';
import { judgeAgreement } from '../../../src/inspect/index.ts';
import { calibrationCell, readJudgeCalibrations, saveJudgeCalibration } from './judge-calibrations.ts';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) } });
});

describe('judge calibrations', () => {
  it('keeps the last agreement per chain and shows it as a table cell', () => {
    const agreement = judgeAgreement(Array.from({ length: 12 }, (_, i) => ({ judge: i % 2 ? 'derivable' : 'not-derivable', person: i % 2 ? 'derivable' : 'not-derivable' }) as const));
    saveJudgeCalibration('demo-a', agreement, 'gpt-4.1-mini', 1);
    const cell = calibrationCell(readJudgeCalibrations()['demo-a']);
    expect(cell.text).toBe('κ 1.00 · n 12');
    expect(cell.title).toContain('its labels count');
    saveJudgeCalibration('demo-b', judgeAgreement([{ judge: 'derivable', person: 'not-derivable' }]), 'm', 2);
    expect(calibrationCell(readJudgeCalibrations()['demo-b']).text).toBe('κ 0.00 · n 1 · not trusted');
    expect(calibrationCell(undefined).text).toBe('–');
  });

  it('leaves out anything malformed in storage rather than trust it', () => {
    store.set('seamscope.judgeCalibrations', JSON.stringify({ x: { kappa: 'high', n: 3 }, y: { kappa: 0.7, n: 20, trusted: true, why: 'w', model: 'm', at: 1 } }));
    expect(Object.keys(readJudgeCalibrations())).toEqual(['y']);
    store.set('seamscope.judgeCalibrations', '{not json');
    expect(readJudgeCalibrations()).toEqual({});
  });
});
