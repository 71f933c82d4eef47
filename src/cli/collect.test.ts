import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { recordAgentTrace, TEST_KEY } from '../testing/collect-fixtures.ts';
import { otlpTraceExporter } from '../testing/otlp-exporters.ts';
import { startCli } from '../testing/cli-process.ts';
import { freePort } from '../testing/free-port.ts';
import { parseArgs } from './args.ts';
import { collectCommand, collectOptions } from './collect.ts';
import { main } from './main.ts';

/** `seamscope collect` as a person runs it: it prints where it listens, one line per trace, and a summary when stopped. */
describe('seamscope collect', () => {
  it('prints a line of boundary verdicts for each finished trace, then a summary when stopped', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-collect-cli-'));
    const lines: string[] = [];
    let sawTrace: () => void = () => {};
    const traced = new Promise<void>((resolve) => (sawTrace = resolve));
    let listening: (url: string) => void = () => {};
    const started = new Promise<string>((resolve) => (listening = resolve));
    const io = {
      out: (t: string) => {
        lines.push(t);
        const url = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(t)?.[1];
        if (url) listening(url);
        if (t.startsWith('trace ')) sawTrace();
      },
      err: (t: string) => lines.push(`err: ${t}`),
      env: { OPENAI_API_KEY: TEST_KEY },
    };
    const stop = new AbortController();
    const done = collectCommand(parseArgs(['--port', '0', '--dir', dir], collectOptions, 'collect'), io, stop.signal);
    try {
      const url = await started;
      const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url, encoding: 'json' }) })] });
      const traceId = recordAgentTrace(provider.getTracer('seamscope-test'));
      await provider.shutdown();
      // The root span ended: the trace finishes after the grace for late log records (1 s).
      await traced;
      stop.abort();
      expect(await done).toBe(0);
      const files = await readdir(dir);
      expect(files).toEqual([expect.stringMatching(/^otlp-[0-9a-z]+\.run\.json$/)]);
      const traceLine = lines.find((l) => l.startsWith('trace '));
      expect(traceLine).toMatch(new RegExp(`^trace ${traceId}: 3 spans → .*${files[0]?.replace('.', '\\.')} "invoke_agent support" \\(succeeded\\): 1 boundary, 0 likely lossy — chat_mock_model → chat_mock_model_2: ok `));
      expect(lines[1]).toMatch(/^the app reads runs from here: Connect collector with address http:\/\/127\.0\.0\.1:\d+ and token [A-Za-z0-9_-]{32} \(from http:\/\/127\.0\.0\.1:5173, http:\/\/localhost:5173, http:\/\/127\.0\.0\.1:4173, http:\/\/localhost:4173\)$/);
      expect(lines.at(-1)).toBe('stopped: 1 trace written, 0 not imported; 3 spans accepted, 0 rejected; 0 log records accepted; answers: 200 ×1');
      expect(lines.join('\n')).not.toContain(TEST_KEY);
    } finally {
      stop.abort();
      await done;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ends when stopped, its writer thread with it: the process exits on its own after the summary', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-collect-exit-'));
    const port = await freePort();
    const cli = startCli(['collect', '--port', String(port), '--dir', dir], { OPENAI_API_KEY: TEST_KEY });
    try {
      await vi.waitFor(() => expect(cli.out).toMatch(/and token /), { timeout: 30_000, interval: 100 });
      const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url: `http://127.0.0.1:${port}`, encoding: 'protobuf' }) })] });
      recordAgentTrace(provider.getTracer('seamscope-test'));
      await provider.shutdown();
      await vi.waitFor(() => expect(cli.out).toMatch(/^trace [0-9a-f]{32}: 3 spans → /m), { timeout: 30_000, interval: 100 });
      cli.child.kill('SIGINT');
      // A writer thread left running would hold the process open: the exit would never come.
      expect(await cli.exit).toBe(0);
      expect(cli.out).toMatch(/\nstopped: 1 trace written, 0 not imported; 3 spans accepted/);
      expect(cli.out + cli.err).not.toContain(TEST_KEY);
    } finally {
      cli.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a port that is not one, a file argument, and an app origin that is not an origin', async () => {
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), env: {} };
    expect(await main(['collect', '--port', '99999'], io)).toBe(2);
    expect(await main(['collect', 'trace.json'], io)).toBe(2);
    expect(await main(['collect', '--app-origin', 'http://127.0.0.1:5173/app'], io)).toBe(2);
    expect(lines[0]).toBe('--port must be a port number (0-65535), not "99999"');
    expect(lines[1]).toMatch(/^collect takes no file/);
    expect(lines[2]).toBe('--app-origin must be an origin such as http://127.0.0.1:5173, not "http://127.0.0.1:5173/app"');
  });
});
