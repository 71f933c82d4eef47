import { describe, expect, it } from 'vitest';
import { CONDITION_KINDS, loadSurvivalSet, locateFact } from './set.ts';

const docs = loadSurvivalSet();
const questions = docs.flatMap((d) => d.questions.map((q) => ({ d, q })));
const quantity = questions.filter(({ q }) => q.kind === 'quantity');

describe('the labelled survival set', () => {
  it('has at least 6 documents, 60 quantity questions, 8 questions per document, faithful, lossy and vague intermediates for each quantity question', () => {
    expect(docs.length).toBeGreaterThanOrEqual(6);
    expect(quantity.length).toBeGreaterThanOrEqual(60);
    for (const d of docs) expect(d.questions.length, d.name).toBeGreaterThanOrEqual(8);
    for (const { q } of quantity) {
      const kinds = new Set(q.intermediates.map((i) => i.kind));
      expect([...kinds].sort(), q.id).toEqual(['faithful', 'lossy', 'vague']);
      expect(q.facts.filter((f) => f.condition), `${q.id}: a quantity question's gold facts are not conditions`).toEqual([]);
    }
  });

  it('has unique question ids and labels that name the question\'s own facts', () => {
    const ids = docs.flatMap((d) => d.questions.map((q) => q.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of docs) for (const q of d.questions) {
      const factIds = new Set(q.facts.map((f) => f.id));
      expect(factIds.size, q.id).toBe(q.facts.length);
      for (const im of q.intermediates) {
        for (const id of [...im.survives, ...(im.approximated ?? [])]) expect(factIds.has(id), `${q.id}: ${id}`).toBe(true);
        for (const id of im.approximated ?? []) expect(im.survives, `${q.id}: approximated ${id} is not a survival`).not.toContain(id);
        if (im.kind === 'faithful') expect(im.survives.length, `${q.id}: a faithful intermediate keeps every gold fact`).toBe(q.facts.length);
        if (im.kind === 'vague') expect(im.survives, `${q.id}: a vague intermediate keeps none`).toEqual([]);
        if (im.kind === 'lossy') expect(im.survives.length, `${q.id}: a lossy intermediate loses something`).toBeLessThan(q.facts.length);
        if (im.negation) expect(im.kind, `${q.id}: only a faithful intermediate is marked as stating a negation`).toBe('faithful');
      }
    }
  });

  it('places every gold section in the section parser\'s output and every gold fact verbatim inside it', () => {
    for (const d of docs) {
      const ids = new Set(d.sections.map((s) => s.id));
      for (const q of d.questions) {
        expect(ids.has(q.section), `${q.id}: section ${q.section}`).toBe(true);
        for (const f of q.facts) {
          if (f.section) expect(ids.has(f.section), `${q.id}: section ${f.section}`).toBe(true);
          expect(d.text.includes(f.text), `${q.id}: "${f.text}" in ${d.name}`).toBe(true);
          expect(locateFact(d, q, f), `${q.id}: "${f.text}" inside ${f.section ?? q.section}`).not.toBeNull();
        }
      }
    }
  });
});

// Issue 29: questions that turn on a named condition (an exception, a prerequisite, a definition or
// scope, a negation, finality or permission, a limit in words), each condition a verbatim span of
// its document, with intermediates that keep it, keep only the numbers, or keep nothing.
describe('the condition questions of the survival set', () => {
  const condition = questions.filter(({ q }) => q.kind === 'condition');
  const perDocument = new Map<string, number>();
  for (const { d } of condition) perDocument.set(d.name, (perDocument.get(d.name) ?? 0) + 1);

  it('has at least 40 condition questions over at least 4 documents, at least 8 on each of them', () => {
    expect(condition.length).toBeGreaterThanOrEqual(40);
    expect([...perDocument.values()].filter((n) => n >= 8).length, JSON.stringify([...perDocument])).toBeGreaterThanOrEqual(4);
  });

  it('gives every condition question a condition fact and faithful, numbers-only and vague intermediates', () => {
    for (const { q } of condition) {
      const conditions = q.facts.filter((f) => f.condition).map((f) => f.id);
      const others = q.facts.filter((f) => !f.condition).map((f) => f.id);
      expect(conditions.length, `${q.id}: names the condition it turns on`).toBeGreaterThan(0);
      const kinds = new Set(q.intermediates.map((i) => i.kind));
      for (const k of ['faithful', 'numbers-only', 'vague'] as const) expect(kinds.has(k), `${q.id}: has a ${k} intermediate`).toBe(true);
      for (const im of q.intermediates.filter((i) => i.kind === 'numbers-only')) {
        expect([...im.survives].sort(), `${q.id}: numbers-only keeps every fact that is not a condition and no condition`).toEqual([...others].sort());
      }
    }
  });

  it('places every condition span verbatim inside its section, long enough to be a clause and not a cue word', () => {
    for (const { d, q } of condition) {
      for (const f of q.facts.filter((x) => x.condition)) {
        expect(f.text.trim().split(/\s+/).length, `${q.id}: "${f.text}"`).toBeGreaterThanOrEqual(2);
        expect(locateFact(d, q, f), `${q.id}: "${f.text}" inside ${f.section ?? q.section} of ${d.name}`).not.toBeNull();
      }
    }
  });

  it('covers every kind of condition, yes/no and "can I …"/"what happens if …" questions, and faithful summaries stating a negation', () => {
    const kinds = new Set(condition.flatMap(({ q }) => q.facts.map((f) => f.condition).filter(Boolean)));
    expect([...kinds].sort()).toEqual([...CONDITION_KINDS].sort());
    const asks = (re: RegExp) => condition.filter(({ q }) => re.test(q.question)).length;
    expect(asks(/^(does|do|is|are|can|may|will|must)\b/i), 'yes/no questions').toBeGreaterThanOrEqual(10);
    expect(asks(/\bcan (i|we|you|a|an|the)\b/i), '"can I …" questions').toBeGreaterThanOrEqual(4);
    expect(asks(/^what happens\b.*\b(if|when)\b/i), '"what happens if …" questions').toBeGreaterThanOrEqual(4);
    const negations = condition.flatMap(({ q }) => q.intermediates.filter((i) => i.negation));
    expect(negations.length, 'faithful summaries that state a negation').toBeGreaterThanOrEqual(5);
  });
});
