/** Small display helpers shared by the run list and the replay. */

export function formatTime(ms: number): string {
  const d = new Date(ms);
  const sameDay = d.toDateString() === new Date().toDateString();
  return sameDay ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : d.toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A value as readable text: strings as they are, anything else as indented JSON. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function preview(value: unknown, max = 90): string {
  const text = (typeof value === 'string' ? value : JSON.stringify(value) ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** 13,783 → "13.8k"; small counts as they are. */
export function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString('en-US');
}

/** US dollars, with enough digits that a fraction of a cent is not shown as $0.00. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return '';
  return usd === 0 || usd >= 0.1 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}
