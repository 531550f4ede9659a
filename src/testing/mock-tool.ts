import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import { JsonSchema } from "../schema/index.js";
import { ToolBase, type ToolConstraints } from "../tools/index.js";
import type { ToolValidationResult } from "../validation/index.js";

/** Construction options of a {@link MockTool}; every member has a default. */
export interface MockToolConfig {
  readonly id?: string;
  readonly name?: string;
  readonly description?: string;
  readonly category?: ToolCategory;
  readonly riskLevel?: RiskLevel;
  readonly schema?: JsonSchema;
  readonly tags?: readonly string[];
  readonly requiredPermissions?: readonly string[];
  readonly requiresConfirmation?: boolean;
  readonly constraints?: ToolConstraints;
  readonly isAvailable?: boolean;
  /** The tool's behaviour; default: succeed with `{ executed: true }`. */
  readonly executeFunc?: (
    context: ToolExecutionContext,
    signal: AbortSignal,
  ) => Promise<ToolResult>;
  /** Replaces schema validation. */
  readonly validateFunc?: (parameters: unknown) => ToolValidationResult;
}

/**
 * A configurable tool for tests (spec 001 j), counting its calls and recording the parameters
 * it ran with. Exported from `aintern/testing`.
 *
 * @example
 * ```ts
 * const tool = MockTool.delayed("slow", 5_000);
 * registry.registerTool(tool);
 * ```
 */
export class MockTool extends ToolBase {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly inputSchema: JsonSchema;
  readonly #config: MockToolConfig;

  /** How many times the tool's core ran. */
  executeCallCount = 0;
  /** How many times `validate` was called. */
  validateCallCount = 0;
  /** The effective parameters of each run, in order. */
  readonly executedParameters: JsonObject[] = [];

  constructor(config: MockToolConfig = {}) {
    super();
    this.#config = config;
    this.id = config.id ?? "mock-tool";
    this.name = config.name ?? "Mock Tool";
    this.description = config.description ?? "A mock tool for testing";
    this.category = config.category ?? ToolCategory.Custom;
    this.inputSchema = config.schema ?? JsonSchema.empty();
  }

  override get defaultRiskLevel(): RiskLevel {
    return this.#config.riskLevel ?? RiskLevel.Safe;
  }
  override get isAvailable(): boolean {
    return this.#config.isAvailable ?? true;
  }
  override get tags(): readonly string[] {
    return this.#config.tags ?? [];
  }
  override get requiredPermissions(): readonly string[] {
    return this.#config.requiredPermissions ?? [];
  }
  override get requiresConfirmation(): boolean {
    return this.#config.requiresConfirmation ?? false;
  }
  override get constraints(): ToolConstraints | undefined {
    return this.#config.constraints;
  }

  override validate(parameters: unknown): ToolValidationResult {
    this.validateCallCount++;
    return this.#config.validateFunc?.(parameters) ?? super.validate(parameters);
  }

  protected async executeCore(
    context: ToolExecutionContext,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    this.executeCallCount++;
    this.executedParameters.push(context.effectiveParameters);
    if (this.#config.executeFunc !== undefined) return this.#config.executeFunc(context, signal);
    return ToolResult.succeeded({ executed: true }, "Mock tool executed");
  }

  /** Succeeds with `data` (default `{ success: true }`). */
  static succeeding(id = "success-tool", data: unknown = { success: true }): MockTool {
    return new MockTool({ id, executeFunc: async () => ToolResult.succeeded(data) });
  }

  /** Returns a failed result with `error`. */
  static failing(id = "fail-tool", error = "Test error"): MockTool {
    return new MockTool({ id, executeFunc: async () => ToolResult.failed(error) });
  }

  /** Throws `error` (default `new Error("Test exception")`). */
  static throwing(id = "throw-tool", error: unknown = new Error("Test exception")): MockTool {
    return new MockTool({
      id,
      executeFunc: async () => {
        throw error;
      },
    });
  }

  /** Succeeds after `delayMs` (default 100), stopping early when its signal aborts. */
  static delayed(id = "delay-tool", delayMs = 100): MockTool {
    return new MockTool({
      id,
      executeFunc: async (_context, signal) => {
        await abortableDelay(delayMs, signal);
        return ToolResult.succeeded();
      },
    });
  }

  /** Succeeds after `delayMs` and ignores its abort signal: a tool that will not stop. */
  static ignoringSignal(id = "stubborn-tool", delayMs = 1_000): MockTool {
    return new MockTool({
      id,
      executeFunc: async () => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return ToolResult.succeeded();
      },
    });
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
