// Hostile embeds and lying links (issue 31). A page of another origin frames embed.html and tries
// to reach the main page's settings, history and tab channel, and to run commands by postMessage;
// replies and command output carry links whose text is not their target. The bait server fails
// any test it hears from; every attempt below asserts what a person would notice.
import { devices, type BrowserContext, type Page } from '@playwright/test'
import { hostileTest as test, expect } from '../support/bait.ts'
import { openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'
import { databaseRecords, deliveries, frameOf, frameScreen, heard, recordDeliveries, startForeignOrigin, type ForeignOrigin } from '../support/foreign-origin.ts'
import { clickLink, clickText, pointAt } from '../support/terminal-links.ts'

let foreign: ForeignOrigin
test.beforeAll(async () => (foreign = await startForeignOrigin()))
test.afterAll(() => foreign.close())

const REFUSAL = 'Slash commands are not taken from the embedding page: type them in the terminal.'

/** The main page of the person's origin, listening on its own tab channel. */
async function openMainPage(page: Page): Promise<void> {
  await page.goto('/')
  await page.waitForFunction(() => Boolean((window as { fxterm?: unknown }).fxterm))
  await page.evaluate(() => {
    const w = window as unknown as { channelHeard: unknown[] }
    w.channelHeard = []
    new BroadcastChannel('fxterm:fxterm').onmessage = (event) => w.channelHeard.push(event.data)
  })
}
const channelHeard = (page: Page) => page.evaluate(() => (window as unknown as { channelHeard: unknown[] }).channelHeard)

/** The foreign page framing embed.html with `query`, once the embed is up. */
async function openForeignEmbed(context: BrowserContext, baseURL: string, query: string, host = foreign.origin) {
  const attacker = await context.newPage()
  await attacker.goto(`${host}/frame?src=${encodeURIComponent(`${baseURL}/embed.html?${query}`)}`)
  const frame = await frameOf(attacker, '/embed.html')
  await expect.poll(() => frameScreen(frame), { timeout: 20_000 }).toMatch(/Run \/help for commands/)
  await recordDeliveries(frame)
  return { attacker, frame }
}

/** What the main page has stored: its settings and prompt history. */
async function mainState(page: Page) {
  return { config: await databaseRecords(page, 'fxterm-config'), history: await databaseRecords(page, 'fxterm-history') }
}

test('a foreign page naming the main namespace cannot run any command by postMessage', async ({ page, context, baseURL, bait }) => {
  await openMainPage(page)
  const before = await mainState(page)
  const { attacker, frame } = await openForeignEmbed(context, baseURL!, `origins=${foreign.origin}&namespace=fxterm`)
  await expect.poll(() => heard(attacker)).toEqual([{ fxterm: 1, type: 'ready' }])
  const attempts = [
    { type: 'run', text: `/provider add evil ${bait.url}/v1` },
    { type: 'run', text: '/key openai' },
    { type: 'run', text: '/login' },
    { type: 'run', text: '/logout' },
    { type: 'run', text: '/model evil-model' },
    { type: 'run', text: '/mode auto' },
    { type: 'run', text: '/history clear' },
    { type: 'run', text: `   /provider add evil ${bait.url}/v1` },
    { type: 'run', text: `\n/provider add evil ${bait.url}/v1` },
    { type: 'type', text: `/provider add evil ${bait.url}/v1` },
  ]
  for (const [i, attempt] of attempts.entries()) {
    await attacker.evaluate((m) => (window as unknown as { send(m: unknown): void }).send(m), attempt)
    await expect.poll(() => heard(attacker), { message: `attempt ${i}: ${attempt.text}` }).toHaveLength(i + 2)
    expect((await heard(attacker))[i + 1]).toEqual({ fxterm: 1, type: 'refused', request: attempt.type, message: REFUSAL })
  }
  // None of them reached the composer or the transcript, and the main page kept everything.
  const screen = await frameScreen(frame)
  expect(screen).not.toContain('evil')
  expect(screen).not.toMatch(/❯ \/(key|login|logout|model|mode|history)/)
  expect(await mainState(page)).toEqual(before)
  expect(await channelHeard(page)).toEqual([])
})

test('a foreign embed keeps its settings and history in a scope of its own, never the main page\'s', async ({ page, context, baseURL }) => {
  await openMainPage(page)
  await submitPrompt(page, '/mode ask') // the person's own setting and history entry on the main page
  await expect.poll(async () => (await mainState(page)).config).toMatchObject({ '"mode"': 'ask' })
  const before = await mainState(page)
  const scope = `${encodeURIComponent(foreign.origin)}@fxterm`
  await page.evaluate((name) => {
    const w = window as unknown as { scopedHeard: unknown[] }
    w.scopedHeard = []
    new BroadcastChannel(`fxterm:${name}`).onmessage = (event) => w.scopedHeard.push(event.data)
  }, scope)
  const { frame } = await openForeignEmbed(context, baseURL!, `origins=${foreign.origin}&namespace=fxterm`)
  // Reading: the main page's prompt history is not what Up brings back in the foreign embed.
  await frame.locator('.xterm-helper-textarea').focus()
  await frame.locator('.xterm-helper-textarea').press('ArrowUp')
  await frame.locator('.xterm-helper-textarea').press('ArrowUp')
  expect(await frameScreen(frame)).not.toContain('❯ /mode ask')
  // Writing: a setting a person types in the foreign embed lands in its own scope and channel.
  await frame.locator('.xterm-helper-textarea').pressSequentially('/mode auto')
  await frame.locator('.xterm-helper-textarea').press('Enter')
  await expect.poll(() => page.evaluate(() => (window as unknown as { scopedHeard: unknown[] }).scopedHeard), { timeout: 30_000 }).toContainEqual({ type: 'config', id: 'mode', value: 'auto' })
  // Stored in the scoped database, or (when the browser's storage did not answer in time and the
  // embed keeps its settings in memory) nowhere, which the embed then says on screen.
  const storedInScope = async () => (await databaseRecords(page, `${scope}-config`))?.['"mode"'] === 'auto'
  await expect.poll(async () => (await storedInScope()) || (await frameScreen(frame)).includes('Storage is unavailable')).toBe(true)
  expect(await mainState(page)).toEqual(before)
  // The main tab hears its own setting (this listener is a channel of its own), nothing else.
  expect((await channelHeard(page)).filter((m) => JSON.stringify(m) !== '{"type":"config","id":"mode","value":"ask"}')).toEqual([])
})

test('fxterm\'s own example page, framed by a foreign page, does not lend an embed the main scope', async ({ page, context, baseURL }) => {
  await openMainPage(page)
  const before = await mainState(page)
  // foreign top page → fxterm's examples/iframe.html (this origin) → embed.html?namespace=fxterm
  const example = `${baseURL}/examples/iframe.html?embed=${encodeURIComponent(`${baseURL}/embed.html?namespace=fxterm`)}`
  const attacker = await context.newPage()
  await attacker.goto(`${foreign.origin}/frame?src=${encodeURIComponent(example)}`)
  const frame = await frameOf(attacker, '/embed.html')
  await expect.poll(() => frameScreen(frame), { timeout: 20_000 }).toMatch(/Run \/help for commands/)
  const scope = `${encodeURIComponent(foreign.origin)}@fxterm`
  await page.evaluate((name) => {
    const w = window as unknown as { scopedHeard: unknown[] }
    w.scopedHeard = []
    new BroadcastChannel(`fxterm:${name}`).onmessage = (event) => w.scopedHeard.push(event.data)
  }, scope)
  await frame.locator('.xterm-helper-textarea').pressSequentially('/mode auto')
  await frame.locator('.xterm-helper-textarea').press('Enter')
  await expect.poll(() => page.evaluate(() => (window as unknown as { scopedHeard: unknown[] }).scopedHeard), { timeout: 30_000 }).toContainEqual({ type: 'config', id: 'mode', value: 'auto' })
  expect(await mainState(page)).toEqual(before)
  expect(await channelHeard(page)).toEqual([])
})

test('a message from a window other than the parent is ignored, even from the embedding origin', async ({ context, baseURL }) => {
  const { attacker, frame } = await openForeignEmbed(context, baseURL!, `origins=${foreign.origin}&namespace=fxterm`)
  const sibling = await frameOf(attacker, '/sibling')
  await sibling.evaluate(() => window.parent.frames[0]!.postMessage({ fxterm: 1, type: 'run', text: 'sibling says hello' }, '*'))
  await sibling.evaluate(() => window.parent.frames[0]!.postMessage({ fxterm: 1, type: 'run', text: '/mode auto' }, '*'))
  await expect.poll(() => deliveries(frame)).toBe(2)
  // The parent's own message, sent after them, goes through: theirs would have been drawn first.
  await attacker.evaluate(() => (window as unknown as { send(m: unknown): void }).send({ type: 'run', text: 'parent says hello' }))
  await expect.poll(() => frameScreen(frame)).toContain('❯ parent says hello')
  expect(await frameScreen(frame)).not.toContain('sibling says hello')
  expect((await heard(attacker)).filter((m) => (m as { type: string }).type === 'refused')).toEqual([])
})

test('a window that opens embed.html as a popup cannot drive it', async ({ context, baseURL }) => {
  const attacker = await context.newPage()
  await attacker.goto(`${foreign.origin}/frame?src=about:blank`)
  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    attacker.evaluate((url) => void ((window as unknown as { popup: Window | null }).popup = window.open(url)), `${baseURL}/embed.html?origins=${encodeURIComponent(foreign.origin)}&namespace=fxterm`),
  ])
  await expect.poll(() => frameScreen(popup!.mainFrame()), { timeout: 20_000 }).toMatch(/Run \/help for commands/)
  await recordDeliveries(popup!.mainFrame())
  await attacker.evaluate(() => {
    const popup = (window as unknown as { popup: Window }).popup
    popup.postMessage({ fxterm: 1, type: 'type', text: 'typed by the opener' }, '*')
    popup.postMessage({ fxterm: 1, type: 'run', text: 'run by the opener' }, '*')
  })
  await expect.poll(() => deliveries(popup!.mainFrame())).toBe(2)
  // A prompt the person sends afterwards shows alone: the opener's text never reached the engine.
  await popup!.evaluate(() => (window as unknown as { fxterm: { runtime: { prompt(t: string): void } } }).fxterm.runtime.prompt('the person asks'))
  await expect.poll(() => frameScreen(popup!.mainFrame())).toContain('❯ the person asks')
  const screen = await frameScreen(popup!.mainFrame())
  expect(screen).not.toContain('typed by the opener')
  expect(screen).not.toContain('run by the opener')
})

