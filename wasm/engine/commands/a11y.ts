// /a11y: screen-reader mode. The host switches xterm's screen-reader mode (action `a11y`), and the
// engine announces each finished reply and each command's result once, as an `announce` event
// the host puts in a polite live region: never the stream character by character.

import { stringBytes } from '../util/byte-buf'
import { GRAY } from '../screen/ansi'
import { Settings } from './settings'

/** `/a11y [on|off]`: sets or toggles the mode, and remembers it (configStore id `a11y`). */
export function a11yCommand(s: Settings, arg: string): void {
  const a = arg.trim()
  if (a.length > 0 && a != 'on' && a != 'off') {
    s.transcript.error(stringBytes('Usage: /a11y [on|off]'))
    return
  }
  const on = a == 'on' ? true : a == 'off' ? false : !s.loop.announce
  setA11y(s, on)
  s.fx.config('a11y', on ? 'on' : 'off')
  s.transcript.notice(
    on ? 'Screen reader mode is on: each reply and command result is read out once it is finished. /a11y off turns it off.' : 'Screen reader mode is off.',
    GRAY,
  )
}

/** Turns the mode on or off here and at the host (also when a stored setting is restored). */
export function setA11y(s: Settings, on: bool): void {
  s.loop.announce = on
  s.fx.action(on ? 'a11y_on' : 'a11y_off')
}
