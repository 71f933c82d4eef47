import type { Chain } from '../../../src/chain/index.ts';
import { parseChain } from '../../../src/chain/parse.ts';
import { addUsage, intermediateText, judgeBoundary, type BoundaryJudgement, type JudgeUsage } from '../../../src/eval/index.ts';
import { factSurvival, inspectBoundary, judgeAgreement, type JudgeAgreement, type LabelPair } from '../../../src/inspect/index.ts';
import { createProviderForProfile, runModelSettings, type EndpointProfile } from '../../../src/providers/profiles.ts';
import { stepRegistry } from '../../../src/steps/index.ts';
import { buildRunView, labelOf, type Boundary, type RunMeta } from '../../../src/trace/index.ts';
import { getRunRepository, openDb } from '../../persistence/connection.ts';
import { getApiKey } from '../../persistence/profiles.ts';
import { saveJudgeCalibration } from './judge-calibrations.ts';

/** The most labelled boundaries one calibration judges: a bound on what a click can spend. */
export const CALIBRATION_LIMIT = 40;

export interface JudgeOutcome {
  /** The judge's label of the boundary on screen (null verdict: it gave none, said in reason). */
  current: BoundaryJudgement;
  agreement: JudgeAgreement;
  /** Calls and tokens of the judge alone, never added to the run's. */
  usage: JudgeUsage;
  model: string;
}


/** The question the consumer of a boundary answered, as the replay's inspection finds it. */
function questionOf(boundary: Boundary): string | null {
  return inspectBoundary(boundary, {}, factSurvival(boundary.sources, boundary.intermediate)).question;
}

async function loadJudgeChain(): Promise<Chain> {
  // Served with the app (public/judges), the same file `seamscope inspect --judge` takes.
  const response = await fetch(`${import.meta.env.BASE_URL}judges/sufficiency.chain.json`);
  if (!response.ok) throw new Error(`the judge chain could not be loaded (HTTP ${response.status})`);
  const parsed = parseChain(await response.text(), stepRegistry);
  if (!parsed.ok) throw new Error(`the judge chain is not valid: ${parsed.problems[0]?.message ?? 'unknown problem'}`);
  return parsed.chain;
}

/**
 * Asks the judge about the boundary on screen, and first about every boundary the person
 * labelled on this chain's runs (up to CALIBRATION_LIMIT, newest first), so its verdict is shown
 * with its agreement beside it. Only with a real endpoint profile: the offline demo model keeps
 * the rule-based check. The judge's runs are not stored.
 */
export async function judgeWithCalibration(meta: RunMeta, boundary: Boundary, profile: EndpointProfile, signal?: AbortSignal): Promise<JudgeOutcome> {
  if (profile.kind === 'demo') throw new Error('the offline demo model keeps the rule-based check: choose an endpoint profile to ask a judge');
  const chain = await loadJudgeChain();
  const apiKey = await getApiKey(await openDb(), profile.id);
  const ctx = { provider: createProviderForProfile(profile, { apiKey, browser: true }), model: runModelSettings(profile), registry: stepRegistry, ...(signal ? { signal } : {}) };
  const repo = await getRunRepository();
  const labelled = (await repo.listRuns({ chainId: meta.chainId }))
    .filter((r) => r.labels?.length)
    .sort((a, b) => b.startedAt - a.startedAt);
  let usage: JudgeUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const ask = async (b: Boundary, question: string) => {
    const judged = await judgeBoundary(chain, { question, intermediate: intermediateText(b.intermediate) }, ctx);
    usage = addUsage(usage, judged.usage);
    return judged.judgement;
  };
  const pairs: LabelPair[] = [];
  let current: BoundaryJudgement | null = null;
  let budget = CALIBRATION_LIMIT;
  for (const run of labelled) {
    if (budget <= 0 || signal?.aborted) break;
    const view = buildRunView(run, await repo.getEvents(run.id), stepRegistry);
    for (const b of view.boundaries) {
      const label = labelOf(run, b.id);
      const question = label && budget > 0 ? questionOf(b) : null;
      if (!label || !question) continue;
      budget--;
      const judged = await ask(b, question);
      if (run.id === meta.id && b.id === boundary.id) current = judged;
      if (judged.verdict) pairs.push({ judge: judged.verdict, person: label.verdict });
    }
  }
  if (!current) {
    const question = questionOf(boundary);
    current = question ? await ask(boundary, question) : { verdict: null, reason: 'no question was found for this boundary, so there is nothing to judge it against' };
  }
  const agreement = judgeAgreement(pairs);
  // Kept per chain so Evaluate's table shows how far this chain's judge can be trusted.
  saveJudgeCalibration(meta.chainId, agreement, profile.model);
  return { current, agreement, usage, model: profile.model };
}
