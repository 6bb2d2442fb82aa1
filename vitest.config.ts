import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus and perft suites replay tens of thousands of positions; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at a time even on two cores (vitest's default there is one): most
    // integration files wait on real time (games played on PTYs, brokers restarted), not on the
    // CPU, and their waits are driven by events. Measured on two cores: 510 s with two, 338 s with
    // three, the slow files' own durations unchanged.
    maxWorkers: 3,
    // Test files share a worker's module cache instead of importing everything again (measured:
    // import time 135 s to 50 s, npm test 491 s to 438 s). Files clean up what they start in
    // afterAll/afterEach and keep no state at module level that another file could see.
    isolate: false,
  },
});
