import type { OptionTable } from './args.ts';

/** `seamscope plan`'s options and usage lines, apart from the command so `main` can print help without loading the planner. */
export const planOptions: OptionTable = {
  step: 'string', inputs: 'string', units: 'string', json: 'flag', groups: 'string', help: 'flag',
  'shared-tokens': 'string', 'shared-in-document-tokens': 'string', 'output-tokens': 'string',
  window: 'string', cap: 'string', expansion: 'string', headroom: 'string', 'tokens-per-second': 'string', 'fail-rate': 'string',
  'price-in': 'string', 'price-out': 'string', 'reader-window': 'string',
};

export const planUsage = `  seamscope plan <chain.json> [--step ID] [--inputs FILE] [--json] [--groups 6,9,18]
  seamscope plan --units FILE --cap N --window N [--shared-tokens N] [--output-tokens N] [<chain.json>] [--json]
                 [--tokens-per-second N] [--fail-rate P] [--price-in USD --price-out USD] [--reader-window N]
                 [--shared-in-document-tokens N] [--expansion X] [--headroom X]  (plan --help for all)`;

