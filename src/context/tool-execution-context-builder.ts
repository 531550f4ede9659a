import { AinternError, type JsonObject } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";
import { freezeJsonObject, parseJsonObject, serializeToJsonObject } from "./freeze-json.js";
import { ServiceContainer } from "./service-container.js";
import type { ServiceProvider } from "./service-provider.js";
import {
  type ToolApprovalDetails,
  ToolExecutionContext,
  type ToolExecutionContextInit,
  type ToolProgressCallback,
} from "./tool-execution-context.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Fluent builder for a {@link ToolExecutionContext} (spec 000 `ToolExecutionContextBuilder`).
 * Parameters are checked and copied when given, so later changes to the caller's object do not
 * leak in.
 *
 * @example
 * ```ts
 * const context = ToolExecutionContextBuilder.create()
 *   .withToolId("file-read")
 *   .withWorkspace("/path/to/project")
 *   .withParametersFromObject({ path: "src/file.ts" })
 *   .withServices(services)
 *   .build();
 * ```
 */
export class ToolExecutionContextBuilder {
  readonly #init: Partial<Mutable<ToolExecutionContextInit>> = {};
  #metadata: Map<string, unknown> | undefined;

  /** A new, empty builder. */
  static create(): ToolExecutionContextBuilder {
    return new ToolExecutionContextBuilder();
  }

  /** Sets the execution id (default: a new random UUID). */
  withExecutionId(id: string): this {
    this.#init.executionId = id;
    return this;
  }

  /** Sets the conversation / agent session id. */
  withSessionId(id: string): this {
    this.#init.sessionId = id;
    return this;
  }

  /** Sets the id of the tool being executed. */
  withToolId(toolId: string): this {
    this.#init.toolId = toolId;
    return this;
  }

  /** Sets the id of the tool call request this execution answers. */
  withToolCallId(toolCallId: string): this {
    this.#init.toolCallId = toolCallId;
    return this;
  }

  /** Sets the workspace root; `undefined` (or `""`) for no workspace. */
  withWorkspace(path: string | undefined): this {
    this.#init.workspacePath = path;
    return this;
  }

  /**
   * Sets the parameters from a JSON object (copied and frozen).
   *
   * @throws {AinternError} `INVALID_PARAMETERS` when it is not a plain JSON object.
   */
  withParameters(parameters: JsonObject): this {
    this.#init.parameters = freezeJsonObject(parameters, "parameters");
    return this;
  }

  /**
   * Sets the parameters from any value, serialized as `JSON.stringify` does (dates become
   * strings, `undefined` members are dropped).
   *
   * @throws {AinternError} `INVALID_PARAMETERS` when it does not serialize to a JSON object.
   */
  withParametersFromObject(obj: unknown): this {
    this.#init.parameters = serializeToJsonObject(obj, "parameters");
    return this;
  }

  /**
   * Sets the parameters from a JSON string.
   *
   * @throws {AinternError} `INVALID_PARAMETERS` when it is not valid JSON or not an object.
   */
  withParametersFromJson(json: string): this {
    this.#init.parameters = parseJsonObject(json, "parameters");
    return this;
  }

  /** Sets empty parameters (`{}`), the default. */
  withEmptyParameters(): this {
    this.#init.parameters = Object.freeze({});
    return this;
  }

  /** Sets the application services (required by {@link ToolExecutionContextBuilder.build}). */
  withServices(services: ServiceProvider): this {
    this.#init.services = services;
    return this;
  }

  /** Sets the abort signal for the execution (the C# cancellation token). */
  withCancellation(signal: AbortSignal): this {
    this.#init.signal = signal;
    return this;
  }

  /** Sets the progress callback. */
  withProgress(progress: ToolProgressCallback): this {
    this.#init.progress = progress;
    return this;
  }

  /** Sets whether the execution is approved (default true), with who / why / when if known. */
  withApproval(approved = true, details?: ToolApprovalDetails): this {
    this.#init.isApproved = approved;
    this.#init.approval = details;
    return this;
  }

  /**
   * Sets the parameters a person edited during approval (copied and frozen).
   *
   * @throws {AinternError} `INVALID_PARAMETERS` when it is not a plain JSON object.
   */
  withModifiedParameters(parameters: JsonObject): this {
    this.#init.modifiedParameters = freezeJsonObject(parameters, "modified parameters");
    return this;
  }

  /**
   * Sets the edited parameters from any value, serialized as `JSON.stringify` does.
   *
   * @throws {AinternError} `INVALID_PARAMETERS` when it does not serialize to a JSON object.
   */
  withModifiedParametersFromObject(obj: unknown): this {
    this.#init.modifiedParameters = serializeToJsonObject(obj, "modified parameters");
    return this;
  }

  /**
   * `withMetadata(key, value)` adds one entry (calls accumulate);
   * `withMetadata(record | map)` replaces all metadata with a copy of the given entries.
   */
  withMetadata(key: string, value: unknown): this;
  withMetadata(metadata: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>): this;
  withMetadata(
    keyOrMetadata: string | Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>,
    value?: unknown,
  ): this {
    if (typeof keyOrMetadata === "string") {
      this.#metadata ??= new Map();
      this.#metadata.set(keyOrMetadata, value);
    } else {
      this.#metadata = new Map(
        keyOrMetadata instanceof Map ? keyOrMetadata : Object.entries(keyOrMetadata),
      );
    }
    return this;
  }

  /** Sets the start time (for tests, or to rebuild a context). */
  withStartedAt(startedAt: Date): this {
    this.#init.startedAt = startedAt;
    return this;
  }

  /** Sets the clock (epoch milliseconds) used for `elapsedMs` and the default start time. */
  withClock(now: () => number): this {
    this.#init.now = now;
    return this;
  }

  /**
   * Builds the context.
   *
   * @throws {AinternError} `SERVICES_REQUIRED` when `withServices(...)` was not called.
   */
  build(): ToolExecutionContext {
    const services = this.#init.services;
    if (services === undefined) {
      throw new AinternError(
        ContextErrorCode.ServicesRequired,
        "Services must be provided via withServices() before build(). In tests, use " +
          "buildForTesting(), which supplies an empty service container.",
      );
    }
    return this.#build(services);
  }

  /**
   * Builds the context for a test: services are `services`, else those given to
   * `withServices(...)`, else an empty {@link ServiceContainer}.
   */
  buildForTesting(services?: ServiceProvider): ToolExecutionContext {
    return this.#build(services ?? this.#init.services ?? new ServiceContainer());
  }

  #build(services: ServiceProvider): ToolExecutionContext {
    return new ToolExecutionContext({
      ...this.#init,
      services,
      ...(this.#metadata !== undefined && { metadata: this.#metadata }),
    });
  }
}
