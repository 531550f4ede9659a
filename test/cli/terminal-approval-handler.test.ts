import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ToolCallRequest } from "../../src/calls/index.js";
import { flagApprovalHandler, TerminalApprovalHandler } from "../../src/cli/index.js";
import { RiskLevel } from "../../src/core/index.js";

function request() {
  return ToolCallRequest.create(
    "terminal-execute",
    "terminal-execute",
    { command: "npm test" },
    1,
    RiskLevel.Medium,
  );
}

/** A terminal call of `command` waiting for approval, its summary as terminal-execute writes it. */
function commandRequest(command: string) {
  return new ToolCallRequest({
    toolId: "terminal-execute",
    toolName: "terminal-execute",
    parameters: { command },
    riskLevel: RiskLevel.Medium,
    executionSummary: `Run \`${command}\``,
    requiresApproval: true,
  });
}

function terminal(answers: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
    // Answer each prompt as it appears, like a person typing.
    if (shown.trimEnd().endsWith(">") && answers.length > 0) input.write(`${answers.shift()}\n`);
  });
  return { handler: new TerminalApprovalHandler({ input, output }), shownText: () => shown };
}

describe("TerminalApprovalHandler", () => {
  it("approves once on 'y', bound to the request", async () => {
    const { handler, shownText } = terminal(["y"]);
    const r = request();
    const decision = await handler.requestApproval(r, new AbortController().signal, {
      reason: "Medium Risk calls need approval",
      riskLevel: RiskLevel.Medium,
      round: 1,
    });
    expect(decision.approved).toBe(true);
    expect(decision.rememberForSession).toBe(false);
    expect(decision.mismatch(r)).toBeUndefined();
    expect(shownText()).toContain("Medium Risk calls need approval");
    expect(shownText()).toContain(
      "also approves later terminal-execute calls up to Medium risk, not only this one",
    );
  });

  it("shows a command with a real line break unlike one with the text \\n", async () => {
    const shownFor = async (command: string) => {
      const { handler, shownText } = terminal(["n", ""]);
      await handler.requestApproval(commandRequest(command), new AbortController().signal);
      return shownText();
    };
    const real = await shownFor("echo 'ok'\nrm -rf ~/x");
    const literal = await shownFor("echo 'ok'\\nrm -rf ~/x");
    expect(real).toContain("MEDIUM RISK  Run `echo 'ok'\\nrm -rf ~/x`\n");
    expect(literal).toContain("MEDIUM RISK  Run `echo 'ok'\\\\nrm -rf ~/x`\n");
    // The arguments are JSON, whose backslashes are escapes already: not doubled again.
    expect(real).toContain('arguments: {"command":"echo \'ok\'\\nrm -rf ~/x"}');
    expect(literal).toContain('arguments: {"command":"echo \'ok\'\\\\nrm -rf ~/x"}');
  });

  it("offers the remember options: session, tool and pattern", async () => {
    for (const [answers, check] of [
      [["s"], (d: { rememberForSession: boolean }) => d.rememberForSession],
      [["t"], (d: { rememberForTool: boolean }) => d.rememberForTool],
      [["p", "npm *"], (d: { rememberPattern?: string }) => d.rememberPattern === "npm *"],
    ] as const) {
      const { handler } = terminal([...answers]);
      const decision = await handler.requestApproval(request(), new AbortController().signal);
      expect(decision.approved).toBe(true);
      expect(check(decision as never)).toBe(true);
    }
  });

  it("denies with the reason typed, after asking again on an unknown answer", async () => {
    const { handler, shownText } = terminal(["maybe", "n", "too risky"]);
    const decision = await handler.requestApproval(request(), new AbortController().signal, {
      reason: "x",
      riskLevel: RiskLevel.Critical,
      round: 1,
      warning: "Critical: be careful",
    });
    expect(decision.approved).toBe(false);
    expect(decision.reason).toBe("too risky");
    expect(shownText()).toContain("please answer");
    expect(shownText()).toContain("WARNING: Critical: be careful");
  });

  it("flag handlers approve everything or deny everything without a terminal", async () => {
    const r = request();
    const yes = await flagApprovalHandler("all").requestApproval(r, new AbortController().signal);
    const no = await flagApprovalHandler("none").requestApproval(r, new AbortController().signal);
    expect(yes.approved).toBe(true);
    expect(no.approved).toBe(false);
    expect(no.reason).toContain("--approve=none");
  });
});

describe("TerminalApprovalHandler's prompt", () => {
  it("writes the model's control characters escaped, so no command is drawn over another", async () => {
    const command = "touch PWNED \u001b[2K\r\u001b[8m# \u001b[0mecho harmless\b\b";
    const r = commandRequest(command);
    const { handler, shownText } = terminal(["n", ""]);
    await handler.requestApproval(r, new AbortController().signal, {
      reason: "asks\u009b2K",
      riskLevel: RiskLevel.Medium,
      round: 1,
      warning: `padded${" ".repeat(2100)}; tail`,
    });
    const text = shownText();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain(
      "Run `touch PWNED \\u001b[2K\\r\\u001b[8m# \\u001b[0mecho harmless\\b\\b`",
    );
    expect(text).toContain("why asked: asks\\u009b2K");
    expect(text).toContain("WARNING: padded[2,100 spaces]; tail");
  });
});
