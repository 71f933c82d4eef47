import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import { stepRegistry, type StepRegistry } from '../../src/steps/index.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { createRememberingRegistry } from './canvas-registry.ts';
import { createLightRegistry } from './light-registry.ts';
import { drawnOf, parseAfterPaint, type IdleDeadline, type IdleScheduler } from './parse-after-paint.ts';

// The demo chains as their files hold them (defaults left out, as a person's files do).
const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((f) => JSON.parse(readFileSync(new URL(f, demoDir), 'utf8')) as Chain);

/** A scheduler that runs slices by hand, each with `stepsPerSlice` steps' worth of idle time. */
function manualIdle(stepsPerSlice: number) {
  const queue: ((d: IdleDeadline) => void)[] = [];
  let scheduled = 0;
  const schedule: IdleScheduler = (slice) => {
    scheduled++;
    queue.push(slice);
    return () => {
      const i = queue.indexOf(slice);
      if (i >= 0) queue.splice(i, 1);
    };
  };
  const runAll = () => {
    while (queue.length) {
      const slice = queue.shift() as (d: IdleDeadline) => void;
      let left = stepsPerSlice;
      // Each call of timeRemaining is asked after one step: the budget shrinks by a step each time.
      slice({ timeRemaining: () => (--left > 0 ? 10 : 0) });
    }
  };
  return { schedule, runAll, slices: () => scheduled };
}

/** The exact registry, counting the configs it was asked to parse. */
function countingExact(): { registry: StepRegistry; parsed: Set<unknown> } {
  const parsed = new Set<unknown>();
  const base = createRememberingRegistry(stepRegistry);
  const registry: StepRegistry = {
    all: () => base.all(),
    get: (kind) => {
      const def = base.get(kind);
      if (!def) return def;
      const config = Object.create(def.config) as typeof def.config;
      Object.defineProperty(config, 'safeParse', { value: (v: unknown) => (parsed.add(v), def.config.safeParse(v)) });
      return { ...def, config };
    },
  };
  return { registry, parsed };
}

function run(chain: Chain, stepsPerSlice = 50) {
  const idle = manualIdle(stepsPerSlice);
  const { registry, parsed } = countingExact();
  const results: boolean[] = [];
  parseAfterPaint(chain, createLightRegistry(stepRegistry), registry, (alike) => results.push(alike), idle.schedule);
  idle.runAll();
  return { results, slices: idle.slices(), parsed };
}

describe('parseAfterPaint (the exact parse after a large chain\'s light first paint)', () => {
  it('parses every config, in idle slices of what the idle time allows, and finds the bench chain drawn alike', () => {
    const chain = makeBenchChain(1000);
    const { results, slices, parsed } = run(chain, 50);
    expect(results).toEqual([true]);
    expect(slices).toBe(20);
    for (const step of chain.steps) expect(parsed.has(step.config)).toBe(true);
  });

  it('finds every demo chain drawn alike (they are what the light registry test holds them to)', () => {
    expect(demos.length).toBeGreaterThan(3);
    for (const chain of demos) expect(run(chain, 3).results, chain.id).toEqual([true]);
  });

  it('says "not alike" when a config the light registry read as it is does not parse, and still parses the rest', () => {
    const chain = makeBenchChain(30);
    const bad = chain.steps[12] as StepDef;
    // Bindings, branches and summary read fine as they are; the parse refuses the temperature.
    const broken: Chain = { ...chain, steps: chain.steps.map((s) => (s === bad ? { ...s, config: { ...(s.config as object), temperature: 'hot' } } : s)) };
    const light = createLightRegistry(stepRegistry);
    expect(light.get('model')?.config.safeParse(broken.steps[12]?.config).success).toBe(true);
    expect(drawnOf(stepRegistry, broken.steps[12] as StepDef)).toBeNull();
    const { results, parsed } = run(broken, 4);
    expect(results).toEqual([false]);
    for (const step of broken.steps) expect(parsed.has(step.config)).toBe(true);
  });

  it('goes on a step at a time when the page is never idle, and stops when cancelled', () => {
    const chain = makeBenchChain(10);
    const never = manualIdle(0);
    const results: boolean[] = [];
    const cancel = parseAfterPaint(chain, createLightRegistry(stepRegistry), stepRegistry, (alike) => results.push(alike), never.schedule);
    never.runAll();
    expect(results).toEqual([true]);
    expect(never.slices()).toBe(10);

    const idle = manualIdle(1);
    const stopped: boolean[] = [];
    const stop = parseAfterPaint(chain, createLightRegistry(stepRegistry), stepRegistry, (alike) => stopped.push(alike), idle.schedule);
    stop();
    idle.runAll();
    expect(stopped).toEqual([]);
    cancel();
  });

  it('ends at once for a chain without steps', () => {
    const results: boolean[] = [];
    parseAfterPaint({ ...makeBenchChain(1), steps: [] }, stepRegistry, stepRegistry, (alike) => results.push(alike), manualIdle(1).schedule);
    expect(results).toEqual([true]);
  });
});
