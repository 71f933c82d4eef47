#!/usr/bin/env node
// The CLI runs the same TypeScript core as the app; tsx compiles it on the fly so a fresh
// clone needs no build step before `npx seamscope`.
import { register } from 'tsx/esm/api';

register();
// `seamscope inspect run.json | head` closes stdout early; that is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
