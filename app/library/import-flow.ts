import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import { readDataset, textLines } from '../../src/eval/index.ts';
import { formatOf, importSuiteSource, type FidelityReport } from '../../src/formats/index.ts';
import { openDb } from '../persistence/connection.ts';
import { listDatasets, loadDataset, storeDataset } from '../persistence/datasets.ts';
import { readFlowFolder, type BroughtFile } from './flow-folder.ts';

export { broughtFromList, type BroughtFile } from './flow-folder.ts';
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
  // A config that carries its own tests (promptfoo) brings a dataset as well as the chain.
  if (imported.report) await storeSuiteDataset(text, file.name, undefined, imported.report, { fromFile: true });
  return afterImport(imported.report);
}

/**
 * Imports what was brought at once: one file as `importFile` does; several (a folder picked,
 * files picked or dropped together) as a flow with the files beside it (a Prompt flow's folder),
 * its data.jsonl stored as a dataset for Evaluate.
 */
export async function importFiles(files: readonly BroughtFile[]): Promise<ImportOutcome> {
  const [only] = files;
  if (files.length === 1 && only && !only.path.includes('/')) return importFile(only.file);
  const folder = await readFlowFolder(files);
  if (!folder.ok) return { problems: [{ path: '$', message: folder.message }] };
  const text = await folder.flow.text();
  const imported = await importChainJson(text, folder.fileName, folder.readSibling);
  if ('problems' in imported) return imported;
  const report = imported.report;
  if (report && folder.siblings.has('data.jsonl')) await storeSuiteDataset(text, folder.fileName, folder.readSibling, report, { fromFile: false });
  return afterImport(report);
}

/**
 * The suite's dataset as a stored dataset, checked as any dataset file is: a Prompt flow's
 * data.jsonl (`fromFile: false`, from its folder) or a config's own tests (promptfoo). The report
 * says where it went. A dataset scored by judge chains stays with the CLI, which runs them.
 */
async function storeSuiteDataset(text: string, fileName: string, readSibling: ((p: string) => string | { error: string }) | undefined, report: FidelityReport, { fromFile }: { fromFile: boolean }): Promise<void> {
  const suite = importSuiteSource(text, { fileName, ...(readSibling ? { readSibling } : {}) });
  if (!suite?.ok) return;
  const where = fromFile ? 'tests' : 'data.jsonl';
  if (suite.judges.length > 0) {
    report.changed.push({ where, what: 'the dataset (not stored here)', why: 'its rubrics are judge chains, which `seamscope eval` runs on this file' });
    return;
  }
  const read = await readDataset(textLines((async function* () { yield suite.datasetText; })()));
  if (!read.ok) {
    report.dropped.push({ where, what: 'the dataset', why: `line ${read.line}: ${read.message}` });
    return;
  }
  if (read.dataset.items.length === 0) return;
  const base = fileName.includes('/') ? fileName.slice(0, fileName.lastIndexOf('/')).split('/').pop() : fromFile ? fileName.replace(/\.[^.]*$/, '') : 'flow';
  const folderName = base || 'flow';
  const db = await openDb();
  if (!fromFile) {
    report.kept.push(...suite.report.kept.filter((e) => e.where === 'data.jsonl'));
    report.dropped.push(...suite.report.dropped.filter((e) => e.where === 'data.jsonl'));
  }
  // The same folder imported again finds its dataset stored already: one copy, not one per import.
  const items = JSON.stringify(read.dataset.items);
  for (const stored of (await listDatasets(db)).filter((d) => d.name === read.dataset.name && d.items === read.dataset.items.length)) {
    if (JSON.stringify((await loadDataset(db, stored.id))?.items) !== items) continue;
    report.changed.push({ where, what: `the dataset "${stored.name}" (${stored.items} items), stored already`, why: 'pick it in Evaluate to run the chain over it' });
    return;
  }
  const record = await storeDataset(db, `${(fromFile && read.dataset.name) || folderName}.dataset.jsonl`, read.dataset);
  report.changed.push({ where, what: `stored as the dataset "${record.name}" (${record.items} items)`, why: 'pick it in Evaluate to run the chain over it' });
}

async function afterImport(report: FidelityReport | null): Promise<ImportOutcome> {
  // A chain that names an endpoint: say so, and send nothing there until it is confirmed.
  const state = useEditorStore.getState();
  const chain = selectChain(state);
  const endpoint = chain ? chainEndpoint(chain) : null;
  if (chain && endpoint && !profileForEndpoint(state.profiles, endpoint)) return { confirm: { chain, endpoint } };
  return chain && report ? { report: { chain: chain.name, report } } : null;
}
