import { collectionSummary, composeReply, plainEnglish } from './demo-compose.ts';
import { applyCorrections, defectReport } from './demo-defects.ts';
import { citation, composeAnswer, composeReason, rankEvidence, relevant, type Ranked } from './demo-evidence.ts';
import { classifyOption, factFor, keywordQuery, requestSentence } from './demo-fields.ts';
import { idGroups, idsForField, largestGroup, textsById, type IdGroup } from './demo-ids.ts';
import { analysePrompt, type PromptAnalysis, type PromptMessage, type Sentence } from './demo-prompt.ts';
import { isIdKey, isLabelField, isOrdering, roleOf, singular, snake } from './demo-roles.ts';
import { fitNumber, fitString, numbersIn, quoteOf } from './demo-scalars.ts';
import { asSchema, conforms, mergeAllOf, resolveRef, typesOf, type Schema } from './demo-schema.ts';
import { composeSummary } from './demo-summary.ts';
import { contentStems } from './demo-text.ts';

/**
 * The demo model's generator: walks the output schema and fills each field from the prompt,
 * choosing what to extract by the field's name (see demo-roles.ts). Every branch ends in a
 * value that satisfies the schema it was generated for, with one deliberate exception: a
 * verbatim quote asked of material that is present but empty stays empty.
 */

interface Slot {
  name: string;
  /** Which piece of evidence this value speaks for (array items count up from 0). */
  rank: number;
  depth: number;
  /** An item of an array of ids: distinct ids, in relevance order. */
  idList?: boolean;
  /** Inside an object that also carries an answer: ids cite what the answer rests on. */
  cites?: boolean;
  /** Inside an object built from one piece of evidence (a claim): ids cite that piece. */
  own?: boolean;
  /** This id is given (one item per id handed over, or one id of a list). */
  fixedId?: string;
  /** This object speaks for one given id: its id field takes it, its rewrite rewrites it. */
  itemId?: string;
}

/** Ids that qualify an id list: `failed_unit_ids` has "failed unit", `section_ids` has nothing. */
const genericIdWords = new Set(['id', 'ids', 'section', 'clause', 'paragraph', 'source', 'citat', 'ref', 'refer', 'cite']);

export class DemoGenerator {
  private readonly ranked: Ranked[];
  private readonly picks: Ranked[];
  private readonly ids: string[];
  private readonly groups: IdGroup[];
  private summary: string | null = null;
  private handed: Map<string, string> | null = null;
  private answer: { text: string; source: Sentence | null } | null = null;

  constructor(private readonly analysis: PromptAnalysis, private readonly root: Schema) {
    this.ranked = rankEvidence(analysis);
    this.picks = relevant(this.ranked);
    this.ids = [...new Set(this.picks.map((r) => r.sentence.sectionId).filter((id): id is string => Boolean(id)))];
    this.groups = idGroups(analysis.json);
  }

  get hasEvidence(): boolean {
    return this.ranked.length > 0;
  }

  summaryText(): string {
    const collection = !this.analysis.question && this.analysis.sections.length === 0 ? collectionSummary(this.analysis) : null;
    return (this.summary ??= collection ?? composeSummary(this.analysis, this.ranked));
  }

  answerText(): string {
    return (this.answer ??= composeAnswer(this.analysis, this.ranked)).text;
  }

  /** Material handed over in data frames that are all empty: nothing to quote. */
  private get emptyMaterial(): boolean {
    return this.analysis.frames.length > 0 && this.analysis.frames.every((f) => !f.text.trim());
  }

  private idsFor(slot: Slot): string[] {
    if (slot.own) return [this.evidence(slot.rank)?.sectionId].filter((id): id is string => Boolean(id));
    if (slot.cites) {
      this.answerText();
      const own = this.answer?.source?.sectionId;
      return own ? [own] : this.ids.slice(0, 1);
    }
    if (isOrdering(slot.name)) {
      const all = [...this.ranked.map((r) => r.sentence), ...this.analysis.sentences].map((s) => s.sectionId);
      return [...new Set(all.filter((id): id is string => Boolean(id)))];
    }
    const qualified = contentStems(snake(slot.name).replace(/_/g, ' ')).some((w) => !genericIdWords.has(w));
    return (qualified ? idsForField(slot.name, this.groups) : null) ?? this.ids;
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
    const fact = this.fact(s, slot);
    if (fact !== undefined) return fact;
    if (Array.isArray(s.enum)) return this.pickEnum(s, slot);
    const types = typesOf(s);
    let first: unknown;
    for (const [i, type] of types.entries()) {
      const v = this.byType(type, s, slot);
      if (i === 0) first = v;
      if (conforms(s, v, this.root)) return v;
    }
    return first;
  }

