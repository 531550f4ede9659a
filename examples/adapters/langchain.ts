// The README's LangChain example (typechecked with the project; `aintern/langchain` is
// src/adapters/langchain here).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createAgent, createMiddleware } from "langchain";
import { toLangChainTools, unknownToolMiddleware } from "../../src/adapters/langchain/index.js";

type Processor = Parameters<typeof toLangChainTools>[0];

export async function langChainTurn(model: BaseChatModel, processor: Processor) {
  // Approvals go through the processor's approvalHandler, inside each tool call.
  const agent = createAgent({
    model,
    tools: toLangChainTools(processor),
    // A call to a tool name the agent lacks goes to aintern: its message, and an audit row.
    middleware: [createMiddleware(unknownToolMiddleware(processor))],
  });
  const { messages } = await agent.invoke({
    messages: [{ role: "user", content: "Tidy up the workspace" }],
  });
  return messages; // ToolMessages carry status "error" for failures, denials, invalid arguments
}
