/**
 * The `seamscope` executable: what `bin` runs, bundled by scripts/build-cli.ts into
 * dist-cli/seamscope.mjs (`npm run build:cli`; `prepare` runs it on `npm ci`). From a clone,
 * `npm run cli -- <command>` runs this file from the TypeScript sources through tsx instead.
 */
import { main } from './main.ts';

// `seamscope inspect run.json | head` closes stdout early; that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
