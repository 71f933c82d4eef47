/**
 * Benchmark: one full boundary inspection (fact extraction over the source and the
 * intermediate, survival, question kinds, the lossy verdict) on a 10,000-word statute
 * source and a 500-word intermediate. Prints figures; it asserts nothing.
 *
 *   npx tsx scripts/bench-inspect.ts [iterations]
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspectBoundary } from '../src/inspect/boundary.ts';
import type { Boundary } from '../src/trace/replay.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// The project copies are what CI has; the shared corpus is only a fallback on a dev machine.
function corpusFile(projectPath: string, sharedPath: string): string {
  const local = `${root}${projectPath}`;
  return readFileSync(existsSync(local) ? local : sharedPath, 'utf8');
}

const statute = corpusFile('public/demo/documents/42-USC-1395ff.md', '/work/shared/corpus/documents/health-plan/42-USC-1395ff-medicare-determinations-and-appeals.md');
const deadlineQuotes = (JSON.parse(corpusFile('src/testing/corpus/42-USC-1395ff-deadline-quotes.json', '/work/shared/corpus/documents/health-plan/42-USC-1395ff-deadline-quotes.json')) as {
  quotes: { quote: string }[];
}).quotes.map((q) => q.quote);

/** The text repeated and cut to exactly `words` words, keeping its line structure. */
function toWords(text: string, words: number): string {
  const parts: string[] = [];
  let count = 0;
  while (count < words) {
    for (const piece of text.split(/(\s+)/)) {
      if (!piece) continue;
      if (/^\s+$/.test(piece)) parts.push(piece);
      else if (count < words) {
        parts.push(piece);
        count++;
      } else break;
    }
  }
  return parts.join('').trimEnd();
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const source = toWords(statute, 10_000);
// A selection-with-quotes intermediate, as JSON, whose quotes total exactly 500 words.
const quoteText = toWords(deadlineQuotes.join('\n'), 500).split('\n');
const intermediate = { relevant_sections: quoteText.map((quote, i) => ({ section_id: `q${i + 1}`, quote })), insufficient_evidence: false };
const intermediateWords = quoteText.reduce((n, q) => n + wordCount(q), 0);

const question = 'How many days do I have to appeal a denied claim?';
const boundary: Boundary = {
  id: 'data:select->answer:evidence', producer: 'select', consumer: 'answer', binding: 'evidence', intermediate,
  sources: [{ name: 'document', text: source }],
  received: {
    messages: [],
    segments: [
      { kind: 'template', text: 'Evidence:\n', tokens: 0 },
      { kind: 'binding:evidence', text: JSON.stringify(intermediate, null, 2), tokens: 0 },
      { kind: 'template', text: '\nQuestion: ', tokens: 0 },
      { kind: 'binding:question', text: question, tokens: 0 },
    ],
  },
  consumerOutput: undefined,
};

const iterations = Number(process.argv[2] ?? 200);
const warmup = 20;
for (let i = 0; i < warmup; i++) inspectBoundary(boundary);
const times: number[] = [];
let report = inspectBoundary(boundary);
for (let i = 0; i < iterations; i++) {
  const t0 = performance.now();
  report = inspectBoundary(boundary);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
const ms = (v: number) => Math.round(v * 1000) / 1000;

console.log(`inspect: source ${wordCount(source)} words (${source.length} chars), intermediate ${intermediateWords} words; ${iterations} runs after ${warmup} warm-up`);
console.log(`  facts ${report.survival.facts.length} distinct (${report.survival.dropped.length} dropped), lossy ${report.lossy}${report.notes.length ? `; ${report.notes[0]}` : ''}`);
console.log(`  min ${ms(times[0] as number)} ms · median ${ms(at(0.5))} ms · p95 ${ms(at(0.95))} ms · max ${ms(times.at(-1) as number)} ms`);
console.log(JSON.stringify({ bench: 'inspect', words: wordCount(source), intermediate_words: intermediateWords, median_ms: ms(at(0.5)), p95_ms: ms(at(0.95)) }));
