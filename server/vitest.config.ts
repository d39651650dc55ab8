import { configDefaults, defineConfig } from 'vitest/config';

// Every API test runs on SQLite; with TEST_DATABASE_URL set, the whole suite runs again on
// PostgreSQL (each test file gets a fresh database, dropped after).
const engines = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    projects: engines.map((engine) => ({
      test: {
        name: engine,
        include: ['src/**/*.test.ts'],
        // The storage suites use no database: they run once, with the first engine.
        exclude: [...configDefaults.exclude, ...(engine === 'sqlite' ? [] : ['src/storage/**'])],
        env: { UPSHOT_TEST_ENGINE: engine },
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
