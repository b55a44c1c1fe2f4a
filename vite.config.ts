import { defineConfig, type Plugin } from 'vite'
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
 * the demo tapes), for the optional offline shell (public/sw.js) to keep on a first visit.
 */
function shellManifest(): Plugin {
  return {
    name: 'fxterm-shell-manifest',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => !name.startsWith('examples/') && !name.startsWith('public/'))
      const fromPublic = ['engine.wasm', 'favicon.svg', ...readdirSync('public/demos').filter((f) => f.endsWith('.json')).map((f) => `demos/${f}`)]
      this.emitFile({ type: 'asset', fileName: 'shell-manifest.json', source: JSON.stringify({ files: ['./', ...files, ...fromPublic] }) })
    },
  }
}

/**
 * The page's first script (boot.ts) is tiny and imports the terminal's code dynamically, so that
 * the engine worker and engine.wasm start first. Without a hint the browser would only start
 * fetching and compiling that code once boot.ts has run; a modulepreload for it (and what it
 * imports) in the page's head starts both at once.
 */
function preloadPageCode(): Plugin {
  return {
    name: 'fxterm-preload-page-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('index.html') || ctx.filename.endsWith('embed.html')) return []
        const main = Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/app/main.ts'))
        if (!main || main.type !== 'chunk') return []
        return [main.fileName, ...main.imports].filter((file) => !html.includes(file)).map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `./${file}` }, injectTo: 'head' as const }))
      },
    },
  }
}

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
    // The headless agent example is a page of its own (built, then moved to examples/agent.html).
    // <fx-terminal> is one script at a stable name next to engine.wasm (fx-terminal.js), so a page
    // can load it with one tag; everything it imports is a hashed asset as usual.
    rollupOptions: {
      input: { main: 'index.html', embed: 'embed.html', agent: 'public/examples/agent.html', 'fx-terminal': 'src/embed/fx-terminal.ts' },
      output: { entryFileNames: (chunk) => (chunk.name === 'fx-terminal' ? 'fx-terminal.js' : 'assets/[name]-[hash].js') },
    },
  },
  plugins: [builtExamplePages(), shellManifest(), preloadPageCode()],
  preview: { port: 4173, strictPort: true },
})