test('an allow-list naming the main origin grants nothing to the page that actually embeds', async ({ page, context, baseURL }) => {
  await openMainPage(page)
  const before = await mainState(page)
  // The foreign page claims to be the fxterm origin itself (`origins=self` and the origin spelled out).
  const { attacker, frame } = await openForeignEmbed(context, baseURL!, `origins=self,${encodeURIComponent(baseURL!)}&namespace=fxterm`)
  await attacker.evaluate(() => (window as unknown as { send(m: unknown): void }).send({ type: 'run', text: 'spoofed prompt' }))
  await attacker.evaluate(() => (window as unknown as { send(m: unknown): void }).send({ type: 'type', text: 'spoofed draft' }))
  await expect.poll(() => deliveries(frame)).toBe(2)
  await frame.evaluate(() => (window as unknown as { fxterm: { runtime: { prompt(t: string): void } } }).fxterm.runtime.prompt('the person asks'))
  await expect.poll(() => frameScreen(frame)).toContain('❯ the person asks')
  expect(await frameScreen(frame)).not.toContain('spoofed')
  expect(await heard(attacker)).toEqual([]) // not even `ready`: the embedder is not on its list
  expect(await mainState(page)).toEqual(before)
})

test('an embedding page\'s type, run and reset answer no "Run this command?" question', async ({ context, baseURL, mock }) => {
  await mock.script({ chunks: commandReply('call_ask_1', 'echo approved-by-a-message') }, { chunks: textReply('Understood.') })
  const query = `origins=${foreign.origin}&provider=${encodeURIComponent(mock.baseUrl)}&model=mock-model`
  const { attacker, frame } = await openForeignEmbed(context, baseURL!, query)
  const keys = frame.locator('.xterm-helper-textarea')
  await keys.pressSequentially('/mode ask') // the person's own choice, typed in the frame
  await keys.press('Enter')
  await expect.poll(() => frameScreen(frame)).toContain('Mode: ask')
  const send = (m: Record<string, unknown>) => attacker.evaluate((message) => (window as unknown as { send(m: unknown): void }).send(message), m)
  await send({ type: 'run', text: 'say hello' })
  await expect.poll(() => frameScreen(frame)).toContain('Run this command?')
  // "1" would be "Yes" and Enter the highlighted "Yes", were they keys.
  await send({ type: 'type', text: '1' })
  await send({ type: 'run', text: '1' })
  await expect.poll(() => frameScreen(frame)).toMatch(/^❯ 1\s*$/m) // pasted into the draft, not an answer
  expect(await frameScreen(frame)).toContain('Run this command?')
  // Reset's Esc stops the turn: it ends without the command having run (its output would have
  // gone to the model in a second request before the turn could end).
  await send({ type: 'reset' })
  await expect.poll(() => heard(attacker)).toContainEqual(expect.objectContaining({ type: 'turn_end' }))
  expect((await heard(attacker)).filter((m) => (m as { type: string }).type === 'turn_end')).not.toContainEqual(expect.objectContaining({ stopReason: 'end_turn' }))
  expect(await mock.requests()).toHaveLength(1)
})

