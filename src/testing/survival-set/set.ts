import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { splitSections, type Section } from '../../steps/sections.ts';

/**
 * The labelled survival set (see README.md in this folder): real public documents, questions
 * with their gold facts and gold section, and intermediates written by hand, each labelled with
 * which gold facts survive in it. The analysis is scored against it by `score.ts`
 * (`npm run bench:survival`).
 */
/** The kinds of named condition the set covers (issue 29): what a clause says beyond its numbers. */
export const CONDITION_KINDS = ['exception', 'prerequisite', 'definition', 'scope', 'negation', 'finality', 'permission', 'limit'] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

/** A quantity question asks for a number, date or named value; a condition question turns on a named condition. */
export const QUESTION_KINDS = ['quantity', 'condition'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

const factSchema = z.object({
  id: z.string().min(1),
  /** The value verbatim as the document writes it. */
  text: z.string().min(1),
  /** A verbatim passage of the document holding `text`, when the value occurs more than once in the section. */
  context: z.string().min(1).optional(),
  /** The fact's section when it is not the question's. */
  section: z.string().min(1).optional(),
  /**
   * Set on a named condition: the clause that changes what a rule or a number means. `text` is
   * then the condition's exact source span (located like any fact), and this names its kind.
   */
  condition: z.enum(CONDITION_KINDS).optional(),
}).strict();

const intermediateSchema = z.object({
  /**
   * faithful: keeps every gold fact (possibly restated: "half" for 50%, "incapacitated" for
   * "legally incapacitated"); lossy: a realistic paraphrase that loses, approximates or flips one;
   * numbers-only (condition questions): keeps every gold fact that is not a condition and drops the
   * conditions; vague: keeps none.
   */
  kind: z.enum(['faithful', 'lossy', 'numbers-only', 'vague']),
  text: z.string().min(1),
  /** Gold facts that survive (exactly or in an equivalent form). */
  survives: z.array(z.string()),
  /** Gold facts that are only approximated ("two months" for 60 days); they did not survive. */
  approximated: z.array(z.string()).optional(),
  /** A faithful intermediate that states its rule as a negation ("grievances do not extend any deadline"): where false alarms hide. */
  negation: z.literal(true).optional(),
}).strict();

const questionSchema = z.object({
  id: z.string().min(1),
  /** Absent on the original set, whose questions all ask for quantities. */
  kind: z.enum(QUESTION_KINDS).default('quantity'),
  question: z.string().min(1),
  section: z.string().min(1),
  facts: z.array(factSchema).min(1),
  intermediates: z.array(intermediateSchema).min(3),
}).strict();

export const documentSetSchema = z.object({
  document: z.string().min(1),
  questions: z.array(questionSchema).min(1),
}).strict();

export type DocumentSet = z.infer<typeof documentSetSchema>;
export type SetQuestion = z.infer<typeof questionSchema>;
export type SetIntermediate = z.infer<typeof intermediateSchema>;

/** The one document kept out of every rule change: scored, but never looked at item by item while tuning. */
export const HELD_OUT = 'tau-airline-policy.md';

/**
 * The document whose condition questions are kept out of the condition rules' tuning (issue 29):
 * scored, never looked at item by item. The airline policy has no condition questions, so the
 * conditions need a hold-out of their own; the contract was chosen before any condition miss was read.
 */
export const HELD_OUT_CONDITIONS = 'cuad-neoforma-verticalnet.txt';

/** Whether a document's questions of one kind are held out. */
export const isHeldOut = (document: string, kind: QuestionKind) => document === (kind === 'condition' ? HELD_OUT_CONDITIONS : HELD_OUT);

export interface LoadedDocument {
  name: string;
  text: string;
  sections: Section[];
  questions: SetQuestion[];
}

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Every question file, joined per document (a document's quantity and condition questions may sit in files of their own). */
export function loadSurvivalSet(): LoadedDocument[] {
  const dir = here('./questions/');
  const byDocument = new Map<string, LoadedDocument>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const set = documentSetSchema.parse(JSON.parse(readFileSync(`${dir}${file}`, 'utf8')));
    const known = byDocument.get(set.document);
    if (known) {
      known.questions.push(...set.questions);
      continue;
    }
    const text = readFileSync(here(`./documents/${set.document}`), 'utf8');
    byDocument.set(set.document, { name: set.document, text, sections: splitSections(text), questions: [...set.questions] });
  }
  return [...byDocument.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Where a gold fact sits in its document: inside its section, pinned by its context when given. Null when it is not there. */
export function locateFact(doc: LoadedDocument, question: SetQuestion, fact: SetQuestion['facts'][number]): { start: number; end: number } | null {
  const section = doc.sections.find((s) => s.id === (fact.section ?? question.section));
  if (!section) return null;
  const from = section.start;
  const to = section.end;
  let at = -1;
  if (fact.context) {
    const c = doc.text.indexOf(fact.context, from);
    if (c === -1 || c + fact.context.length > to) return null;
    const inner = fact.context.indexOf(fact.text);
    if (inner === -1) return null;
    at = c + inner;
  } else {
    at = doc.text.indexOf(fact.text, from);
  }
  if (at === -1 || at + fact.text.length > to) return null;
  return { start: at, end: at + fact.text.length };
}
