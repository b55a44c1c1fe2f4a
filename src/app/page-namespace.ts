/** The static page's store namespace (its databases are `fxterm-sessions` and so on). */
export const PAGE_NAMESPACE = 'fxterm'
