// The README's OpenAI Agents example (typechecked with the project; `aintern/openai-agents` is
// src/adapters/openai-agents here).
import { Agent, run } from "@openai/agents";
import { applyDecisions, toAgentsTools } from "../../src/adapters/openai-agents/index.js";

type Processor = Parameters<typeof toAgentsTools>[0];

export async function agentsTurn(
  processor: Processor,
  ask: (toolName: string, args: string) => Promise<"approve" | "always" | "reject">,
): Promise<unknown> {
  const tools = toAgentsTools(processor, { approval: "framework" });
  const agent = new Agent({ name: "dev", instructions: "Help with the repository.", tools });
  // runOptions: a call to a tool name the agent lacks gets aintern's "did you mean" message.
  let result = await run(agent, "Tidy up the workspace", { ...tools.runOptions });
  while (result.interruptions.length > 0) {
    for (const item of result.interruptions) {
      // tools.toolIds.get(item.name) is the aintern id ("file_read" -> "file-read").
      const answer = await ask(item.name ?? "", item.arguments ?? "");
      if (answer === "reject") result.state.reject(item, { message: "Not approved" });
      else result.state.approve(item, { alwaysApprove: answer === "always" });
    }
    await applyDecisions(result.state, processor); // audited; "always" becomes a session permission
    result = await run(agent, result.state, { ...tools.runOptions });
  }
  return result.finalOutput;
}
