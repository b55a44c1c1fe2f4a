/**
 * The first thing the engine worker runs: its entry (engine-worker.ts) imports this before the
 * host, so the start-up reads the worker's name asks for (worker-start-reads.ts) begin before
 * the host's modules are evaluated, and IndexedDB answers while they are.
 */
import { startReadsNamed } from './worker-start-reads.ts'
import { markPhase, markStartUp } from '../../shared/start-up-timeline.ts'

// The worker's thread began at its time origin; its script runs now.
performance.mark('fxterm:worker-thread', { startTime: 0 })
markStartUp('worker-runs')

startReadsNamed(self as unknown as Parameters<typeof startReadsNamed>[0], { name: self.name })
markPhase('worker-host-eval', 'start')
