// End-to-end tests drive the built page (dist/, via `vite preview`) in a system Chromium found
// by e2e/run-playwright.mjs: Playwright's bundled browsers cannot be downloaded here.
import { defineConfig } from '@playwright/test'

// FX_E2E_PORT lets two runs on one machine keep apart (each starts its own preview server).
const PORT = Number(process.env.FX_E2E_PORT ?? 4173)

export default defineConfig({
  testDir: 'e2e/specs',
  // A 2-core machine: the page already runs two workers (engine, bash) besides the main thread.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: 'list',
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    // The page's optional offline shell would answer same-origin requests before page.route sees
    // them; only the offline spec lets it register (test.use({ serviceWorkers: 'allow' })).
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.FX_CHROME_PATH,
      // No sandbox (CI runs as root), and no background traffic that would pollute the
      // "nothing leaves localhost" assertion or slow the 2-core machine down.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
})
