import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { docsPage } from './docs-html.ts';

const DOCS = join(import.meta.dirname, '..', 'docs');

/** The pages and pictures under docs/ as the app serves them: `docs/<name>.html`, `docs/<name>.png`. */
function docsFiles(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  for (const f of readdirSync(DOCS)) {
    if (f.endsWith('.md')) files.set(`docs/${f.replace(/\.md$/, '.html')}`, docsPage(f.replace(/\.md$/, ''), readFileSync(join(DOCS, f), 'utf8')));
    else if (f.endsWith('.png')) files.set(`docs/${f}`, readFileSync(join(DOCS, f)));
  }
  return files;
}

/**
 * The docs beside the app (app/ui/docs-link.ts links to them): written into the build, so they
 * work offline from the app's own origin, and served by the dev server from docs/ as it is now.
 */
export function docsPages(): Plugin {
  return {
    name: 'seamscope-docs-pages',
    generateBundle() {
      for (const [fileName, source] of docsFiles()) this.emitFile({ type: 'asset', fileName, source });
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split(/[?#]/)[0]?.replace(/^\//, '') ?? '';
        const file = path.startsWith('docs/') ? docsFiles().get(path) : undefined;
        if (file === undefined) return next();
        res.setHeader('Content-Type', path.endsWith('.png') ? 'image/png' : 'text/html; charset=utf-8');
        res.end(file);
      });
    },
  };
}
