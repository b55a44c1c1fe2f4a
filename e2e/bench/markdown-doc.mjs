// The render bench's reply: about a megabyte of Markdown using everything the renderer styles
// (headings, bold, italic, inline code, lists, block quotes, fenced code, tables), built from a
// fixed seed so every run and every machine streams the same bytes.

/** The reply's last line: the bench waits for it to show in the terminal. */
export const DOC_END = 'render-bench: end of document'

const WORDS = (
  'terminal stream render frame cursor buffer column footer engine worker delta parser table ' +
  'heading paragraph emphasis module layout width scroll commit transcript composer signal ' +
  'batch queue latency budget token reply model request handler session history paste'
).split(' ')

/** A small deterministic generator (mulberry32): the same seed gives the same document. */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function section(n, next) {
  const word = () => WORDS[Math.floor(next() * WORDS.length)]
  const words = (count) => Array.from({ length: count }, word).join(' ')
  /** A paragraph line with inline styling sprinkled in, about `count` words long. */
  const styled = (count) => {
    const parts = []
    for (let i = 0; i < count; i += 6) {
      const pick = next()
      const chunk = words(5)
      if (pick < 0.2) parts.push(`**${chunk}**`)
      else if (pick < 0.4) parts.push(`*${chunk}*`)
      else if (pick < 0.55) parts.push(`\`${word()}_${n}()\``)
      else parts.push(chunk)
    }
    return `${parts.join(' ')}.`
  }
  const title = words(3)
  return [
    `## ${n}. ${title[0].toUpperCase()}${title.slice(1)}`,
    '',
    styled(60),
    '',
    styled(40),
    '',
    `- ${styled(8)}`,
    `- ${styled(10)}`,
    `  - ${styled(6)}`,
    `- ${styled(7)}`,
    '',
    `1. ${styled(9)}`,
    `2. ${styled(9)}`,
    '',
    `> ${styled(18)}`,
    '',
    '```ts',
    `// section ${n}: ${words(4)}`,
    `export function ${word()}${n}(input: string, limit = ${n % 97}): number {`,
    `  const parts = input.split(' ').filter((part) => part.length > ${n % 7})`,
    `  return parts.length > limit ? limit : parts.length // ${words(3)}`,
    '}',
    '```',
    '',
    '| name | value | note |',
    '| --- | ---: | --- |',
    `| ${word()} | ${n} | ${words(3)} |`,
    `| ${word()} | ${(n * 37) % 1000} | \`${word()}\` ${words(2)} |`,
    `| ${word()} | ${(n * 91) % 1000} | **${word()}** ${word()} |`,
    '',
  ].join('\n')
}

/**
 * Sections until the document reaches `bytes` (UTF-8; the text is ASCII, so also characters),
 * then the closing line. The result is a little over `bytes` long, never under.
 */
export function benchMarkdown(bytes = 1_000_000, seed = 0x5eed) {
  const next = random(seed)
  const parts = ['# Render benchmark document', '', `Deterministic Markdown, seed ${seed}.`, '']
  let length = parts.join('\n').length
  for (let n = 1; length < bytes; n++) {
    const text = section(n, next)
    parts.push(text)
    length += text.length + 1
  }
  parts.push(DOC_END, '')
  return parts.join('\n')
}
