import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The bench's baseline page, built on its own (into dist/e2e/bench/) so that the app's build
// has a single entry and the baseline shares no chunk with it.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../../dist/e2e/bench', import.meta.url)),
    emptyOutDir: false,
    rollupOptions: { input: { bare: fileURLToPath(new URL('./bare.html', import.meta.url)) } },
  },
})
