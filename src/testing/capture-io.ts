/** The CLI's output seam for tests: every line a command prints to stdout and stderr, in order. */
export function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), env: {} } };
}
