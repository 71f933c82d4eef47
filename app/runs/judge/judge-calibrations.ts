import type { JudgeAgreement } from '../../../src/inspect/index.ts';

/**
 * The last measured agreement of the sufficiency judge with the person's labels, per chain, kept
 * on this device (localStorage) so Evaluate's table can show it beside each variant without
 * spending judge calls again. Storage may be unavailable: the figure then lasts for the page.
 */
export interface JudgeCalibration {
  kappa: number | null;
  n: number;
  trusted: boolean;
  why: string;
  /** The model that judged. */
  model: string;
  at: number;
}

const KEY = 'seamscope.judgeCalibrations';
let memory: Record<string, JudgeCalibration> = {};

const isCalibration = (v: unknown): v is JudgeCalibration => {
  const c = v as Partial<JudgeCalibration> | null;
  return !!c && typeof c === 'object' && (c.kappa === null || typeof c.kappa === 'number') && typeof c.n === 'number' && typeof c.trusted === 'boolean' && typeof c.why === 'string' && typeof c.model === 'string' && typeof c.at === 'number';
};

/** Every stored calibration, by chain id; anything malformed in storage is left out, never trusted. */
export function readJudgeCalibrations(): Record<string, JudgeCalibration> {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (!raw) return { ...memory };
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ...memory };
    return { ...Object.fromEntries(Object.entries(parsed).filter(([, v]) => isCalibration(v))), ...memory };
  } catch {
    return { ...memory };
  }
}

export function saveJudgeCalibration(chainId: string, agreement: JudgeAgreement, model: string, at = Date.now()): void {
  const entry: JudgeCalibration = { kappa: agreement.kappa, n: agreement.n, trusted: agreement.trusted, why: agreement.why, model, at };
  const next = { ...readJudgeCalibrations(), [chainId]: entry };
  try {
    if (!globalThis.localStorage) throw new Error('no storage');
    globalThis.localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Full or blocked storage: kept for this page only.
    memory = { ...memory, [chainId]: entry };
  }
}

/** The table cell: κ and n, and whether the judge counts; '–' with how to get one when none was measured. */
export function calibrationCell(c: JudgeCalibration | undefined): { text: string; title: string } {
  if (!c) return { text: '–', title: 'No sufficiency judge measured against your labels for this chain: ask a judge from a boundary of its replay (a real endpoint profile)' };
  return { text: `${c.kappa === null ? 'κ –' : `κ ${c.kappa.toFixed(2)}`} · n ${c.n}${c.trusted ? '' : ' · not trusted'}`, title: `${c.model}, ${new Date(c.at).toLocaleString()}: ${c.why}` };
}
