import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'

// The engine wasm is built by `npm run build:wasm` into public/engine.wasm and served as is.
export default defineConfig({
  base: './',
  resolve: {
    alias: {
      // just-bash's browser bundle imports node:zlib for gzip commands; the stub makes them fail
      // with a clear message instead of breaking the worker bundle.
      'node:zlib': fileURLToPath(new URL('./src/workspace/zlib-stub.ts', import.meta.url)),
    },
  },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  preview: { port: 4173, strictPort: true },
})
