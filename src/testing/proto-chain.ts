import type { Chain } from '../chain/schema.ts';

/**
 * Names that are also Object.prototype members — `constructor`, `toString`, `hasOwnProperty`,
 * `valueOf` — and `__proto__`, in every place a chain holds a name: input names, binding
 * names, step ids, output property names, enum values and router route values and labels.
 * A plain-object lookup (`obj[name]` on `{}`, `name in obj`) finds the prototype's member
 * instead of nothing; these chains must run the same as any other.
 */
export const PROTO_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'] as const;

export function protoNamesChain(label: (typeof PROTO_NAMES)[number] = 'constructor'): Chain {
  const enumValues = [...PROTO_NAMES];
  return {
    format: 'seamscope.chain', version: 1, id: 'proto-names', name: 'Prototype names everywhere',
    inputs: [
      { name: '__proto__', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'the proto input' },
      { name: 'constructor', schema: { type: 'string' }, trust: 'trusted', required: true, example: 'the constructor input' },
      { name: 'toString', schema: { type: 'string' }, trust: 'trusted', required: false, example: 'the toString input' },
    ],
    steps: [
      {
        id: 'constructor', kind: 'model', name: 'Classify', position: { x: 0, y: 0 },
        config: {
          bindings: { proto_in: 'inputs.__proto__', constructor: 'inputs.constructor', toString: 'inputs.toString' },
          prompt: `Label ${label}. Proto: {proto_in}. Constructor: {constructor}. ToString: {toString}.`,
          outputSchema: {
            type: 'object',
            properties: {
              constructor: { type: 'string', enum: enumValues },
              toString: { type: 'string', enum: [label] },
              hasOwnProperty: { type: 'array', items: { type: 'string', enum: enumValues }, maxItems: 3 },
              valueOf: { type: 'object', properties: { constructor: { type: 'integer' } }, required: ['constructor'], additionalProperties: false },
            },
            required: ['constructor', 'toString', 'hasOwnProperty', 'valueOf'],
            additionalProperties: false,
          },
        },
      },
      {
        id: 'toString', kind: 'router', name: 'Route', position: { x: 280, y: 0 },
        config: {
          bindings: { value: 'steps.constructor' }, field: 'toString',
          routes: PROTO_NAMES.map((name) => ({ equals: name, to: name === '__proto__' ? '__proto__' : `out_${name}`, label: name })),
          defaultTo: null,
        },
      },
      ...PROTO_NAMES.filter((n) => n !== '__proto__').map((name, i) => ({
        id: `out_${name}`, kind: 'output', name: `Out ${name}`, position: { x: 560, y: i * 100 },
        config: { bindings: { value: 'steps.constructor.hasOwnProperty', constructor: 'inputs.constructor' } },
      })),
      { id: '__proto__', kind: 'output', name: 'Out __proto__', position: { x: 560, y: 500 }, config: { bindings: { value: 'steps.constructor.valueOf' } } },
    ],
  };
}
