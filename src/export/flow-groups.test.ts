import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from '../steps/index.ts';
import { faultChains } from '../testing/fault-chains.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { flowGroups, MAX_AT_ONCE } from './emit/flow.ts';
import { EXPORT_TSCONFIG, exportChain, RUNTIME_DIR } from './export-chain.ts';
import { planExport } from './plan.ts';

/**
 * Steps that read none of each other run at once in the engine (up to its concurrency), so a
 * program runs them at once too: when one of them fails and halts the run, the others have
 * still made their calls, in the engine and in both programs alike (conformance checks it).
 */
const answer = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const model = (id: string, reads: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  id, kind: 'model', name: id, config: { bindings: reads, prompt: Object.keys(reads).map((k) => `{${k}}`).join(' ') || 'Go', outputSchema: answer, ...extra },
});

function chainOf(steps: unknown[]): Chain {
  const parsed = parseChain({ format: 'seamscope.chain', version: 1, id: 'groups', name: 'Groups', inputs: [{ name: 'q', schema: { type: 'string' }, example: 'q' }], steps }, stepRegistry);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
  return parsed.chain;
}

const groups = (chain: Chain) => flowGroups(planExport(chain, stepRegistry));
const q = { q: 'inputs.q' };

describe('flowGroups: the steps a program starts together', () => {
  it('independent steps form one group; a step reading one of them starts the next', () => {
    expect(groups(faultChains.find((c) => c.chain.id === 'fixture-fan-out-faults')!.chain)).toEqual([['facts', 'risks', 'tone'], ['combine'], ['out']]);
  });

  it('no more than the engine runs at once', () => {
    const chain = chainOf(['a', 'b', 'c', 'd', 'e'].map((id) => model(id, q)));
    expect(MAX_AT_ONCE).toBe(4);
    expect(groups(chain)).toEqual([['a', 'b', 'c', 'd'], ['e']]);
  });

  it('a step reading a fallback of a group member, and a terminal, stand apart', () => {
    const chain = chainOf([
      model('a', q, { onFail: 'fallback:a2' }), model('a2', q),
      model('b', { x: 'steps.a2.answer' }),
      { id: 'out', kind: 'output', name: 'out', config: { bindings: { value: 'inputs.q' } } },
      model('c', q),
    ]);
    // In the plan's order: b reads a's fallback, so it cannot run beside a; c can beside b.
    expect(groups(chain)).toEqual([['a'], ['out'], ['c', 'b']]);
  });

  it('chains of one call after another keep one step per group', () => {
    for (const id of ['fixture-branch-faults', 'fixture-map-parallel-fallback']) {
      expect(groups(faultChains.find((c) => c.chain.id === id)!.chain).every((g) => g.length === 1)).toBe(true);
    }
  });

  it('a program whose steps run at once compiles: tsc --noEmit and py_compile, names that could collide included', async () => {
    // `a_task` is the Python name of a's task: the step of that id is numbered instead.
    const chain = chainOf([
      model('a', q, { onFail: 'fallback:a_fb' }), model('a_fb', q), model('a_task', q),
      { id: 'gate', kind: 'gate', name: 'gate', config: { bindings: { value: 'inputs.q' }, check: { type: 'rule', rule: { '!!': { var: 'value' } }, message: 'empty' } } },
      { id: 'route', kind: 'router', name: 'route', config: { bindings: { value: 'steps.a' }, field: 'answer', routes: [{ equals: 'x', to: 'b' }], defaultTo: 'c' } },
      model('b', q), model('c', q, { onFail: 'fallback:c_fb' }), model('c_fb', q),
      model('join', { a: 'steps.a_task.answer', b: 'steps.b.answer', c: 'steps.c.answer' }),
    ]);
    // b and c are behind the router: guarded inside the group.
    expect(groups(chain)).toEqual([['a', 'a_task', 'gate'], ['route'], ['b', 'c'], ['join']]);
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-groups-'));
    try {
      await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(EXPORT_TSCONFIG));
      for (const lang of ['ts', 'py'] as const) {
        const { files, program } = await exportChain(chain, { lang, fileName: `groups.${lang}` });
        expect(program.contents).toContain(lang === 'ts' ? 'a, a_task and gate read none of each other: they run at once' : 'rt.map_concurrent([');
        for (const file of files) {
          if (file.role === 'package') continue;
          await mkdir(dirname(join(dir, file.path)), { recursive: true });
          await writeFile(join(dir, file.path), file.contents);
        }
      }
      const ts = await runProcess(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], dir, {}, 120_000);
      expect(ts.stdout + ts.stderr).toBe('');
      const py = await runProcess('python3', ['-m', 'py_compile', 'groups.py', `${RUNTIME_DIR.py}/__init__.py`], dir, {});
      expect(py.stderr).toBe('');
      expect(py.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
