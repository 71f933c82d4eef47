import { readdirSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { loadRuntimeSources } from '#runtime-sources';
import { loadRuntimeSources as loadInNode } from './runtime-sources.node.ts';
import { RUNTIME_BUNDLE } from './runtime-build.ts';

describe('the runtime sources', () => {
  it('#runtime-sources is the Node implementation outside the browser', () => {
    expect(loadRuntimeSources).toBe(loadInNode);
  });

  it('the Python runtime is its folder\'s .py files', async () => {
    const files = await loadInNode('py');
    const names = readdirSync(new URL('./runtime/py/seamscope_runtime/', import.meta.url)).filter((f) => f.endsWith('.py')).sort();
    expect(Object.keys(files)).toEqual(names);
  });

  it('the TypeScript runtime is the engine bundled from src/runtime, with a declaration per src/runtime module', async () => {
    const files = await loadInNode('ts');
    const modules = readdirSync(new URL('../runtime/', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(Object.keys(files).sort()).toEqual([...modules.map((f) => f.replace(/\.ts$/, '.d.ts')), RUNTIME_BUNDLE].sort());
    const bundle = files[RUNTIME_BUNDLE] as string;
    // One module with nothing to install: no import but Node's own modules.
    const { metafile } = await build({ stdin: { contents: bundle, loader: 'js' }, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const imports = Object.values(metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((spec) => !spec.startsWith('node:'))).toEqual([]);
    // The declarations reach nothing outside the folder.
    for (const [name, text] of Object.entries(files)) if (name.endsWith('.d.ts')) expect(text, name).not.toMatch(/from '\.\.\//);
    expect(files['index.d.ts']).toContain("export { createProvider, resolveSettings, runChain, stepKinds } from './run.js';");
  });
});
