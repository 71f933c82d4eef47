import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { firstPaint, overBudget, type BudgetBundle, type BudgetChunk } from './first-paint-budget.ts';

const chunk = (fileName: string, code: string, imports: string[] = [], isEntry = false, modules: BudgetChunk['modules'] = {}): BudgetChunk => ({ type: 'chunk', fileName, code, imports, isEntry, modules });
const bundleOf = (...chunks: BudgetChunk[]): BudgetBundle => Object.fromEntries([...chunks.map((c) => [c.fileName, c] as const), ['assets/index.css', { type: 'asset' } as const]]);

// A fake app: the entry imports react and a shared chunk statically; the replay view is behind
// import() (it is not in `imports`), and shares that chunk; an orphan chunk nothing reaches.
const bundle = bundleOf(
  chunk('assets/index.js', 'e'.repeat(3000), ['assets/react.js', 'assets/shared.js'], true, {
    '/repo/app/main.tsx': { renderedLength: 1000 },
    '/repo/node_modules/react-dom/cjs/react-dom-client.production.js': { renderedLength: 6144 },
    '/repo/node_modules/react-dom/index.js': { renderedLength: 1024 },
    '/repo/node_modules/@xyflow/react/dist/esm/index.js': { renderedLength: 1024 },
  }),
  chunk('assets/react.js', 'r'.repeat(500), ['assets/shared.js'], false, { '/repo/node_modules/react/index.js': { renderedLength: 2048 } }),
  chunk('assets/shared.js', 's'.repeat(1500), [], false, { '/repo/src/chain/edit.ts': { renderedLength: 3072 } }),
  chunk('assets/ReplayView.js', 'v'.repeat(9000), ['assets/shared.js'], false, { '/repo/app/runs/ReplayView.tsx': { renderedLength: 9999 } }),
  chunk('assets/orphan.js', 'o'.repeat(9000)),
);
// Sizes in bytes = code length, so the figures below are exact.
const byLength = (code: string) => code.length;

describe('firstPaint', () => {
  it('counts the entry and its static import closure once each, largest first', () => {
    const paint = firstPaint(bundle, byLength);
    expect(paint.chunks).toEqual([
      { fileName: 'assets/index.js', gzip: 3000 },
      { fileName: 'assets/shared.js', gzip: 1500 },
      { fileName: 'assets/react.js', gzip: 500 },
    ]);
    expect(paint.gzip).toBe(5000);
  });

  it('leaves out what only import() reaches, chunks and their modules', () => {
    const paint = firstPaint(bundle, byLength);
    expect(paint.chunks.map((c) => c.fileName)).not.toContain('assets/ReplayView.js');
    expect(paint.chunks.map((c) => c.fileName)).not.toContain('assets/orphan.js');
    expect(paint.modules.map((m) => m.id)).toEqual([
      '/repo/node_modules/react-dom/cjs/react-dom-client.production.js',
      '/repo/src/chain/edit.ts',
      '/repo/node_modules/react/index.js',
      '/repo/node_modules/@xyflow/react/dist/esm/index.js',
      '/repo/node_modules/react-dom/index.js',
      '/repo/app/main.tsx',
    ]);
  });

  it('prices a chunk at its gzip -9 size, as bundle-sizes.mjs does', () => {
    const code = 'export const a = 1;\n'.repeat(200);
    const paint = firstPaint(bundleOf(chunk('assets/index.js', code, [], true)));
    expect(paint.gzip).toBe(gzipSync(code, { level: 9 }).length);
  });
});

describe('overBudget', () => {
  const paint = firstPaint(bundle, byLength); // 5000 bytes

  it('passes at or under the budget', () => {
    expect(overBudget(paint, 5)).toBeNull(); // 5120 bytes
    expect(overBudget({ ...paint, gzip: 5120 }, 5)).toBeNull();
  });

  it('names each first-paint chunk with its size, largest first, by how much the total is over, and what is in them', () => {
    expect(overBudget(paint, 4, '/repo/')).toBe([
      'first paint is 4.9 KiB gzip, 0.9 KiB over its 4 KiB budget (scripts/first-paint-budget.ts).',
      'The JS index.html loads eagerly, gzip, largest first:',
      '     2.9 KiB  assets/index.js',
      '     1.5 KiB  assets/shared.js',
      '     0.5 KiB  assets/react.js',
      'In them, before minifying, the largest packages:',
      '     7.0 KiB  react-dom',
      '     2.0 KiB  react',
      '     1.0 KiB  @xyflow/react',
      'and the largest modules of the project:',
      '     3.0 KiB  src/chain/edit.ts',
      '     1.0 KiB  app/main.tsx',
      'Move what the first view does not need behind import(), or raise the budget in its own change.',
    ].join('\n'));
  });
});
