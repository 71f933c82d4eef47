import { parseStep } from '../chain/parsed-step.ts';
import { parseRef } from '../chain/refs.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';

/**
 * Three questions, put to the stage that produces a seam, in order: a stage must pass
 * all three for a metric on it to mean anything. Each is answered from the chain (what the
 * stage reads and how its output is produced) and from the dataset (which items carry gold for
 * this seam), with the reason, so the table says why a stage metric can or cannot be trusted.
 */
export interface SeamAnswer {
  answer: 'yes' | 'no' | 'conditional';
  why: string;
}

export interface SeamQuestions {
  /** Can a valid input to the stage be built without running the stages before it? */
  input: SeamAnswer;
  /** Can its output be called right or wrong on its own terms? */
  verdict: SeamAnswer;
  /** Is the ground truth for that verdict obtainable at a cost someone will pay? */
  groundTruth: SeamAnswer;
}

export interface SeamEvidence {
  producer: string;
  /** Items whose gold facts reached this seam's estimate. */
  goldFacts: number;
  /** Recall on gold ids, when the stage outputs ids and items carry them. */
  recall: { items: number } | null;
  labelled: { derivable: number; notDerivable: number; unsure: number };
}

export function seamQuestions(chain: Chain, seam: SeamEvidence, items: number, registry: StepRegistry = stepRegistry): SeamQuestions {
  const step = chain.steps.find((s) => s.id === seam.producer);
  const parsed = step ? parseStep(step, registry) : null;
  const upstream = parsed ? [...new Set(Object.values(parsed.def.bindings(parsed.config)).map(parseRef).filter((r) => r.root === 'steps').map((r) => r.name))] : [];
  const input: SeamAnswer = !parsed
    ? { answer: 'no', why: `${seam.producer} is not a step of this chain` }
    : upstream.length === 0
      ? { answer: 'yes', why: 'it reads only the chain’s inputs: a dataset item is a valid input' }
      : { answer: 'conditional', why: `it reads ${upstream.join(', ')}: only with that input frozen (a snapshot of what it received) is it measured alone` };

  const labels = seam.labelled.derivable + seam.labelled.notDerivable + seam.labelled.unsure;
  const produces = parsed?.def.produces.by;
  const checks = parsed?.def.checks?.(parsed.config);
  const verdict: SeamAnswer = seam.recall
    ? { answer: 'yes', why: 'it outputs ids: whether the gold ids are in its output is set membership' }
    : checks
      ? { answer: 'yes', why: `it is a check (${checks}): pass or fail is its own verdict` }
      : seam.goldFacts > 0
        ? { answer: 'yes', why: 'the gold facts the answer needs are present in its output or not' }
        : produces === 'code'
          ? { answer: 'conditional', why: 'computed in code: right or wrong only against labels for this seam, and there are none yet' }
          : { answer: 'no', why: 'free model output with no gold for this seam: a verdict needs a judge or a person' };

  const groundTruth: SeamAnswer = checks
    ? { answer: 'yes', why: 'free: what a check compares against is its own input' }
    : seam.recall
      ? { answer: seam.recall.items === items ? 'yes' : 'conditional', why: `${seam.recall.items} of ${items} items carry gold ids` }
      : seam.goldFacts > 0
        ? { answer: seam.goldFacts === items ? 'yes' : 'conditional', why: `${seam.goldFacts} of ${items} items carry gold facts for it` }
        : labels > 0
          ? { answer: 'conditional', why: `${labels} of ${items} runs were labelled by a person at this seam` }
          : { answer: 'no', why: 'no item carries gold for this seam, and nobody has labelled it' };
  return { input, verdict, groundTruth };
}
