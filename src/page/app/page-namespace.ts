import { CONFIG_IDS, HISTORY_LIMIT } from '../terminal/restored-ids.ts'

/** The static page's store namespace (its databases are `fxterm-sessions` and so on). */
export const PAGE_NAMESPACE = 'fxterm'

/** The page's workspace root: its prompt history is kept under it. */
export const PAGE_WORKSPACE_ROOT = '/workspace'

/** What the page's engine worker reads at start-up (the session it resumes, settings, history). */
export const PAGE_START_READS = { namespace: PAGE_NAMESPACE, configIds: CONFIG_IDS, historyRoot: PAGE_WORKSPACE_ROOT, historyLimit: HISTORY_LIMIT }
