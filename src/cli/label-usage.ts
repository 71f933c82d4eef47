import type { OptionTable } from './args.ts';

/** Named at startup (usage text, option parsing); the command itself loads only when it runs. */
export const labelUsage = 'Usage: seamscope label <run.json> <boundary-id | producer->consumer> derivable|not-derivable|unsure|clear [--note TEXT]';
export const labelOptions: OptionTable = { note: 'string' };
