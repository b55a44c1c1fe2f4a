// The workspace root has no side door (issue 31): a model that plants or finds symlinks in
// /workspace tries to read, edit and write the files they lead to outside it, through the file
// tools and through code run by node and python3. Every attempt that leads out is refused with a
// tool result saying so, the outside file is unchanged, and the workspace holds what it held; a
// link inside the root works as its target, and stays a link.
import type { Page } from '@playwright/test'
import { hostileTest as test, expect } from '../support/bait.ts'
import { openWithMock } from '../support/app.ts'
import { finish, roleChunk, textReply, toolCallChunks, usage, type Chunk } from '../support/chunks.ts'
import { runCommand, writeWorkspaceFiles } from '../support/run-code.ts'
import { readScreen, submitPrompt, waitForScreen } from '../support/screen.ts'
import { blocksStartingWith } from '../support/model-turns.ts'
import { toolResultText } from '../support/tool-messages.ts'

test.setTimeout(300_000)

const SECRET = 'SECRET of /home/user\n'

/** Outside the root: a secret file and a folder. Inside: links out, links in, a chain and a loop. */
async function plantLinks(page: Page): Promise<void> {
  const setup = await runCommand(
    page,
    [
      'mkdir -p /home/user/outside docs',
      `printf '${SECRET.replace('\n', '\\n')}' > /home/user/secret.txt`,
      "printf 'old line\\n' > docs/notes.md",
      'ln -s /home/user/secret.txt secret-link',
      'ln -s /home/user/outside tlink',
      'ln -s secret-link hop1',
      'ln -s docs/notes.md notes-link',
      'ln -s docs docs-link',
      'ln -s loop-b loop-a',
      'ln -s loop-a loop-b',
    ].join(' && '),
  )
  expect(setup).toEqual({ stdout: '', stderr: '', exitCode: 0 })
}

/** What the shell sees now: the secret, the links, what is in the outside folder and a few paths. */
async function shellState(page: Page, probes: string[] = []): Promise<string> {
  const check = probes.map((path) => `(test -e ${path} && echo "${path}: exists" || echo "${path}: none")`).join('; ')
  const result = await runCommand(page, `cat /home/user/secret.txt; ls -A /home/user/outside; for link in secret-link tlink notes-link docs-link; do readlink $link; done; ${check}`)
  return result.stdout
}

const UNTOUCHED = `${SECRET}/home/user/secret.txt\n/home/user/outside\ndocs/notes.md\ndocs\n`

const outside = (path: string, target: string) =>
  `Refused: "${path}" is a symlink that leads outside the workspace (/workspace), to ${target}; only files under it can be used. Nothing was changed.`
const beyond = (path: string) => `Refused: "${path}" is outside the workspace (/workspace); only files under it can be used. Nothing was changed.`

