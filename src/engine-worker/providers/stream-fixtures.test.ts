/**
 * Golden-file tests for the stream parser: every `fixtures/<name>.sse` is a raw response body,
 * and `fixtures/<name>.expected.json` the normalized events it must produce. Each body is fed
 * through the whole adapter (fetch → byte reader → UTF-8 decoder → SSE parser → decoder) in
 * 1-byte chunks and cut once at every byte boundary, including inside multi-byte characters.
 *
 * To regenerate the expected files after an intended change, run
 * `FX_UPDATE_FIXTURES=1 npx vitest run src/engine-worker/providers/stream-fixtures.test.ts` and review the diff.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider } from './openai-compatible.ts'
import { byteSplits, collect, fakeFetch, sseResponse, joinTextDeltas } from '../../../test/support/providers.ts'

const FIXTURES = new URL('./fixtures/', import.meta.url)
/** The key the adapter sends; fixtures that echo it check that it is masked. */
const KEY = 'sk-fixture-0123456789'
const UPDATE = process.env.FX_UPDATE_FIXTURES === '1'

const names = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.sse'))
  .map((file) => file.slice(0, -'.sse'.length))
  .sort()

async function eventsFor(chunks: Uint8Array[]): Promise<ModelEvent[]> {
  const { fetch } = fakeFetch(() => sseResponse(chunks))
  const provider = createOpenAiCompatibleProvider({ baseUrl: 'https://fixture.example/v1', apiKey: KEY, model: 'm', label: 'fixture.example', fetch })
  return collect(provider)
}

describe('stream fixtures', () => {
  test('every fixture has its expected events, and no expected file is orphaned', () => {
    const expected = readdirSync(FIXTURES).filter((file) => file.endsWith('.expected.json'))
    expect(expected.map((file) => file.slice(0, -'.expected.json'.length)).sort()).toEqual(names)
    expect(names.length).toBeGreaterThanOrEqual(25)
  })

  for (const name of names) {
    test(`${name}: the same events in 1-byte chunks and at every cut`, async () => {
      const bytes = readFileSync(new URL(`${name}.sse`, FIXTURES))
      const text = new TextDecoder().decode(bytes)
      const expectedUrl = new URL(`${name}.expected.json`, FIXTURES)
      if (UPDATE) writeFileSync(expectedUrl, `${JSON.stringify(await eventsFor([bytes]), null, 2)}\n`)
      const expected = JSON.parse(readFileSync(expectedUrl, 'utf8')) as ModelEvent[]
      // The contract: exactly one terminal event, and it comes last.
      expect(expected.filter((event) => event.type === 'finish' || event.type === 'error').length).toEqual(1)
      expect(['finish', 'error']).toContain(expected.at(-1)?.type)
      expect(JSON.stringify(expected)).not.toContain(KEY)

      expect(joinTextDeltas(await eventsFor([bytes]))).toEqual(joinTextDeltas(expected))
      const splits = byteSplits(text)
      expect(splits.length).toEqual(bytes.length)
      for (const chunks of splits) expect(joinTextDeltas(await eventsFor(chunks))).toEqual(joinTextDeltas(expected))
    })
  }
})
