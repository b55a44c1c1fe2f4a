import { describe, expect, test } from 'vitest'
import { followVisualViewport } from './visual-viewport.ts'

/** A visual viewport a test moves by hand: what a phone's keyboard, a scroll or a pinch does. */
function fakeViewport(height: number) {
  const listeners = new Map<string, Set<() => void>>()
  const viewport = {
    height,
    offsetTop: 0,
    scale: 1,
    addEventListener: (type: string, listener: () => void) => void (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(listener),
    removeEventListener: (type: string, listener: () => void) => void listeners.get(type)?.delete(listener),
    fire: (type: 'resize' | 'scroll') => listeners.get(type)?.forEach((listener) => listener()),
    listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  }
  return Object.assign(viewport, { asVisualViewport: () => viewport as unknown as VisualViewport })
}

/** The inline style a full-window element gets, as a plain record. */
function fakeElement() {
  const style: Record<string, string> = {}
  const element = { style: Object.assign(style, { removeProperty: (name: string) => void delete style[name] }) }
  const box = () => Object.fromEntries(Object.entries(style).filter(([, value]) => typeof value === 'string'))
  return { element: element as unknown as HTMLElement, box }
}

describe('the page follows the visual viewport', () => {
  test('at once, when the keyboard opens, and when the visual viewport scrolls', () => {
    const viewport = fakeViewport(839)
    const { element, box } = fakeElement()
    followVisualViewport(element, viewport.asVisualViewport())
    expect(box()).toEqual({ top: '0px', bottom: 'auto', height: '839px' })
    viewport.height = 509 // the keyboard took 330 px
    viewport.fire('resize')
    expect(box()).toEqual({ top: '0px', bottom: 'auto', height: '509px' })
    viewport.offsetTop = 40 // iOS scrolls the page up under the keyboard
    viewport.fire('scroll')
    expect(box()).toEqual({ top: '40px', bottom: 'auto', height: '509px' })
  })

  test('a pinch zoom gives the page back its whole window', () => {
    const viewport = fakeViewport(509)
    const { element, box } = fakeElement()
    followVisualViewport(element, viewport.asVisualViewport())
    viewport.scale = 2
    viewport.fire('resize')
    expect(box()).toEqual({})
  })

  test('stopping removes its listeners; with no visual viewport it does nothing', () => {
    const viewport = fakeViewport(839)
    const { element, box } = fakeElement()
    const stop = followVisualViewport(element, viewport.asVisualViewport())
    stop()
    expect(viewport.listening()).toBe(0)
    viewport.height = 400
    viewport.fire('resize')
    expect(box().height).toBe('839px')
    const other = fakeElement()
    followVisualViewport(other.element, null)()
    expect(other.box()).toEqual({})
  })
})
