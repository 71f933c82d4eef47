/**
 * The first-paint budget: the gzip size of the JS index.html loads eagerly (the entry chunk and
 * its static import closure, what Vite modulepreloads) may not pass FIRST_PAINT_GZIP_KIB. The
 * production build fails above it, naming the chunks and their largest modules, so a change
 * that adds first-paint bytes shows its cost in its own build. Counted as
 * ../shared/bench/canvas/scripts/bundle-sizes.mjs counts `initialJs` (gzip level 9 of each JS
 * file; CSS and lazily imported chunks apart), so the build and scripts/bench-canvas.ts report
 * the same figure.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The budget, in KiB of gzip: the one number the build and scripts/bench-canvas.ts read. */
export const FIRST_PAINT_GZIP_KIB = 175;

/** What the budget reads of a Rollup/Rolldown output chunk. */
export interface BudgetChunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  /** Chunks this one imports statically (dynamic import() targets are not in it). */
  imports: readonly string[];
  /** Module id → its code's length in the chunk, after tree-shaking and before minifying. */
  modules: Readonly<Record<string, { renderedLength: number }>>;
}
export type BudgetBundle = Record<string, BudgetChunk | { type: 'asset' }>;

export interface FirstPaint {
  /** Largest first. */
  chunks: { fileName: string; gzip: number }[];
  gzip: number;
  /** The modules in those chunks, largest first: where to look when the total grows. */
  modules: { id: string; renderedLength: number }[];
}

const gzipLength = (code: string) => gzipSync(code, { level: 9 }).length;

/** The entry chunks and every chunk they reach through static imports, with their gzip sizes. */
export function firstPaint(bundle: BudgetBundle, gzip: (code: string) => number = gzipLength): FirstPaint {
  const byName = new Map<string, BudgetChunk>();
  for (const output of Object.values(bundle)) if (output.type === 'chunk') byName.set(output.fileName, output);
  const seen = new Set<string>();
  const stack = [...byName.values()].filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName);
  for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
    const chunk = byName.get(name);
    if (!chunk || seen.has(name)) continue;
    seen.add(name);
    stack.push(...chunk.imports);
  }
  const initial = [...seen].filter((name) => name.endsWith('.js')).flatMap((name) => byName.get(name) ?? []);
  const chunks = initial
    .map((chunk) => ({ fileName: chunk.fileName, gzip: gzip(chunk.code) }))
    .sort((a, b) => b.gzip - a.gzip || a.fileName.localeCompare(b.fileName));
  const modules = initial
    .flatMap((chunk) => Object.entries(chunk.modules).map(([id, m]) => ({ id, renderedLength: m.renderedLength })))
    .sort((a, b) => b.renderedLength - a.renderedLength || a.id.localeCompare(b.id));
  return { chunks, gzip: chunks.reduce((sum, chunk) => sum + chunk.gzip, 0), modules };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const SHOWN = 8;

/** The package a module id belongs to (`react-dom`, `@xyflow/react`), or null for the project's own. */
function packageOf(id: string): string | null {
  const at = id.lastIndexOf('/node_modules/');
  if (at < 0) return null;
  const parts = id.slice(at + '/node_modules/'.length).split('/');
  return parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? id);
}

/** The largest packages and the project's largest modules, each `[name, bytes]`, largest first. */
function largest(modules: FirstPaint['modules'], root: string): { packages: [string, number][]; own: [string, number][] } {
  const packages = new Map<string, number>();
  const own: [string, number][] = [];
  for (const m of modules) {
    const pkg = packageOf(m.id);
    if (pkg) packages.set(pkg, (packages.get(pkg) ?? 0) + m.renderedLength);
    else own.push([m.id.startsWith(root) ? m.id.slice(root.length) : m.id, m.renderedLength]);
  }
  const top = (rows: [string, number][]) => rows.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, SHOWN);
  return { packages: top([...packages]), own: top(own) };
}

/**
 * Why the first paint is over the budget, or null when it fits: by how much, the chunks, and
 * (chunks being few and large) the largest packages and project modules in them.
 */
export function overBudget(paint: FirstPaint, budgetKiB: number, root = ''): string | null {
  const over = paint.gzip - budgetKiB * 1024;
  if (over <= 0) return null;
  const row = ([name, bytes]: [string, number]) => `  ${kib(bytes).padStart(10)}  ${name}`;
  const { packages, own } = largest(paint.modules, root);
  return [
    `first paint is ${kib(paint.gzip)} gzip, ${kib(over)} over its ${budgetKiB} KiB budget (scripts/first-paint-budget.ts).`,
    'The JS index.html loads eagerly, gzip, largest first:',
    ...paint.chunks.map((chunk) => row([chunk.fileName, chunk.gzip])),
    'In them, before minifying, the largest packages:',
    ...packages.map(row),
    'and the largest modules of the project:',
    ...own.map(row),
    'Move what the first view does not need behind import(), or raise the budget in its own change.',
  ].join('\n');
}

/**
 * Fails `vite build` when the first paint passes the budget. It runs after Vite's own
 * generateBundle work (order: 'post'), on the chunks as they are written. Not in a bench build
 * (`--mode bench`): its hooks (app/designer/bench-hooks.ts) add first-paint bytes that never
 * ship, and scripts/bench-canvas.ts reports the production build's figure.
 */
export function firstPaintBudget(budgetKiB: number = FIRST_PAINT_GZIP_KIB): Plugin {
  let mode = '';
  let root = '';
  return {
    name: 'seamscope-first-paint-budget',
    apply: 'build',
    configResolved: (config) => void ((mode = config.mode), (root = `${config.root}/`)),
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        if (mode === 'bench') return;
        const paint = firstPaint(bundle as unknown as BudgetBundle);
        const problem = overBudget(paint, budgetKiB, root);
        if (problem) this.error(problem);
        this.info(`first paint ${kib(paint.gzip)} gzip, within its ${budgetKiB} KiB budget`);
      },
    },
  };
}