test('a cross-site page (127.0.0.1) gets nothing either, and its embed stores nothing in the main scope', async ({ page, context, baseURL }) => {
  await openMainPage(page)
  const before = await mainState(page)
  const host = baseURL!.replace('localhost', '127.0.0.1')
  const attacker = await context.newPage()
  await attacker.goto(`${host}/examples/iframe.html?embed=${encodeURIComponent(`${baseURL}/embed.html?origins=${host}&namespace=fxterm`)}`)
  const frame = await frameOf(attacker, '/embed.html')
  await expect.poll(() => frameScreen(frame), { timeout: 20_000 }).toMatch(/Run \/help for commands/)
  await attacker.evaluate(() => (window as unknown as { fxEmbed: { send(m: unknown): void } }).fxEmbed.send({ type: 'run', text: '/mode auto' }))
  await expect.poll(() => attacker.locator('#events li').allTextContents()).toContain(`{"fxterm":1,"type":"refused","request":"run","message":"${REFUSAL}"}`)
  expect(await mainState(page)).toEqual(before)
  expect(await channelHeard(page)).toEqual([])
})

test('a markdown link whose text is a URL but goes elsewhere asks first and shows its real target', async ({ page, mock, bait }) => {
  await mock.script({ chunks: textReply('Get a key at [https://platform.openai.com/api-keys](', `${bait.url}/steal-keys) now.`) })
  await openWithMock(page, mock)
  await submitPrompt(page, 'where do I get a key?')
  await waitForScreen(page, 'Get a key at https://platform.openai.com/api-keys now.')
  const popups: string[] = []
  page.context().on('page', (p) => popups.push(p.url()))
  await clickLink(page, 'https://platform.openai.com/api-keys')
  const dialog = page.getByRole('dialog', { name: 'Open this link?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('The link’s text shows a different address.')
  await expect(dialog.locator('.fxterm-link-target')).toHaveText(`${bait.url}/steal-keys`)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  expect(popups).toEqual([])
})

test('a link with words for text shows its target, and opens it only on Open link', async ({ page, mock }) => {
  const target = `${mock.url}/words-target`
  await mock.script({ chunks: textReply('Read [the setup guide](', `${target}) first.`) })
  await openWithMock(page, mock)
  await submitPrompt(page, 'how do I start?')
  await waitForScreen(page, 'Read the setup guide first.')
  await clickLink(page, 'the setup guide')
  const dialog = page.getByRole('dialog', { name: 'Open this link?' })
  await expect(dialog.locator('.fxterm-link-target')).toHaveText(target)
  await expect(dialog).not.toContainText('different address')
  // Esc is a no; the next click asks again, and Open link opens exactly the target.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await clickLink(page, 'the setup guide')
  const [popup] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('button', { name: 'Open link' }).click()])
  await expect.poll(() => popup.url()).toBe(target)
})

