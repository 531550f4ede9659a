import { dirname } from "node:path";
import {
  readOptionalParameter,
  readRequiredParameter,
  type ToolExecutionContext,
} from "../context/index.js";
import { ensureDirectory } from "../core/ensure-directory.js";
import { type JsonObject, RiskLevel, type ToolCategory } from "../core/index.js";
import { ToolArtifact, ToolResult } from "../result/index.js";
import type { JsonSchema } from "../schema/index.js";
import { type ToolValidationResult, ToolValidator } from "../validation/index.js";
import type { Tool, ToolConstraints, ToolIsolation, ToolSource } from "./index.js";
import { validateOnce } from "./validated-parameters.js";

/** True for the errors an aborted operation throws (`AbortError`, or a signal's own reason). */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted === true && (error === signal.reason || signal.reason === undefined)) {
    return true;
  }
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { name?: unknown }).name === "AbortError" ||
      (error as { name?: unknown }).name === "TimeoutError")
  );
}

/**
 * Base class for tools (spec 001 f). Subclasses give the identity members and
 * {@link ToolBase.executeCore}; `execute` validates the parameters, times the run, and turns
 * cancellation into a cancelled result and exceptions into failed results, so a tool never
 * throws at the executor.
 *
 * @example
 * ```ts
 * class EchoTool extends ToolBase {
 *   readonly id = "echo";
 *   readonly name = "Echo";
 *   readonly description = "Returns its text";
 *   readonly category = ToolCategory.Custom;
 *   readonly inputSchema = JsonSchemaBuilder.create().addString("text", "Text", { required: true }).build();
 *   protected async executeCore(context: ToolExecutionContext) {
 *     return ToolResult.succeeded({ text: context.getRequiredString("text") });
 *   }
 * }
 * ```
 */
export abstract class ToolBase implements Tool {
  abstract readonly id: string;
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly category: ToolCategory;
  abstract readonly inputSchema: JsonSchema;

