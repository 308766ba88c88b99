import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // expect.poll waits for a condition; its default second is shorter than a busy CI machine
    // takes to render a page, so every poll gets the same generous bound instead of a sleep.
    expect: { poll: { timeout: 15_000 } },
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
