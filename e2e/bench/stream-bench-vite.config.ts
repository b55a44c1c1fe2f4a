import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The stream-overhead bench page and its worker, built on their own next to the bare page
// (dist/e2e/bench/), so the app's build keeps a single entry. stream-bench.mjs runs this build.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../../dist/e2e/bench', import.meta.url)),
    emptyOutDir: false,
    rollupOptions: { input: { 'stream-bench': fileURLToPath(new URL('./stream-bench.html', import.meta.url)) } },
  },
})
