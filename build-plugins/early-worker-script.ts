import { build, type Plugin, type Rollup, type UserConfig } from 'vite'
import { posix, resolve } from 'node:path'

/**
 * The page's first script (src/page/start-up/page-first-script.ts), built on its own into one file that holds
 * all it imports, and its tag put first in the page's head. As an entry of the app's build it
 * shared two small chunks with the page's code, and on a busy 2-core machine those arrived among
 * the page's other files, 80-190 ms after navigation: in some loads the engine worker started only
 * once the page had evaluated its own code. Resume of 1,000 turns, A/B, 8 loads each, twice:
 * 488 → 435 ms and 482 → 444 ms.
 *
 * `shared` is the app's config without its inputs and plugins. The worker this script starts is
 * built from the same code as the app's, so it lands on the same hashed file names; any file the
 * app's build has not written already is added to it (the offline shell lists them too).
 *
 * The page's start-up imports the first script for what it started (`early`). In the app's build
 * that import is pointed at the built file itself, so the browser evaluates that module once (the
 * tag's) and the page's code reads the same `early`: no global carries it between the two.
 */
export function earlyWorkerScript(shared: UserConfig, entry = 'src/page/start-up/page-first-script.ts'): Plugin {
  let files: Array<Rollup.OutputChunk | Rollup.OutputAsset> = []
  let script = ''
  const entryPath = resolve(entry)
  /** The import's stand-in until each chunk is rendered, when its path to the script is known. */
  const STAND_IN = 'fxterm:first-script'
  return {
    name: 'fxterm-early-worker-script',
    apply: 'build',
    async buildStart() {
      const built = await build({
        ...shared,
        configFile: false,
        logLevel: 'warn',
        // Its exports kept: the page's start-up imports `early` from it.
        build: { ...shared.build, write: false, copyPublicDir: false, rollupOptions: { input: { 'early-worker': entry }, preserveEntrySignatures: 'strict' } },
      })
      files = (Array.isArray(built) ? built : [built as Rollup.RollupOutput]).flatMap((output) => output.output)
      const chunk = files.find((file) => file.type === 'chunk' && file.isEntry)
      if (!chunk) throw new Error(`${entry}: its build wrote no entry chunk`)
      if (chunk.type === 'chunk' && chunk.imports.length > 0) throw new Error(`${entry} must be one file, but it imports ${chunk.imports.join(', ')}`)
      script = chunk.fileName
    },
    resolveId: {
      // Before Vite's own resolver, which would bundle the script's module into the app.
      order: 'pre',
      async handler(source, importer, options) {
        if (source === STAND_IN) return { id: STAND_IN, external: true }
        if (!script || !importer) return null
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
        return resolved?.id === entryPath ? { id: STAND_IN, external: true } : null
      },
    },
    renderChunk(code, chunk) {
      if (!chunk.imports.includes(STAND_IN)) return null
      const path = posix.relative(posix.dirname(chunk.fileName), script)
      const to = path.startsWith('.') ? path : `./${path}`
      return code.replaceAll(`'${STAND_IN}'`, `'${to}'`).replaceAll(`"${STAND_IN}"`, `"${to}"`)
    },
    generateBundle(_options, bundle) {
      for (const file of files) {
        if (file.fileName in bundle) continue
        this.emitFile({ type: 'asset', fileName: file.fileName, source: file.type === 'chunk' ? file.code : file.source })
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.filename.endsWith('/index.html') || !script) return html
        const at = html.indexOf('<script type="module"')
        if (at < 0) return html
        return `${html.slice(0, at)}<script type="module" async crossorigin src="./${script}"></script>\n    ${html.slice(at)}`
      },
    },
  }
}
