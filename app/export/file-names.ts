import type { ExportLanguage } from '../../src/export/index.ts';

const MAX = 60;

/**
 * A chain's name as a file name: lower case ASCII words joined by hyphens, accents folded, at
 * most 60 characters (cut between words). "Support ticket: extract, classify" →
 * "support-ticket-extract-classify". Falls back to `fallback` (the chain id) for names with no
 * letters or digits.
 */
export function slugOf(name: string, fallback = 'chain'): string {
  const words = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > MAX) break;
    slug = next;
  }
  if (!slug && words[0]) slug = words[0].slice(0, MAX);
  return slug || (fallback === 'chain' ? 'chain' : slugOf(fallback));
}

/** The exported program's file name: `support-ticket.ts`, or a Python module name `support_ticket.py`. */
export function programFileNameOf(chain: { name: string; id: string }, lang: ExportLanguage): string {
  const slug = slugOf(chain.name, chain.id);
  return lang === 'ts' ? `${slug}.ts` : `${/^[0-9]/.test(slug) ? 'chain_' : ''}${slug.replace(/-/g, '_')}.py`;
}

/** The library's chain file: `support-ticket.chain.json`. */
export function chainFileNameOf(chain: { name: string; id: string }): string {
  return `${slugOf(chain.name, chain.id)}.chain.json`;
}
