import { fork } from 'node:child_process';

/**
 * The mock model server in a process of its own, as an endpoint is on its own machine: the
 * bench's bursts of work no longer delay its answers. The bench file forks itself with `flag`;
 * the child serves the mock and answers `{type}` messages over IPC (each bench decides which).
 */
export interface MockProcess {
  url: string;
  pid: number;
  /** Sends `message` (when given) and resolves with the child's next message of type `type`. */
  reply<T>(type: string, message?: unknown): Promise<T>;
  /** Asks the child to close its server and waits for it to exit. */
  close(): Promise<void>;
}

export async function forkMockProcess(entry: string, flag: string): Promise<MockProcess> {
  const child = fork(entry, [flag], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const reply = <T>(type: string, message?: unknown): Promise<T> => new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    if (message) child.send(message);
  });
  const { url } = await reply<{ url: string }>('ready');
  return {
    url, pid: child.pid ?? 0, reply,
    close: async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.send({ type: 'close' });
      await gone;
    },
  };
}
