import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import { chainEndpoint, profileForEndpoint, type ChainEndpoint } from '../profiles/chain-endpoint.ts';
import { importTrace } from '../runs/run-actions.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { importChainJson } from './library-actions.ts';
import { selectChain } from '../stores/selectors.ts';

/** What importing a file came to: refused (with problems), or a chain naming an endpoint to confirm. */
export type ImportOutcome = { problems: ChainProblem[] } | { confirm: { chain: Chain; endpoint: ChainEndpoint } } | null;

/** Is this text an OTLP trace rather than a chain file? Then it goes to the trace importer. */
export function looksLikeTrace(text: string): boolean {
  return /^\s*\{\s*"resourceSpans"/.test(text) || (text.includes('"resourceSpans"') && !text.includes('"seamscope.chain"'));
}

/** Imports a chosen or dropped file: a chain (checked, never stored with problems) or a trace. */
export async function importFile(file: File): Promise<ImportOutcome> {
  const text = await file.text();
  if (looksLikeTrace(text)) {
    await importTrace(file);
    return null;
  }
  const problems = await importChainJson(text, file.name);
  if (problems) return { problems };
  // A chain that names an endpoint: say so, and send nothing there until it is confirmed.
  const state = useEditorStore.getState();
  const chain = selectChain(state);
  const endpoint = chain ? chainEndpoint(chain) : null;
  return chain && endpoint && !profileForEndpoint(state.profiles, endpoint) ? { confirm: { chain, endpoint } } : null;
}
