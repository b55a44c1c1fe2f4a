// Runs a slash command typed in the composer. Commands typed during a turn run at once.

import { tapeJson, tapeTurns } from './export-tape'
import { a11yCommand } from './a11y'
import { ByteBuf, stringBytes } from '../util/byte-buf'
import { writeJsonBuf } from '../util/json'
import { formatCount } from '../util/format'
import { OUT_ACTION, OUT_CLIPBOARD } from '../abi/frames'
import { GRAY } from '../screen/ansi'
import { ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER } from '../agent/conversation'
import { isFxtermNote, readShellNote } from '../agent/fxterm-notes'
import { SessionState } from '../session/session-state'
import * as S from './slash'
import { Settings } from './settings'
import { fastCommand, modelCommand, modelsCommand, providerCommand } from './model-commands'
import { historyCommand, renameCommand, resumeCommand, sessionsCommand } from './session-commands'
import { AuthPanel, authCommand, hostOf, openProviderPicker, signInStatus } from './auth-commands'
import { changeCommand } from './change-commands'

export const ENGINE_VERSION = '0.1.0'

/**
 * Runs the command `line` names, and returns which one it was: /exit and /clear (S.CMD_EXIT,
 * S.CMD_CLEAR) end or restart the whole engine, and /clone (S.CMD_CLONE) runs a shell command
 * as the person's, so the caller runs those.
 */
export function runSlash(s: Settings, sessions: SessionState, auth: AuthPanel, line: string): i32 {
  const cmd = S.slashCommand(line)
  const t = s.transcript
  const arg = S.slashArgument(line)
  if (cmd == S.CMD_HELP) t.lines(S.helpText())
  else if (cmd == S.CMD_EXIT || cmd == S.CMD_CLEAR || cmd == S.CMD_CLONE) return cmd
  else if (cmd == S.CMD_MODEL && arg.length == 0 && s.providers.active.name == 'demo' && s.providers.list.length > 1) openProviderPicker(s, auth)
  else if (cmd == S.CMD_MODEL) modelCommand(s, arg)
  else if (cmd == S.CMD_MODELS) {
    s.listModelsWhenLoaded = !s.providers.active.loaded
    modelsCommand(s)
  } else if (cmd == S.CMD_FAST) fastCommand(s)
  else if (cmd == S.CMD_PROVIDER) providerCommand(s, arg)
  else if (cmd == S.CMD_COMPACT) {
    if (s.loop.busy) t.error(stringBytes('A turn is running; /compact works between turns (long turns compact on their own).'))
    else s.loop.compaction.startByRequest()
  }
  else if (cmd == S.CMD_MODE) mode(s, arg)
  else if (cmd == S.CMD_FILES || cmd == S.CMD_DOWNLOAD || cmd == S.CMD_OPEN) {
    if (!s.loop.withTools) t.error(stringBytes('No workspace is connected, so there are no files.'))
    else s.fx.action(cmd == S.CMD_FILES ? 'files' : cmd == S.CMD_OPEN ? 'open' : 'download')
  } else if (cmd == S.CMD_DIFF || cmd == S.CMD_UNDO) changeCommand(s, cmd, arg)
  else if (cmd == S.CMD_STATUS) t.lines(statusText(s, auth))
  else if (cmd == S.CMD_VERSION) t.notice('fxterm ' + ENGINE_VERSION + ' · engine ABI 1', GRAY)
  else if (cmd == S.CMD_COPY) copyLastReply(s)
  else if (cmd == S.CMD_EXPORT) exportTranscript(s, arg)
  else if (cmd == S.CMD_LOGIN || cmd == S.CMD_LOGOUT || cmd == S.CMD_KEY) authCommand(s, auth, cmd, arg)
  else if (cmd == S.CMD_RESUME) resumeCommand(sessions, arg)
  else if (cmd == S.CMD_RENAME) renameCommand(sessions, arg)
  else if (cmd == S.CMD_SESSIONS) sessionsCommand(sessions)
  else if (cmd == S.CMD_HISTORY) historyCommand(sessions, arg)
  else if (cmd == S.CMD_A11Y) a11yCommand(s, arg)
  else t.error(stringBytes('Unknown command ' + line.trim() + '. Try /help.'))
  return cmd
}

function mode(s: Settings, arg: string): void {
  const t = s.transcript
  if (arg == 'ask') s.setModeAsk(true)
  else if (arg == 'auto') s.setModeAsk(false)
  else if (arg.length > 0) {
    t.error(stringBytes('Unknown mode "' + arg + '". Use /mode ask or /mode auto.'))
    return
  }
  const ask = s.modeAsk || s.permissionPrompt
  let text = ask ? 'Mode: ask — fxterm asks before each command.' : 'Mode: auto — commands run in the sandboxed workspace without asking.'
  if (s.permissionPrompt && !s.modeAsk) text += ' (This workspace always asks.)'
  t.notice(text, GRAY)
}

