/**
 * The bash worker's entry: exposes the worker API (bash-worker-api.ts) to the page over comlink.
 * Created by create-bash-workspace.ts on first use, so just-bash is only downloaded then.
 */

// First, so that Buffer exists before just-bash is evaluated (see buffer-global.ts).
import './buffer-global'
import { expose } from 'comlink'
import { createBashWorkerApi } from './worker-api'

expose(createBashWorkerApi())
