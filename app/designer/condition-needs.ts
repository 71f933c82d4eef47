import type { Chain, LintFinding } from '../../src/chain/index.ts';
import { boundaryConditions, conditionLint, type BoundaryConditions } from '../../src/inspect/index.ts';
import { loadInputFiles } from '../persistence/chains.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * The named conditions each handoff of the open chain must carry, and the lint of a summarising
 * step that is not told to keep them. Both need the chain's documents (`meta.inputFiles`), which
 * are fetched, so this module loads with import() when a chain names some: never on first paint.
 * Documents are kept per file list (editing a prompt does not fetch them again); results per
 * chain revision.
 */
const documents = new Map<string, Record<string, string>>();
const loading = new Map<string, Promise<Record<string, string>>>();

const filesKey = (chain: Chain) => JSON.stringify(chain.meta?.inputFiles ?? null);

/** Whether the chain names documents at all (else there is nothing to load or say). */
export const namesDocuments = (chain: Chain): boolean => filesKey(chain) !== 'null';

/** The chain's documents, fetched once per file list; none when a file cannot be read. */
export function documentsOf(chain: Chain): Promise<Record<string, string>> {
  const key = filesKey(chain);
  let pending = loading.get(key);
  if (!pending) {
    pending = loadInputFiles(chain).catch(() => ({})).then((texts) => {
      documents.set(key, texts);
      return texts;
    });
    loading.set(key, pending);
  }
  return pending;
}

const conditions = new WeakMap<Chain, BoundaryConditions[]>();
const findings = new WeakMap<Chain, LintFinding[]>();

/** Per data edge, the conditions its consumer's questions need; undefined until the documents are loaded. */
export function conditionsNow(chain: Chain): BoundaryConditions[] | undefined {
  const docs = documents.get(filesKey(chain));
  if (!docs) return undefined;
  let list = conditions.get(chain);
  if (!list) {
    list = boundaryConditions(chain, canvasRegistry, docs);
    conditions.set(chain, list);
  }
  return list;
}

/** The summarising steps' warnings; undefined until the documents are loaded. */
export function conditionFindingsNow(chain: Chain): LintFinding[] | undefined {
  const docs = documents.get(filesKey(chain));
  if (!docs) return undefined;
  let list = findings.get(chain);
  if (!list) {
    list = conditionLint(chain, canvasRegistry, docs);
    findings.set(chain, list);
  }
  return list;
}

export async function edgeConditions(chain: Chain, edgeId: string): Promise<BoundaryConditions | null> {
  await documentsOf(chain);
  return conditionsNow(chain)?.find((b) => b.edgeId === edgeId) ?? null;
}
