// Display width of a code point in terminal cells (a compact wcwidth): combining marks take 0,
// East Asian wide characters and emoji take 2. The engine lays out its own rows, so this must
// agree with xterm.js closely enough that a row never wraps behind the engine's back.

export function cellWidth(cp: i32): i32 {
  if (cp < 0x300) return cp < 0x20 ? 0 : 1
  if (cp <= 0x36f) return 0
  if (cp >= 0x200b && cp <= 0x200f) return 0
  if (cp >= 0xfe00 && cp <= 0xfe0f) return 0
  if (cp >= 0x1ab0 && cp <= 0x1aff) return 0
  if (cp >= 0x1dc0 && cp <= 0x1dff) return 0
  if (cp >= 0x20d0 && cp <= 0x20ff) return 0
  if (cp >= 0xfe20 && cp <= 0xfe2f) return 0
  if (cp >= 0x1100 && cp <= 0x115f) return 2
  if (cp >= 0x2e80 && cp <= 0x303e) return 2
  if (cp >= 0x3041 && cp <= 0x33ff) return 2
  if (cp >= 0x3400 && cp <= 0x4dbf) return 2
  if (cp >= 0x4e00 && cp <= 0x9fff) return 2
  if (cp >= 0xa000 && cp <= 0xa4cf) return 2
  if (cp >= 0xac00 && cp <= 0xd7a3) return 2
  if (cp >= 0xf900 && cp <= 0xfaff) return 2
  if (cp >= 0xfe30 && cp <= 0xfe4f) return 2
  if (cp >= 0xff00 && cp <= 0xff60) return 2
  if (cp >= 0xffe0 && cp <= 0xffe6) return 2
  if (cp >= 0x1f300 && cp <= 0x1f64f) return 2
  if (cp >= 0x1f900 && cp <= 0x1f9ff) return 2
  if (cp >= 0x1f680 && cp <= 0x1f6ff) return 2
  if (cp >= 0x20000 && cp <= 0x3fffd) return 2
  return 1
}
