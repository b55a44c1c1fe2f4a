// The reference README's quick start (../shared/reference/libfx-README.md), as written: only the
// import name is fxterm. It runs under `node --import ./gateway-redirect.mjs`, which sends AI
// Gateway's host to the mock; the key is AI_GATEWAY_API_KEY, as the reference says.
import { createFxAgent } from "fxterm";

const agent = createFxAgent({
model: "anthropic/claude-haiku-5.5",
instructions: "Answer in one paragraph.",
});

const turn = agent.session().prompt("What is an agent loop?");

for await (const event of turn) {
if (event.type === "text_delta") process.stdout.write(event.delta);
}

await agent.close();

// Not in the reference: how the turn ended, for the spec (library-pack.spec.ts) to check.
const { stopReason, error } = await turn.result;
console.log(`\nresult ${stopReason} ${error?.code}`);
