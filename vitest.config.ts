import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default (one worker fewer than the cores) runs the suite serially on a 2-core machine.
    // The tests isolate their databases (a schema per test on PostgreSQL, a private file or memory
    // on SQLite) and listen on free ports, so two files run at once: 19 min instead of 30 for the
    // whole suite here. CMS_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.CMS_TEST_WORKERS) || 2,
    // expect.poll waits for a condition; its default second is shorter than a busy CI machine
    // takes to render a page, so every poll gets the same generous bound instead of a sleep.
    expect: { poll: { timeout: 15_000 } },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
