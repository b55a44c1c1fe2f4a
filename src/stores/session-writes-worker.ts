/** The worker that runs session commits and removals off the page's thread (session-writes.ts). */
import * as Comlink from 'comlink'
import { sessionWritesApi } from './session-writes.ts'

Comlink.expose(sessionWritesApi())
