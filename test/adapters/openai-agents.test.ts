import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunToolCallOutputItem,
  run,
  type StreamEvent,
  setTracingDisabled,
  Usage,
} from "@openai/agents";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentsToolNames,
  applyDecisions,
  toAgentsTools,
} from "../../src/adapters/openai-agents/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { defineTool } from "../../src/tools/index.js";
import {
  type AdapterFixture,
  auditSummary,
  CountingPolicy,
  makeAdapterFixture,
  mixedTurn,
  personAtHandler,
} from "./adapter-fixture.js";

/** A model that answers with the scripted responses, in order. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #responses: ModelResponse[];

  constructor(responses: ModelResponse[]) {
    this.#responses = responses;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const next = this.#responses.shift();
    if (next === undefined) throw new Error("The scripted model has no more responses");
    return next;
  }

  // biome-ignore lint/correctness/useYield: the tests never stream
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error("The scripted model does not stream");
  }
}

function calls(list: readonly (readonly [string, string, unknown])[]): ModelResponse {
  return {
    usage: new Usage(),
    output: list.map(([callId, name, args]) => ({
      type: "function_call" as const,
      id: `fc-${callId}`,
      callId,
      name,
      arguments: JSON.stringify(args),
      status: "completed" as const,
    })),
  };
}

function text(value: string): ModelResponse {
  return {
    usage: new Usage(),
    output: [
      {
        type: "message" as const,
        id: `msg-${value}`,
        role: "assistant" as const,
        status: "completed" as const,
        content: [{ type: "output_text" as const, text: value }],
      },
    ],
  };
}

/** The mixed-risk turn with the SDK's names (`file-read` -> `file_read`). */
const agentsTurn = mixedTurn.map(
  ([id, tool, args]) => [id, tool.replace(/-/g, "_"), args] as const,
);

function outputs(items: readonly unknown[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const item of items) {
    if (item instanceof RunToolCallOutputItem && item.rawItem.type === "function_call_result") {
      const output = item.rawItem.output;
      found.set(
        item.rawItem.callId,
        typeof output === "string"
          ? output
          : "type" in output && output.type === "text"
            ? output.text
            : JSON.stringify(output),
      );
    }
  }
  return found;
}

let fixture: AdapterFixture;
beforeAll(() => setTracingDisabled(true));
afterEach(async () => fixture.close());

describe("OpenAI Agents: toAgentsTools", () => {
  beforeEach(async () => {
    fixture = await makeAdapterFixture({ sessionId: "session-agents" });
  });

  it("names the tools as the SDK keeps them and maps each name back to its aintern id", () => {
    const tools = toAgentsTools(fixture.processor);
    expect(tools.map((t) => t.name).sort()).toEqual([
      "file_read",
      "file_write",
      "terminal_execute",
    ]);
    expect(tools.toolIds.get("file_read")).toBe("file-read");
    expect(tools.toolIds.get("terminal_execute")).toBe("terminal-execute");
  });

  it("judges a call it lets run once with the SDK's approvals: execute runs on needsApproval's check, audited as the policy's", async () => {
    await fixture.close();
    const policy = new CountingPolicy();
    fixture = await makeAdapterFixture({ sessionId: "session-agents", policy });
    const model = new ScriptedModel([
      calls([["call-read", "file_read", { path: "src/app.ts" }]]),
      text("done"),
    ]);
    const agent = new Agent({
      name: "dev",
      instructions: "Use the tools.",
      model,
      tools: toAgentsTools(fixture.processor, { approval: "framework" }),
    });
    const result = await run(agent, "read it");
    expect(result.interruptions).toEqual([]);
    expect(outputs(result.newItems).get("call-read")).toContain("answer = 42");
    expect(policy.decisions).toBe(1);
    const rows = await fixture.audit();
    expect(rows.map((r) => [r.callId, r.status, r.decision, r.decidedBy])).toEqual([
      ["call-read", "completed", "approved", "policy"],
    ]);
  });

  it("runs a mixed-risk turn with the SDK's approvals: Safe runs, Medium and Critical interrupt, the rejection is recorded, bad arguments and a path escape get aintern's messages, all audited; alwaysApprove is remembered for the next turn", async () => {
    const model = new ScriptedModel([
      calls(agentsTurn),
      text("done"),
      calls([["call-next", "file_write", { path: "next.txt", content: "again" }]]),
      text("done again"),
    ]);
    const agent = new Agent({
      name: "dev",
      instructions: "Use the tools.",
      model,
      tools: toAgentsTools(fixture.processor, { approval: "framework" }),
    });
    const first = await run(agent, "tidy up");
    const interrupted = first.interruptions.map((item) => item.name).sort();
    expect(interrupted).toEqual(["file_write", "terminal_execute"]);
    const critical = first.interruptions.find((item) => item.name === "terminal_execute")!;
    const details = await fixture.processor.needsApproval(
      "terminal-execute",
      JSON.parse(critical.arguments ?? "{}"),
      { sessionId: "session-agents" },
    );
    expect(details !== false && details.warning).toBeTruthy();

    for (const item of first.interruptions) {
      if (item.name === "terminal_execute")
        first.state.reject(item, { message: "Never on this host" });
      else first.state.approve(item, { alwaysApprove: true });
    }
    await applyDecisions(first.state, fixture.processor);
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe("done");

    const answered = outputs([...first.newItems, ...second.newItems]);
    expect(answered.get("call-safe")).toMatch(/answer = 42/);
    expect(answered.get("call-medium")).toMatch(/Success/);
    expect(answered.get("call-critical")).toMatch(/Never on this host/);
    expect(answered.get("call-bad")).toMatch(/content/);
    expect(answered.get("call-escape")).toMatch(/outside the workspace/i);
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

    const next = await run(agent, "write again");
    expect(next.interruptions).toEqual([]);
    expect(next.finalOutput).toBe("done again");
    expect(fixture.read("next.txt")).toBe("again");
  });

  it("asks aintern's handler inline: Medium is asked and runs, the Critical call is asked with its warning and denied with aintern's message", async () => {
    await fixture.close();
    const asked: string[] = [];
    fixture = await makeAdapterFixture({ approvalHandler: personAtHandler(asked) });
    const agent = new Agent({
      name: "dev",
      model: new ScriptedModel([calls(agentsTurn), text("done")]),
      tools: toAgentsTools(fixture.processor),
    });
    const result = await run(agent, "tidy up");
    expect(result.finalOutput).toBe("done");
    const answered = outputs(result.newItems);
    expect(answered.get("call-critical")).toMatch(/denied.*Never on this host/s);
    expect(asked.sort()).toEqual(["file-write", "terminal-execute (warning)"]);
    expect(fixture.read("notes.txt")).toBe("hello");
    expect(fixture.commands).toEqual([]);
  });
});

