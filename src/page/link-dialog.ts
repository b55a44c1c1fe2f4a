/**
 * The question a link whose text is not its target asks before it opens: a small modal dialog
 * showing the whole target, with Cancel (focused first, and what Esc does) and Open link. A
 * native <dialog> sits in the top layer, so neither a shadow root nor an ancestor's overflow or
 * containment can hide it, and it traps focus and takes Esc by itself; the buttons are large
 * enough for a finger. The click on Open link is the person's gesture that lets the tab open.
 */
import type { Terminal } from '@xterm/xterm'

const BUTTON = { font: 'inherit', minHeight: '44px', minWidth: '96px', padding: '0 16px', borderRadius: '6px', cursor: 'pointer' }

function button(label: string, primary: boolean): HTMLButtonElement {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  Object.assign(b.style, BUTTON, primary ? { background: '#2f6feb', color: '#fff', border: '1px solid #2f6feb' } : { background: 'transparent', color: 'inherit', border: '1px solid #6b7280' })
  return b
}

/**
 * Asks whether to open `url`; resolves true for Open link, false for Cancel, Esc or a click
 * outside. `textDiffers`: the link's text is another address, which the dialog says.
 */
export function confirmLink(term: Terminal, url: string, textDiffers: boolean): Promise<boolean> {
  const host = term.element?.parentElement ?? document.body
  const dialog = document.createElement('dialog')
  dialog.className = 'fxterm-link-dialog'
  dialog.setAttribute('aria-label', 'Open this link?')
  Object.assign(dialog.style, {
    maxWidth: 'min(34rem, calc(100vw - 2rem))',
    padding: '16px',
    border: '1px solid #6b7280',
    borderRadius: '8px',
    background: '#161a22',
    color: '#e6e6e6',
    font: '14px/1.4 system-ui, sans-serif',
  })
  const title = document.createElement('h2')
  title.textContent = 'Open this link?'
  Object.assign(title.style, { font: 'inherit', fontWeight: '600', margin: '0 0 8px' })
  const why = document.createElement('p')
  why.textContent = textDiffers ? 'The link’s text shows a different address. It goes to:' : 'It goes to:'
  Object.assign(why.style, { margin: '0 0 8px' })
  const target = document.createElement('p')
  target.className = 'fxterm-link-target'
  target.textContent = url
  Object.assign(target.style, { margin: '0 0 16px', fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all', userSelect: 'all' })
  const cancel = button('Cancel', false)
  const open = button('Open link', true)
  const row = document.createElement('div')
  Object.assign(row.style, { display: 'flex', gap: '8px', justifyContent: 'flex-end', flexWrap: 'wrap' })
  row.append(cancel, open)
  dialog.append(title, why, target, row)
  host.append(dialog)

  return new Promise((resolve) => {
    let answered = false
    const finish = (yes: boolean) => {
      if (answered) return
      answered = true
      if (dialog.open) dialog.close()
      dialog.remove()
      term.focus()
      resolve(yes)
    }
    open.addEventListener('click', () => finish(true))
    cancel.addEventListener('click', () => finish(false))
    dialog.addEventListener('close', () => finish(false)) // Esc
    // A click on the backdrop (outside the dialog's box) is a no.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) {
        const box = dialog.getBoundingClientRect()
        const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom
        if (!inside) finish(false)
      }
    })
    if (typeof dialog.showModal === 'function') dialog.showModal()
    else dialog.setAttribute('open', '')
    cancel.focus()
  })
}
