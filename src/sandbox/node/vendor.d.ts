// path-browserify ships no types; it is Node's posix `path`, so it has Node's.
declare module 'path-browserify' {
  import path from 'node:path'
  export default path.posix
}
