/** Bash worker side: absolute path helpers git's subcommands share. */

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}
