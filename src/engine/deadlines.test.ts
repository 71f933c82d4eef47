import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadlines } from './deadlines.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('createDeadlines', () => {
  it('expires a deadline once its time has passed, and not before', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const expired: string[] = [];
    deadlines.add(100, () => expired.push('a'));
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['a']);
    expect(deadlines.size).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual(['a']);
  });

  it('a cleared deadline never expires', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const expire = vi.fn();
    const d = deadlines.add(50, expire);
    deadlines.clear(d);
    deadlines.clear(d);
    vi.advanceTimersByTime(500);
    expect(expire).not.toHaveBeenCalled();
    expect(deadlines.size).toBe(0);
  });

  it('sequential calls with the same timeout arm one timer, not one each', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const expire = vi.fn();
    for (let i = 0; i < 100; i++) {
      const d = deadlines.add(120_000, expire);
      vi.advanceTimersByTime(10);
      deadlines.clear(d);
    }
    expect(vi.getTimerCount()).toBe(1);
    // The armed timer finds nothing due and stays quiet; a later call still times out on time.
    vi.advanceTimersByTime(120_000);
    expect(vi.getTimerCount()).toBe(0);
    const late = vi.fn();
    deadlines.add(300, late);
    vi.advanceTimersByTime(299);
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(late).toHaveBeenCalledTimes(1);
    expect(expire).not.toHaveBeenCalled();
  });

  it('a deadline that ends its predecessor\'s timer keeps its own time: later ones are re-armed for, earlier ones arm sooner', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const order: string[] = [];
    const long = deadlines.add(1_000, () => order.push('long'));
    deadlines.add(200, () => order.push('short'));
    deadlines.add(600, () => order.push('middle'));
    vi.advanceTimersByTime(200);
    expect(order).toEqual(['short']);
    vi.advanceTimersByTime(400);
    expect(order).toEqual(['short', 'middle']);
    deadlines.clear(long);
    vi.advanceTimersByTime(10_000);
    expect(order).toEqual(['short', 'middle']);
  });

  it('a timer that fires before the clock reads the deadline waits out the rest', () => {
    vi.useFakeTimers();
    let skew = 0;
    const deadlines = createDeadlines(() => Date.now() + skew);
    const expire = vi.fn();
    deadlines.add(50, () => expire());
    // From here the clock runs 3 ms behind the timers: their firing at 50 ms finds nothing due yet.
    skew = -3;
    vi.advanceTimersByTime(50);
    expect(expire).not.toHaveBeenCalled();
    expect(deadlines.size).toBe(1);
    vi.advanceTimersByTime(3);
    expect(expire).toHaveBeenCalledTimes(1);
    expect(deadlines.size).toBe(0);
  });

  it('one expiry that throws does not keep the others due with it from expiring', () => {
    vi.useFakeTimers();
    const deadlines = createDeadlines(() => Date.now());
    const after = vi.fn();
    deadlines.add(10, () => {
      throw new Error('listener broke');
    });
    deadlines.add(10, after);
    vi.advanceTimersByTime(10);
    expect(after).toHaveBeenCalledTimes(1);
    // The error is thrown from a timer of its own, where nothing catches it (as before).
    expect(() => vi.advanceTimersByTime(1)).toThrow('listener broke');
  });
});

describe('the process-wide call deadlines in Node', () => {
  it('an idle armed timer does not hold the process open; a pending deadline does', async () => {
    const module = fileURLToPath(new URL('./deadlines.ts', import.meta.url));
    const script = (pending: boolean) => `
      const { callDeadlines } = await import(${JSON.stringify(module)});
      const d = callDeadlines.add(${pending ? 300 : 60_000}, () => console.log('expired'));
      ${pending ? '' : 'callDeadlines.clear(d);'}
      const started = Date.now();
      process.on('exit', () => console.log('exit after', Date.now() - started >= 250 ? 'waiting' : 'no wait'));
    `;
    const run = (pending: boolean) => new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(pending)], { timeout: 20_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
    });
    // Cleared: the armed 60-second timer must not keep Node alive.
    expect(await run(false)).toBe('exit after no wait');
    // Pending: Node stays until the deadline expires, as with a timer per call.
    expect(await run(true)).toBe('expired\nexit after waiting');
  }, 30_000);
});
