import { defineConfig } from 'vite'
import app from './vite.config.ts'
import { pythonSnapshot } from './build-plugins/python-snapshot.ts'

/**
 * <fx-terminal> for a page that loads it with one tag (dist/fx-terminal.js), built after the app
 * (`npm run build`) into the same folder. Built on its own, everything it needs to open a terminal
 * is in that one file: as an entry of the app's build it shared its code with the page in a chunk
 * the host page only learned of once fx-terminal.js had arrived, one fetch after the other
 * (measured: a page with the element reached interactive ~45 ms later than with that chunk
 * preloaded). Its workers and lazy parts are hashed assets beside the app's.
 */
export default defineConfig({
  ...app,
  plugins: [pythonSnapshot()],
  build: {
    ...app.build,
    emptyOutDir: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { 'fx-terminal': 'src/page/embed/fx-terminal.ts' },
      output: { entryFileNames: 'fx-terminal.js' },
    },
  },
})
