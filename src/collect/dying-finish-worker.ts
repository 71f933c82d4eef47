/**
 * Tests only (trace-writer.test.ts passes it to startTraceWriter as `workerEntry`; nothing in
 * the collector or the command names it, and the bundled CLI does not hold it): the writer
 * thread with dying-writer-hook.ts's listener first, so it dies as it takes a `dead…` trace.
 * Imported in this order, the hook's listener is registered before the writer's.
 */
import './dying-writer-hook.ts';
import './finish-worker.ts';
