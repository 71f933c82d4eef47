import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CSP_HEADER, CSP_META } from './app/csp.ts';

/** The strict CSP as a meta tag in the built index.html only (the dev server's HMR needs inline code). */
function cspMeta(): Plugin {
  return {
    name: 'seamscope-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' }],
  };
}

// Monaco and the tokenizer are only reached through dynamic import(), so they land in
// their own chunks and stay out of the initial bundle.
export default defineConfig({
  plugins: [react(), cspMeta()],
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CSP_HEADER } },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  worker: { format: 'es' },
});
