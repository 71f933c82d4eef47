/**
 * `virtual:seamscope-runtime` for the app: the runtime exported TypeScript programs ship (the
 * engine, bundled from src/runtime with its declarations: src/export/runtime-build.ts), built
 * when Vite first loads the module. Only src/export/runtime-sources.browser.ts imports it, with
 * import(), when a person exports: it is a chunk of its own, never on first paint.
 */
import type { Plugin } from 'vite';
import { buildRuntime } from '../src/export/runtime-build.ts';

const ID = 'virtual:seamscope-runtime';
const RESOLVED = `\0${ID}`;

export function seamscopeRuntime(): Plugin {
  return {
    name: 'seamscope-runtime',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    async load(id) {
      if (id !== RESOLVED) return null;
      const files = await buildRuntime();
      return `export const files = ${JSON.stringify(files)};\n`;
    },
  };
}
