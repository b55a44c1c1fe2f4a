import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The bench pages that need a build of their own (the stream-overhead page and its worker, the
// agent API page and the agent's worker), built next to the bare page (dist/e2e/bench/), so the
// app's build keeps its own entries. stream-bench.mjs and agent-bench.mjs run this build.
const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../../dist/e2e/bench', import.meta.url)),
    emptyOutDir: false,
    rollupOptions: { input: { 'stream-bench': page('stream-bench'), 'agent-bench': page('agent-bench') } },
  },
})
