/**
 * Page thread: the small modal question fxterm asks outside the terminal (a link whose text
 * lies, a push about to leave the tab). A native <dialog> sits in the top layer, so neither a
 * shadow root nor an ancestor's overflow can hide it; it traps focus and takes Esc by itself.
 * The safe answer (Cancel) is focused first and is what Esc and a click outside mean; buttons
 * are large enough for a finger.
 */

const BUTTON = { font: 'inherit', minHeight: '44px', minWidth: '96px', padding: '0 16px', borderRadius: '6px', cursor: 'pointer' }

export type Question = {
  /** The dialog's heading and accessible name. */
  title: string
  /** Lines below the heading; `mono` ones show an address or ids, breakable anywhere. */
  lines: Array<{ text: string; mono?: boolean; className?: string }>
  /** The yes button's label ("Open link", "Push"). */
  yes: string
  className: string
  /** Where the dialog goes (default document.body); focus returns to `refocus` after. */
  host?: HTMLElement
  refocus?: () => void
  /** Closes the dialog as a no (the command that asked was stopped). */
  signal?: AbortSignal
}

function button(label: string, primary: boolean): HTMLButtonElement {
  const b = document.createElement('button')
  b.type = 'button'
  b.textContent = label
  Object.assign(b.style, BUTTON, primary ? { background: '#2f6feb', color: '#fff', border: '1px solid #2f6feb' } : { background: 'transparent', color: 'inherit', border: '1px solid #6b7280' })
  return b
}

/** Resolves true for the yes button only; Cancel, Esc and a click outside are no. */
export function askQuestion(question: Question): Promise<boolean> {
  const dialog = document.createElement('dialog')
  dialog.className = question.className
  dialog.setAttribute('aria-label', question.title)
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
  title.textContent = question.title
  Object.assign(title.style, { font: 'inherit', fontWeight: '600', margin: '0 0 8px' })
  dialog.append(title)
  for (const line of question.lines) {
    const p = document.createElement('p')
    p.textContent = line.text
    if (line.className) p.className = line.className
    Object.assign(p.style, { margin: '0 0 8px' }, line.mono ? { fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all', userSelect: 'all' } : {})
    dialog.append(p)
  }
  const cancel = button('Cancel', false)
  const yes = button(question.yes, true)
  const row = document.createElement('div')
  Object.assign(row.style, { display: 'flex', gap: '8px', justifyContent: 'flex-end', flexWrap: 'wrap', marginTop: '8px' })
  row.append(cancel, yes)
  dialog.append(row)
  ;(question.host ?? document.body).append(dialog)

  return new Promise((resolve) => {
    let answered = false
    const finish = (answer: boolean) => {
      if (answered) return
      answered = true
      if (dialog.open) dialog.close()
      dialog.remove()
      question.refocus?.()
      resolve(answer)
    }
    yes.addEventListener('click', () => finish(true))
    cancel.addEventListener('click', () => finish(false))
    dialog.addEventListener('close', () => finish(false)) // Esc
    // Ctrl+C stops a command in the terminal; with the question in front, it answers no.
    dialog.addEventListener('keydown', (event) => {
      if (event.ctrlKey && !event.metaKey && event.key.toLowerCase() === 'c' && !document.getSelection()?.toString()) finish(false)
    })
    if (question.signal?.aborted) queueMicrotask(() => finish(false))
    question.signal?.addEventListener('abort', () => finish(false), { once: true })
    dialog.addEventListener('click', (event) => {
      if (event.target !== dialog) return
      const box = dialog.getBoundingClientRect()
      const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom
      if (!inside) finish(false)
    })
    if (typeof dialog.showModal === 'function') dialog.showModal()
    else dialog.setAttribute('open', '')
    cancel.focus()
  })
}