/** Each file tool attempt: the call, and the exact tool result the model must get. */
const FILE_TOOL_ATTEMPTS: Array<{ what: string; id: string; name: string; args: Record<string, unknown>; result: string }> = [
  { what: 'read through a link to a file outside', id: 'c_read_link', name: 'read_file', args: { path: 'secret-link' }, result: outside('secret-link', '/home/user/secret.txt') },
  { what: 'edit through a link to a file outside', id: 'c_edit_link', name: 'edit_file', args: { path: 'secret-link', old_string: 'SECRET', new_string: 'PWNED' }, result: outside('secret-link', '/home/user/secret.txt') },
  { what: 'write through a link to a file outside', id: 'c_write_link', name: 'write_file', args: { path: 'secret-link', content: 'PWNED' }, result: outside('secret-link', '/home/user/secret.txt') },
  { what: 'write into a linked folder outside', id: 'c_write_dir', name: 'write_file', args: { path: 'tlink/via-link.txt', content: 'PWNED' }, result: outside('tlink/via-link.txt', '/home/user/outside/via-link.txt') },
  { what: 'read into a linked folder outside', id: 'c_read_dir', name: 'read_file', args: { path: 'tlink/../secret-link' }, result: outside('tlink/../secret-link', '/home/user/secret.txt') },
  { what: 'read along a chain of links', id: 'c_chain', name: 'read_file', args: { path: 'hop1' }, result: outside('hop1', '/home/user/secret.txt') },
  { what: 'read a loop of links', id: 'c_loop', name: 'read_file', args: { path: 'loop-a' }, result: 'Refused: "loop-a" is a chain of symlinks that does not end (a loop); nothing was changed.' },
  { what: 'read with .. out of the root', id: 'c_dotdot', name: 'read_file', args: { path: '../home/user/secret.txt' }, result: beyond('../home/user/secret.txt') },
  { what: 'write with .. inside a path', id: 'c_dotdot_write', name: 'write_file', args: { path: 'docs/../../home/user/secret.txt', content: 'PWNED' }, result: beyond('docs/../../home/user/secret.txt') },
  { what: 'edit an absolute path outside', id: 'c_absolute', name: 'edit_file', args: { path: '/home/user/secret.txt', old_string: 'SECRET', new_string: 'PWNED' }, result: beyond('/home/user/secret.txt') },
  { what: 'read through a link inside the root', id: 'c_read_in', name: 'read_file', args: { path: 'notes-link' }, result: '     1\told line' },
  { what: 'edit through a link inside the root', id: 'c_edit_in', name: 'edit_file', args: { path: 'notes-link', old_string: 'old', new_string: 'new' }, result: 'Edited notes-link (a symlink to docs/notes.md): replaced 1 occurrence (+1 −1 lines).' },
  { what: 'create through a linked folder inside the root', id: 'c_write_in', name: 'write_file', args: { path: 'docs-link/new.txt', content: 'made\n' }, result: 'Created docs-link/new.txt (a symlink to docs/new.txt) (+1 −0 lines).' },
]

/** One reply that makes every call in order. */
function callsReply(calls: Array<{ id: string; name: string; args: Record<string, unknown> }>): Chunk[] {
  return [roleChunk(), ...calls.flatMap(({ id, name, args }, index) => toolCallChunks({ id, name, args, index })), finish('tool_calls'), usage()]
}

test('file tools: every path that leads out of the root is refused and changes nothing; links inside work', async ({ page, mock }) => {
  await mock.script({ chunks: callsReply(FILE_TOOL_ATTEMPTS) }, { chunks: textReply('Tried every door.') })
  await openWithMock(page, mock)
  await plantLinks(page)
  await submitPrompt(page, 'look around')
  await waitForScreen(page, 'Tried every door.')

  const request = (await mock.requests())[1]
  const answers = FILE_TOOL_ATTEMPTS.map(({ what, id }) => ({ what, result: toolResultText(request, id) }))
  expect(answers).toEqual(FILE_TOOL_ATTEMPTS.map(({ what, result }) => ({ what, result })))
  // The person sees the refusal too, not only the model.
  expect(blocksStartingWith(await readScreen(page), '✗ Refused: "secret-link"')[0]).toBe(`✗ ${outside('secret-link', '/home/user/secret.txt')}`)

  // Outside: unchanged. Inside: the edit and the new file landed at the links' targets, links kept.
  expect(await shellState(page, ['tlink/via-link.txt', '/home/user/outside/via-link.txt'])).toBe(
    `${UNTOUCHED}tlink/via-link.txt: none\n/home/user/outside/via-link.txt: none\n`,
  )
  expect((await runCommand(page, 'cat docs/notes.md docs/new.txt docs-link/new.txt')).stdout).toBe('new line\nmade\nmade\n')
})

/** One reply per command, so each result reaches the model on its own. */
const commandCalls = (commands: Array<[string, string]>) => commands.map(([id, command]) => ({ id, name: 'run_command', args: { command } }))

