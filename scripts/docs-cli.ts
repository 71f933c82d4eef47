import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliReference } from './cli-reference.ts';

// `npm run docs:cli`: rewrite docs/cli.md from the CLI's own usage text (see cli-reference.ts).
const path = join(import.meta.dirname, '..', 'docs', 'cli.md');
writeFileSync(path, await cliReference());
process.stdout.write(`wrote ${path}\n`);
