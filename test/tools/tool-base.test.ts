import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  NoWorkspaceError,
  PathOutsideWorkspaceError,
  type ToolExecutionContext,
  ToolExecutionContextBuilder,
  ToolParameterError,
} from "../../src/context/index.js";
import {
  AinternError,
  type JsonObject,
  RiskLevel,
  ToolCategory,
  ToolErrorCode,
} from "../../src/core/index.js";
import { ArtifactAction, ToolResult } from "../../src/result/index.js";
import { JsonSchema, JsonSchemaBuilder } from "../../src/schema/index.js";
import { isAbortError, ToolBase } from "../../src/tools/index.js";

type Core = (context: ToolExecutionContext, signal: AbortSignal) => Promise<ToolResult>;

/** A ToolBase whose core is a function, with the protected helpers made callable. */
class TestTool extends ToolBase {
  readonly id = "test-tool";
  readonly name = "Test Tool";
  readonly description = "A tool for ToolBase tests";
  readonly category = ToolCategory.FileSystem;
  readonly inputSchema: JsonSchema;
  coreCalls = 0;
  readonly #core: Core;

  constructor(core: Core = async () => ToolResult.succeeded("ok"), schema?: JsonSchema) {
    super();
    this.#core = core;
    this.inputSchema = schema ?? JsonSchema.empty();
  }

  protected executeCore(context: ToolExecutionContext, signal: AbortSignal): Promise<ToolResult> {
    this.coreCalls++;
    return this.#core(context, signal);
  }

  requiredString(p: JsonObject, name: string) {
    return this.getRequiredString(p, name);
  }
  optionalString(p: JsonObject, name: string, defaultValue?: string) {
    return this.getOptionalString(p, name, defaultValue);
  }
  requiredInt(p: JsonObject, name: string) {
    return this.getRequiredInt(p, name);
  }
  optionalInt(p: JsonObject, name: string, defaultValue?: number) {
    return this.getOptionalInt(p, name, defaultValue);
  }
  requiredBool(p: JsonObject, name: string) {
    return this.getRequiredBool(p, name);
  }
  optionalBool(p: JsonObject, name: string, defaultValue?: boolean) {
    return this.getOptionalBool(p, name, defaultValue);
  }
  requiredStringArray(p: JsonObject, name: string) {
    return this.getRequiredStringArray(p, name);
  }
  optionalStringArray(p: JsonObject, name: string) {
    return this.getOptionalStringArray(p, name);
  }
  parametersAs<T>(p: JsonObject) {
    return this.getParameters<T>(p);
  }
  tryParametersAs<T>(p: JsonObject) {
    return this.tryGetParameters<T>(p);
  }
  resolve(context: ToolExecutionContext, path: string) {
    return this.resolvePath(context, path);
  }
  checkInWorkspace(context: ToolExecutionContext, path: string) {
    this.validatePathInWorkspace(context, path);
  }
  ensureDirectory(filePath: string) {
    return this.ensureDirectoryExists(filePath);
  }
  withFile(path: string, message: string, isNew?: boolean) {
    return this.successWithFile(path, message, isNew);
  }
  withFiles(paths: readonly string[], message: string, areNew?: boolean) {
    return this.successWithFiles(paths, message, areNew);
  }
}

const requiresName = JsonSchemaBuilder.create()
  .addString("name", "The name", { required: true, minLength: 2 })
  .build();

