import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chainEdges } from '../../src/chain/index.ts';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { createLightRegistry } from './light-registry.ts';

// The demo chains as their files hold them: configs with the defaults left out, as a person's files do.
const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((f) => JSON.parse(readFileSync(new URL(f, demoDir), 'utf8')) as Chain);
const light = createLightRegistry(stepRegistry);

/** What the canvas draws of a step: its bindings, its branches and how many summary lines its card has. */
function drawn(registry: typeof stepRegistry, step: StepDef) {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (!def || !parsed?.success) return null;
  return { bindings: def.bindings(parsed.data), branches: def.branches(parsed.data), lines: def.summary(parsed.data).length };
}

describe('the light registry (configs read as they are for a large chain\'s first paint)', () => {
  it('draws every step of every demo chain and of the bench chain as the parsed configs do', () => {
    expect(demos.length).toBeGreaterThan(3);
    for (const chain of [...demos, makeBenchChain(60)]) {
      for (const step of chain.steps) expect(drawn(light, step), `${chain.id} ${step.id}`).toEqual(drawn(stepRegistry, step));
      expect(chainEdges(chain, light), chain.id).toEqual(chainEdges(chain, stepRegistry));
    }
  });

  it('reads the bench chain\'s configs without parsing them (the object handed back is the config itself)', () => {
    const step = makeBenchChain(3).steps[2] as StepDef;
    const result = light.get('model')?.config.safeParse(step.config);
    expect(result?.success && result.data).toBe(step.config);
  });

  it('sends what the definition cannot read as it is to the real parse, which refuses it', () => {
    const model = (config: unknown) => light.get('model')?.config.safeParse(config).success;
    // A binding that is not a ref string, an onFail that is not a string, a config that is not an object.
    expect(model({ bindings: { a: 3 }, prompt: 'x', onFail: 'abort' })).toBe(false);
    expect(model({ bindings: {}, prompt: 'x', onFail: 7 })).toBe(false);
    expect(model('not a config')).toBe(false);
    expect(light.get('router')?.config.safeParse({ bindings: {}, routes: 'nope' }).success).toBe(false);
  });
});
