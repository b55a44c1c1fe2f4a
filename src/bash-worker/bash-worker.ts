/**
 * The bash worker's entry: exposes the worker API (bash-worker-api.ts) to the page over comlink.
 * Created by create-bash-workspace.ts on first use (the static page asks once it is idle after
 * its first prompt), so just-bash is never downloaded during the page's start-up.
 */

// First, so that Buffer exists before just-bash is evaluated (see buffer-global.ts).
import './buffer-global'
import { expose } from 'comlink'
import { createBashWorkerApi } from './worker-api'

expose(createBashWorkerApi())
