/**
 * Page thread: the question the first `git push` (or `gh pr create`) to a remote asks the
 * person, whatever mode the agent is in: where it goes and which commits. Nothing leaves the
 * tab before the person says Push.
 */
import type { PushPlan } from '../../shared/workspace/git/git-host'
import { askQuestion } from './question-dialog'

/** How many commits the dialog lists before "and N more". */
const LISTED = 8

/** Asks the person; `signal` (the command stopped) closes the question as a no. */
export function confirmPush(plan: PushPlan, signal?: AbortSignal): Promise<boolean> {
  const count = plan.commits.length
  const listed = plan.commits.slice(0, LISTED).map((c) => ({ text: `${c.oid.slice(0, 7)} ${c.subject}`, mono: true, className: 'fxterm-push-commit' }))
  const more = count > LISTED ? [{ text: `…and ${count - LISTED} more` }] : []
  if (plan.action === 'pull request') {
    return askQuestion({
      title: 'Open this pull request?',
      className: 'fxterm-push-dialog',
      lines: [
        { text: `“${plan.title ?? ''}”, from ${plan.branch} into ${plan.base ?? 'the default branch'}, on:` },
        { text: plan.url, mono: true, className: 'fxterm-push-url' },
      ],
      yes: 'Open pull request',
      ...(signal ? { signal } : {}),
    })
  }
  return askQuestion({
    title: 'Push these commits?',
    className: 'fxterm-push-dialog',
    lines: [
      { text: `Push to ${plan.remote}:` },
      { text: plan.url, mono: true, className: 'fxterm-push-url' },
      { text: `Branch ${plan.branch}${plan.newBranch ? ' (new there)' : ''}, ${count === 1 ? '1 commit' : `${count} commits`}:` },
      ...listed,
      ...more,
    ],
    yes: 'Push',
    ...(signal ? { signal } : {}),
  })
}
