import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createAgent, createMiddleware } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AinternApprovalRequest,
  toLangChainTools,
  unknownToolMiddleware,
} from "../../src/adapters/langchain/index.js";
import { ApprovalDecision } from "../../src/calls/index.js";
import {
  type AdapterFixture,
  auditSummary,
  CountingPolicy,
  makeAdapterFixture,
  mixedTurn,
  personAtHandler,
} from "./adapter-fixture.js";

/** A chat model that answers with the scripted messages, in order, whatever tools it is bound to. */
class ScriptedChatModel extends BaseChatModel {
  readonly #responses: AIMessage[];

  constructor(responses: AIMessage[]) {
    super({});
    this.#responses = responses;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(): this {
    return this;
  }

  async _generate(): Promise<ChatResult> {
    const message = this.#responses.shift();
    if (message === undefined) throw new Error("The scripted model has no more responses");
    return {
      generations: [{ text: typeof message.content === "string" ? message.content : "", message }],
    };
  }
}

function calls(list: readonly (readonly [string, string, Record<string, unknown>])[]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: list.map(([id, name, args]) => ({ id, name, args, type: "tool_call" as const })),
  });
}

function toolMessages(messages: readonly BaseMessage[]): Map<string, ToolMessage> {
  const found = new Map<string, ToolMessage>();
  for (const message of messages) {
    if (message instanceof ToolMessage) found.set(message.tool_call_id, message);
  }
  return found;
}

let fixture: AdapterFixture;
afterEach(async () => fixture.close());

describe("LangChain: toLangChainTools in createAgent's loop", () => {
  it("runs a mixed-risk turn: Safe runs, Medium is asked and runs, Critical is asked with its warning and denied, bad arguments get aintern's field message, a path escape is refused, each as a ToolMessage with the right status, all audited; the remembered approval holds next turn", async () => {
    const asked: string[] = [];
    fixture = await makeAdapterFixture({
      approvalHandler: personAtHandler(asked, { rememberForSession: true }),
    });
    const model = new ScriptedChatModel([
      calls(mixedTurn.map(([id, tool, args]) => [id, tool, { ...args }] as const)),
      new AIMessage("done"),
      calls([["call-next", "file-write", { path: "next.txt", content: "again" }]]),
      new AIMessage("done again"),
    ]);
    const agent = createAgent({ model, tools: toLangChainTools(fixture.processor) });
    const first = await agent.invoke({ messages: [{ role: "user", content: "tidy up" }] });
    const answered = toolMessages(first.messages);

    expect(answered.get("call-safe")?.status).toBe("success");
    expect(String(answered.get("call-safe")?.content)).toMatch(/answer = 42/);
    expect(answered.get("call-medium")?.status).toBe("success");
    expect(answered.get("call-critical")?.status).toBe("error");
    expect(String(answered.get("call-critical")?.content)).toMatch(/denied.*Never on this host/s);
    expect(answered.get("call-bad")?.status).toBe("error");
    expect(String(answered.get("call-bad")?.content)).toMatch(/content/);
    expect(String(answered.get("call-bad")?.content)).not.toMatch(/did not match expected schema/);
    expect(answered.get("call-escape")?.status).toBe("error");
    expect(String(answered.get("call-escape")?.content)).toMatch(/outside the workspace/i);
    expect(asked.sort()).toEqual(["file-write", "terminal-execute (warning)"]);
    expect(fixture.read("notes.txt")).toBe("hello");
    expect(fixture.commands).toEqual([]);
    expect(await auditSummary(fixture)).toEqual(
      expect.arrayContaining([
        "file-read completed",
        "file-read failed",
        "file-write completed",
        "file-write validationError",
        "terminal-execute denied",
      ]),
    );

    const next = await agent.invoke({
      messages: [...first.messages, { role: "user", content: "write again" }],
    });
    expect(toolMessages(next.messages).get("call-next")?.status).toBe("success");
    expect(fixture.read("next.txt")).toBe("again");
    expect(asked).toHaveLength(2);
  });

  it("answers a direct invoke with a tool call as a ToolMessage, status error for invalid arguments", async () => {
    fixture = await makeAdapterFixture();
    const [read] = toLangChainTools(fixture.processor, { tools: ["file-read"] });
    const message = await read!.invoke({
      id: "c1",
      name: "file-read",
      args: { path: 7 },
      type: "tool_call",
    });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message.status).toBe("error");
    expect(message.tool_call_id).toBe("c1");
    expect(String(message.content)).toMatch(/path/);
  });
});

describe("LangChain: progress", () => {
  it("streams a tool's progress reports as LangChain tool events, then answers with the ToolMessage", async () => {
    fixture = await makeAdapterFixture({
      approvalHandler: { requestApproval: (request) => ApprovalDecision.approve().bindTo(request) },
    });
    const [terminal] = toLangChainTools(fixture.processor, { tools: ["terminal-execute"] });
    const events: unknown[] = [];
    const message = await terminal!.invoke(
      { id: "c1", name: "terminal-execute", args: { command: "ls" }, type: "tool_call" },
      { callbacks: [{ handleToolEvent: (chunk: unknown) => void events.push(chunk) }] },
    );
    expect(events).toEqual([
      { type: "progress", message: expect.stringContaining("running ls"), percentComplete: 50 },
    ]);
    expect(message.status).toBe("success");
    expect(String(message.content)).toMatch(/ran ls/);
    expect(fixture.commands).toEqual(["ls"]);
  });
});

