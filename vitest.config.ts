import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'wasm/tests/**/*.test.ts'],
    environment: 'node',
    // The timeout is there to catch a hang, not slowness: the CPU-heavy tests (a stream cut at
    // every byte, a 1 MiB paste, megabyte sessions) run several times slower on a loaded machine.
    testTimeout: 60_000,
  },
})