test('a plain URL opens directly, with no question', async ({ page, mock }) => {
  const target = `${mock.url}/plain-target`
  await mock.script({ chunks: textReply(`The docs are at ${target} and`, ` also [${target}](${target}).`) })
  await openWithMock(page, mock)
  await submitPrompt(page, 'where are the docs?')
  await waitForScreen(page, 'also ')
  const [popup] = await Promise.all([page.context().waitForEvent('page'), clickLink(page, target)])
  await expect.poll(() => popup.url()).toBe(target)
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('links to javascript:, data: and file: never open, from a reply or raw OSC 8 in it', async ({ page, mock, bait }) => {
  const osc = (url: string, text: string) => `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`
  await mock.script({
    chunks: textReply(
      '[js link](javascript:alert(document.domain)) · [data link](data:text/html,<script>alert(1)</script>) · [file link](file:///etc/passwd)\n\n',
      `${osc('javascript:alert(2)', 'raw js')} · ${osc(`${bait.url}/raw`, 'raw bait')} · done`,
    ),
  })
  await openWithMock(page, mock)
  await submitPrompt(page, 'show me links')
  await waitForScreen(page, 'done')
  const dialogs: string[] = []
  page.on('dialog', (d) => void dialogs.push(d.message()))
  const popups: string[] = []
  page.context().on('page', (p) => popups.push(p.url()))
  for (const text of ['js link', 'data link', 'file link', 'raw js', 'raw bait']) await clickText(page, text)
  // A link that does open afterwards shows the clicks above did nothing.
  await mock.script({ chunks: textReply(`then ${mock.url}/after`) })
  await submitPrompt(page, 'and now?')
  await waitForScreen(page, `then ${mock.url}/after`)
  const [popup] = await Promise.all([page.context().waitForEvent('page'), clickLink(page, `${mock.url}/after`)])
  await expect.poll(() => popup.url()).toBe(`${mock.url}/after`)
  expect(popups).toEqual([`${mock.url}/after`])
  expect(dialogs).toEqual([])
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('an OSC 8 link printed by a command shows as plain text and opens nothing', async ({ page, mock, bait }) => {
  await mock.script({ chunks: commandReply('call_osc_1', `printf '\\033]8;;${bait.url}/cmd\\033\\\\open the docs\\033]8;;\\033\\\\\\n'`) }, { chunks: textReply('Printed.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'print a link')
  await waitForScreen(page, 'Printed.', 45_000)
  await waitForScreen(page, 'open the docs')
  const popups: string[] = []
  page.context().on('page', (p) => popups.push(p.url()))
  await clickText(page, 'open the docs')
  await mock.script({ chunks: textReply(`then ${mock.url}/after-cmd`) })
  await submitPrompt(page, 'and now?')
  await waitForScreen(page, `then ${mock.url}/after-cmd`)
  await Promise.all([page.context().waitForEvent('page'), clickLink(page, `${mock.url}/after-cmd`)])
  expect(popups).toEqual([`${mock.url}/after-cmd`])
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test.describe('on a phone', () => {
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']!
  test.use(pixel)

  test('a tap on a lying link asks in a dialog that fits the screen and answers to a tap', async ({ page, mock, bait }) => {
    await mock.script({ chunks: textReply('Keys: [https://platform.openai.com/api-keys](', `${bait.url}/phone) ok`) })
    await openWithMock(page, mock)
    await submitPrompt(page, 'keys?')
    await waitForScreen(page, 'ok')
    const popups: string[] = []
    page.context().on('page', (p) => popups.push(p.url()))
    const { x, y } = await pointAt(page, 'https://platform')
    await page.touchscreen.tap(x, y)
    const dialog = page.getByRole('dialog', { name: 'Open this link?' })
    await expect(dialog.locator('.fxterm-link-target')).toHaveText(`${bait.url}/phone`)
    const box = (await dialog.boundingBox())!
    const viewport = page.viewportSize()!
    expect(box.x >= 0 && box.x + box.width <= viewport.width).toBe(true)
    expect((await dialog.getByRole('button', { name: 'Cancel' }).boundingBox())!.height).toBeGreaterThanOrEqual(44)
    await dialog.getByRole('button', { name: 'Cancel' }).tap()
    await expect(dialog).toHaveCount(0)
    expect(popups).toEqual([])
  })
})
