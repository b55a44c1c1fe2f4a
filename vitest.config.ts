import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'wasm/tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
})
