// The reference README's examples (../shared/reference/libfx-README.md), run by a plain Node 20
// script from the installed tarball, as a person would paste them: the import name is fxterm,
// the model is the mock server's (MOCK_BASE_URL) as a custom provider, and no `wasm` option
// anywhere. Each section prints what the spec (library-pack.spec.ts) checks.
import { createFxAgent, createFxEngine, FxFencedError } from "fxterm";

const router = {
  name: "router",
  baseUrl: process.env.MOCK_BASE_URL,
  models: {
    "qwen/qwen3-coder": { contextWindow: 128000, supportsToolUse: true },
    "anthropic/claude-opus-5.5": { contextWindow: 200000, supportsToolUse: true, supportsImages: true },
  },
};

// Quick start
const agent = createFxAgent({
  provider: router,
  model: "qwen/qwen3-coder",
  instructions: "Answer in one paragraph.",
});

const turn = agent.session().prompt("What is an agent loop?");

for await (const event of turn) {
  if (event.type === "text_delta") process.stdout.write(event.delta);
}
process.stdout.write("\n");

// Sessions
const planned = agent.session().prompt("Plan the migration.");
const { sessionId } = await planned.accepted; // the prompt is stored

// Later, in any process that creates the same agent:
const next = agent.session(sessionId).prompt("Start with the schema.");

// A turn's result says how it ended:
const { stopReason, usage, error } = await next.result;
console.log(`result ${stopReason} ${usage.outputTokens} ${error}`);

// Each conversation can bring its own settings:
const userId = "u-42";
const review = agent.session(sessionId, {
  model: { id: "anthropic/claude-opus-5.5", effort: "high" },
  instructions: "You review pull requests.",
  context: { userId }, // handed to every tool call
});
console.log(`settings ${(await review.prompt("Review the schema change.").result).stopReason}`);
await agent.close();

// Tools that change things
const orders = new Map([["A1", { id: "A1", total: 30 }]]);
const refunds = [];
const payments = { refund: async (id, { idempotencyKey }) => (refunds.push(`${id} ${idempotencyKey}`), "refunded") };
const byId = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };

const tools = [
  {
    name: "get_order",
    description: "Look up an order.",
    inputSchema: byId,
    idempotent: true, // a lookup is harmless to repeat
    execute: ({ id }) => orders.get(id),
  },
  {
    name: "refund_order",
    description: "Refund an order.",
    inputSchema: byId,
    writes: true,
    execute: ({ id }, { executionId }) => payments.refund(id, { idempotencyKey: executionId }),
  },
  {
    name: "who_asks",
    description: "Who is asking.",
    execute: (input, { sessionId, context }) => `${context.userId} in ${sessionId}`,
  },
];

const shop = createFxAgent({ provider: router, model: "qwen/qwen3-coder", tools });
const support = shop.session("support-1", { context: { userId } });
for await (const event of support.prompt("Refund order A1.")) {
  if (event.type === "tool_end") console.log(`tool ${event.name} ${event.output}`);
}
console.log(`refunds ${refunds.join(", ")}`);
await shop.close();

// Custom providers
const loaded = [];
const keys = { load: async (provider, sessionId) => (loaded.push(provider), "sk-router-0123456789") };
const custom = createFxAgent({
  provider: router,
  model: "qwen/qwen3-coder",
  credentials: async ({ provider, sessionId }) => ({ apiKey: await keys.load(provider, sessionId) }),
});
console.log(`custom ${(await custom.session().prompt("Hello.").result).stopReason} ${loaded.join(", ")}`);
await custom.close();

// Images
const base64Png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const viewer = createFxAgent({ provider: router, model: "anthropic/claude-opus-5.5" });
const chart = viewer.session().prompt([
  { type: "text", text: "What's wrong with this chart?" },
  { type: "image", mimeType: "image/png", data: base64Png },
]);
console.log(`image ${(await chart.result).stopReason}`);
await viewer.close();

// Without sessions
const engine = await createFxEngine({ provider: router, model: "qwen/qwen3-coder" });

const summary = engine.prompt("Summarize this file.");
for await (const event of summary) {
  if (event.type === "text_delta") process.stdout.write(event.delta);
}
process.stdout.write("\n");

const checkpoint = await engine.checkpoint(); // opaque bytes, up to 4 MiB
await engine.close();

const restored = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", checkpoint });
console.log(`restored ${(await restored.prompt("And the next one?").result).stopReason}`);
await restored.close();

// The Persistence interface: a store of its own, a journal and a checkpoint in memory
const journal = [];
let saved;
const store = {
  async load() {
    const after = saved ? journal.slice(journal.findIndex((r) => r.cursor === saved.through) + 1) : journal;
    return { checkpoint: saved, journal: after };
  },
  async append({ expected, data }) {
    if (expected !== (journal.at(-1)?.cursor ?? null)) throw new FxFencedError();
    const cursor = String(journal.length + 1);
    journal.push({ cursor, data: data.slice() });
    return { cursor };
  },
  async saveCheckpoint({ through, data }) {
    saved = { through, data: data.slice() };
  },
};

const recorded = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", persistence: store });
await recorded.prompt("Remember the number 7.").result;
await recorded.close();

const reopened = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", persistence: store });
const open = await reopened.resume(); // null: the last engine left no turn open
const recall = await reopened.prompt("Which number?").result;
console.log(`persistence ${journal.length > 0} ${open} ${recall.stopReason}`);
await reopened.close();
