import { describe, expect, it } from 'vitest';
import { loadSurvivalSet, locateFact } from './set.ts';

const docs = loadSurvivalSet();

describe('the labelled survival set', () => {
  it('has at least 6 documents, 60 questions, 8 per document, 3 intermediates each', () => {
    expect(docs.length).toBeGreaterThanOrEqual(6);
    expect(docs.reduce((n, d) => n + d.questions.length, 0)).toBeGreaterThanOrEqual(60);
    for (const d of docs) expect(d.questions.length, d.name).toBeGreaterThanOrEqual(8);
    for (const d of docs) for (const q of d.questions) {
      const kinds = new Set(q.intermediates.map((i) => i.kind));
      expect([...kinds].sort(), q.id).toEqual(['faithful', 'lossy', 'vague']);
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
