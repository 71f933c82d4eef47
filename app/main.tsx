import '../src/zod-jitless.ts';

// The app is imported only after zod is made jitless (src/zod-jitless.ts, for the strict CSP):
// with static imports the bundler may evaluate a shared chunk that defines zod schemas first.
await import('./start.tsx');
