/**
 * Keeps a full-window element inside the visual viewport. When a phone's on-screen keyboard
 * opens, most browsers shrink only the visual viewport (Chrome on Android by default, Safari on
 * iOS always): an element fixed to the layout viewport keeps its height, and its bottom rows (the
 * composer, the status line, the key row) end up behind the keyboard.
 */

type Viewport = Pick<VisualViewport, 'height' | 'offsetTop' | 'scale' | 'addEventListener' | 'removeEventListener'>

/**
 * Sizes `element` (a `position: fixed` box over the whole window) to the visual viewport's
 * height and top while it is not zoomed; a pinch zoom (scale above 1) gives back the whole
 * window, since the person is looking at a part of it on purpose. Returns a function that stops.
 */
export function followVisualViewport(element: HTMLElement, viewport: Viewport | null = globalThis.visualViewport ?? null): () => void {
  if (viewport === null) return () => {}
  const apply = (): void => {
    if (viewport.scale > 1.01) {
      element.style.removeProperty('height')
      element.style.removeProperty('top')
      element.style.removeProperty('bottom')
      return
    }
    element.style.top = `${viewport.offsetTop}px`
    element.style.bottom = 'auto'
    element.style.height = `${viewport.height}px`
  }
  viewport.addEventListener('resize', apply)
  viewport.addEventListener('scroll', apply)
  apply()
  return () => {
    viewport.removeEventListener('resize', apply)
    viewport.removeEventListener('scroll', apply)
  }
}
