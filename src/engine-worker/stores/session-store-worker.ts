/** The worker that runs the page's IndexedDB session store off its thread (session-store-api.ts). */
import * as Comlink from 'comlink'
import { sessionStoreApi } from './session-store-api.ts'

Comlink.expose(sessionStoreApi())
