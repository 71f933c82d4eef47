import { citation, composeAnswer, composeReason, rankEvidence, relevant, type Ranked } from './demo-evidence.ts';
import { analysePrompt, type PromptAnalysis, type PromptMessage, type Sentence } from './demo-prompt.ts';
import { asSchema, codePoints, conforms, mergeAllOf, resolveRef, type Schema } from './demo-schema.ts';
import { composeSummary } from './demo-summary.ts';
import { contentStems, cutAtWord, fitAround } from './demo-text.ts';

/**
 * The demo model's generator: walks the output schema and fills each field from the prompt,
 * choosing what to extract by the field's name (summary, answer, quote, section id, reason,
 * flags). Every branch ends in a value that satisfies the schema it was generated for.
 */

type Role = 'summary' | 'answer' | 'quote' | 'id' | 'reason' | 'title' | 'question' | 'text';

interface Slot {
  name: string;
  /** Which piece of evidence this value speaks for (array items count up from 0). */
  rank: number;
  depth: number;
  /** An item of an array of ids: distinct ids, in relevance order. */
  idList?: boolean;
  /** Inside an object that also carries an answer: ids cite what the answer rests on. */
  cites?: boolean;
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function roleOf(nameIn: string): Role {
  const name = snake(nameIn);
  if (/summar|overview|digest|abstract|tldr|synopsis|gist/.test(name)) return 'summary';
  if (/(^|_)(answer|response|reply|verdict|conclusion)s?$/.test(name)) return 'answer';
  if (/quote|evidence|excerpt|snippet|passage|span|extract|supporting_text/.test(name)) return 'quote';
  if (/(^|_)(ids?|sections?|clauses?|citations?|refs?|references?|sources?|paragraphs?)$/.test(name)) return 'id';
  if (/why|reason|rationale|explanation|justification/.test(name)) return 'reason';
  if (/(title|heading|name|label|topic)$/.test(name)) return 'title';
  if (/question|query/.test(name)) return 'question';
  return 'text';
}

function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

export class DemoGenerator {
  private readonly ranked: Ranked[];
  private readonly picks: Ranked[];
  private readonly ids: string[];
  private summary: string | null = null;
  private answer: { text: string; source: Sentence | null } | null = null;

  constructor(private readonly analysis: PromptAnalysis, private readonly root: Schema) {
    this.ranked = rankEvidence(analysis);
    this.picks = relevant(this.ranked);
    this.ids = [...new Set(this.picks.map((r) => r.sentence.sectionId).filter((id): id is string => Boolean(id)))];
  }

  get hasEvidence(): boolean {
    return this.ranked.length > 0;
  }

  summaryText(): string {
    return (this.summary ??= composeSummary(this.analysis));
  }

  answerText(): string {
    return (this.answer ??= composeAnswer(this.analysis, this.ranked)).text;
  }

  /** The ids an answer rests on: the section of the sentence it was composed from. */
  private citedIds(): string[] {
    this.answerText();
    const own = this.answer?.source?.sectionId;
    return own ? [own] : this.ids.slice(0, 1);
  }

  private idsFor(slot: Slot): string[] {
    return slot.cites ? this.citedIds() : this.ids;
  }

  private evidence(rank: number): Sentence | null {
    return (this.picks[rank] ?? this.ranked[rank])?.sentence ?? this.analysis.sentences[rank] ?? null;
  }

  value(schemaIn: unknown, slot: Slot): unknown {
    // A schema that requires itself forever has no finite instance; stop rather than overflow.
    if (schemaIn === false || slot.depth > 40) return null;
    const raw = asSchema(schemaIn) ?? {};
    const s = mergeAllOf(resolveRef(raw, this.root), this.root);
    if ('const' in s) return s.const;
    const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null) as unknown[] | null;
    if (branches) {
      const { anyOf: _a, oneOf: _o, ...base } = s;
      const tries = branches.map((b) => this.value(mergeAllOf({ allOf: [base, asSchema(b) ?? {}] }, this.root), slot));
      return tries.find((v) => conforms(s, v, this.root)) ?? tries[0];
    }
    if (Array.isArray(s.enum)) return this.pickEnum(s, slot);
    const types = this.typesOf(s);
    let first: unknown;
    for (const [i, type] of types.entries()) {
      const v = this.byType(type, s, slot);
      if (i === 0) first = v;
      if (conforms(s, v, this.root)) return v;
    }
    return first;
  }

