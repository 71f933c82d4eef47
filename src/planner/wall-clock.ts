/**
 * Wall clock for the four ways of dividing an output-bound job. Every model is
 * output-bound: a call takes its output tokens divided by the model's tokens per second, and
 * reading the input (prefill) is left out, since at these sizes generation dominates. The
 * words in WALL_CLOCK_MODELS are what the CLI's JSON and the README say about each figure.
 */
export const WALL_CLOCK_MODELS = {
  parallelS: 'all groups at once: the largest group’s output ÷ the writer’s tokens per second',
  sequentialS: 'sequential carryover, each call fed the rewrites so far: the whole output ÷ tokens per second (a sum, not a maximum)',
  hierarchicalS: 'map-reduce: the parallel groups, then each level of reduce calls (fan-in = how many group outputs fit one call) writing at most the planned share of the cap',
  twoPassS: 'two-pass: the parallel groups, then a reader’s defect list ÷ the reader’s tokens per second, then one rerun of the largest group',
} as const;

export interface WallClock {
  parallelS: number;
  sequentialS: number;
  /** Null when not even two group outputs fit one reduce call. */
  hierarchicalS: number | null;
  twoPassS: number;
}

export interface WallClockInput {
  groups: number;
  outputTokensPerGroup: number;
  totalOutputTokens: number;
  /** Writer tokens per second. */
  tokensPerSecond: number;
  /** How much of one reduce call's input is free for the group outputs it integrates. */
  reduceInputRoom: number;
  /** The most one reduce call may plan to write (the cap's headroom). */
  reduceOutputLimit: number;
  defectListTokens: number;
  readerTokensPerSecond: number;
}

/** Levels of a reduce tree over `groups` leaves with `fanIn` children per call. */
export function reduceLevels(groups: number, fanIn: number): number {
  let levels = 0;
  for (let width = groups; width > 1; width = Math.ceil(width / fanIn)) levels++;
  return levels;
}

export function wallClock(w: WallClockInput): WallClock {
  const seconds = (tokens: number, tps: number) => tokens / tps;
  const parallelS = seconds(w.outputTokensPerGroup, w.tokensPerSecond);
  const fanIn = Math.floor(w.reduceInputRoom / Math.max(1, w.outputTokensPerGroup));
  // Each level's reduce call writes what its children wrote, up to what one call may plan to write.
  const reduceOutput = Math.min(w.reduceOutputLimit, fanIn * w.outputTokensPerGroup);
  const hierarchicalS = w.groups === 1 ? parallelS : fanIn < 2 ? null : parallelS + reduceLevels(w.groups, fanIn) * seconds(reduceOutput, w.tokensPerSecond);
  return {
    parallelS,
    sequentialS: seconds(w.totalOutputTokens, w.tokensPerSecond),
    hierarchicalS,
    twoPassS: parallelS + seconds(w.defectListTokens, w.readerTokensPerSecond) + seconds(w.outputTokensPerGroup, w.tokensPerSecond),
  };
}
