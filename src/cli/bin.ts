/**
 * The `seamscope` executable: what `bin` runs, bundled by scripts/build-cli.ts into
 * dist-cli/seamscope.mjs (`npm run build:cli`; `prepare` runs it on `npm ci`). From a clone,
 * `npm run cli -- <command>` runs this file from the TypeScript sources through tsx instead.
 */
// zod's JIT (code generated for each object schema on its first parse) costs a one-shot command
// more than it saves (about 40 ms of a cold validate). The flag must be set before zod creates
// any schema, so everything else loads through import(), after it.
import '../zod-jitless.ts';

// `seamscope inspect run.json | head` closes stdout early; that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