  private typesOf(s: Schema): string[] {
    if (Array.isArray(s.type)) {
      const list = s.type as string[];
      return [...list.filter((t) => t !== 'null'), ...list.filter((t) => t === 'null')];
    }
    if (typeof s.type === 'string') return [s.type];
    if (s.properties || s.required || s.additionalProperties !== undefined) return ['object'];
    if (s.items !== undefined || s.prefixItems) return ['array'];
    if (s.minimum !== undefined || s.maximum !== undefined) return ['number'];
    return ['string'];
  }

  private byType(type: string, s: Schema, slot: Slot): unknown {
    switch (type) {
      case 'object': return this.object(s, slot);
      case 'array': return this.array(s, slot);
      case 'number': return this.number(s, slot, false);
      case 'integer': return this.number(s, slot, true);
      case 'boolean': return this.boolean(slot);
      case 'null': return null;
      default: return this.string(s, slot);
    }
  }

  private object(s: Schema, slot: Slot): Record<string, unknown> {
    const props = asSchema(s.properties) ?? {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const out: Record<string, unknown> = {};
    const cites = Object.keys(props).some((k) => roleOf(k) === 'answer');
    for (const [key, sub] of Object.entries(props)) {
      // Deep recursive schemas stop at the required fields.
      if (slot.depth > 6 && !required.has(key)) continue;
      out[key] = this.value(sub, { name: key, rank: slot.rank, depth: slot.depth + 1, cites });
    }
    for (const key of required) {
      if (key in out || s.additionalProperties === false) continue;
      out[key] = this.value(s.additionalProperties ?? true, { name: key, rank: slot.rank, depth: slot.depth + 1 });
    }
    return out;
  }

  private array(s: Schema, slot: Slot): unknown[] {
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
    let max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
    if (s.items === false) max = Math.min(max, prefix.length);
    const itemName = singular(slot.name);
    const idList = roleOf(itemName) === 'id';
    const available = idList ? this.idsFor(slot).length : this.picks.length;
    // Deep inside a recursive schema, arrays stay at their minimum so the output stays finite.
    const count = Math.min(max, Math.max(min, slot.depth > 6 ? 0 : Math.min(available, 3)));
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const sub = i < prefix.length ? prefix[i] : (s.items ?? true);
      let item = this.value(sub, { name: itemName, rank: slot.rank + i, depth: slot.depth + 1, idList, cites: slot.cites });
      // Unique items: walk further down the evidence until the value is new.
      for (let k = 1; s.uniqueItems === true && k < 8 && out.some((o) => JSON.stringify(o) === JSON.stringify(item)); k++) {
        item = this.value(sub, { name: itemName, rank: slot.rank + i + k * count, depth: slot.depth + 1, idList, cites: slot.cites });
      }
      out.push(item);
    }
    return out;
  }

  private boolean(slot: Slot): boolean {
    const name = snake(slot.name);
    if (/insufficient|no_evidence|not_found|unanswerable|cannot|abstain|missing|no_answer|unknown/.test(name)) return !this.hasEvidence;
    if (/sufficient|found|answerable|^has_|supported|grounded|relevant/.test(name)) return this.hasEvidence;
    return false;
  }

  private number(s: Schema, slot: Slot, integer: boolean): number {
    const name = snake(slot.name);
    const fits = (v: number) => conforms({ ...s, type: integer ? 'integer' : 'number' }, v, this.root);
    const candidates: number[] = [];
    if (/confidence|probability|certainty|score/.test(name)) candidates.push(this.hasEvidence ? 0.8 : 0.2, this.hasEvidence ? 1 : 0);
    const sentence = this.evidence(slot.rank);
    const texts = [sentence?.text ?? '', this.analysis.question ?? '', ...this.ranked.slice(0, 5).map((r) => r.sentence.text)];
    if (sentence) candidates.push(...sentence.durations.map((d) => Number(d.amount)).filter(Number.isFinite));
    for (const t of texts) for (const m of t.matchAll(/(?<![\w(])\d+(?:\.\d+)?(?![\w)])/g)) candidates.push(Number(m[0]));
    const found = candidates.find(fits);
    if (found !== undefined) return found;
    // Nothing in the prompt fits the bounds: take the smallest value the schema allows.
    const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : integer ? 1 : 0.5;
    let lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + step / 2 : 0;
    if (typeof s.maximum === 'number' && lo > s.maximum) lo = s.maximum;
    const v = Math.ceil(lo / step) * step;
    return fits(v) ? v : Math.floor((typeof s.maximum === 'number' ? s.maximum : lo) / step) * step;
  }

