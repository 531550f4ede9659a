import { createInterface } from "node:readline/promises";
import type { Readable, Writable } from "node:stream";
import { rememberedCoverage } from "../approval/index.js";
import type { ApprovalHandler, ApprovalPromptDetails, ToolCallRequest } from "../calls/index.js";
import { ApprovalDecision } from "../calls/index.js";
import { displayText, RiskLevelMetadata } from "../core/index.js";

/** The most characters of one line of the prompt; the middle of a longer one is cut. */
const maxShownLength = 4_000;

/** Streams a {@link TerminalApprovalHandler} talks through (default: stdin / stdout). */
export interface TerminalApprovalHandlerConfig {
  readonly input?: Readable;
  readonly output?: Writable;
}

/**
 * Asks on a terminal, one call at a time (parallel calls wait their turn), with the spec's
 * remember options:
 *
 *   [y] approve once   [s] approve for this session   [t] always approve this tool
 *   [p] approve calls matching a pattern (asks for it)   [n] deny (asks for a reason)
 */
export class TerminalApprovalHandler implements ApprovalHandler {
  readonly #input: Readable;
  readonly #output: Writable;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(config: TerminalApprovalHandlerConfig = {}) {
    this.#input = config.input ?? process.stdin;
    this.#output = config.output ?? process.stdout;
  }

  requestApproval(
    request: ToolCallRequest,
    signal: AbortSignal,
    details?: ApprovalPromptDetails,
  ): Promise<ApprovalDecision> {
    const turn = this.#queue.then(() => this.#ask(request, signal, details));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  async #ask(request: ToolCallRequest, signal: AbortSignal, details?: ApprovalPromptDetails) {
    const started = Date.now();
    const rl = createInterface({ input: this.#input, output: this.#output, terminal: false });
    const ask = (q: string) => rl.question(q, { signal });
    try {
      const risk = RiskLevelMetadata.getInfo(request.riskLevel);
      // What the model wrote reaches the terminal escaped: an ANSI sequence or a carriage return
      // in a command could otherwise draw another command over it.
      const shown = (text: string) => displayText(text, { maxLength: maxShownLength });
      this.#output.write(
        `\n${risk.displayName.toUpperCase()}  ${shown(request.executionSummary)}\n`,
      );
      // JSON writes a backslash as `\\` already: it is not doubled again.
      const args = displayText(JSON.stringify(request.parameters), {
        maxLength: maxShownLength,
        keepBackslashes: true,
      });
      this.#output.write(`  tool: ${shown(request.toolId)}   arguments: ${args}\n`);
      if (details?.reason !== undefined) {
        this.#output.write(`  why asked: ${shown(details.reason)}\n`);
      }
      if (details?.warning !== undefined) {
        this.#output.write(`  WARNING: ${shown(details.warning)}\n`);
      }
      const coverage = rememberedCoverage(shown(request.toolId), request.riskLevel);
      if (coverage !== undefined) this.#output.write(`  ${coverage}\n`);
      while (true) {
        const answer = (
          await ask("  [y] once  [s] session  [t] always this tool  [p] pattern  [n] deny > ")
        )
          .trim()
          .toLowerCase();
        const timing = { decisionDurationMs: Date.now() - started };
        switch (answer) {
          case "y":
            return ApprovalDecision.approve(timing).bindTo(request);
          case "s":
            return ApprovalDecision.approve({ ...timing, rememberForSession: true }).bindTo(
              request,
            );
          case "t":
            return ApprovalDecision.approve({ ...timing, rememberForTool: true }).bindTo(request);
          case "p": {
            const pattern = (await ask("  pattern (e.g. src/**/*.ts or npm *) > ")).trim();
            return ApprovalDecision.approve({
              ...timing,
              rememberForSession: true,
              rememberPattern: pattern,
            }).bindTo(request);
          }
          case "n": {
            const reason = (await ask("  reason for the model (optional) > ")).trim();
            return ApprovalDecision.deny(reason === "" ? "Denied by user" : reason, timing).bindTo(
              request,
            );
          }
          default:
            this.#output.write("  please answer y, s, t, p or n\n");
        }
      }
    } finally {
      rl.close();
    }
  }
}

/** What {@link flagApprovalHandler} answers with. */
export type ApprovalFlag = "all" | "none";

/**
 * Answers without a person, for scripts and CI: `all` approves every call that reaches it
 * (the policy's denials and Critical warnings still apply upstream), `none` denies each.
 */
export function flagApprovalHandler(flag: ApprovalFlag): ApprovalHandler {
  return {
    requestApproval(request) {
      return flag === "all"
        ? ApprovalDecision.approve({}).bindTo(request)
        : ApprovalDecision.deny(
            "Not approved: running without a terminal and --approve=none",
          ).bindTo(request);
    },
  };
}
