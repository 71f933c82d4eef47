import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layoutChain, type Size } from './layout.ts';
import { parseChain } from './parse.ts';
import type { Chain } from './schema.ts';
import { chainEdges } from './graph.ts';
import { stepRegistry } from '../steps/index.ts';

const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((f) => {
  const parsed = parseChain(JSON.parse(readFileSync(new URL(f, demoDir), 'utf8')), stepRegistry);
  if (!parsed.ok) throw new Error(`${f}: ${parsed.problems[0]?.message}`);
  return { file: f, chain: parsed.chain };
});

type Box = { x: number; y: number; w: number; h: number };
const inside = (p: { x: number; y: number }, b: Box) => p.x > b.x && p.x < b.x + b.w && p.y > b.y && p.y < b.y + b.h;
const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

function boxes(chain: Chain, size: Size) {
  const layout = layoutChain(chain, { nodeWidth: size.width, nodeHeight: size.height }, stepRegistry);
  const map = new Map<string, Box>();
  for (const [id, at] of layout.steps) map.set(id, { ...at, w: size.width, h: size.height });
  return { layout, map };
}

describe('layoutChain', () => {
  it.each(demos)('$file: no two cards overlap; an edge between neighbouring columns has its label in the gap', ({ chain }) => {
    const { map } = boxes(chain, { width: 212, height: 120 });
    const all = [...map.entries()];
    for (const [i, [a, boxA]] of all.entries()) for (const [b, boxB] of all.slice(i + 1)) expect(overlap(boxA, boxB), `${a} overlaps ${b}`).toBe(false);
    // React Flow draws an edge label at the midpoint of its two handles (right of the source, left
    // of the target). Edges that skip columns are the canvas's to place (app/designer/edge-labels.ts).
    for (const e of chainEdges(chain, stepRegistry)) {
      const s = map.get(e.source)!;
      const t = map.get(e.target)!;
      if (t.x - (s.x + s.w) > 400) continue;
      const mid = { x: (s.x + s.w + t.x) / 2, y: (s.y + s.h / 2 + t.y + t.h / 2) / 2 };
      for (const [id, box] of map) expect(inside(mid, box), `label of ${e.id} lies on ${id}`).toBe(false);
    }
  });

  it('puts steps nothing connects yet in one row, in the order they were placed', () => {
    const chain = {
      version: 1, id: 'c', name: 'c', inputs: [], edges: [], meta: {},
      steps: [
        { id: 'b', kind: 'model', position: { x: 400, y: 90 }, config: {} },
        { id: 'a', kind: 'model', position: { x: 10, y: 300 }, config: {} },
        { id: 'c', kind: 'router', position: { x: 800, y: 0 }, config: {} },
      ],
    } as unknown as Chain;
    const { steps } = layoutChain(chain, undefined, stepRegistry);
    expect(new Set([...steps.values()].map((p) => p.y)).size).toBe(1);
    expect(steps.get('a')!.x).toBeLessThan(steps.get('b')!.x);
    expect(steps.get('b')!.x).toBeLessThan(steps.get('c')!.x);
  });

  it('puts each input left of the steps that read it, and gives measured cards their own height', () => {
    const { chain } = demos.find((d) => d.file === 'support-ticket.chain.json')!;
    const tall = new Map([[chain.steps[0]!.id, { width: 212, height: 400 }]]);
    const { steps, inputs } = layoutChain(chain, { sizes: tall, nodeWidth: 212, nodeHeight: 100 }, stepRegistry);
    for (const input of chain.inputs) {
      const readers = chain.steps.filter((st) => JSON.stringify(st.config).includes(`"inputs.${input.name}`));
      for (const reader of readers) expect(inputs.get(input.name)!.x, `${input.name} → ${reader.id}`).toBeLessThan(steps.get(reader.id)!.x);
    }
    const first = steps.get(chain.steps[0]!.id)!;
    for (const [id, at] of steps) {
      if (id === chain.steps[0]!.id) continue;
      expect(overlap({ ...first, w: 212, h: 400 }, { ...at, w: 212, h: 100 }), id).toBe(false);
    }
  });
});