  private pickEnum(s: Schema, slot: Slot): unknown {
    const { enum: values, ...rest } = s;
    const options = (values as unknown[]).filter((v) => conforms(rest, v, this.root));
    const list = options.length > 0 ? options : (values as unknown[]);
    const sentence = this.evidence(slot.rank);
    const norm = (v: unknown) => String(v).replace(/[\s§]/g, '').toLowerCase();
    const target = slot.idList ? this.idsFor(slot)[slot.rank] : sentence?.sectionId;
    if (target) {
      const exact = list.find((v) => norm(v) === norm(target));
      if (exact !== undefined) return exact;
      const prefixes = list.filter((v) => norm(v).length > 0 && norm(target).startsWith(norm(v)));
      if (prefixes.length > 0) return prefixes.sort((a, b) => norm(b).length - norm(a).length)[0];
    }
    const context = new Set(contentStems(`${this.analysis.question ?? ''} ${sentence?.text ?? ''} ${sentence?.titles.join(' ') ?? ''}`));
    const score = (v: unknown) => contentStems(String(v)).filter((t) => context.has(t)).length;
    // Best match first (stable); the n-th item of an array takes the n-th best, so items can differ.
    const ranked = list.map((v, i) => ({ v, i, s: score(v) })).sort((a, b) => b.s - a.s || a.i - b.i);
    return ranked[slot.rank % ranked.length]?.v;
  }

  private string(s: Schema, slot: Slot): string {
    const role = roleOf(slot.name);
    const sentence = this.evidence(slot.rank);
    const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    let text: string;
    switch (role) {
      case 'summary': text = this.summaryText(); break;
      case 'answer': text = this.answerText(); break;
      case 'quote': text = sentence ? this.quote(sentence, max, min, slot.rank) : ''; break;
      case 'id': text = (slot.idList ? this.idsFor(slot)[slot.rank] : sentence?.sectionId) ?? this.idNear(sentence, slot.rank); break;
      case 'reason': text = sentence ? composeReason(sentence) : 'No passage in the material bears on the question'; break;
      case 'title': text = sentence?.titles.at(-1) ?? this.analysis.sections[0]?.title ?? this.analysis.question ?? 'Untitled'; break;
      case 'question': text = this.analysis.question ?? ''; break;
      default: text = sentence?.text ?? this.analysis.question ?? 'No relevant text was found in the material.';
    }
    return this.fit(text, s, min, max);
  }

  /** A verbatim quote no longer than `max`, centred on the duration when the sentence has one. */
  private quote(sentence: Sentence, max: number, min: number, rank: number): string {
    let chosen = sentence;
    if (sentence.text.length < min) {
      chosen = [...this.picks, ...this.ranked].map((r) => r.sentence).slice(rank).find((x) => x.text.length >= min) ?? sentence;
    }
    const d = chosen.durations[0];
    return Number.isFinite(max) ? fitAround(chosen.text, max, d?.index ?? 0, d ? d.index + d.text.length : 0) : chosen.text;
  }

  /** Without a heading path: an id-looking token in the quote, else its rank. */
  private idNear(sentence: Sentence | null, rank: number): string {
    const token = sentence ? /§\s*[\d.]+[a-z]*|\b\d+(?:\.\d+)+\b|\b[A-Z]{2,}-\d+\b/.exec(sentence.text)?.[0] : undefined;
    return token ?? (sentence ? (citation(this.analysis, sentence) ?? String(rank + 1)) : String(rank + 1));
  }

  private fit(text: string, s: Schema, min: number, max: number): string {
    const ok = (v: string) => conforms({ ...s, type: 'string' }, v, this.root);
    const cut = (v: string) => (Number.isFinite(max) ? cutAtWord(v, max) || v.slice(0, max) : v);
    const first = cut(text);
    if (ok(first)) return first;
    const alternatives = [this.analysis.question ?? '', ...this.ranked.slice(0, 5).map((r) => r.sentence.text)].map(cut);
    const alt = alternatives.find(ok);
    if (alt !== undefined) return alt;
    // Too short for minLength: extend with more material, then cut again.
    const filler = [text, ...alternatives].find((t) => t.trim().length > 0) ?? 'n/a';
    let padded = first || filler;
    const need = min - codePoints(padded);
    if (need > 0) padded += ` ${filler}`.repeat(Math.ceil(need / (filler.length + 1)) + 1);
    const result = cut(padded);
    return codePoints(result) >= min ? result : padded.slice(0, max);
  }
}

/** Deterministic, pure and offline; returns JSON satisfying `schema`, or plain text without one. */
export function generateDemoOutput(messages: PromptMessage[], schema?: Record<string, unknown> | null): string {
  const analysis = analysePrompt(messages);
  const generator = new DemoGenerator(analysis, schema ?? {});
  if (!schema) return analysis.wantsSummary || !analysis.question ? generator.summaryText() : generator.answerText();
  return JSON.stringify(generator.value(schema, { name: '', rank: 0, depth: 0 }));
}
