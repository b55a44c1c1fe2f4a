// The reference README's examples in a page of a fresh Vite app that installed the tarball
// (library-pack.spec.ts): the agent runs in its worker, engine.wasm comes from inside the
// package, and no `wasm` option is passed. The model is the mock server named by ?mock=.
// Each section writes a line to #out, which the spec checks.
import { createFxAgent, createFxEngine, createMemoryPersistence } from "fxterm";

const out = (line) => (document.getElementById("out").textContent += `${line}\n`);
const router = {
  name: "router",
  baseUrl: new URLSearchParams(location.search).get("mock"),
  models: {
    "qwen/qwen3-coder": { contextWindow: 128000, supportsToolUse: true, supportsImages: true },
    "anthropic/claude-opus-5.5": { contextWindow: 200000, supportsToolUse: true, supportsImages: true },
  },
};

async function run() {
  // Quick start
  const agent = createFxAgent({ provider: router, model: "qwen/qwen3-coder", instructions: "Answer in one paragraph." });
  let text = "";
  for await (const event of agent.session().prompt("What is an agent loop?")) {
    if (event.type === "text_delta") text += event.delta;
  }
  out(text);

  // Sessions, streamed to a browser: the turn as NDJSON, then the session's lines after a cursor
  const turn = agent.session().prompt("Plan the migration.");
  const { sessionId } = await turn.accepted;
  const lines = (await new Response(turn.readable).text()).trim().split("\n").map((line) => JSON.parse(line));
  out(`readable ${lines.map((line) => line.type).filter((type, i, all) => type !== all[i - 1]).join(" ")}`);
  const reader = agent.session(sessionId).stream(lines.at(-1).cursor).getReader();
  const { stopReason, usage, error } = await agent.session(sessionId).prompt("Start with the schema.").result;
  const { value } = await reader.read();
  await reader.cancel();
  out(`stream ${JSON.parse(new TextDecoder().decode(value).split("\n")[0]).type}`);
  out(`result ${stopReason} ${usage.outputTokens} ${error}`);

  // Each conversation can bring its own settings
  const review = agent.session(sessionId, {
    model: { id: "anthropic/claude-opus-5.5", effort: "high" },
    instructions: "You review pull requests.",
    context: { userId: "u-7" },
  });
  out(`settings ${(await review.prompt("Review the schema change.").result).stopReason}`);

  // Tools that change things, with the session's context
  const refunds = [];
  const byId = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
  const tools = [
    {
      name: "get_order",
      description: "Look up an order.",
      inputSchema: byId,
      idempotent: true, // a lookup is harmless to repeat
      execute: ({ id }, { context }) => ({ id, total: 30, userId: context.userId }),
    },
    {
      name: "refund_order",
      description: "Refund an order.",
      inputSchema: byId,
      writes: true,
      execute: ({ id }, { executionId, sessionId }) => (refunds.push(`${id} ${executionId} ${sessionId}`), "refunded"),
    },
  ];
  const shop = createFxAgent({ provider: router, model: "qwen/qwen3-coder", tools });
  for await (const event of shop.session("shop-1", { context: { userId: "u-7" } }).prompt("Refund A1.")) {
    if (event.type === "tool_end") out(`tool ${event.name} ${event.output}`);
  }
  out(`refunds ${refunds.join(", ")}`);
  await shop.close();

  // A custom provider's key, asked for before each turn
  const custom = createFxAgent({
    provider: router,
    model: "qwen/qwen3-coder",
    credentials: async ({ provider }) => ({ apiKey: `sk-${provider}-0123456789` }),
  });
  out(`custom ${(await custom.session().prompt("Hello.").result).stopReason}`);
  await custom.close();

  // Images: a photo far over 3.75 MiB, made to fit by the browser's canvas
  const canvas = new OffscreenCanvas(1600, 1600);
  const context = canvas.getContext("2d");
  const noise = context.createImageData(1600, 1600);
  let seed = 7;
  for (let i = 0; i < noise.data.length; i++) noise.data[i] = i % 4 === 3 ? 255 : (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
  context.putImageData(noise, 0, 0);
  const photo = new File([await canvas.convertToBlob({ type: "image/png" })], "photo.png", { type: "image/png" });
  const viewer = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", resizeImage: true });
  const seen = await viewer.prompt([
    { type: "text", text: "What's in this photo?" },
    { type: "image", data: photo },
  ]).result;
  out(`image ${photo.size > 3.75 * 1024 * 1024} ${seen.stopReason}`);
  await viewer.close();

  // Without sessions: a checkpoint, and a new engine from it
  const engine = await createFxEngine({ provider: router, model: "qwen/qwen3-coder" });
  await engine.prompt("Summarize this file.").result;
  const checkpoint = await engine.checkpoint();
  await engine.close();
  const restored = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", checkpoint });
  out(`restored ${(await restored.prompt("And the next one?").result).stopReason}`);
  await restored.close();

  // Persistence: the reference store, and a new engine on it
  const persistence = createMemoryPersistence();
  const recorded = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", persistence });
  await recorded.prompt("Remember the number 7.").result;
  await recorded.close();
  const reopened = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", persistence });
  const open = await reopened.resume();
  out(`persistence ${persistence.records.length > 0} ${open} ${(await reopened.prompt("Which number?").result).stopReason}`);
  await reopened.close();
  await agent.close();
}

run().then(
  () => (document.body.dataset.done = "yes"),
  (error) => {
    out(`ERROR ${error?.code ?? ""} ${error?.message ?? error}`);
    document.body.dataset.done = "error";
  },
);
