import { describe, expect, it } from 'vitest';
import { parseQueueUrl } from './queue-url.ts';

describe('parseQueueUrl', () => {
  it('reads redis://HOST:PORT[/DB] and postgres://USER@HOST:PORT/DB', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6380/2')).toEqual({ ok: true, target: { kind: 'redis', host: '127.0.0.1', port: 6380, db: 2, display: 'redis://127.0.0.1:6380/2' } });
    expect(parseQueueUrl('redis://queue.internal')).toMatchObject({ ok: true, target: { port: 6379, db: 0 } });
    expect(parseQueueUrl('postgres://bull@127.0.0.1:5433/jobs')).toMatchObject({ ok: true, target: { kind: 'postgres', connectionString: 'postgres://bull@127.0.0.1:5433/jobs' } });
  });

  it('refuses passwords in the URL, other schemes, databases out of range and missing parts', () => {
    for (const url of ['redis://:pw@127.0.0.1:6379', 'postgres://u:pw@h/db']) expect(parseQueueUrl(url)).toMatchObject({ ok: false, message: expect.stringContaining('password') });
    for (const url of ['http://127.0.0.1:6379', 'redis://127.0.0.1:6379/16', 'redis://127.0.0.1:6379/x', 'postgres://127.0.0.1:5432', 'redis://h:1?db=2', 'not a url']) {
      expect(parseQueueUrl(url).ok, url).toBe(false);
    }
  });
});
