/** The docs pages the app links to (docs/<page>.md, served beside the app as docs/<page>.html). */
export type DocsPage = 'concepts' | 'evaluating' | 'getting-started' | 'importing' | 'formats' | 'security';

/** Where a docs section is, from the app: the built app carries the pages (scripts/docs-pages.ts), so this works offline. */
function docsHref(page: DocsPage, anchor?: string): string {
  return `${import.meta.env.BASE_URL}docs/${page}.html${anchor ? `#${anchor}` : ''}`;
}

/**
 * A small "?" beside a text that explains a concept: opens the docs section that explains it
 * in a new tab, so the app keeps its state.
 */
export function DocLink({ page, anchor, topic }: { page: DocsPage; anchor?: string; topic: string }) {
  return (
    <a className="doc-link" href={docsHref(page, anchor)} target="_blank" rel="noopener" title={`${topic}: what it means (docs)`} aria-label={`${topic} in the docs`} data-testid={`doc.${page}${anchor ? `.${anchor}` : ''}`}>
      ?
    </a>
  );
}
