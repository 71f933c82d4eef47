import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRuntimeSources } from '#runtime-sources';
import { loadRuntimeSources as loadInBrowser } from './runtime-sources.browser.ts';
import { loadRuntimeSources as loadInNode } from './runtime-sources.node.ts';
import { runtimeFolder, type RuntimeLanguage } from './runtime-sources.ts';

const LANGS: RuntimeLanguage[] = ['ts', 'py'];

describe('the runtime sources', () => {
  it('#runtime-sources is the Node implementation outside the browser', () => {
    expect(loadRuntimeSources).toBe(loadInNode);
  });

  for (const lang of LANGS) {
    it(`the browser build (import.meta.glob ?raw) and Node (fs) give the same ${lang} files`, async () => {
      const [browser, node] = await Promise.all([loadInBrowser(lang), loadInNode(lang)]);
      expect(Object.keys(node.runtime).length).toBeGreaterThan(10);
      expect(browser).toEqual(node);
      expect(Object.keys(browser.runtime)).toEqual(Object.keys(node.runtime));
    });
  }

  it('the TypeScript runtime folder holds src/schema verbatim (not its index or tests) and imports it from beside itself', async () => {
    const sources = await loadInNode('ts');
    const schema = readdirSync(new URL('../schema/', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
    expect(Object.keys(sources.schema).sort()).toEqual(schema.sort());
    const folder = runtimeFolder('ts', sources);
    for (const name of schema) expect(folder[name], name).toBe(sources.schema[name]);
    expect(folder['index.ts']).toBe(sources.runtime['index.ts']);
    expect(sources.runtime['validate.ts']).toContain("from '../../../schema/checker.ts'");
    expect(folder['validate.ts']).toContain("from './checker.ts'");
    for (const [name, text] of Object.entries(folder)) expect(text, name).not.toMatch(/from '\.\.\//);
    expect(Object.keys(folder)).toEqual(Object.keys(folder).sort());
  });

  it('refuses a runtime that reaches out of its folder or names a src/schema file that is not there', () => {
    const schema = { 'checker.ts': 'export const x = 1;\n' };
    expect(() => runtimeFolder('ts', { runtime: { 'a.ts': "import { y } from '../../../schema/nowhere.ts';\n" }, schema })).toThrow(/not a runtime source in src\/schema/);
    expect(() => runtimeFolder('ts', { runtime: { 'a.ts': "import { y } from '../../engine/run.ts';\n" }, schema })).toThrow(/outside the runtime folder/);
    expect(() => runtimeFolder('ts', { runtime: { 'a.ts': '' }, schema: { 'checker.ts': "export * from '../chain/schema.ts';\n" } })).toThrow(/outside the runtime folder/);
    expect(() => runtimeFolder('ts', { runtime: { 'checker.ts': '' }, schema })).toThrow(/has the name of a src\/schema file/);
    expect(runtimeFolder('ts', { runtime: { 'a.ts': "export { x } from '../../../schema/checker.ts';\nconst m = import('./b.ts');\n" }, schema })['a.ts']).toBe("export { x } from './checker.ts';\nconst m = import('./b.ts');\n");
  });
});