  /** A nullable fact field (an order id, an amount, a product): found in the material or null, never guessed. */
  private fact(s: Schema, slot: Slot): unknown {
    const types = typesOf(s);
    const scalar = types.find((t) => t === 'string' || t === 'number' || t === 'integer');
    const role = roleOf(slot.name);
    if (!types.includes('null') || !scalar || Array.isArray(s.enum) || slot.fixedId || slot.idList || !['id', 'title', 'text'].includes(role)) return undefined;
    if (/section|clause|paragraph|source|citation|chunk|passage/.test(snake(slot.name))) return undefined;
    const v = factFor(slot.name, scalar !== 'string', this.analysis);
    if (v === undefined) return undefined;
    return conforms(s, v, this.root) ? v : null;
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
    const keys = Object.keys(props);
    const cites = keys.some((k) => roleOf(k) === 'answer');
    // A claim-like object (its own text plus a list of ids): the ids cite its own evidence.
    const typeOf = (k: string, path: string[] = []) => path.reduce<Schema | null>((x, p) => asSchema(x?.[p]), asSchema(props[k]))?.type;
    const own = !cites && keys.some((k) => ['text', 'quote'].includes(roleOf(k)) && typeOf(k) === 'string')
      && keys.some((k) => roleOf(singular(k)) === 'id' && typeOf(k) === 'array' && typeOf(k, ['items']) === 'string');
    for (const [key, sub] of Object.entries(props)) {
      // Deep recursive schemas stop at the required fields.
      if (slot.depth > 6 && !required.has(key)) continue;
      const fixedId = slot.itemId !== undefined && isIdKey(key) ? slot.itemId : undefined;
      out[key] = this.value(sub, { name: key, rank: slot.rank, depth: slot.depth + 1, cites, own, fixedId, itemId: slot.itemId });
    }
    for (const key of required) {
      if (Object.hasOwn(out, key) || s.additionalProperties === false) continue;
      out[key] = this.value(s.additionalProperties ?? true, { name: key, rank: slot.rank, depth: slot.depth + 1 });
    }
    return out;
  }

  /** One item per given id, when the prompt asks for every id back: the id field's enum, else the ids handed over. */
  private givenIds(itemsIn: unknown, slot: Slot): string[] | null {
    if (!this.analysis.coverAll) return null;
    const items = mergeAllOf(resolveRef(asSchema(itemsIn) ?? {}, this.root), this.root);
    const idKey = Object.keys(asSchema(items.properties) ?? {}).find(isIdKey);
    if (!idKey) return null;
    const enumIds = asSchema((items.properties as Schema)[idKey])?.enum;
    const ids = Array.isArray(enumIds) ? enumIds.map(String) : (idsForField(slot.name, this.groups) ?? largestGroup(this.groups));
    return ids.length > 0 ? ids : null;
  }

