/**
 * promptfoo's `llm-rubric` as a judge chain: a model step shown the rubric and the output, asked
 * for `{pass, reason}` (promptfoo's own grader answers `{reason, pass, score}`). The eval runs it
 * as a `judge` scorer on each item's output; rubrics differ from test to test, so each item
 * carries its own rubric as an input the judge reads and the chains under test ignore.
 */

export const RUBRIC_JUDGE_ID = 'promptfoo-llm-rubric';
/** The item input that holds a test's rubric (a name no promptfoo var is likely to take; checked). */
export const RUBRIC_INPUT = 'promptfoo_rubric';

const SYSTEM = 'You grade an output against a rubric. Read the rubric, then the output, and decide whether the output meets every requirement of the rubric. Judge only what the rubric asks; do not reward length or style it does not ask for.';

/** The judge chain, as a chain file's value (checked by parseChain as any chain is). */
export function rubricJudgeChain(model: Record<string, unknown>): Record<string, unknown> {
  return {
    format: 'seamscope.chain', version: 1,
    id: RUBRIC_JUDGE_ID,
    name: 'promptfoo llm-rubric judge',
    description: 'Judges one output against the rubric of the test it ran for (promptfoo\'s llm-rubric assertion, imported). Its verdict is the item\'s llm-rubric score.',
    inputs: [
      // The rubric is the config author's own instruction to the grader: trusted, not framed as data.
      { name: RUBRIC_INPUT, description: 'The test\'s rubric, as its config wrote it.', schema: { type: 'string', minLength: 1, maxLength: 20_000 }, trust: 'trusted', required: true },
      { name: 'output', description: 'The output under judgement (model output: untrusted).', schema: { type: 'string', maxLength: 200_000 }, trust: 'untrusted', required: true },
    ],
    steps: [
      {
        id: 'judge', kind: 'model', name: 'Grade against the rubric', position: { x: 0, y: 0 },
        config: {
          bindings: { rubric: `inputs.${RUBRIC_INPUT}`, output: 'inputs.output' },
          system: SYSTEM,
          prompt: 'Rubric:\n{rubric}\n\nOutput:\n{output}\n\nReturn pass true only if the output meets the rubric. In reason, say which requirement it meets or misses.',
          outputSchema: { type: 'object', properties: { pass: { type: 'boolean' }, reason: { type: 'string' } }, required: ['pass', 'reason'], additionalProperties: false },
          schemaName: 'rubric_verdict',
          temperature: 0,
          maxTokens: 400,
          retries: 1,
          onFail: 'abort',
          ...model,
        },
      },
      { id: 'verdict', kind: 'output', name: 'Verdict', position: { x: 300, y: 0 }, config: { bindings: { value: 'steps.judge' } } },
    ],
    meta: { importedFrom: { tool: 'promptfoo', assertion: 'llm-rubric' } },
  };
}
