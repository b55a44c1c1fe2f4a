import { describe, expect, it } from 'vitest'
import { createKeyCapture } from './key-capture.ts'

describe('key capture', () => {
  it('collects typed and pasted characters, without the paste markers', () => {
    const capture = createKeyCapture()
    expect(capture.feed('vc')).toEqual({ done: null })
    expect(capture.feed('\x1b[200~k_secret-123\x1b[201~')).toEqual({ done: null })
    expect(capture.value()).toBe('vck_secret-123')
    expect(capture.length).toBe(14)
    expect(capture.feed('\r')).toEqual({ done: 'save' })
  })

  it('Backspace deletes, Ctrl+U clears, arrows are ignored', () => {
    const capture = createKeyCapture()
    capture.feed('abc\x7f\x1b[D')
    expect(capture.value()).toBe('ab')
    capture.feed('\x15xy')
    expect(capture.value()).toBe('xy')
  })

  it('a lone Esc or Ctrl+C cancels; Enter on nothing does not save', () => {
    expect(createKeyCapture().feed('abc\x1b')).toEqual({ done: 'cancel' })
    expect(createKeyCapture().feed('\x03')).toEqual({ done: 'cancel' })
    expect(createKeyCapture().feed('\r')).toEqual({ done: null })
  })

  it('a paste that ends in a newline saves what came before it', () => {
    const capture = createKeyCapture()
    expect(capture.feed('\x1b[200~sk-live-abc\n\x1b[201~')).toEqual({ done: 'save' })
    expect(capture.value()).toBe('sk-live-abc')
  })
})
