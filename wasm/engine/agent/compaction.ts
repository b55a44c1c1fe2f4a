// Compaction: when the conversation nears the model's context window (or on /compact), the
// model is asked for a summary, and the conversation continues from that summary plus the
// latest turn. The compacted messages stay in the session (export) but are never sent again.
// Offline or when the model cannot summarise, a local summary built from the messages is used.

import { ByteBuf } from '../util/byte-buf'
import { writeJsonBuf, writeJsonString, parseJson, J_STR } from '../util/json'
import { Conversation, Message, ROLE_ASSISTANT, ROLE_TOOL, ROLE_USER, utf8Floor } from './conversation'

/** Compact when the next request would pass this share of the context window. */
export const COMPACT_AT: f64 = 0.85
const PER_MESSAGE_BYTES = 2000
const SUMMARY_INPUT_BYTES = 96 * 1024

const SUMMARY_INSTRUCTIONS =
  'You compact conversations between a user and a coding agent that runs bash commands in an ' +
  'in-memory workspace. Write a concise summary that lets the agent continue the work: the ' +
  "user's goals and requests, decisions made, files created or changed (with paths), commands " +
  'that matter and their results, and what is still open. Use short bullet points. Do not ' +
  'invent anything.'

/** The index of the latest user message: compaction keeps that turn whole. */
export function latestTurnStart(conv: Conversation): i32 {
  for (let i = conv.messages.length - 1; i >= 0; i--) if (conv.messages[i].role == ROLE_USER) return i
  return conv.messages.length
}

/** The request asking the model for a summary of messages [0, upto): a transcript in one message. */
export function writeSummaryRequest(out: ByteBuf, conv: Conversation, upto: i32, model: string, provider: string): void {
  out.str('{"model":')
  writeJsonString(out, model)
  if (provider.length > 0) {
    out.str(',"provider":')
    writeJsonString(out, provider)
  }
  out.str(',"messages":[{"role":"system","content":')
  writeJsonString(out, SUMMARY_INSTRUCTIONS)
  out.str('},{"role":"user","content":')
  const text = new ByteBuf(8192)
  text.str('Summarise this conversation so far:\n\n')
  for (let i = 0; i < upto && text.length < SUMMARY_INPUT_BYTES; i++) transcribe(text, conv.messages[i])
  if (text.length > SUMMARY_INPUT_BYTES) text.length = utf8Floor(text, SUMMARY_INPUT_BYTES)
  writeJsonBuf(out, text)
  out.str('}],"tools":[]}')
}

function transcribe(out: ByteBuf, m: Message): void {
  if (m.role == ROLE_USER) out.str('User: ')
  else if (m.role == ROLE_TOOL) out.str('Command output: ')
  else out.str('Agent: ')
  clip(out, m.content, PER_MESSAGE_BYTES)
  for (let j = 0; j < m.toolCalls.length; j++) {
    out.str('\nAgent ran: ')
    clip(out, commandText(m.toolCalls[j].args), PER_MESSAGE_BYTES)
  }
  out.str('\n\n')
}

function clip(out: ByteBuf, text: ByteBuf, limit: i32): void {
  if (text.length <= limit) {
    out.append(text)
    return
  }
  out.slice(text.data, 0, utf8Floor(text, limit))
  out.str(' […]')
}

/** The command a run_command call carried (its raw arguments when they are not JSON). */
export function commandText(args: ByteBuf): ByteBuf {
  const v = parseJson(args.data, 0, args.length)
  if (v != null) {
    const c = v.get('command')
    if (c != null && c.kind == J_STR) {
      const b = new ByteBuf(c.str.length + 4)
      b.str(c.str)
      return b
    }
  }
  return args
}

/** A summary built without a model: what was asked, what ran, how the last reply began. */
export function localSummary(conv: Conversation, upto: i32): ByteBuf {
  const out = new ByteBuf(4096)
  out.str('(A local summary: the model was not asked.)\n')
  let lastReply: ByteBuf | null = null
  for (let i = 0; i < upto; i++) {
    const m = conv.messages[i]
    if (m.role == ROLE_USER) {
      out.str('- The user asked: ')
      clip(out, m.content, 300)
      out.byte(0x0a)
    } else if (m.role == ROLE_ASSISTANT) {
      for (let j = 0; j < m.toolCalls.length; j++) {
        out.str('- The agent ran: ')
        clip(out, commandText(m.toolCalls[j].args), 200)
        out.byte(0x0a)
      }
      if (m.content.length > 0) lastReply = m.content
    }
  }
  if (lastReply != null) {
    out.str('- The last reply began: ')
    clip(out, lastReply, 500)
    out.byte(0x0a)
  }
  return out
}

/** Replaces messages [0, upto) by one user message holding the summary; they move to `archived`. */
export function applySummary(conv: Conversation, upto: i32, summary: ByteBuf): void {
  const m = new Message(ROLE_USER)
  m.content.str('[Summary of the conversation so far, compacted to save context]\n')
  m.content.append(summary)
  const kept = conv.messages.slice(upto)
  conv.archived = conv.archived.concat(conv.messages.slice(0, upto))
  conv.messages = [m].concat(kept)
}
