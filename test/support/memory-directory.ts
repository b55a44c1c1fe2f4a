/**
 * Test helper: an in-memory stand-in for an Origin Private File System directory, with the part
 * of the interface the OPFS file store uses. As in Chromium, `getFileHandle(create)` makes an
 * empty file at once and a writable stream replaces the file's bytes only when it closes. Tests
 * can make writes fail (a full disk), hang (a tab closed mid-write) or change bytes on "disk".
 */

type Node = MemoryFile | MemoryDirectory

/** What the test controls: a write that throws or never ends, and when a whole file's read answers. */
export type DiskFaults = {
  failWrite?: (name: string, bytes: number) => Error | null
  hangWrite?: (name: string) => boolean
  /** Called as a file is read whole (not a slice of it); the read answers once this settles. */
  readWhole?: (name: string) => Promise<void>
}

export class MemoryFile {
  readonly kind = 'file'
  bytes = new Uint8Array(0)
  constructor(
    readonly name: string,
    private readonly faults: DiskFaults,
  ) {}
  async getFile(): Promise<File> {
    const file = new File([this.bytes as BlobPart], this.name)
    const readWhole = this.faults.readWhole
    if (!readWhole) return file
    // The part of File the store reads; a whole read waits for the test.
    const name = this.name
    return { name, size: file.size, slice: (start?: number, end?: number) => file.slice(start, end), arrayBuffer: () => readWhole(name).then(() => file.arrayBuffer()) } as unknown as File
  }
  async createWritable() {
    let parts: Uint8Array[] = []
    const faults = this.faults
    return {
      write: async (data: Blob | string | Uint8Array) => {
        const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data instanceof Uint8Array ? data : new Uint8Array(await data.arrayBuffer())
        if (faults.hangWrite?.(this.name)) return new Promise<void>(() => {})
        const error = faults.failWrite?.(this.name, bytes.length)
        if (error) throw error
        parts.push(bytes)
      },
      close: async () => {
        const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
        let at = 0
        for (const part of parts) (all.set(part, at), (at += part.length))
        this.bytes = all
      },
      abort: async () => {
        parts = []
      },
    }
  }
}

export class MemoryDirectory {
  readonly kind = 'directory'
  readonly children = new Map<string, Node>()
  constructor(
    readonly name = '',
    readonly faults: DiskFaults = {},
  ) {}
  async getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<MemoryDirectory> {
    const found = this.children.get(name)
    if (found instanceof MemoryDirectory) return found
    if (found || !options?.create) throw new DOMException(`${name} not found`, found ? 'TypeMismatchError' : 'NotFoundError')
    const dir = new MemoryDirectory(name, this.faults)
    this.children.set(name, dir)
    return dir
  }
  async getFileHandle(name: string, options?: { create?: boolean }): Promise<MemoryFile> {
    const found = this.children.get(name)
    if (found instanceof MemoryFile) return found
    if (found || !options?.create) throw new DOMException(`${name} not found`, found ? 'TypeMismatchError' : 'NotFoundError')
    const file = new MemoryFile(name, this.faults)
    this.children.set(name, file)
    return file
  }
  async removeEntry(name: string, options?: { recursive?: boolean }): Promise<void> {
    const found = this.children.get(name)
    if (!found) throw new DOMException(`${name} not found`, 'NotFoundError')
    if (found instanceof MemoryDirectory && found.children.size > 0 && !options?.recursive) throw new DOMException('not empty', 'InvalidModificationError')
    this.children.delete(name)
  }
  async *values(): AsyncIterable<Node> {
    yield* [...this.children.values()]
  }
  /** The directory at `path` (test inspection). */
  at(...path: string[]): MemoryDirectory {
    let dir: MemoryDirectory = this
    for (const name of path) dir = dir.children.get(name) as MemoryDirectory
    return dir
  }
}

/** The directory as the DOM type the store expects. */
export const asHandle = (dir: MemoryDirectory) => dir as unknown as FileSystemDirectoryHandle
