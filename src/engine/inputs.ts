import type { Chain } from '../chain/schema.ts';
import type { SchemaValidator } from './validate.ts';

/** Every problem with the run's inputs, named plainly; empty when the run may start. */
export function checkInputs(chain: Chain, inputs: Record<string, unknown>, validator: SchemaValidator): string[] {
  const problems: string[] = [];
  for (const input of chain.inputs) {
    const value = Object.prototype.hasOwnProperty.call(inputs, input.name) ? inputs[input.name] : undefined;
    if (value === undefined || value === null || value === '') {
      if (input.required) problems.push(`The required input "${input.name}" is missing`);
      continue;
    }
    const errors = validator.validate(input.schema, value);
    if (errors.length > 0) problems.push(`The input "${input.name}" does not match its schema: ${errors.join('; ')}`);
  }
  return problems;
}
