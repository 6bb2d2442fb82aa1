import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus and perft suites replay tens of thousands of positions; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time even on two cores (vitest's default there is one): most integration
    // files wait on real time (games played on PTYs, brokers restarted), not on the CPU.
    maxWorkers: 2,
  },
});
