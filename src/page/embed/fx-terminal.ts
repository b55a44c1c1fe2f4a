/**
 * The one-script-tag embed: `<script type="module" src=".../fx-terminal.js"></script>` registers
 * <fx-terminal>. A bundler's app may import `defineFxTerminal` from here to register the element
 * under another name as well.
 */
import { defineFxTerminal } from './fx-terminal-element.ts'

export { defineFxTerminal, FxTerminalElement } from './fx-terminal-element.ts'

defineFxTerminal()
