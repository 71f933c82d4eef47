/// <reference lib="webworker" />
import '../../src/zod-jitless.ts';
import type { AnalysisRequest } from './analysis.ts';

// Problems, design lint and boundary markers of a large chain, off the main thread. The
// analysis is imported only after zod is made jitless (src/zod-jitless.ts): a static import
// could be evaluated first. Requests that arrive meanwhile wait in `pending`.
const pending: AnalysisRequest[] = [];
self.onmessage = (event: MessageEvent<AnalysisRequest>) => pending.push(event.data);
const { analyse } = await import('./analysis-run.ts');
self.onmessage = (event: MessageEvent<AnalysisRequest>) => self.postMessage(analyse(event.data));
for (const request of pending.splice(0)) self.postMessage(analyse(request));
