/** An error with a stable code (see the README's error table). */
export class FxError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'FxError'
  }
}
