/**
 * <fx-terminal>: fxterm as an element for any page. Everything lives in its shadow root (xterm's
 * stylesheet included), so the host page's styles are never touched and never leak in. It fits
 * its box and follows it (only while visible: a closed docs tab or accordion keeps its size).
 *
 *   <fx-terminal demo="tape.json" files="seed.zip" namespace="docs" theme="auto" height="420"></fx-terminal>
 *
 * Attributes: `provider` (an OpenAI-compatible base URL; default the offline demo), `model`,
 * `demo` (tape URL), `files` (workspace seed: JSON manifest or zip), `namespace` (keeps its
 * storage apart from other embeds on the origin), `theme` (dark | light | auto), `height` (CSS
 * length or pixels), `autofocus`, `readonly`. The first six are read when it connects; `theme`
 * and `height` also follow later changes.
 */
import xtermCss from '@xterm/xterm/css/xterm.css?inline'
import { mountFxTerminal, type MountedTerminal } from './mount-terminal.ts'
import { createBashWorkspace } from '../workspace/create-bash-workspace.ts'
import { openDeferredStores } from '../start-up/page-deferred-stores.ts'
import { prefetchLatestSession } from '../start-up/page-prefetch-latest-session.ts'
import { themeMode } from '../terminal/themes.ts'
import type { FxTerminal } from '../terminal/create-fx-terminal.ts'
import type { Terminal } from '@xterm/xterm'

const ELEMENT_CSS = `
:host { display: block; position: relative; height: 400px; min-height: 120px; contain: content; }
:host([hidden]) { display: none; }
.box { position: absolute; inset: 0; padding: 6px 0 0 8px; box-sizing: border-box; border-radius: inherit; }
`

/** The stylesheets for a shadow root: constructable ones when the browser has them (no inline style needed under a CSP). */
function adoptStyles(root: ShadowRoot, css: string[]): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    root.adoptedStyleSheets = css.map((text) => {
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(text)
      return sheet
    })
    return
  }
  for (const text of css) {
    const style = document.createElement('style')
    style.textContent = text
    root.append(style)
  }
}

/** `420` → `420px`; any other CSS length as it is. */
function cssLength(value: string): string {
  return /^\d+(\.\d+)?$/.test(value.trim()) ? `${value.trim()}px` : value
}

export class FxTerminalElement extends HTMLElement {
  static observedAttributes = ['theme', 'height']
  private mounted: MountedTerminal | null = null
  private box: HTMLDivElement | null = null

  /** The xterm.js terminal inside (null until the element is in a document). */
  get terminal(): Terminal | null {
    return this.mounted?.term ?? null
  }

  /** The running fxterm (null until the element is in a document). */
  get runtime(): FxTerminal | null {
    return this.mounted?.runtime ?? null
  }

  connectedCallback(): void {
    if (this.mounted) return
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' })
    adoptStyles(root, [xtermCss, ELEMENT_CSS])
    const box = document.createElement('div')
    box.className = 'box'
    box.setAttribute('aria-label', 'fxterm terminal')
    root.append(box)
    this.box = box
    this.applyHeight()

    const attr = (name: string) => this.getAttribute(name) ?? undefined
    const namespace = attr('namespace') ?? 'fxterm'
    const { opening, stores } = openDeferredStores({ namespace, resumesNewest: true })
    const provider = attr('provider')
    const model = attr('model')
    const files = attr('files')
    const demo = attr('demo')
    this.mounted = mountFxTerminal(box, {
      theme: themeMode(attr('theme')),
      onTheme: (_name, theme) => (box.style.background = theme.background ?? ''),
      readonly: this.hasAttribute('readonly'),
      ...(demo ? { demoTapeUrl: new URL(demo, document.baseURI).href } : {}),
      // Without `files`, a demo tape seeds the workspace with the files it was recorded on.
      // Its files are kept with each session, like the conversation.
      workspace: createBashWorkspace({ persist: { namespace }, ...(files || demo ? { filesUrl: new URL((files ?? demo)!, document.baseURI).href } : {}) }),
      namespace,
      args: ['--resume', 'last'],
      configStore: stores.config,
      promptHistoryStore: stores.history,
      sessionStore: prefetchLatestSession(stores.sessions),
      ...(provider || model ? { provider: { ...(provider ? { baseUrl: provider } : {}), ...(model ? { model } : {}) } } : {}),
    })
    void opening.then((opened) => opened.notice && this.mounted?.runtime.notice(opened.notice, 'warning'))
    if (this.hasAttribute('autofocus')) this.mounted.term.focus()
    this.dispatchEvent(new CustomEvent('fx-ready', { bubbles: true, composed: true }))
  }

  disconnectedCallback(): void {
    this.mounted?.dispose()
    this.mounted = null
    this.box?.remove()
    this.box = null
  }

  attributeChangedCallback(name: string): void {
    if (!this.mounted) return
    if (name === 'height') this.applyHeight()
    else if (name === 'theme') this.mounted.setTheme(themeMode(this.getAttribute('theme')))
  }

  private applyHeight(): void {
    const height = this.getAttribute('height')
    if (height) this.style.height = cssLength(height)
  }
}

/** Registers <fx-terminal> (once; a second call is a no-op). */
export function defineFxTerminal(name = 'fx-terminal'): void {
  if (!customElements.get(name)) customElements.define(name, FxTerminalElement)
}
