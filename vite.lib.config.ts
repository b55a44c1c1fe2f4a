import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'
import pkg from './package.json' with { type: 'json' }
import { pythonSnapshot } from './build-plugins/python-snapshot.ts'

/**
 * The library build (`npm run build:lib` → lib/): ESM for bundlers. Dependencies stay imports
 * (the app installs them); the workers are bundled whole, each in its own file, and found
 * with `new URL(…, import.meta.url)` like engine.wasm, which ships beside them (from public/,
 * with the demo tape). Types come from `tsc -p tsconfig.lib.json`.
 */
const dependencies = Object.keys(pkg.dependencies)

export default defineConfig({
  base: './',
  resolve: {
    alias: { 'node:zlib': fileURLToPath(new URL('./src/bash-worker/zlib-stub.ts', import.meta.url)) },
  },
  // Each worker one file: an app's bundler copies a worker the library names with new URL(…) as it
  // is, and would leave a chunk it loads behind (the engine worker loads its host lazily).
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
  // Pyodide's files ship beside the workers, and Python's snapshot with them.
  plugins: [pythonSnapshot()],
  publicDir: 'public',
  build: {
    outDir: 'lib',
    target: 'es2022',
    sourcemap: false,
    minify: false,
    lib: { entry: { fxterm: 'src/index.ts', 'fx-terminal': 'src/page/embed/fx-terminal.ts' }, formats: ['es'] },
    rollupOptions: {
      external: (id) => dependencies.some((dep) => id === dep || id.startsWith(`${dep}/`)),
    },
  },
})