  /** Low unless a subclass says otherwise, as the spec has it. */
  get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Low;
  }
  get isAvailable(): boolean {
    return true;
  }
  get tags(): readonly string[] {
    return [];
  }
  get requiredPermissions(): readonly string[] {
    return [];
  }
  get requiresConfirmation(): boolean {
    return false;
  }
  get constraints(): ToolConstraints | undefined {
    return undefined;
  }
  get isolation(): ToolIsolation | undefined {
    return undefined;
  }
  get source(): ToolSource | undefined {
    return undefined;
  }

  /** The tool's own work. Throwing is fine: `execute` turns it into a failed result. */
  protected abstract executeCore(
    context: ToolExecutionContext,
    signal: AbortSignal,
  ): Promise<ToolResult>;

  /** The schema validation uses: {@link inputSchema} as first read. */
  #validationSchema: JsonSchema | undefined;

  /**
   * Validates `parameters` against {@link inputSchema} (full JSON Schema, compiled once). The
   * schema is read once per tool: a subclass whose getter builds a new object on every read pays
   * neither a compile nor a stringify per call (a schema that changes after the first validation
   * is not seen; make a new tool instead).
   */
  validate(parameters: unknown): ToolValidationResult {
    // The shared validator caches each compiled schema; the registry checks schemas with it too.
    this.#validationSchema ??= this.inputSchema;
    return ToolValidator.shared.validateAgainstSchema(parameters, this.#validationSchema);
  }

  /** `"Execute <name>"` unless a subclass describes the call better. */
  getExecutionSummary(_parameters: JsonObject): string {
    return `Execute ${this.name}`;
  }

  /** {@link defaultRiskLevel} unless a subclass raises it for some parameters. */
  getEffectiveRiskLevel(_parameters: JsonObject): RiskLevel {
    return this.defaultRiskLevel;
  }

  /**
   * Validates, runs {@link executeCore} and times it; never throws. A signal that is already
   * aborted when validation passes gives a cancelled result without running the core.
   *
   * `signal` is optional and declared as a rest parameter on purpose: `execute.length` is then 1,
   * which tells a sandbox it need not make the signal for this tool (it is `context.signal`).
   */
  async execute(
    context: ToolExecutionContext,
    ...rest: [signal?: AbortSignal]
  ): Promise<ToolResult> {
    const started = performance.now();
    const [signal] = rest;
    try {
      // Validated once per call: parameters the processor or executor already checked are not
      // checked again; a tool called directly still validates.
      const validation = validateOnce(this, context.effectiveParameters);
      if (!validation.isValid) {
        return ToolResult.validationFailed(validation).withDuration(performance.now() - started);
      }
      if (signal === undefined ? context.isCancellationRequested : signal.aborted) {
        return ToolResult.cancelled().withDuration(performance.now() - started);
      }
      const result = await this.runCore(context, signal);
      return result.withDuration(performance.now() - started);
    } catch (error) {
      const result = isAbortError(error, signal ?? context.signal)
        ? ToolResult.cancelled()
        : ToolResult.fromException(error);
      return result.withDuration(performance.now() - started);
    }
  }

  /**
   * How {@link execute} reaches {@link executeCore}: with `signal`, or the context's own when
   * none was given. A subclass whose core reads only the context may override this to leave the
   * context's signal unmade until the tool reads it.
   */
  protected runCore(
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    return this.executeCore(context, signal ?? context.signal);
  }

  // ------------------------------------------------------------------ parameter helpers

  protected getRequiredString(parameters: JsonObject, name: string): string {
    return readRequiredParameter(parameters, name, "string");
  }
  protected getOptionalString(parameters: JsonObject, name: string, defaultValue?: string) {
    return readOptionalParameter(parameters, name, "string") ?? defaultValue;
  }
  protected getRequiredInt(parameters: JsonObject, name: string): number {
    return readRequiredParameter(parameters, name, "integer");
  }
  protected getOptionalInt(parameters: JsonObject, name: string, defaultValue = 0): number {
    return readOptionalParameter(parameters, name, "integer") ?? defaultValue;
  }
  protected getRequiredBool(parameters: JsonObject, name: string): boolean {
    return readRequiredParameter(parameters, name, "boolean");
  }
  protected getOptionalBool(parameters: JsonObject, name: string, defaultValue = false): boolean {
    return readOptionalParameter(parameters, name, "boolean") ?? defaultValue;
  }
  protected getRequiredStringArray(parameters: JsonObject, name: string): readonly string[] {
    return readRequiredParameter(parameters, name, "string array");
  }
  protected getOptionalStringArray(parameters: JsonObject, name: string): readonly string[] {
    return readOptionalParameter(parameters, name, "string array") ?? [];
  }

  /** The parameters as `T` after checking them against {@link inputSchema}; throws if invalid. */
  protected getParameters<T>(parameters: JsonObject): T {
    const result = this.validate(parameters);
    if (!result.isValid) throw new TypeError(result.getErrorMessage());
    return parameters as T;
  }

  /** Like {@link getParameters}, but returns undefined instead of throwing. */
  protected tryGetParameters<T>(parameters: JsonObject): T | undefined {
    return this.validate(parameters).isValid ? (parameters as T) : undefined;
  }

  // ------------------------------------------------------------------ path helpers

  /** The real, workspace-confined path of `path` (throws when it escapes the workspace). */
  protected resolvePath(context: ToolExecutionContext, path: string): string {
    return context.resolvePath(path);
  }

  /**
   * Throws `PathOutsideWorkspaceError` (or `InvalidPathError` / `NoWorkspaceError`) unless
   * `path` resolves inside the workspace, symbolic links followed.
   */
  protected validatePathInWorkspace(context: ToolExecutionContext, path: string): void {
    context.resolvePath(path);
  }

  /** Creates the directory that will hold `filePath`, if it does not exist. */
  protected async ensureDirectoryExists(filePath: string): Promise<void> {
    ensureDirectory(dirname(filePath));
  }

  // ------------------------------------------------------------------ result helpers

  protected successWithFile(path: string, message: string, isNew = false): ToolResult {
    return ToolResult.succeededWithArtifacts(
      [ToolArtifact.file(path, { isNew })],
      { path },
      message,
    );
  }

  protected successWithFiles(
    paths: readonly string[],
    message: string,
    areNew = false,
  ): ToolResult {
    return ToolResult.succeededWithArtifacts(
      paths.map((p) => ToolArtifact.file(p, { isNew: areNew })),
      { files: [...paths] },
      message,
    );
  }
}
