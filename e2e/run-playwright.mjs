// Runs `playwright test` against a system browser: Playwright's bundled browsers are not
// downloadable everywhere, so the path found here is handed to playwright.config.ts.
import { spawn } from 'node:child_process'
import { findBrowser } from './find-browser.mjs'

const browser = await findBrowser()
if (!browser) {
  console.error('No Chromium found: install one (apt-get install chromium, or npx playwright install chromium) or set CHROME_PATH.')
  process.exit(1)
}

const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FX_CHROME_PATH: browser },
})
// Forward Ctrl-C / CI cancellation so the preview server and browsers shut down cleanly.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