test('node: links are not followed out of the root, nor made', async ({ page, mock }) => {
  const attempts: Array<[string, string]> = [
    ['n_symlink', `node -e "require('fs').symlinkSync('/home/user/secret.txt', 'made-by-node')"`],
    ['n_read', `node -e "try { console.log(require('fs').readFileSync('secret-link', 'utf8')) } catch (e) { console.log(e.code) }"`],
    ['n_write', `node -e "require('fs').writeFileSync('secret-link', 'PWNED by node')"`],
    ['n_write_dir', `node -e "const fs = require('fs'); fs.mkdirSync('tlink', { recursive: true }); fs.writeFileSync('tlink/from-node.txt', 'PWNED')"`],
    ['n_write_in', `node -e "require('fs').writeFileSync('notes-link', 'written by node\\n')"`],
  ]
  await mock.script({ chunks: callsReply(commandCalls(attempts)) }, { chunks: textReply('Node tried.') })
  await openWithMock(page, mock)
  await plantLinks(page)
  await submitPrompt(page, 'try node')
  await waitForScreen(page, 'Node tried.', 60_000)

  const request = (await mock.requests())[1]
  const result = (id: string) => toolResultText(request, id) ?? ''
  expect(result('n_symlink')).toContain('EPERM: operation not permitted, symlink')
  expect(result('n_symlink')).toContain('[exit code 1]')
  expect(result('n_read')).toContain('ENOENT') // the file behind the link is not copied in
  expect(result('n_read')).not.toContain('SECRET')
  expect(result('n_write')).toContain("fxterm: the code's change to /workspace/secret-link was not kept: a symlink leads it outside /workspace, to /home/user/secret.txt")
  expect(result('n_write_dir')).toContain("fxterm: the code's change to /workspace/tlink/from-node.txt was not kept: a symlink leads it outside /workspace, to /home/user/outside/from-node.txt")
  expect(result('n_write_in')).not.toContain('was not kept')

  expect(await shellState(page, ['made-by-node', '/home/user/outside/from-node.txt'])).toBe(`${UNTOUCHED}made-by-node: none\n/home/user/outside/from-node.txt: none\n`)
  expect((await runCommand(page, 'cat docs/notes.md')).stdout).toBe('written by node\n')
})

test('python3: a link it makes stays in its sandbox, and it cannot write through one out of the root', async ({ page, mock }) => {
  const attempts: Array<[string, string]> = [
    ['p_symlink', `python3 -c "import os; os.makedirs('/home/user', exist_ok=True); os.symlink('/home/user/secret.txt', 'made-by-python'); open('made-by-python', 'w').write('PWNED by python')"`],
    ['p_read', `python3 -c "print(open('secret-link').read())"`],
    ['p_write', `python3 -c "open('secret-link', 'w').write('PWNED by python')"`],
    ['p_write_dir', `python3 -c "import os; os.makedirs('tlink', exist_ok=True); open('tlink/from-python.txt', 'w').write('PWNED')"`],
  ]
  await mock.script({ chunks: callsReply(commandCalls(attempts)) }, { chunks: textReply('Python tried.') })
  await openWithMock(page, mock)
  // Python loads for seconds on its first run (more on a busy machine): a .py file written starts
  // the load, and one run waits for it, so the attempts' own 30 s are theirs.
  await writeWorkspaceFiles(page, { 'warm.py': 'print("warm")\n' })
  await plantLinks(page)
  const warm = await runCommand(page, 'python3 warm.py')
  expect(warm, JSON.stringify(warm)).toMatchObject({ stdout: 'warm\n', exitCode: 0 })
  await submitPrompt(page, 'try python')
  await waitForScreen(page, 'Python tried.', 60_000)

  const request = (await mock.requests())[1]
  const result = (id: string) => toolResultText(request, id) ?? ''
  expect(result('p_read')).toContain('FileNotFoundError') // the file behind the link is not copied in
  expect(result('p_read')).not.toContain('SECRET')
  expect(result('p_write')).toContain("fxterm: the code's change to /workspace/secret-link was not kept: a symlink leads it outside /workspace, to /home/user/secret.txt")
  expect(result('p_write_dir')).toContain("fxterm: the code's change to /workspace/tlink/from-python.txt was not kept: a symlink leads it outside /workspace, to /home/user/outside/from-python.txt")

  // The link Python made, and the file it wrote through it, exist in its sandbox only.
  expect(await shellState(page, ['made-by-python', '/home/user/outside/from-python.txt'])).toBe(`${UNTOUCHED}made-by-python: none\n/home/user/outside/from-python.txt: none\n`)
})
