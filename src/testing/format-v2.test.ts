import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parseChain, restoreChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { exportChainFiles } from '../export/export-chain.ts';
import { importChainSource } from '../formats/index.ts';
import { parseRunFile } from '../trace/run-file.ts';
import { formatV2 } from './format-v2.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * The formats can evolve: with a version 2 stood up (format-v2.ts: chain files renamed
 * `summary` → `description` and a model step's `template` → `prompt`; traces renamed
 * `modelName` → `model` and `durationMs` → `latencyMs`), files written at version 1 read back
 * migrated on every load path — a chain file, an exported program, a run file and the chain
 * snapshot inside it. The Dexie path is app/persistence/format-v2.test.ts.
 */
vi.mock('../chain/versions.ts', async () => (await import('./format-v2.ts')).formatV2.chainModule);
vi.mock('../trace/versions.ts', async () => (await import('./format-v2.ts')).formatV2.traceModule);

const fixture = (name: string) => readFileSync(new URL(`./fixtures/format-v1/${name}`, import.meta.url), 'utf8');

describe('a version 1 file under a version 2 format', () => {
  it('a chain file migrates and validates', () => {
    const parsed = parseChain(fixture('summarise.chain.json'), stepRegistry);
    expect(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.chain.version).toBe(2);
    expect(parsed.chain.description).toMatch(/^The failing design/);
    const model = parsed.chain.steps.find((s) => s.kind === 'model');
    expect(model?.config).toHaveProperty('prompt');
    expect(model?.config).not.toHaveProperty('template');
    expect(formatV2.upgradedChain(JSON.parse(fixture('summarise.chain.json')) as Record<string, unknown>)).toEqual(JSON.parse(JSON.stringify(parsed.chain)));
  });

  it('an exported program whose embedded chain is version 1 imports migrated', async () => {
    const current = parseChain(fixture('summarise.chain.json'), stepRegistry);
    if (!current.ok) throw new Error('fixture');
    const { program } = await exportChainFiles(current.chain, { lang: 'ts', endpoint: { model: 'gpt-4.1-mini', maxOutputTokens: 4096, contextWindow: 128_000, structuredOutput: true } });
    const text = program.contents;
    // As an older Seamscope wrote it: the same program, its embedded chain at version 1.
    const old = text.replace(/(\/\/ <seamscope:chain>[^\n]*\n)[\s\S]*?(\n\/\/ <\/seamscope:chain>)/, (_m, open: string, close: string) => `${open}export const CHAIN: rt.ChainDefinition = ${fixture('summarise.chain.json').trim()};${close}`);
    expect(old).not.toBe(text);
    const imported = importChainSource(old, { fileName: 'summarise.ts' });
    expect(imported.ok && imported.chain).toEqual(current.chain);
  });

  it('a run file migrates its summary, its events and its chain snapshot', () => {
    const parsed = parseRunFile(fixture('summarise.run.json'));
    expect(parsed.ok, !parsed.ok ? parsed.message : '').toBe(true);
    if (!parsed.ok) return;
    const { run, events } = parsed.file;
    expect(parsed.file.version).toBe(2);
    expect(run.traceVersion).toBe(2);
    expect(run.model).toBe('seamscope-demo-1');
    expect(run).not.toHaveProperty('modelName');
    const finished = events.filter((e) => e.type === 'step.finished');
    expect(finished.length).toBeGreaterThan(1);
    for (const e of finished) {
      expect(typeof e.latencyMs).toBe('number');
      expect(e).not.toHaveProperty('durationMs');
    }
    const snapshot = restoreChain(run.chain, stepRegistry);
    expect(snapshot.ok && snapshot.problems).toEqual([]);
    expect((run.chain as Chain).version).toBe(2);
  });

  it('a file from a newer format is refused, and a damaged event names its path', () => {
    const newer = { ...(JSON.parse(fixture('summarise.chain.json')) as Record<string, unknown>), version: 3 };
    expect(parseChain(newer, stepRegistry)).toEqual({ ok: false, problems: [{ path: '$.version', message: 'the file is format version 3, made by a newer Seamscope; this one reads up to version 2' }] });
    const run = JSON.parse(fixture('summarise.run.json')) as { version: number; events: Record<string, unknown>[] };
    expect(parseRunFile(JSON.stringify({ ...run, version: 3 }))).toMatchObject({ ok: false, message: expect.stringMatching(/trace version 3, made by a newer Seamscope/) });
    run.events[2] = { ...run.events[2], stepId: 7 };
    expect(parseRunFile(JSON.stringify(run))).toMatchObject({ ok: false, message: expect.stringMatching(/^\$\.events\[2\]\.stepId: /) });
  });
});
