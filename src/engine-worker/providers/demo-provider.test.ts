import { readFileSync } from 'node:fs'
import { Bash } from 'just-bash'
import { describe, expect, test } from 'vitest'
import { DEMO_WORKSPACE_FILES } from '../../page/app/demo-workspace-files.ts'
import { ErrorCode } from '../../shared/errors.ts'
import type { ChatMessage, ModelEvent } from '../../shared/protocol/model-events.ts'
import { createDemoProvider, splitIntoPieces } from './demo-provider.ts'
import { type DemoTape, parseDemoTape } from './demo-tape.ts'
import { collect, fakeFetch } from '../../../test/support/providers.ts'

const TOUR_JSON = readFileSync(new URL('../../../public/demos/tour.json', import.meta.url), 'utf8')
const TOUR = parseDemoTape(JSON.parse(TOUR_JSON))

/** The parts of a reply a person sees: the whole text, the tool calls, and how it ended. */
function summarize(events: ModelEvent[]) {
  const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : [])).join('')
  const toolCalls = events.flatMap((event) => {
    if (event.type !== 'tool_call_start') return []
    const args = events.flatMap((e) => (e.type === 'tool_call_delta' && e.index === event.index ? [e.delta] : [])).join('')
    return [{ id: event.id, name: event.name, arguments: args }]
  })
  const last = events.at(-1)
  return { text, toolCalls, end: last?.type === 'finish' ? last.reason : last }
}

function request(messages: ChatMessage[]) {
  return { model: 'demo', messages, tools: [] }
}

const tinyTape: DemoTape = {
  version: 1,
  turns: [
    {
      match: ['list'],
      responses: [
        { text: 'Listing the files now.', toolCalls: [{ name: 'run_command', arguments: { command: 'ls' } }] },
        { text: 'Two files.' },
      ],
    },
  ],
  fallback: 'offline demo',
}

describe('the demo provider', () => {
  test('replays a matched turn step by step: text pieces, then the tool call, usage and finish', async () => {
    const provider = createDemoProvider({ tape: tinyTape, delayMs: 0 })
    expect(await collect(provider, request([{ role: 'user', content: 'Please LIST things' }]))).toEqual([
      { type: 'text_delta', delta: 'Listing the files ' },
      { type: 'text_delta', delta: 'now.' },
      { type: 'tool_call_start', index: 0, id: 'demo_call_1', name: 'run_command' },
      { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' },
      { type: 'tool_call_end', index: 0 },
      { type: 'usage', inputTokens: 5, outputTokens: 10 },
      { type: 'finish', reason: 'tool_calls' },
    ])
  })

  test('the built-in tour answers "what is in this project" over three requests', async () => {
    const provider = createDemoProvider({ tape: TOUR, delayMs: 0 })
    const explore = TOUR.turns.find((turn) => turn.match.includes('explore'))
    const messages: ChatMessage[] = [{ role: 'user', content: 'What’s in this project?' }]
    const replies = []
    for (let step = 0; step < 3; step++) {
      const reply = summarize(await collect(provider, request(messages)))
      replies.push(reply)
      messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.toolCalls })
      for (const call of reply.toolCalls) messages.push({ role: 'tool', toolCallId: call.id, content: 'output' })
    }
    expect(replies).toEqual([
      {
        text: explore?.responses[0]?.text,
        toolCalls: [{ id: 'demo_call_1', name: 'run_command', arguments: '{"command":"ls -la"}' }],
        end: 'tool_calls',
      },
      {
        text: explore?.responses[1]?.text,
        toolCalls: [{ id: 'demo_call_2', name: 'run_command', arguments: '{"command":"cat README.md src/greet.js && wc -l data/cities.csv"}' }],
        end: 'tool_calls',
      },
      { text: explore?.responses[2]?.text, toolCalls: [], end: 'stop' },
    ])
  })

  test('past the end of a turn the model finishes with no text', async () => {
    const provider = createDemoProvider({ tape: tinyTape, delayMs: 0 })
    const messages: ChatMessage[] = [
      { role: 'user', content: 'list' },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]
    expect(await collect(provider, request(messages))).toEqual([{ type: 'finish', reason: 'stop' }])
  })

  test('an unmatched prompt gets the fallback, which says how to connect a model and what to ask', async () => {
    const provider = createDemoProvider({ tape: TOUR, delayMs: 0 })
    const reply = summarize(await collect(provider, request([{ role: 'user', content: 'refactor the payment service' }])))
    expect(reply).toEqual({ text: `${TOUR.fallback}\n\nTry: “count the cities per country”`, toolCalls: [], end: 'stop' })
    for (const needed of ['offline demo', 'AI_GATEWAY_API_KEY', '?baseUrl=http://localhost:11434/v1&model=llama3.2', "what's in this project?"]) {
      expect(reply.text).toContain(needed)
    }
  })

  test('an abort between text pieces stops the reply with nothing more emitted', async () => {
    const provider = createDemoProvider({ tape: tinyTape, delayMs: 10 })
    const controller = new AbortController()
    const events = await collect(provider, request([{ role: 'user', content: 'list' }]), {
      signal: controller.signal,
      onEvent: () => controller.abort(),
    })
    expect(events).toEqual([{ type: 'text_delta', delta: 'Listing the files ' }])
  })

  test('a prompt the tour did not record says which recording it plays instead of passing it off as the answer', async () => {
    const provider = createDemoProvider({ tape: TOUR, delayMs: 0 })
    const reply = summarize(await collect(provider, request([{ role: 'user', content: 'please write fizzbuzz.py and run it' }])))
    expect(reply.text.split('\n')[0]).toBe('*Offline demo: it only has recorded answers and no recording for this prompt, so this replays the closest recorded one, “add a test for greet.js”.*')
  })

  test('the tape is fetched once from its URL, and a failed load is reported as an error', async () => {
    const ok = fakeFetch(() => Response.json(tinyTape))
    const provider = createDemoProvider({ tape: 'https://fxterm.example/demos/tour.json', fetch: ok.fetch, delayMs: 0 })
    await collect(provider, request([{ role: 'user', content: 'x' }]))
    await collect(provider, request([{ role: 'user', content: 'y' }]))
    expect(ok.calls.map((call) => call.url)).toEqual(['https://fxterm.example/demos/tour.json'])

    const missing = fakeFetch(() => new Response('not found', { status: 404 }))
    const broken = createDemoProvider({ fetch: missing.fetch, delayMs: 0 })
    expect(await collect(broken)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_DEMO_TAPE_UNAVAILABLE,
        message: 'the offline demo could not load ./demos/tour.json (HTTP 404); reload the page, or connect a model by setting AI_GATEWAY_API_KEY',
        retryable: true,
      },
    ])
  })

  test('its catalog is its one model, named demo, listed without any request', async () => {
    const { fetch, calls } = fakeFetch(() => Response.json(tinyTape))
    const provider = createDemoProvider({ tape: 'https://fxterm.example/demos/tour.json', fetch })
    expect({ name: provider.name, models: await provider.listModels?.(new AbortController().signal) }).toEqual({
      name: 'demo',
      models: [{ id: 'demo', supportsToolUse: true, supportsImages: false, efforts: [], fast: false }],
    })
    expect(calls).toEqual([])
  })

  test('text is split into pieces of a few words that join back exactly', () => {
    const text = '  Hello there, this is\na demo.  '
    expect(splitIntoPieces(text)).toEqual(['  Hello there, this ', 'is\na demo.  '])
  })
})

