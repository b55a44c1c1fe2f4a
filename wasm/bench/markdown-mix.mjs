// A second document for render-cpu.mjs's output check (--doc mix): the Markdown the render
// bench's document leaves out (links, bare and autolinked URLs, escapes, task lists, rules,
// quotes holding lists and headings, nested quotes, other languages' code, diffs, aligned and
// too-wide tables, wide and combining characters, long unbroken lines), repeated with variations.

const PARTS = [
  '# Heading one with `code` and a [link](https://example.com/a_(b)) ###',
  '### Third level *emphasis* and ~~strike~~',
  'Plain text with a bare URL https://example.com/path?q=1&r=2). and <https://example.org/x> and <mailto:someone@example.com>.',
  'Escapes: \\*not bold\\* \\`not code\\` \\[not a link\\] and a [relative link](docs/readme.md "title") and ![an image](http://img.example/p.png).',
  '***bold italic*** __bold__ _italic_ **unclosed bold and *nested* text** `` code with ` backtick `` ',
  '- [ ] an open task with **bold**',
  '- [x] a done task',
  '  1) nested ordered with [empty]() link',
  '     - deeper still, a long line that keeps going so that it has to wrap across several rows of the terminal at most widths',
  '---',
  '> quoted **text** with `code`',
  '> - a list inside a quote',
  '> 12. numbered inside a quote',
  '> # a heading inside a quote',
  '> > nested quote level two with a long tail of words that wraps around the edge of the screen',
  '>',
  '> ***',
  '中文字符和表情 😀🎉 mixed with e\u0301 combining marks and full-width ＡＢＣ text that wraps',
  'x'.repeat(700) + ' ' + 'word '.repeat(120),
  '```python',
  'def f(x):  # comment',
  '    """doc string',
  '    still doc"""',
  '    return x if x else None',
  '```',
  '```rust',
  "fn main() { let c = 'a'; let s: &'static str = \"hi\"; /* block",
  'comment */ println!("{}", c); }',
  '```',
  '```diff',
  '@@ -1,2 +1,2 @@',
  '-old line',
  '+new line',
  '```',
  '```go',
  'func main() { var x = nil; for i := range xs { if x == true { go f(iota) } } }',
  '```',
  '```java',
  'public static void main(String[] args) { int n = null == x ? 1 : 0; return; } // NULL nullptr',
  '```',
  '```json',
  '{"key": true, "other": [false, null, 1.5e3]}',
  '```',
  '```yaml',
  'enabled: yes # a comment',
  'mode: off',
  '```',
  '~~~sh',
  'for f in *.ts; do echo "$f" | wc -c; done # loop',
  '~~~',
  '| left | center | right |',
  '| :--- | :----: | ----: |',
  '| a `|` pipe | **b** | 1 |',
  '| 中文 | [l](https://x.example) | 22 |',
  '',
  '| ' + Array.from({ length: 14 }, (_, i) => `column ${i}`).join(' | ') + ' |',
  '| ' + Array.from({ length: 14 }, () => '---').join(' | ') + ' |',
  '| ' + Array.from({ length: 14 }, (_, i) => `value number ${i} here`).join(' | ') + ' |',
  'a line with | a pipe that is not a table',
  'and the next line',
  '',
]

export function mixMarkdown(bytes = 300_000) {
  const out = []
  let length = 0
  for (let n = 0; length < bytes; n++) {
    for (const part of PARTS) {
      const line = part.replace('one', `one ${n}`)
      out.push(line)
      length += line.length + 1
    }
    out.push('')
  }
  return out.join('\n')
}
