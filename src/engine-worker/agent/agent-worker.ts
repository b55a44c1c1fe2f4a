/** The agent's engine worker entry (see agent-worker-api.ts). */
import * as Comlink from 'comlink'
import { createAgentWorkerApi } from './agent-worker-api.ts'

Comlink.expose(createAgentWorkerApi())
