/** The message that asks a new engine worker to read the session a reload resumes (resume-prefetch.ts). */
export const PREFETCH_RESUME = 'fxterm:prefetch-resume'

export type PrefetchMessage = { type: typeof PREFETCH_RESUME; namespace: string }
