/**
 * The host's frame constants against the engine's: wasm/engine/abi/frames.ts is read as text (it
 * is AssemblyScript), and every `IN_`, `OUT_`, `MODEL_` and `AGENT_` constant and both header
 * sizes must have the same value here, under the same name (`IN_EXEC_RESULT` is `IN.execResult`,
 * `MODEL_TEXT_DELTA` is `MODEL_SUB.text_delta`), and nothing more.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { AGENT_SUB, IN, INPUT_HEADER, MODEL_SUB, OUT, OUTPUT_HEADER } from './engine-frames.ts'

const source = readFileSync(fileURLToPath(new URL('../../../wasm/engine/abi/frames.ts', import.meta.url)), 'utf8')

/** The engine's constants `<prefix>_<NAME> = <number>`, by name without the prefix. */
function engineConstants(prefix: string): Record<string, number> {
  const found: Record<string, number> = {}
  for (const [, name, value] of source.matchAll(new RegExp(`^export const ${prefix}_(\\w+)\\s*=\\s*(0x[0-9a-f]+|\\d+)\\b`, 'gim'))) {
    found[name!] = Number(value)
  }
  return found
}

const camel = (name: string) => name.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
const rename = (constants: Record<string, number>, as: (name: string) => string) =>
  Object.fromEntries(Object.entries(constants).map(([name, value]) => [as(name), value]))

test('the header sizes are the engine\'s', () => {
  expect({ input: INPUT_HEADER, output: OUTPUT_HEADER }).toEqual({ input: engineConstants('INPUT')['HEADER'], output: engineConstants('OUTPUT')['HEADER'] })
})

test('every input, output, model event and agent kind has the engine\'s number, and there are no others', () => {
  expect({ IN, OUT, MODEL_SUB, AGENT_SUB }).toEqual({
    IN: rename(engineConstants('IN'), camel),
    OUT: rename(engineConstants('OUT'), camel),
    MODEL_SUB: rename(engineConstants('MODEL'), (name) => name.toLowerCase()),
    AGENT_SUB: rename(engineConstants('AGENT'), (name) => name.toLowerCase()),
  })
})