function contextWith(parameters: JsonObject = {}, signal?: AbortSignal): ToolExecutionContext {
  const builder = ToolExecutionContextBuilder.create()
    .withToolId("test-tool")
    .withParameters(parameters);
  if (signal !== undefined) builder.withCancellation(signal);
  return builder.buildForTesting();
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

describe("ToolBase.execute", () => {
  it("returns the core's result for valid parameters", async () => {
    const tool = new TestTool(async (context) =>
      ToolResult.succeeded({ hello: context.getRequiredString("name") }),
    );
    const result = await tool.execute(contextWith({ name: "Ada" }));
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ hello: "Ada" });
    expect(tool.coreCalls).toBe(1);
  });

  it("validates first: invalid parameters give a validation failure and never run the core", async () => {
    const tool = new TestTool(undefined, requiresName);
    const result = await tool.execute(contextWith({}));
    expect(tool.coreCalls).toBe(0);
    expect(result.success).toBe(false);
    expect(result.isValidationFailure).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    // The model-facing message names the parameter and what is wrong.
    const expected = tool.validate({}).errors.map((e) => e.message);
    expect(expected.length).toBeGreaterThan(0);
    expect(result.error).toBe(expected.join("; "));
    expect(result.error).toContain("'name'");
    expect(result.data).toEqual({
      errors: [{ parameterName: "name", message: expected[0] }],
    });
  });

  it("reports each broken constraint, not only missing parameters", async () => {
    const tool = new TestTool(undefined, requiresName);
    const result = await tool.execute(contextWith({ name: "A" }));
    expect(tool.coreCalls).toBe(0);
    expect(result.isValidationFailure).toBe(true);
    expect(result.error).toMatch(/name.*at least 2/);
  });

  it("validates the effective parameters: a person's edits replace the model's", async () => {
    const tool = new TestTool(async (context) => ToolResult.succeeded(context.effectiveParameters));
    const schemaTool = new TestTool(
      async (context) => ToolResult.succeeded(context.effectiveParameters),
      requiresName,
    );
    const context = ToolExecutionContextBuilder.create()
      .withParameters({})
      .withModifiedParameters({ name: "Edited" })
      .buildForTesting();
    expect((await schemaTool.execute(context)).data).toEqual({ name: "Edited" });
    expect((await tool.execute(context)).success).toBe(true);
  });

  it("times the run: a tool that waits reports a positive duration", async () => {
    const tool = new TestTool(async () => {
      await sleep(25);
      return ToolResult.succeeded();
    });
    const result = await tool.execute(contextWith());
    expect(result.durationMs).toBeGreaterThan(0);
    expect(result.durationMs).toBeGreaterThanOrEqual(20);
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it("stamps a duration on validation failures, cancellations and failures too", async () => {
    const invalid = await new TestTool(undefined, requiresName).execute(contextWith());
    const thrown = await new TestTool(async () => {
      throw new Error("boom");
    }).execute(contextWith());
    for (const result of [invalid, thrown]) {
      expect(Number.isFinite(result.durationMs)).toBe(true);
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("turns an abort during the run into a cancelled result", async () => {
    const controller = new AbortController();
    const tool = new TestTool(async (_context, signal) => {
      await sleep(10_000, signal);
      return ToolResult.succeeded();
    });
    const pending = tool.execute(contextWith({}, controller.signal));
    setTimeout(() => controller.abort(), 10);
    const started = performance.now();
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.success).toBe(false);
    expect(result.isCancelled).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
  });

  it("passes the explicit signal to the core in preference to the context's", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const tool = new TestTool(async (_context, signal) => {
      seen = signal;
      return ToolResult.succeeded();
    });
    const context = contextWith();
    await tool.execute(context, controller.signal);
    expect(seen).toBe(controller.signal);
    await tool.execute(context);
    expect(seen).toBe(context.signal);
  });

  it("treats an abort with a custom reason as cancellation when the core rethrows it", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const tool = new TestTool(async (_context, signal) => {
      await sleep(10_000, signal);
      return ToolResult.succeeded();
    });
    const pending = tool.execute(contextWith(), controller.signal);
    controller.abort(reason);
    const result = await pending;
    expect(result.isCancelled).toBe(true);
  });

  it("turns a thrown AbortError or TimeoutError into a cancelled result even without an aborted signal", async () => {
    const abortError = new TestTool(async () => {
      throw new DOMException("The operation was aborted", "AbortError");
    });
    const timeoutError = new TestTool(async () => {
      throw new DOMException("The operation timed out", "TimeoutError");
    });
    expect((await abortError.execute(contextWith())).isCancelled).toBe(true);
    expect((await timeoutError.execute(contextWith())).isCancelled).toBe(true);
  });

  it("does not run the core when the signal is already aborted", async () => {
    const tool = new TestTool();
    const result = await tool.execute(contextWith({}, AbortSignal.abort()));
    expect(result.isCancelled).toBe(true);
    expect(tool.coreCalls).toBe(0);
  });

  it("still reports invalid parameters when the signal is already aborted", async () => {
    const tool = new TestTool(undefined, requiresName);
    const result = await tool.execute(contextWith({}, AbortSignal.abort()));
    expect(result.isValidationFailure).toBe(true);
  });

  it("turns a thrown error into a failed result built by ToolResult.fromException", async () => {
    const error = new TypeError("cannot read 'x' of undefined");
    const tool = new TestTool(async () => {
      throw error;
    });
    const result = await tool.execute(contextWith());
    const expected = ToolResult.fromException(error);
    expect(result.success).toBe(false);
    expect(result.isCancelled).toBe(false);
    expect(result.error).toBe(expected.error);
    expect(result.errorCode).toBe("TypeError");
    expect(result.exception).toBe(error);
  });

  it("keeps the code of an AinternError a tool throws", async () => {
    const tool = new TestTool(async () => {
      throw new AinternError("DISK_FULL", "No space left");
    });
    const result = await tool.execute(contextWith());
    expect(result.errorCode).toBe("DISK_FULL");
    expect(result.error).toBe("No space left");
  });

  it("turns a thrown non-Error value into a failed ExecutionError result", async () => {
    const tool = new TestTool(async () => {
      throw "just a string";
    });
    const result = await tool.execute(contextWith());
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(ToolErrorCode.ExecutionError);
    expect(result.error).toContain("just a string");
  });

  it("does not treat an ordinary error after an abort-free run as cancellation", async () => {
    const controller = new AbortController();
    const tool = new TestTool(async () => {
      throw new Error("unrelated");
    });
    const result = await tool.execute(contextWith(), controller.signal);
    expect(result.isCancelled).toBe(false);
    expect(result.error).toBe("unrelated");
  });

  it("turns a parameter helper's error into a failed result the model can act on", async () => {
    const tool = new TestTool(async (context) =>
      ToolResult.succeeded(tool.requiredString(context.effectiveParameters, "path")),
    );
    const result = await tool.execute(contextWith({}));
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe("MISSING_PARAMETER");
    expect(result.error).toContain("'path'");
  });
});

describe("ToolBase defaults", () => {
  it("has the spec's defaults: Low risk, available, no tags, 'Execute <name>' summary", () => {
    const tool = new TestTool();
    expect(tool.defaultRiskLevel).toBe(RiskLevel.Low);
    expect(tool.getEffectiveRiskLevel({ anything: 1 })).toBe(RiskLevel.Low);
    expect(tool.isAvailable).toBe(true);
    expect(tool.tags).toEqual([]);
    expect(tool.requiredPermissions).toEqual([]);
    expect(tool.requiresConfirmation).toBe(false);
    expect(tool.constraints).toBeUndefined();
    expect(tool.isolation).toBeUndefined();
    expect(tool.source).toBeUndefined();
    expect(tool.getExecutionSummary({})).toBe("Execute Test Tool");
  });

  it("validates with the full JSON Schema, not only required members", () => {
    const tool = new TestTool(undefined, requiresName);
    expect(tool.validate({ name: "Ada" }).isValid).toBe(true);
    expect(tool.validate({ name: 3 }).isValid).toBe(false);
    expect(tool.validate(null).isValid).toBe(false);
    expect(tool.validate([]).isValid).toBe(false);
  });
});

describe("ToolBase parameter helpers", () => {
  const tool = new TestTool();
  const p: JsonObject = {
    s: "text",
    i: 42,
    f: 1.5,
    b: true,
    arr: ["a", "b"],
    mixed: ["a", 1],
    nothing: null,
  };

  it("reads required values of the right type", () => {
    expect(tool.requiredString(p, "s")).toBe("text");
    expect(tool.requiredInt(p, "i")).toBe(42);
    expect(tool.requiredBool(p, "b")).toBe(true);
    expect(tool.requiredStringArray(p, "arr")).toEqual(["a", "b"]);
  });

  it("throws ToolParameterError for a missing, null or mistyped required value", () => {
    expect(() => tool.requiredString(p, "missing")).toThrow(ToolParameterError);
    expect(() => tool.requiredString(p, "nothing")).toThrow(ToolParameterError);
    expect(() => tool.requiredString(p, "i")).toThrow(/must be a string/i);
    expect(() => tool.requiredInt(p, "f")).toThrow(ToolParameterError);
    expect(() => tool.requiredBool(p, "s")).toThrow(ToolParameterError);
    expect(() => tool.requiredStringArray(p, "mixed")).toThrow(ToolParameterError);
  });

  it("never reads inherited members such as 'constructor' or '__proto__'", () => {
    expect(() => tool.requiredString({}, "constructor")).toThrow(ToolParameterError);
    expect(tool.optionalString({}, "__proto__", "fallback")).toBe("fallback");
    expect(tool.optionalStringArray({}, "toString")).toEqual([]);
  });

  it("gives defaults for absent or null optional values", () => {
    expect(tool.optionalString(p, "missing")).toBeUndefined();
    expect(tool.optionalString(p, "nothing", "dflt")).toBe("dflt");
    expect(tool.optionalString(p, "s", "dflt")).toBe("text");
    expect(tool.optionalInt(p, "missing")).toBe(0);
    expect(tool.optionalInt(p, "missing", 7)).toBe(7);
    expect(tool.optionalInt(p, "i", 7)).toBe(42);
    expect(tool.optionalBool(p, "missing")).toBe(false);
    expect(tool.optionalBool(p, "nothing", true)).toBe(true);
    expect(tool.optionalBool(p, "b")).toBe(true);
    expect(tool.optionalStringArray(p, "missing")).toEqual([]);
    expect(tool.optionalStringArray(p, "arr")).toEqual(["a", "b"]);
  });

  it("keeps a present zero, empty string or false instead of the default", () => {
    const zeros: JsonObject = { n: 0, s: "", b: false };
    expect(tool.optionalInt(zeros, "n", 9)).toBe(0);
    expect(tool.optionalString(zeros, "s", "dflt")).toBe("");
    expect(tool.optionalBool(zeros, "b", true)).toBe(false);
  });

  it("throws for a mistyped optional value", () => {
    expect(() => tool.optionalInt(p, "s")).toThrow(ToolParameterError);
    expect(() => tool.optionalBool(p, "i")).toThrow(ToolParameterError);
    expect(() => tool.optionalStringArray(p, "s")).toThrow(ToolParameterError);
  });

  it("getParameters returns the parameters after checking them against the schema", () => {
    const schemaTool = new TestTool(undefined, requiresName);
    expect(schemaTool.parametersAs<{ name: string }>({ name: "Ada" }).name).toBe("Ada");
    expect(() => schemaTool.parametersAs({})).toThrow(TypeError);
    expect(() => schemaTool.parametersAs({})).toThrow(/name/);
    expect(schemaTool.tryParametersAs<{ name: string }>({ name: "Ada" })).toEqual({ name: "Ada" });
    expect(schemaTool.tryParametersAs({ name: 1 })).toBeUndefined();
  });
});

describe("ToolBase path and result helpers", () => {
  let root: string;
  let realRoot: string;
  let context: ToolExecutionContext;
  const tool = new TestTool();

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "aintern-toolbase-"));
    realRoot = await realpath(root);
    context = ToolExecutionContextBuilder.create().withWorkspace(root).buildForTesting();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("resolves a relative path inside the workspace", async () => {
    await writeFile(join(root, "a.txt"), "hello");
    expect(tool.resolve(context, "a.txt")).toBe(join(realRoot, "a.txt"));
    expect(tool.resolve(context, "sub/new.txt")).toBe(join(realRoot, "sub", "new.txt"));
  });

  it("validatePathInWorkspace accepts paths inside and throws for '../x'", () => {
    expect(() => tool.checkInWorkspace(context, "inside.txt")).not.toThrow();
    expect(() => tool.checkInWorkspace(context, "dir/../inside.txt")).not.toThrow();
    expect(() => tool.checkInWorkspace(context, "../x")).toThrow(PathOutsideWorkspaceError);
    expect(() => tool.checkInWorkspace(context, "/etc/passwd")).toThrow(PathOutsideWorkspaceError);
  });

  it("validatePathInWorkspace throws NoWorkspaceError when no workspace is open", () => {
    const bare = ToolExecutionContextBuilder.create().buildForTesting();
    expect(() => tool.checkInWorkspace(bare, "a.txt")).toThrow(NoWorkspaceError);
  });

  it("a tool that checks an escaping path returns a failed result, not a throw", async () => {
    const guarded = new TestTool(async (ctx) => {
      guarded.checkInWorkspace(ctx, ctx.getRequiredString("path"));
      return ToolResult.succeeded();
    });
    const escaping = ToolExecutionContextBuilder.create()
      .withWorkspace(root)
      .withParameters({ path: "../../etc/passwd" })
      .buildForTesting();
    const result = await guarded.execute(escaping);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/outside the workspace/);
  });

  it("ensureDirectoryExists creates the parent directories of a file path", async () => {
    const file = join(root, "deep", "er", "file.txt");
    await tool.ensureDirectory(file);
    expect((await stat(join(root, "deep", "er"))).isDirectory()).toBe(true);
    await tool.ensureDirectory(file); // idempotent
    await mkdir(join(root, "x"), { recursive: true });
    await tool.ensureDirectory(join(root, "x", "y.txt"));
  });

  it("successWithFile makes a success with one file artifact and { path } as data", async () => {
    const file = join(root, "out.ts");
    await writeFile(file, "export {};\n");
    const result = tool.withFile(file, "Wrote out.ts", true);
    expect(result.success).toBe(true);
    expect(result.message).toBe("Wrote out.ts");
    expect(result.data).toEqual({ path: file });
    expect(result.artifacts).toHaveLength(1);
    const artifact = result.artifacts[0]!;
    expect(artifact.path).toBe(file);
    expect(artifact.isNew).toBe(true);
    expect(artifact.action).toBe(ArtifactAction.Created);
    expect(artifact.size).toBe(11);
    const modified = tool.withFile(file, "Updated");
    expect(modified.artifacts[0]!.isNew).toBe(false);
    expect(modified.artifacts[0]!.action).toBe(ArtifactAction.Modified);
  });

  it("successWithFiles makes one artifact per path and { files } as data", () => {
    const paths = [join(root, "a.md"), join(root, "b.md")];
    const result = tool.withFiles(paths, "Two files", true);
    expect(result.success).toBe(true);
    expect(result.message).toBe("Two files");
    expect(result.data).toEqual({ files: paths });
    expect(result.artifacts.map((a) => a.path)).toEqual(paths);
    expect(result.artifacts.every((a) => a.isNew)).toBe(true);
    const existing = tool.withFiles(paths, "Two files");
    expect(existing.artifacts.every((a) => !a.isNew)).toBe(true);
    expect(tool.withFiles([], "None").artifacts).toEqual([]);
  });
});

describe("isAbortError", () => {
  it("recognises AbortError and TimeoutError by name", () => {
    expect(isAbortError(new DOMException("x", "AbortError"))).toBe(true);
    expect(isAbortError(new DOMException("x", "TimeoutError"))).toBe(true);
    expect(isAbortError({ name: "AbortError" })).toBe(true);
  });

  it("recognises an aborted signal's own reason", () => {
    const controller = new AbortController();
    const reason = new Error("custom");
    controller.abort(reason);
    expect(isAbortError(reason, controller.signal)).toBe(true);
    expect(isAbortError(new Error("other"), controller.signal)).toBe(false);
  });

  it("rejects other errors and non-objects", () => {
    expect(isAbortError(new Error("boom"))).toBe(false);
    expect(isAbortError(null)).toBe(false);
    expect(isAbortError("AbortError")).toBe(false);
    expect(isAbortError(new Error("boom"), new AbortController().signal)).toBe(false);
  });
});
