import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CSP_HEADER, CSP_META } from './app/csp.ts';
import { firstPaintBudget } from './scripts/first-paint-budget.ts';
import { seamscopeRuntime } from './scripts/vite-runtime-plugin.ts';
import { docsPages } from './scripts/docs-pages.ts';

/** The strict CSP as a meta tag in the built index.html only (the dev server's HMR needs inline code). */
function cspMeta(): Plugin {
  return {
    name: 'seamscope-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' }],
  };
}

/**
 * A production build carries no bench hooks (app/designer/bench-hooks.ts): the build fails if
 * a chunk holds any of their marks — the React Flow handle, the drag attribute, the `?bench`
 * start's message (bench-mode.ts) or the generated chain's name (bench-fixture.ts). Only
 * `vite build --mode bench` (scripts/bench-canvas.ts) keeps them.
 */
const BENCH_MARKS = ['__rf', 'data-bench-drag', 'unknown bench fixture', 'Bench: '];
function noBenchHooks(): Plugin {
  let mode = '';
  return {
    name: 'seamscope-no-bench-hooks',
    apply: 'build',
    configResolved: (config) => void (mode = config.mode),
    generateBundle(_, bundle) {
      if (mode === 'bench') return;
      for (const chunk of Object.values(bundle)) {
        const found = chunk.type === 'chunk' ? BENCH_MARKS.filter((mark) => chunk.code.includes(mark)) : [];
        if (found.length) this.error(`bench hooks in the production chunk ${chunk.fileName}: ${found.join(', ')}`);
      }
    },
  };
}

// Monaco, the tokenizer and the exported programs' runtime (virtual:seamscope-runtime) are only
// reached through dynamic import(), so they land in their own chunks and stay out of the initial bundle.
export default defineConfig({
  plugins: [react(), cspMeta(), noBenchHooks(), firstPaintBudget(), seamscopeRuntime(), docsPages()],
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CSP_HEADER } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    // Every browser the app supports preloads modules itself (Chrome 66, Firefox 115, Safari 17):
    // the polyfill would be first-paint bytes that do nothing.
    modulePreload: { polyfill: false },
    // Everything the entry imports statically goes into one chunk: split into the small common
    // chunks Rolldown makes for modules lazy chunks share (zod, react, refs…), the same bytes
    // cost 1–2 KiB more gzip on first paint (each file compressed alone) and more requests.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'first-paint', tags: ['$initial'] }] } } },
  },
  worker: { format: 'es' },
});
