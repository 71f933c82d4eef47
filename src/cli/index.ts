/**
 * The `seamscope` command as a function: `main(argv, io)` runs one command and returns its
 * exit code, so tests and the battery drive the CLI without a child process. `bin.ts` is the
 * executable (it loads zod-jitless first, then this).
 *
 * @example
 * import { main } from '../src/cli/index.ts';
 * process.exitCode = await main(['validate', 'chain.json']);
 */
export { main } from './main.ts';
