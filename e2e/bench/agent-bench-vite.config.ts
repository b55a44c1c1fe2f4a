import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The agent API bench page (and the agent's worker it starts), built on its own next to the
// other bench pages (dist/e2e/bench/). agent-bench.mjs runs this build.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../../dist/e2e/bench', import.meta.url)),
    emptyOutDir: false,
    rollupOptions: { input: { 'agent-bench': fileURLToPath(new URL('./agent-bench.html', import.meta.url)) } },
  },
})
