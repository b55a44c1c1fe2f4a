/**
 * The bash worker's entry: exposes the worker API (bash-worker-api.ts) to the page over comlink.
 * Created by create-bash-workspace.ts on first use, so just-bash is only downloaded then.
 *
 * No Buffer polyfill: just-bash 3.4.2's browser bundle guards its Buffer uses with
 * `typeof Buffer` and falls back to chunked code (large files included); the only unguarded
 * uses are in gzip (stubbed out) and curl basic auth (no network is configured).
 */

import { expose } from 'comlink'
import { createBashWorkerApi } from './bash-worker-api'

expose(createBashWorkerApi())
