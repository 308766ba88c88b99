import pg from 'pg';

/** The PostgreSQL server the benchmarks use. */
export const BENCH_PG_URL =
  process.env.BENCH_PG_URL ?? process.env.CMS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Run one statement on its own connection (creating and dropping a benchmark's schema). */
export async function pgAdmin(statement: string, url = BENCH_PG_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