describe("OpenAI Agents: schemas", () => {
  it("gives the SDK a strict schema it accepts as typed, and drops the model's nulls for optional properties before aintern validates", async () => {
    const received: unknown[] = [];
    fixture = await makeAdapterFixture({
      extraTools: [
        defineTool({
          id: "code-search",
          name: "Search",
          description: "Searches the code.",
          category: ToolCategory.Search,
          riskLevel: RiskLevel.Safe,
          inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }),
          execute: (input) => {
            received.push(input);
            return "found";
          },
        }),
      ],
    });
    const tools = toAgentsTools(fixture.processor, { tools: ["code-search"] });
    const [search] = tools;
    expect(search).toMatchObject({
      type: "function",
      name: "code_search",
      strict: true,
      parameters: { required: ["query", "limit"], additionalProperties: false },
    });
    const agent = new Agent({
      name: "dev",
      model: new ScriptedModel([
        calls([
          ["c1", "code_search", { query: "TODO", limit: null }],
          ["c2", "code_search", { query: "FIXME", limit: 3 }],
        ]),
        text("done"),
      ]),
      tools,
    });
    const result = await run(agent, "search");
    expect(result.finalOutput).toBe("done");
    expect(outputs(result.newItems).get("c1")).toMatch(/found/);
    expect(received).toEqual([{ query: "TODO" }, { query: "FIXME", limit: 3 }]);
  });
});

describe("OpenAI Agents: a call to a tool the agent does not have", () => {
  beforeEach(async () => {
    fixture = await makeAdapterFixture();
  });

  it("ends the run with the SDK's ModelBehaviorError by default (the SDK's own behaviour)", async () => {
    const agent = new Agent({
      name: "dev",
      model: new ScriptedModel([calls([["c1", "file_raed", { path: "src/app.ts" }]])]),
      tools: toAgentsTools(fixture.processor),
    });
    await expect(run(agent, "read")).rejects.toThrow(/Tool file_raed not found/);
  });

  it("with the tools' runOptions, answers a misspelled name and an aintern id with aintern's message in the SDK's names, and the run goes on", async () => {
    const tools = toAgentsTools(fixture.processor);
    const agent = new Agent({
      name: "dev",
      model: new ScriptedModel([
        calls([
          ["c1", "file_raed", { path: "src/app.ts" }],
          ["c2", "file-read", { path: "src/app.ts" }],
          ["c3", "file_read", { path: "src/app.ts" }],
        ]),
        text("done"),
      ]),
      tools,
    });
    const result = await run(agent, "read", { ...tools.runOptions });
    expect(result.finalOutput).toBe("done");
    const answered = outputs(result.newItems);
    expect(answered.get("c1")).toBe(
      "Tool 'file_raed' not found. Did you mean 'file_read'? Available: file_read, file_write, terminal_execute.",
    );
    expect(answered.get("c2")).toMatch(/^Tool 'file-read' not found\. Did you mean 'file_read'\?/);
    expect(answered.get("c3")).toMatch(/answer = 42/);
  });
});

describe("OpenAI Agents: names and blanket approvals", () => {
  it("makes ids the SDK would rewrite into names it keeps, numbering collisions", () => {
    expect([...agentsToolNames(["file-read", "file_read", "a.b", "x".repeat(70)])]).toEqual([
      ["file_read", "file-read"],
      ["file_read_2", "file_read"],
      ["a_b", "a.b"],
      ["x".repeat(64), "x".repeat(70)],
    ]);
  });

  it("never lets alwaysApprove cover a later Critical call: aintern asks again (and, with no handler, denies)", async () => {
    fixture = await makeAdapterFixture({ sessionId: "session-critical" });
    const model = new ScriptedModel([
      calls([["c1", "terminal_execute", { command: "shutdown -h now" }]]),
      calls([["c2", "terminal_execute", { command: "shutdown -r now" }]]),
      text("done"),
    ]);
    const agent = new Agent({
      name: "dev",
      model,
      tools: toAgentsTools(fixture.processor, { approval: "framework" }),
    });
    const first = await run(agent, "restart");
    expect(first.interruptions).toHaveLength(1);
    first.state.approve(first.interruptions[0]!, { alwaysApprove: true });
    await applyDecisions(first.state, fixture.processor);
    const second = await run(agent, first.state);
    const answered = outputs([...first.newItems, ...second.newItems]);
    expect(answered.get("c1")).toMatch(/ran shutdown -h now/);
    expect(answered.get("c2")).toMatch(/denied/i);
    expect(fixture.commands).toEqual(["shutdown -h now"]);
  });
});
