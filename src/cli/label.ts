import { readFile, rename, writeFile } from 'node:fs/promises';
import { stepRegistry } from '../steps/index.ts';
import type { SufficiencyVerdict } from '../trace/events.ts';
import { clearBoundaryLabel, setBoundaryLabel } from '../trace/labels.ts';
import { buildRunView, type Boundary } from '../trace/replay.ts';
import { parseRunFile, toRunFile } from '../trace/run-file.ts';
import { labelUsage } from './label-usage.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * `seamscope label <run.json> <boundary> derivable|not-derivable|unsure|clear [--note TEXT]`:
 * a person's sufficiency judgement of one boundary, written into the run file (the same label
 * the replay view sets). The file is replaced atomically and only once the new label has
 * validated, so a refused label or a failed write leaves it as it was.
 */
interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const verdicts: readonly string[] = ['derivable', 'not-derivable', 'unsure'];

/** A boundary by its id, or by `producer->consumer` when that names exactly one. */
function findBoundary(boundaries: readonly Boundary[], name: string): Boundary | string {
  const exact = boundaries.find((b) => b.id === name);
  if (exact) return exact;
  const [producer, consumer] = name.split(/\s*(?:->|→)\s*/);
  const matching = boundaries.filter((b) => b.producer === producer && b.consumer === consumer);
  if (matching.length === 1) return matching[0] as Boundary;
  const known = boundaries.map((b) => b.id).join(', ') || 'none';
  return matching.length > 1
    ? `"${name}" names ${matching.length} boundaries; give one of their ids: ${matching.map((b) => b.id).join(', ')}`
    : `the run has no boundary "${name}" (its boundaries: ${known})`;
}

export async function labelCommand(positionals: string[], options: Record<string, string | true>, io: Io, now: () => number = Date.now): Promise<number> {
  const [path, name, verdict] = positionals;
  if (!path || !name || !verdict || positionals.length > 3) return io.err(labelUsage), 2;
  if (verdict !== 'clear' && !verdicts.includes(verdict)) {
    io.err(`"${terminalLine(verdict)}" is not a verdict: use derivable, not-derivable, unsure or clear`);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const parsed = parseRunFile(text);
  if (!parsed.ok) {
    io.err(`${terminalLine(path)}: not a Seamscope run file (${terminalLine(parsed.message)})`);
    return 1;
  }
  const { run, events } = parsed.file;
  const found = findBoundary(buildRunView(run, events, stepRegistry).boundaries, name);
  if (typeof found === 'string') {
    io.err(`${terminalLine(path)}: ${terminalLine(found)}`);
    return 1;
  }
  let labels;
  if (verdict === 'clear') labels = clearBoundaryLabel(run, found.id);
  else {
    const note = typeof options.note === 'string' ? options.note : '';
    const set = setBoundaryLabel(run, { boundaryId: found.id, producer: found.producer, consumer: found.consumer, verdict: verdict as SufficiencyVerdict, note, at: now() });
    if (!set.ok) {
      io.err(`${terminalLine(path)}: the label was refused (${terminalLine(set.message)}); the file is unchanged`);
      return 1;
    }
    labels = set.labels;
  }
  const { labels: _old, ...rest } = run;
  const next = labels.length ? { ...rest, labels } : rest;
  // Written beside the file, then renamed over it: a crash mid-write never leaves half a run.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(toRunFile(next, events), null, 2)}\n`);
  await rename(temporary, path);
  io.out(`${terminalLine(path)}: ${terminalLine(found.producer)} → ${terminalLine(found.consumer)} ${verdict === 'clear' ? 'label cleared' : `labelled ${verdict}`}`);
  return 0;
}
