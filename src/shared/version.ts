/**
 * fxterm's version, as package.json says (a test keeps the two equal). A session remembers the
 * version its last turn ran under, so a later one can say the engine changed (checkpoint.mismatch).
 */
export const FXTERM_VERSION = '0.1.0'