describe('the built-in tape', () => {
  test('public/demos/tour.json is a valid version 1 tape, with nothing dropped by validation', () => {
    expect(TOUR).toEqual(JSON.parse(TOUR_JSON))
    expect(TOUR.turns.length).toBeGreaterThanOrEqual(3)
  })

  test('a tape with a bad field is refused with the field named', () => {
    expect(() => parseDemoTape({ version: 1, turns: [{ match: ['Tour'], responses: [{ text: 'x' }] }], fallback: 'f' })).toThrow(
      'demo tape: turns[0].match must be a non-empty array of lowercase keywords',
    )
  })

  test('every command on the tape succeeds in just-bash over the demo workspace, in order', async () => {
    const files = Object.fromEntries(Object.entries(DEMO_WORKSPACE_FILES).map(([path, content]) => [`/workspace/${path}`, content]))
    const bash = new Bash({ files, cwd: '/workspace' })
    const all = TOUR.turns.flatMap((turn) => turn.responses.flatMap((r) => (r.toolCalls ?? []).map((call) => call.arguments.command)))
    // Running the tests needs the page's sandbox: sandbox-node.spec.ts plays that turn in a browser.
    const runsCode = (command: string) => /^(npm|node|python3?) /.test(command)
    expect(all.filter(runsCode)).toEqual(['npm test'])
    const commands = all.filter((command) => !runsCode(command))
    expect(commands.length).toBeGreaterThanOrEqual(6)
    const failures: { command: string; exitCode: number; stderr: string }[] = []
    for (const command of commands) {
      // rawScript keeps heredoc indentation, as a real shell would.
      const result = await bash.exec(command, { rawScript: true })
      if (result.exitCode !== 0) failures.push({ command, exitCode: result.exitCode, stderr: result.stderr })
    }
    expect(failures).toEqual([])
    expect(await bash.readFile('/workspace/src/greet.test.js')).toContain("  assert.equal(formatPopulation(950000), '950,000')\n")
  })

  test('the demo workspace is the small seed project the tape talks about', () => {
    expect(Object.keys(DEMO_WORKSPACE_FILES).sort()).toEqual(['README.md', 'data/cities.csv', 'package.json', 'src/greet.js', 'src/index.js'])
    expect(new TextEncoder().encode(Object.values(DEMO_WORKSPACE_FILES).join('')).length).toBeLessThan(4096)
    expect(DEMO_WORKSPACE_FILES['data/cities.csv']?.split('\n')[0]).toEqual('name,country,population')
  })
})
