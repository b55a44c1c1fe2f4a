import { build, type Plugin, type Rollup, type UserConfig } from 'vite'

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
 */
export function earlyWorkerScript(shared: UserConfig, entry = 'src/page/start-up/page-first-script.ts'): Plugin {
  let files: Array<Rollup.OutputChunk | Rollup.OutputAsset> = []
  let script = ''
  return {
    name: 'fxterm-early-worker-script',
    apply: 'build',
    async buildStart() {
      const built = await build({
        ...shared,
        configFile: false,
        logLevel: 'warn',
        build: { ...shared.build, write: false, copyPublicDir: false, rollupOptions: { input: { 'early-worker': entry } } },
      })
      files = (Array.isArray(built) ? built : [built as Rollup.RollupOutput]).flatMap((output) => output.output)
      const chunk = files.find((file) => file.type === 'chunk' && file.isEntry)
      if (!chunk) throw new Error(`${entry}: its build wrote no entry chunk`)
      if (chunk.type === 'chunk' && chunk.imports.length > 0) throw new Error(`${entry} must be one file, but it imports ${chunk.imports.join(', ')}`)
      script = chunk.fileName
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