  private array(s: Schema, slot: Slot): unknown[] {
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
    let max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
    if (s.items === false) max = Math.min(max, prefix.length);
    const itemName = singular(slot.name);
    const perId = prefix.length > 0 ? null : this.givenIds(s.items, slot);
    const idList = perId === null && roleOf(itemName) === 'id';
    const ids = idList ? this.idsFor(slot) : [];
    const whole = perId !== null || (idList && (slot.own || isOrdering(slot.name)));
    const available = perId?.length ?? (idList ? ids.length : this.picks.length);
    // Deep inside a recursive schema, arrays stay at their minimum so the output stays finite.
    const count = Math.min(max, Math.max(min, slot.depth > 6 ? 0 : whole ? available : Math.min(available, 3)));
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const sub = i < prefix.length ? prefix[i] : (s.items ?? true);
      const base = { name: itemName, depth: slot.depth + 1, idList, cites: slot.cites, own: slot.own };
      const fixed = whole ? { fixedId: idList ? ids[i] : undefined, itemId: perId?.[i] } : {};
      let item = this.value(sub, { ...base, ...fixed, rank: perId ? i : slot.rank + i });
      // Unique items: walk further down the evidence until the value is new.
      for (let k = 1; s.uniqueItems === true && k < 8 && out.some((o) => JSON.stringify(o) === JSON.stringify(item)); k++) {
        item = this.value(sub, { ...base, rank: slot.rank + i + k * count });
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
    const candidates: number[] = [];
    if (/confidence|probability|certainty|score/.test(snake(slot.name))) candidates.push(this.hasEvidence ? 0.8 : 0.2, this.hasEvidence ? 1 : 0);
    const sentence = this.evidence(slot.rank);
    if (sentence) candidates.push(...sentence.durations.map((d) => Number(d.amount)).filter(Number.isFinite));
    candidates.push(...numbersIn([sentence?.text ?? '', this.analysis.question ?? '', ...this.ranked.slice(0, 5).map((r) => r.sentence.text)]));
    return fitNumber(s, this.root, integer, candidates);
  }

  private pickEnum(s: Schema, slot: Slot): unknown {
    const { enum: values, ...rest } = s;
    const options = (values as unknown[]).filter((v) => conforms(rest, v, this.root));
    const list = options.length > 0 ? options : (values as unknown[]);
    const sentence = this.evidence(slot.rank);
    const norm = (v: unknown) => String(v).replace(/[\s§]/g, '').toLowerCase();
    const target = slot.fixedId ?? (slot.idList ? this.idsFor(slot)[slot.rank] : sentence?.sectionId);
    if (target) {
      const exact = list.find((v) => norm(v) === norm(target));
      if (exact !== undefined) return exact;
      const prefixes = list.filter((v) => norm(v).length > 0 && norm(target).startsWith(norm(v)));
      if (prefixes.length > 0) return prefixes.sort((a, b) => norm(b).length - norm(a).length)[0];
    }
    if (!slot.idList && isLabelField(slot.name)) {
      const label = classifyOption(list, this.analysis);
      if (label !== undefined) return label;
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
    const question = this.analysis.question;
    let text: string;
    switch (role) {
      case 'summary': text = this.summaryText(); break;
      case 'answer': text = this.answerText(); break;
      case 'reply': text = composeReply(this.analysis, this.picks); break;
      case 'rewrite': text = this.rewriteText(slot, sentence); break;
      case 'query': text = question ? keywordQuery(question) : (sentence?.text ?? ''); break;
      case 'request': text = requestSentence(this.analysis) ?? ''; break;
      case 'quote':
        // An extractive model handed empty material has nothing to copy, whatever the schema asks.
        if (this.emptyMaterial) return '';
        // A quote of what someone asks for is the sentence where they ask.
        if (/request|ask|want|need/.test(snake(slot.name))) text = requestSentence(this.analysis) ?? '';
        else text = sentence ? quoteOf(sentence, max, min, [...this.picks, ...this.ranked].map((r) => r.sentence).slice(slot.rank)) : '';
        break;
      case 'id': text = slot.fixedId ?? (slot.idList ? this.idsFor(slot)[slot.rank] : sentence?.sectionId) ?? this.idNear(sentence, slot.rank); break;
      case 'reason': text = sentence ? composeReason(sentence) : 'No passage in the material bears on the question'; break;
      case 'title': text = sentence?.titles.at(-1) ?? this.analysis.sections[0]?.title ?? question ?? 'Untitled'; break;
      case 'question': text = question ?? ''; break;
      default: text = sentence?.text ?? question ?? 'No relevant text was found in the material.';
    }
    return fitString(text, s, this.root, [question ?? '', ...this.ranked.slice(0, 5).map((r) => r.sentence.text)]);
  }

  /** The given item's text in plain English: the text handed over with its id, else its sentences. */
  private rewriteText(slot: Slot, sentence: Sentence | null): string {
    const id = slot.itemId;
    const handed = id !== undefined ? (this.handed ??= textsById(this.analysis.json)).get(id) : undefined;
    const own = id !== undefined ? this.analysis.sentences.filter((x) => x.sectionId === id).map((x) => x.text).join(' ') : '';
    const text = plainEnglish(handed ?? (own || sentence?.text || ''), id);
    // A repair call is handed the reader's defect list: the named clause takes its corrections.
    return id === undefined ? text : applyCorrections(text, id, this.analysis.json);
  }

  /** Without a heading path: an id-looking token in the quote, else its rank. */
  private idNear(sentence: Sentence | null, rank: number): string {
    const token = sentence ? /§\s*[\d.]+[a-z]*|\b\d+(?:\.\d+)+\b|\b[A-Z]{2,}-\d+\b/.exec(sentence.text)?.[0] : undefined;
    return token ?? (sentence ? (citation(this.analysis, sentence) ?? String(rank + 1)) : String(rank + 1));
  }
}

/** Deterministic, pure and offline; returns JSON satisfying `schema`, or plain text without one. */
export function generateDemoOutput(messages: PromptMessage[], schema?: Record<string, unknown> | null): string {
  const analysis: PromptAnalysis = analysePrompt(messages);
  const generator = new DemoGenerator(analysis, schema ?? {});
  if (!schema) return analysis.wantsSummary || !analysis.question ? generator.summaryText() : generator.answerText();
  // A reader handed the assembled rewrite beside the original: the defects the texts show.
  const report = defectReport(analysis.json, schema);
  if (report) return JSON.stringify(report);
  return JSON.stringify(generator.value(schema, { name: '', rank: 0, depth: 0 }));
}
