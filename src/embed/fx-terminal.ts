/**
 * The one-script-tag embed: `<script type="module" src=".../fx-terminal.js"></script>` registers
 * <fx-terminal>. Bundlers import `defineFxTerminal` from the library instead.
 */
import { defineFxTerminal } from './fx-terminal-element.ts'

defineFxTerminal()
