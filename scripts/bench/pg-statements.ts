import pg from 'pg';

/**
 * Where a round's time goes inside PostgreSQL, per job: pg_stat_statements (Debian's
 * postgresql-15 ships it) on the bench's private server, counting the statements the clients
 * send (top level) and those BullMQ's PL/pgSQL functions run inside them (nested), with their
 * execution time. Only for `bench:batch --pg-statements`: the extension costs a little on
 * every statement, so the figures of that run are not the bench's.
 */
export const STATEMENT_SETTINGS: Readonly<Record<string, string>> = {
  shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.max': '5000',
};

export interface StatementCounter {
  reset(): Promise<void>;
  /** Lines: statements per job and server time per job, then the heaviest statements. */
  report(jobs: number, top?: number): Promise<string[]>;
  close(): Promise<void>;
}

interface Row { toplevel: boolean; calls: string; total: number; query: string }

export async function statementCounter(url: string): Promise<StatementCounter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    async reset() {
      await client.query('SELECT pg_stat_statements_reset()');
    },
    async report(jobs, top = 12) {
      const { rows } = await client.query<Row>(
        `SELECT toplevel, calls, total_exec_time AS total, query FROM pg_stat_statements
          WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC`,
      );
      const sum = (list: Row[], f: (r: Row) => number) => list.reduce((n, r) => n + f(r), 0);
      const outer = rows.filter((r) => r.toplevel);
      const inner = rows.filter((r) => !r.toplevel);
      const per = (n: number) => (n / jobs).toFixed(2);
      const line = (r: Row) => `  ${per(Number(r.calls)).padStart(6)} calls/job ${((r.total * 1000) / Number(r.calls)).toFixed(0).padStart(6)} µs each ${((r.total / jobs) * 1000).toFixed(0).padStart(5)} µs/job  ${r.toplevel ? 'top' : 'in '}  ${r.query.replace(/\s+/g, ' ').slice(0, 90)}`;
      return [
        `PostgreSQL per job: ${per(sum(outer, (r) => Number(r.calls)))} statements from clients (${((sum(outer, (r) => r.total) / jobs) * 1000).toFixed(0)} µs executing), ${per(sum(inner, (r) => Number(r.calls)))} run inside BullMQ's functions; heaviest:`,
        ...rows.slice(0, top).map(line),
        'statements from clients, by calls:',
        ...outer.filter((r) => Number(r.calls) >= jobs / 200).sort((a, b) => Number(b.calls) - Number(a.calls)).map(line),
      ];
    },
    close: () => client.end(),
  };
}
