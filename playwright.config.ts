import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';

// The built app (vite preview) and the project's mock model server, both on 127.0.0.1.
// Debian's Chromium is used directly: browser downloads do not work on these machines.
// Ports can be moved (E2E_APP_PORT, E2E_MOCK_PORT) so two suites can run side by side.
export const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 8787);
const APP_PORT = Number(process.env.E2E_APP_PORT ?? 4173);
export const APP_URL = `http://127.0.0.1:${APP_PORT}`;
// The mock's control routes need a per-start token. The config makes one (workers load this file
// again and inherit the variable, so they see the same one) and hands it to the mock through the
// environment; e2e/fixtures reads it from there. To reuse a mock already running, set the
// variable to the token it printed.
process.env.SEAMSCOPE_MOCK_CONTROL_TOKEN ||= randomBytes(24).toString('base64url');

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: APP_URL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${APP_PORT} --strictPort`,
      url: APP_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: `npx tsx src/testing/mock-cli.ts --port ${MOCK_PORT} --api-key e2e-test-key`,
      // A model route: control routes answer 401 without the token.
      url: `http://127.0.0.1:${MOCK_PORT}/v1/models`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
  ],
});