function statusText(s: Settings, auth: AuthPanel): string {
  const loop = s.loop
  let turns = 0
  for (let i = 0; i < loop.conv.messages.length; i++) if (loop.conv.messages[i].role == ROLE_USER && !isFxtermNote(loop.conv.messages[i])) turns++
  return (
    'Status\n' +
    '  model      ' + loop.model + (loop.fast ? ' ⚡ fast' : '') + '\n' +
    '  provider   ' + providerStatus(s) + '\n' +
    '  context    ' + formatCount(loop.estimateTokens()) + ' of ' + formatCount(loop.window) + ' tokens (' + (<i64>Math.round((loop.estimateTokens() * 100) / loop.window)).toString() + '%)\n' +
    '  sign-in    ' + signInStatus(auth) + '\n' +
    '  mode       ' + (s.modeAsk || s.permissionPrompt ? 'ask' : 'auto') + '\n' +
    '  workspace  ' + (loop.withTools ? loop.cwd : 'none (chat only)') + '\n' +
    '  turns      ' + turns.toString() + '\n' +
    '  tokens     ↑' + formatCount(loop.inputTokens) + ' ↓' + formatCount(loop.outputTokens)
  )
}

/** The provider's name, then where it runs, once: `ollama · localhost:11434`, `mock · 127.0.0.1:4392`. */
function providerStatus(s: Settings): string {
  const p = s.providers.active
  if (p.name == 'demo') return 'demo (offline, recorded replies)'
  const where = p.label != p.name ? p.label : hostOf(p.baseUrl)
  // A server named after its host (`127.0.0.1-4392`) is not followed by that host again.
  return where.length > 0 && where.replaceAll(':', '-') != p.name ? p.name + ' · ' + where : p.name
}

function copyLastReply(s: Settings): void {
  const messages = s.loop.conv.messages
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role == ROLE_ASSISTANT && m.content.length > 0) {
      s.fx.emit(OUT_CLIPBOARD, 0, m.content)
      s.transcript.notice('Copied the last reply (' + m.content.length.toString() + ' bytes).', GRAY)
      return
    }
  }
  s.transcript.error(stringBytes('There is no reply to copy yet.'))
}

function exportTranscript(s: Settings, arg: string): void {
  const json = arg == 'json'
  if (arg == 'tape') {
    exportTape(s)
    return
  }
  if (arg.length > 0 && arg != 'md' && !json) {
    s.transcript.error(stringBytes('Export as md, json or a demo tape: /export md, /export json, /export tape.'))
    return
  }
  const content = json ? transcriptJson(s) : transcriptMarkdown(s)
  const out = new ByteBuf(content.length + 128)
  out.str('{"action":"export","fileName":"fxterm-transcript.' + (json ? 'json' : 'md') + '","mimeType":"')
  out.str(json ? 'application/json' : 'text/markdown')
  out.str('","content":')
  writeJsonBuf(out, content)
  out.str('}')
  s.fx.emit(OUT_ACTION, 0, out)
}

/** /export tape: the session as a demo tape the offline provider replays (the host adds the files). */
function exportTape(s: Settings): void {
  if (tapeTurns(s.loop.conv) == 0) {
    s.transcript.error(stringBytes('There is nothing to record yet: a tape needs at least one prompt.'))
    return
  }
  const content = tapeJson(s.loop.conv)
  const out = new ByteBuf(content.length + 160)
  out.str('{"action":"export","fileName":"fxterm-tape.json","mimeType":"application/json","tape":true,"content":')
  writeJsonBuf(out, content)
  out.str('}')
  s.fx.emit(OUT_ACTION, 0, out)
}

function transcriptMarkdown(s: Settings): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('# fxterm transcript\n\nModel: ' + s.loop.model + ' (' + s.label + ')\n')
  const messages = s.loop.conv.all()
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]
    if (m.role == ROLE_USER) {
      const shell = readShellNote(m.content.toString())
      if (shell != null) out.str('\n## You ran\n\n```\n$ ' + shell[0] + '\n' + shell[1] + '\n```\n')
      else {
        // fxterm's notes to the model are told apart from what the person wrote.
        out.str(isFxtermNote(m) ? '\n## fxterm, to the model\n\n' : '\n## You\n\n')
        out.append(m.content)
        out.str('\n')
      }
    } else if (m.role == ROLE_ASSISTANT) {
      if (m.content.length > 0) {
        out.str('\n## fxterm\n\n')
        out.append(m.content)
        out.str('\n')
      }
      for (let j = 0; j < m.toolCalls.length; j++) {
        out.str('\n```json\n')
        out.append(m.toolCalls[j].args)
        out.str('\n```\n')
      }
    } else if (m.role == ROLE_TOOL) {
      out.str('\n```\n')
      out.append(m.content)
      out.str('\n```\n')
    }
  }
  return out
}

function transcriptJson(s: Settings): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('{"model":')
  const model = new ByteBuf(64)
  model.str(s.loop.model)
  writeJsonBuf(out, model)
  out.str(',"messages":')
  s.loop.conv.writeAllMessages(out)
  out.str('}\n')
  return out
}
