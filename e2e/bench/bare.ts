// The bench baseline: the least an xterm.js page can do (open, fit, echo keys), with the same
// CSS import as the app, so the ratio fxterm/bare measures only what fxterm adds.
import { Terminal } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import '@xterm/xterm/css/xterm.css'

// The same marks as fxterm's page (src/shared/start-up-timeline.ts), for the bench's timeline.
performance.mark('fxterm:page-entry')
const host = document.getElementById('terminal')
if (!host) throw new Error('bare.html has no #terminal element')

performance.mark('fxterm:open-terminal:start')
const term = new Terminal()
const fit = new FitAddon()
term.loadAddon(fit)
term.open(host)
fit.fit()
performance.mark('fxterm:open-terminal:end')
window.addEventListener('resize', () => fit.fit())
term.onData((data) => term.write(data))
term.focus()

// Same hook as the app exposes, so the bench reads both screens the same way.
;(window as Window & { fxterm?: { term: Terminal } }).fxterm = { term }
