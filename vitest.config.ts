import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files start first, so none of them is left running alone at the end, the ones that
 * keep the CPU busy (corpus replays, engine sweeps, the package build) between the ones that wait
 * on real time (games on PTYs). Vitest orders by the last run's durations when it has them and by
 * file size on a fresh clone (CI), where a small slow file would start last.
 */
const SLOW_FIRST = [
  'test/integration/otherBoards.test.ts',
  'test/engine/handling/faults.test.ts',
  'test/bridge/cli/installed.test.ts',
  'test/bridge/simulateFaults.test.ts',
  'test/engine/corpus.test.ts',
  'test/bridge/simulate.test.ts',
  'test/integration/busClock.test.ts',
  'test/drivers/dgt/corpusPty.test.ts',
  'test/engine/recognition/corpus.test.ts',
  'test/integration/requestFlood.test.ts',
  'test/integration/clockSides.test.ts',
  'test/engine/supervisor/corpus.test.ts',
  'test/integration/daemonKilled.test.ts',
  'test/integration/brokerKilled.test.ts',
  'test/engine/perft.test.ts',
  'test/integration/journalDamageWal.test.ts',
  'test/integration/journalDamage.test.ts',
  'test/drivers/certabo/recognition.test.ts',
  'test/integration/security.test.ts',
  'test/drivers/chessnut/recognition.test.ts',
  'test/integration/browser.test.ts',
  'test/drivers/millennium/recognition.test.ts',
  'test/engine/helpmate.test.ts',
  'test/bridge/cli/secrets.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOW_FIRST.findIndex(s => f.moduleId.endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keeps the base order.
    return [...base].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // src/ transpiled once for the daemons tests start as child processes (test/support/childBuild.ts).
    globalSetup: ['test/support/globalBuild.ts'],
    // Corpus and perft suites replay tens of thousands of positions; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Four test files at a time even on two cores (vitest's default there is one): most
    // integration files wait on real time (games played on PTYs, brokers restarted), not on the
    // CPU, and their waits are driven by events. Measured on two cores (npm test, no results
    // cache): 501 s with three, 461 s with four, 452 s with five, where two tests that measure
    // throughput and an 8 s wait for bytes over a PTY failed.
    maxWorkers: 4,
    // Test files share a worker's module cache instead of importing everything again (measured:
    // import time 135 s to 50 s, npm test 491 s to 438 s). Files clean up what they start in
    // afterAll/afterEach and keep no state at module level that another file could see.
    isolate: false,
    // A larger young generation for the test workers: the corpus and engine files allocate a
    // position per ply, and the default 16 MB semi-space had them collecting garbage for 40 % of
    // a whole-file PGN read. Measured: the fault-injection file 49.9 s to 44.8 s alone.
    execArgv: ['--max-semi-space-size=64'],
    sequence: { sequencer: SlowFirst },
  },
});
