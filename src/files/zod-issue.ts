import type { $ZodError } from 'zod/v4/core';
import { formatJsonPath } from './strict-json.ts';

/**
 * The first problem of a failed parse, as `$.path: message`: the JSON path written as every
 * file error writes it (datasets, result lines, queue payloads), so a user reads one form.
 */
export function firstIssue(error: $ZodError): string {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map((key) => (typeof key === 'symbol' ? String(key) : key));
  return `${formatJsonPath(path)}: ${issue?.message ?? 'invalid'}`;
}
