/**
 * A distribution-free 95 % interval for the median of repeated measurements: the order statistics
 * at ranks n/2 ∓ 1.96·√n/2 (the normal approximation of the binomial sign test). No assumption
 * about how the repeats are spread, which on a shared 2-core machine is anything but normal.
 * Fewer than 6 values give no interval (the ranks would fall outside the sample).
 */
export function medianInterval(values: readonly number[]): [number, number] | null {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  if (n < 6) return null;
  const half = (1.96 * Math.sqrt(n)) / 2;
  const lo = Math.max(1, Math.floor(n / 2 - half));
  const hi = Math.min(n, Math.ceil(n / 2 + 1 + half));
  return [s[lo - 1] as number, s[hi - 1] as number];
}
