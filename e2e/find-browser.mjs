// Finds a Chromium-family browser executable for the e2e tests and the bench.
// Playwright's bundled browsers cannot be downloaded everywhere (e.g. offline CI),
// so a system Chromium is preferred and Playwright's own is only the last resort.
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser']
const PATH_NAMES = ['chromium', 'google-chrome', 'google-chrome-stable']

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return null
}

// Imported lazily: .ci/run calls this before `npm ci`, when @playwright/test may be missing.
async function playwrightChromium() {
  try {
    const { chromium } = await import('@playwright/test')
    const path = chromium.executablePath()
    return path && existsSync(path) ? path : null
  } catch {
    return null
  }
}

/** @returns {Promise<string | null>} the browser executable path, or null when none is installed. */
export async function findBrowser() {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  for (const path of SYSTEM_PATHS) if (isExecutable(path)) return path
  for (const name of PATH_NAMES) {
    const path = onPath(name)
    if (path) return path
  }
  return playwrightChromium()
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = await findBrowser()
  if (path) console.log(path)
  else process.exit(1)
}
