/**
 * Page thread: the question a link whose text is not its target asks before it opens, showing
 * the whole target. The click on Open link is the person's gesture that lets the tab open.
 */
import type { Terminal } from '@xterm/xterm'
import { askQuestion } from '../dialogs/question-dialog'

/**
 * Asks whether to open `url`; resolves true for Open link, false for Cancel, Esc or a click
 * outside. `textDiffers`: the link's text is another address, which the dialog says.
 */
export function confirmLink(term: Terminal, url: string, textDiffers: boolean): Promise<boolean> {
  return askQuestion({
    title: 'Open this link?',
    className: 'fxterm-link-dialog',
    lines: [
      { text: textDiffers ? 'The link’s text shows a different address. It goes to:' : 'It goes to:' },
      { text: url, mono: true, className: 'fxterm-link-target' },
    ],
    yes: 'Open link',
    host: term.element?.parentElement ?? document.body,
    refocus: () => term.focus(),
  })
}
