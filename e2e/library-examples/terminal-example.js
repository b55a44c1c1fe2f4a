// The reference README's terminal example ("The fx terminal in a browser"), as written: only the
// import name is fxterm. It leaves `term` and `shortLivedKey` to the reader: here an xterm.js
// Terminal on the page and the key from the page's address. The spec routes AI Gateway's host to
// the mock model server.
import "@xterm/xterm/css/xterm.css";
import { Terminal } from "@xterm/xterm";

const term = new Terminal({ cols: 100, rows: 30 });
term.open(document.getElementById("terminal"));
const shortLivedKey = new URL(location.href).searchParams.get("key");
window.fxterm = { term };

// ---- the reference's example, from here on ----
import { createFxTerminal, xtermAdapter } from "fxterm/browser";

const terminal = await createFxTerminal({
terminal: xtermAdapter(term), // an xterm.js Terminal
env: { AI_GATEWAY_API_KEY: shortLivedKey },
});

await terminal.interactive;
