import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import { formatOf, type FidelityReport } from '../../src/formats/index.ts';
import { chainEndpoint, profileForEndpoint, type ChainEndpoint } from '../profiles/chain-endpoint.ts';
import { importTrace } from '../runs/run-actions.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { importChainJson } from './library-actions.ts';
import { selectChain } from '../stores/selectors.ts';

/**
 * What importing a file came to: refused (with problems), a chain naming an endpoint to
 * confirm, a chain from another tool with its fidelity report to read, or nothing more to say.
 */
export type ImportOutcome =
  | { problems: ChainProblem[] }
  | { confirm: { chain: Chain; endpoint: ChainEndpoint } }
  | { report: { chain: string; report: FidelityReport } }
  | null;

/** Imports a chosen or dropped file, whichever format the registry says it is: a chain (checked, never stored with problems) or a trace. */
export async function importFile(file: File): Promise<ImportOutcome> {
  const text = await file.text();
  if (formatOf(text, file.name).kind === 'trace') {
    await importTrace(file);
    return null;
  }
  const imported = await importChainJson(text, file.name);
  if ('problems' in imported) return imported;
  // A chain that names an endpoint: say so, and send nothing there until it is confirmed.
  const state = useEditorStore.getState();
  const chain = selectChain(state);
  const endpoint = chain ? chainEndpoint(chain) : null;
  if (chain && endpoint && !profileForEndpoint(state.profiles, endpoint)) return { confirm: { chain, endpoint } };
  return chain && imported.report ? { report: { chain: chain.name, report: imported.report } } : null;
}
