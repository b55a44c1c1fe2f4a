/**
 * The static page's start-up, on the page's thread, in order from the first byte to the first
 * prompt. Each step marks its start and end (src/shared/start-up-timeline.ts; `npm run bench`
 * prints them against a bare xterm.js page).
 *
 * 1. The first script (page-first-script.ts) has run already, before this code arrived: when
 *    there is a session to resume it started the engine worker, its reads and the session lock.
 * 2. The early start (page-early-start.ts): the engine worker, if not started yet, and the
 *    IndexedDB probe, which go on off this thread.
 * 3. The terminal opens (main.ts → mountFxTerminal) and takes keys at once (type-ahead); the
 *    engine boots in its worker and draws the first prompt (createFxTerminal).
 *
 * All in one task once the code has arrived: opening the terminal after a dynamic import()
 * instead let the callbacks of the early work (the IndexedDB open, the worker) run first, and
 * the terminal opened ~50 ms later (time to interactive 1.9× a bare xterm page instead of 1.4×).
 */
import { early } from './page-first-script.ts'
import { startEngineAndStores } from './page-early-start.ts'
import { openApp } from '../app/main.ts'
import { markStartUp } from '../../shared/start-up-timeline.ts'

markStartUp('page-entry')
openApp(startEngineAndStores(early))