describe("LangChain: a call to a tool the agent does not have", () => {
  const misspelled = () =>
    new ScriptedChatModel([
      calls([["c1", "file-raed", { path: "src/app.ts" }]]),
      new AIMessage("done"),
    ]);

  it("gets createAgent's own error ToolMessage by default, naming the tools (aintern never sees the call)", async () => {
    fixture = await makeAdapterFixture();
    const agent = createAgent({ model: misspelled(), tools: toLangChainTools(fixture.processor) });
    const result = await agent.invoke({ messages: [{ role: "user", content: "read" }] });
    const c1 = toolMessages(result.messages).get("c1");
    expect(c1?.status).toBe("error");
    expect(String(c1?.content)).toMatch(/file-raed.*file-read/s);
    expect(await auditSummary(fixture)).toEqual([]);
  });

  it("with unknownToolMiddleware, gets aintern's not-found message as an error ToolMessage, and the call is audited", async () => {
    fixture = await makeAdapterFixture();
    const agent = createAgent({
      model: misspelled(),
      tools: toLangChainTools(fixture.processor),
      middleware: [createMiddleware(unknownToolMiddleware(fixture.processor))],
    });
    const result = await agent.invoke({ messages: [{ role: "user", content: "read" }] });
    const c1 = toolMessages(result.messages).get("c1");
    expect(c1?.status).toBe("error");
    expect(String(c1?.content)).toMatch(/Tool 'file-raed' not found\. Did you mean 'file-read'\?/);
    expect(await auditSummary(fixture)).toEqual([
      expect.stringMatching(/^file-raed (failed|validationError)$/),
    ]);
  });
});

describe("LangChain: approval through LangGraph's interrupt()", () => {
  it("judges a call it lets run once: processCall runs on the check that found no one need be asked, audited as the policy's", async () => {
    const policy = new CountingPolicy();
    fixture = await makeAdapterFixture({ sessionId: "session-lg", policy });
    const model = new ScriptedChatModel([
      calls([["r1", "file-read", { path: "src/app.ts" }]]),
      new AIMessage("read"),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(fixture.processor, { approval: "interrupt" }),
      checkpointer: new MemorySaver(),
    });
    const result = await agent.invoke(
      { messages: [{ role: "user", content: "read it" }] },
      { configurable: { thread_id: "t-read" } },
    );
    expect(result.__interrupt__ ?? []).toHaveLength(0);
    expect(String(toolMessages(result.messages).get("r1")?.content)).toContain("answer = 42");
    expect(policy.decisions).toBe(1);
    const rows = await fixture.audit();
    expect(rows.map((r) => [r.callId, r.status, r.decision, r.decidedBy])).toEqual([
      ["r1", "completed", "approved", "policy"],
    ]);
  });

  it("stops the graph with aintern's request (Critical warning included), takes the resumed answer as the decision, audits the denial; a remembered approval does not interrupt next turn", async () => {
    fixture = await makeAdapterFixture({ sessionId: "session-lg" });
    const model = new ScriptedChatModel([
      calls([["c1", "terminal-execute", { command: "shutdown -h now" }]]),
      new AIMessage("stopped"),
      calls([["c2", "file-write", { path: "a.txt", content: "a" }]]),
      new AIMessage("asked"),
      calls([["c3", "file-write", { path: "b.txt", content: "b" }]]),
      new AIMessage("remembered"),
    ]);
    const agent = createAgent({
      model,
      tools: toLangChainTools(fixture.processor, { approval: "interrupt" }),
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "t1" } };
    const first = await agent.invoke({ messages: [{ role: "user", content: "restart" }] }, config);
    const request = first.__interrupt__?.[0]?.value as AinternApprovalRequest | undefined;
    expect(request).toMatchObject({ type: "aintern-approval", toolId: "terminal-execute" });
    expect(request?.warning).toBeTruthy();

    const denied = await agent.invoke(
      new Command({ resume: { approved: false, reason: "Never on this host" } }),
      config,
    );
    const c1 = toolMessages(denied.messages).get("c1");
    expect(c1?.status).toBe("error");
    expect(String(c1?.content)).toMatch(/Never on this host/);
    expect(fixture.commands).toEqual([]);
    expect(await auditSummary(fixture)).toContain("terminal-execute denied");

    const asked = await agent.invoke({ messages: [{ role: "user", content: "write a" }] }, config);
    expect(asked.__interrupt__).toHaveLength(1);
    await agent.invoke(
      new Command({ resume: { approved: true, rememberForSession: true } }),
      config,
    );
    expect(fixture.read("a.txt")).toBe("a");

    const next = await agent.invoke({ messages: [{ role: "user", content: "write b" }] }, config);
    expect(next.__interrupt__ ?? []).toHaveLength(0);
    expect(fixture.read("b.txt")).toBe("b");
  });
});
