import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The bench pages that need a build of their own (the stream-overhead page and its worker, the
// agent API page and the agent's worker) and the workspace bench's worker (started by the bench
// in the app's page, so at a fixed name), built next to the bare page (dist/e2e/bench/, or the
// served build's: build-bench-pages.mjs), so the app's build keeps its own entries.
const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url))

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: {
    // As in vite.config.ts: just-bash's browser bundle imports node:zlib for its gzip commands.
    alias: { 'node:zlib': fileURLToPath(new URL('../../src/bash-worker/zlib-stub.ts', import.meta.url)) },
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: fileURLToPath(new URL('../../dist/e2e/bench', import.meta.url)),
    emptyOutDir: false,
    rollupOptions: {
      input: {
        'stream-bench': page('stream-bench'),
        'agent-bench': page('agent-bench'),
        'workspace-bench-worker': fileURLToPath(new URL('./workspace-bench-worker.ts', import.meta.url)),
      },
      output: { entryFileNames: (chunk) => (chunk.name === 'workspace-bench-worker' ? '[name].js' : 'assets/[name]-[hash].js') },
    },
  },
})
