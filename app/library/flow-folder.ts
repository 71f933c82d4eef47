import { checkRelativePath } from '../../src/files/index.ts';

/**
 * Several files brought in at once (a folder picked, files picked or dropped together) as one
 * flow with the files beside it: a Prompt flow's `flow.dag.yaml` with its Jinja prompts and
 * data.jsonl. The flow file is the one named `flow.dag.yaml` nearest the top; its siblings are
 * the files in its own folder and below, keyed by their path relative to it, and `readSibling`
 * answers only from them (the same relative-path check as the CLI: never `..`, an absolute path,
 * a drive). Files are read before the import runs (the importer reads siblings synchronously),
 * bounded like any import: count, size per file and in all; code (`.py`) and images are never read.
 */

/** A file and its path inside what was brought (`web-classification/flow.dag.yaml`, or the bare name). */
export interface BroughtFile {
  path: string;
  file: File;
}

export const MAX_FOLDER_FILES = 500;
/** Per file: the size a YAML flow file may be (strict-yaml.ts), which a prompt or data file beside it shares. */
const MAX_SIBLING_BYTES = 2 * 1024 * 1024;
export const MAX_FOLDER_BYTES = 20 * 1024 * 1024;
const FLOW_FILE = /(^|\/)flow\.dag\.ya?ml$/i;
const NEVER_READ = /\.(py|pyc|pyd|so|dll|exe|png|jpe?g|gif|webp|svg|ico|pdf|zip|gz|tar|whl)$/i;

export type FlowFolder =
  | { ok: true; flow: File; fileName: string; readSibling: (relativePath: string) => string | { error: string }; siblings: ReadonlyMap<string, string> }
  | { ok: false; message: string };

/** The flow among the brought files and the text of each file beside it; or why there is none. */
export async function readFlowFolder(brought: readonly BroughtFile[]): Promise<FlowFolder> {
  if (brought.length > MAX_FOLDER_FILES) return { ok: false, message: `${brought.length} files were brought; a flow's folder is read when it holds at most ${MAX_FOLDER_FILES}` };
  const depth = (p: string) => p.split('/').length;
  const flows = brought.filter((b) => FLOW_FILE.test(b.path)).sort((a, b) => depth(a.path) - depth(b.path));
  const flow = flows[0];
  if (!flow) return { ok: false, message: `none of the ${brought.length} files is a flow.dag.yaml: bring one file to import it, or a Prompt flow's folder` };
  if (flows[1] && depth(flows[1].path) === depth(flow.path)) return { ok: false, message: `${flows.length} flows were brought (${flows.slice(0, 3).map((f) => f.path).join(', ')}): bring one flow's folder` };
  const prefix = flow.path.includes('/') ? flow.path.slice(0, flow.path.lastIndexOf('/') + 1) : '';
  const siblings = new Map<string, string>();
  const refused = new Map<string, string>();
  let total = 0;
  for (const b of brought) {
    if (b === flow || !b.path.startsWith(prefix)) continue;
    const relative = b.path.slice(prefix.length);
    if (NEVER_READ.test(relative)) refused.set(relative, 'it is code or a binary file, which an import never reads');
    else if (b.file.size > MAX_SIBLING_BYTES) refused.set(relative, `it is ${(b.file.size / 1048576).toFixed(1)} MB; a file beside a flow is read up to ${MAX_SIBLING_BYTES / 1048576} MB`);
    else if (total + b.file.size > MAX_FOLDER_BYTES) refused.set(relative, `the folder's files pass ${MAX_FOLDER_BYTES / 1048576} MB before it`);
    else {
      total += b.file.size;
      siblings.set(relative, await b.file.text());
    }
  }
  const readSibling = (name: string): string | { error: string } => {
    const check = checkRelativePath(name);
    if (!check.ok) return { error: `it is refused: ${check.reason}; only files inside the flow's own folder are read` };
    const text = siblings.get(check.path);
    if (text !== undefined) return text;
    return { error: refused.get(check.path) ?? 'it is not in the folder that was brought' };
  };
  return { ok: true, flow: flow.file, fileName: flow.path, readSibling, siblings };
}

/** The files of an `<input type="file" multiple>` or `webkitdirectory` pick, with the paths the browser gives. */
export function broughtFromList(files: FileList | readonly File[]): BroughtFile[] {
  return Array.from(files, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}
