import { defineConfig, type Plugin, type UserConfig } from 'vite'
import { earlyWorkerScript } from './build-plugins/early-worker-script.ts'
import { pythonSnapshot } from './build-plugins/python-snapshot.ts'
import { fileURLToPath } from 'node:url'
import { readdirSync } from 'node:fs'

/**
 * public/ is copied as it is, so the built example page (emitted as public/examples/…) takes the
 * place of its unbuilt copy at examples/….
 */
function builtExamplePages(): Plugin {
  return {
    name: 'fxterm-built-example-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const [name, file] of Object.entries(bundle)) {
        if (!name.startsWith('public/') || file.type !== 'asset' || typeof file.source !== 'string') continue
        delete bundle[name]
        // One folder up now: its relative asset links lose one `../`.
        this.emitFile({ type: 'asset', fileName: name.slice('public/'.length), source: file.source.replaceAll('"../../', '"../') })
      }
    },
  }
}

/**
 * shell-manifest.json: every file the built app may need (chunks, workers, assets, engine.wasm,
 * the demo tapes), for the optional offline shell (public/sw.js) to keep on a first visit;
 * Pyodide's files only once python3 has run.
 */
function shellManifest(): Plugin {
  return {
    name: 'fxterm-shell-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      // Pyodide's 13 MB (and Python's snapshot) are left out: kept on the first python3 (the service worker keeps every
      // asset it fetches), not downloaded on everybody's first visit.
      const files = Object.keys(bundle).filter((name) => !name.startsWith('examples/') && !name.startsWith('public/') && !/\/(pyodide|python_stdlib|python-snapshot)[-.]/.test(name))
      const fromPublic = ['engine.wasm', 'favicon.svg', ...readdirSync('public/demos').filter((f) => f.endsWith('.json')).map((f) => `demos/${f}`)]
      this.emitFile({ type: 'asset', fileName: 'shell-manifest.json', source: JSON.stringify({ files: ['./', ...files, ...fromPublic] }) })
    },
  }
}

/** What the app's builds share (the early worker script's own build too). */
const shared = {
  base: './',
  resolve: {
    alias: {
      // just-bash's browser bundle imports node:zlib for gzip commands; the stub makes them fail
      // with a clear message instead of breaking the worker bundle.
      'node:zlib': fileURLToPath(new URL('./src/bash-worker/zlib-stub.ts', import.meta.url)),
    },
  },
  worker: { format: 'es' as const },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser fxterm runs in has modulepreload (Chromium, Firefox 115+, Safari 17+): the
    // polyfill was one more request on the way to the first frame.
    modulePreload: { polyfill: false },
  },
} satisfies UserConfig

// The engine wasm is built by `npm run build:wasm` into public/engine.wasm and served as is.
export default defineConfig({
  ...shared,
  build: {
    ...shared.build,
    // The headless agent example is a page of its own (built, then moved to examples/agent.html).
    // <fx-terminal> (fx-terminal.js) is built next, on its own: vite.element.config.ts.
    rollupOptions: {
      // The page's first script is built on its own (build-plugins/early-worker-script.ts).
      input: { main: 'index.html', embed: 'embed.html', agent: 'public/examples/agent.html' },
    },
  },
  // Before shellManifest: the files the early script's build adds are listed too.
  plugins: [pythonSnapshot(), builtExamplePages(), earlyWorkerScript(shared), shellManifest()],
  preview: { port: 4173, strictPort: true },
})
