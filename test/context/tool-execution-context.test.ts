import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ContextErrorCode,
  createServiceToken,
  NIL_UUID,
  NoWorkspaceError,
  PathOutsideWorkspaceError,
  ServiceContainer,
  ServiceNotRegisteredError,
  ToolExecutionContext,
  ToolExecutionContextBuilder,
  ToolParameterError,
  ToolProgress,
} from "../../src/context/index.js";

let workspace: string;
let outsideDir: string;

beforeAll(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ctx-")));
  workspace = join(base, "project");
  outsideDir = join(base, "elsewhere");
  mkdirSync(join(workspace, "src"), { recursive: true });
  mkdirSync(outsideDir);
  writeFileSync(join(workspace, "src", "file.ts"), "export {};\n");
  symlinkSync(outsideDir, join(workspace, "out-link"));
});

afterAll(() => {
  rmSync(join(workspace, ".."), { recursive: true, force: true });
});

function contextWith(parameters: Record<string, unknown>, workspacePath?: string) {
  return ToolExecutionContextBuilder.create()
    .withParametersFromObject(parameters)
    .withWorkspace(workspacePath)
    .buildForTesting();
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("ToolExecutionContext", () => {
  it("DefaultValues_Correct: a context built with only services has the documented defaults", () => {
    const before = Date.now();
    const context = new ToolExecutionContext({ services: new ServiceContainer() });
    expect(context.executionId).toMatch(uuidPattern);
    expect(context.sessionId).toBe(NIL_UUID);
    expect(context.toolId).toBe("");
    expect(context.toolCallId).toBeUndefined();
    expect(context.workspacePath).toBeUndefined();
    expect(context.hasWorkspace).toBe(false);
    expect(context.parameters).toEqual({});
    expect(context.modifiedParameters).toBeUndefined();
    expect(context.hasModifiedParameters).toBe(false);
    expect(context.signal.aborted).toBe(false);
    expect(context.progress).toBeUndefined();
    expect(context.isApproved).toBe(false);
    expect(context.approval).toBeUndefined();
    expect(Object.keys(context.metadata)).toEqual([]);
    expect(context.startedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(context.startedAt.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("copies caller parameters once: a copy made with with() shares the frozen parameters", () => {
    const parameters = { path: "a.txt", options: { depth: 2, tags: ["x"] } };
    const context = new ToolExecutionContext({ services: new ServiceContainer(), parameters });
    expect(context.parameters).not.toBe(parameters);
    expect(context.parameters).toEqual(parameters);
    expect(Object.isFrozen(context.parameters)).toBe(true);
    parameters.path = "changed.txt";
    expect(context.parameters.path).toBe("a.txt");
    const copy = context.with({ toolId: "other" });
    expect(copy.parameters).toBe(context.parameters);
  });

  it("names where parameters stop being JSON, deep inside", () => {
    const services = new ServiceContainer();
    expect(
      () => new ToolExecutionContext({ services, parameters: { a: [1, { b: () => 1 }] } as never }),
    ).toThrow(/a function is not JSON at parameters\.a\[1\]\.b/);
    const proto = JSON.parse('{"__proto__": {"x": 1}}');
    const context = new ToolExecutionContext({ services, parameters: proto });
    expect(Object.hasOwn(context.parameters, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(context.parameters)).toBe(Object.prototype);
  });

  it("gives contexts built without metadata an empty, frozen, null-prototype metadata", () => {
    const services = new ServiceContainer();
    const a = new ToolExecutionContext({ services });
    const b = new ToolExecutionContext({ services, metadata: new Map() });
    for (const context of [a, b]) {
      expect(Object.keys(context.metadata)).toEqual([]);
      expect(Object.isFrozen(context.metadata)).toBe(true);
      expect(Object.getPrototypeOf(context.metadata)).toBe(null);
    }
  });

  it("gives every context a new execution id", () => {
    const services = new ServiceContainer();
    const a = new ToolExecutionContext({ services });
    const b = new ToolExecutionContext({ services });
    expect(a.executionId).not.toBe(b.executionId);
  });

  it("EffectiveParameters_UsesOriginal: uses the model's parameters when there are no edits", () => {
    const context = contextWith({ path: "a.txt" });
    expect(context.effectiveParameters).toEqual({ path: "a.txt" });
    expect(context.effectiveParameters).toBe(context.parameters);
  });

  it("EffectiveParameters_UsesModified: uses a person's edits when present", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromObject({ path: "a.txt" })
      .withModifiedParametersFromObject({ path: "b.txt" })
      .buildForTesting();
    expect(context.hasModifiedParameters).toBe(true);
    expect(context.effectiveParameters).toEqual({ path: "b.txt" });
    expect(context.getRequiredString("path")).toBe("b.txt");
    expect(context.parameters).toEqual({ path: "a.txt" });
  });

  it("uses edited parameters even when the edit is an empty object", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromObject({ path: "a.txt" })
      .withModifiedParameters({})
      .buildForTesting();
    expect(context.effectiveParameters).toEqual({});
    expect(context.hasParameter("path")).toBe(false);
  });

  it("ResolvePath_Absolute_ReturnsAsIs: returns an absolute path inside the workspace as it is", () => {
    const context = contextWith({}, workspace);
    const file = join(workspace, "src", "file.ts");
    expect(context.resolvePath(file)).toBe(file);
  });

  it("refuses an absolute path outside the workspace instead of returning it", () => {
    const context = contextWith({}, workspace);
    expect(() => context.resolvePath(outsideDir)).toThrow(PathOutsideWorkspaceError);
    expect(context.tryResolvePath(outsideDir)).toBeUndefined();
  });

  it("ResolvePath_Relative_CombinesWithWorkspace: resolves a relative path against the workspace", () => {
    const context = contextWith({}, workspace);
    expect(context.resolvePath("src/file.ts")).toBe(join(workspace, "src", "file.ts"));
    expect(context.tryResolvePath("src/new.ts")).toBe(join(workspace, "src", "new.ts"));
  });

  it("ResolvePath_NoWorkspace_Throws: throws a clear error without a workspace", () => {
    const context = contextWith({});
    let caught: unknown;
    try {
      context.resolvePath("src/file.ts");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NoWorkspaceError);
    expect((caught as NoWorkspaceError).code).toBe(ContextErrorCode.NoWorkspace);
    expect((caught as NoWorkspaceError).message).toContain("src/file.ts");
    expect((caught as NoWorkspaceError).message).toContain("no workspace");
    expect(context.tryResolvePath("src/file.ts")).toBeUndefined();
    expect(() => contextWith({}, "").resolvePath("x")).toThrow(NoWorkspaceError);
  });

  it("refuses a path through a symlink that leads outside", () => {
    const context = contextWith({}, workspace);
    expect(() => context.resolvePath("out-link/new.txt")).toThrow(PathOutsideWorkspaceError);
    expect(context.isPathInWorkspace("out-link/new.txt")).toBe(false);
  });

  it("IsPathInWorkspace_Inside_ReturnsTrue: a path within the workspace is inside", () => {
    const context = contextWith({}, workspace);
    expect(context.isPathInWorkspace("src/file.ts")).toBe(true);
    expect(context.isPathInWorkspace(join(workspace, "src"))).toBe(true);
    expect(context.isPathInWorkspace(workspace)).toBe(true);
  });

  it("IsPathInWorkspace_Outside_ReturnsFalse: a path outside the workspace is not inside", () => {
    const context = contextWith({}, workspace);
    expect(context.isPathInWorkspace("/etc/passwd")).toBe(false);
    expect(context.isPathInWorkspace("../elsewhere")).toBe(false);
    expect(context.isPathInWorkspace(`${workspace}-evil/x`)).toBe(false);
    expect(context.isPathInWorkspace("")).toBe(false);
  });

  it("IsPathInWorkspace_NoWorkspace_ReturnsFalse: nothing is inside when there is no workspace", () => {
    const context = contextWith({});
    expect(context.isPathInWorkspace("src/file.ts")).toBe(false);
    expect(context.isPathInWorkspace("/")).toBe(false);
  });

  it("gives the relative path inside the workspace and the path unchanged otherwise", () => {
    const context = contextWith({}, workspace);
    expect(context.getRelativePath(join(workspace, "src", "file.ts"))).toBe(`src${sep}file.ts`);
    expect(context.getRelativePath(workspace)).toBe(".");
    expect(context.getRelativePath(outsideDir)).toBe(outsideDir);
    expect(contextWith({}).getRelativePath("/a/b")).toBe("/a/b");
  });

  it("GetRequiredString_Exists_ReturnsValue: returns an existing string parameter", () => {
    const context = contextWith({ path: "src/file.ts", empty: "" });
    expect(context.getRequiredString("path")).toBe("src/file.ts");
    expect(context.getRequiredString("empty")).toBe("");
  });

  it("GetRequiredString_Missing_Throws: a missing string parameter throws, naming it", () => {
    const context = contextWith({});
    let caught: unknown;
    try {
      context.getRequiredString("path");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolParameterError);
    const error = caught as ToolParameterError;
    expect(error.code).toBe(ContextErrorCode.MissingParameter);
    expect(error.parameterName).toBe("path");
    expect(error.expectedType).toBe("string");
    expect(error.actualType).toBeUndefined();
    expect(error.message).toBe("Missing required parameter 'path' (expected a string).");
  });

  it("throws a type error naming the parameter, the expected and the actual type", () => {
    const context = contextWith({ path: 42, nothing: null, list: ["a"] });
    const wrong = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as ToolParameterError;
      }
      throw new Error("expected a throw");
    };
    const error = wrong(() => context.getRequiredString("path"));
    expect(error.code).toBe(ContextErrorCode.InvalidParameterType);
    expect(error.message).toBe("Parameter 'path' must be a string, got number.");
    expect(error.actualType).toBe("number");
    expect(wrong(() => context.getRequiredString("nothing")).message).toContain("got null");
    expect(wrong(() => context.getRequiredInt("list")).message).toContain("got array");
  });

  it("GetOptionalString_Missing_ReturnsDefault: a missing optional string gives the default", () => {
    const context = contextWith({ present: "x", nothing: null });
    expect(context.getOptionalString("absent")).toBeUndefined();
    expect(context.getOptionalString("absent", "fallback")).toBe("fallback");
    expect(context.getOptionalString("nothing", "fallback")).toBe("fallback");
    expect(context.getOptionalString("present", "fallback")).toBe("x");
  });

  it("GetRequiredInt_Exists_ReturnsValue: returns an existing integer parameter", () => {
    const context = contextWith({ count: 7, zero: 0, negative: -3 });
    expect(context.getRequiredInt("count")).toBe(7);
    expect(context.getRequiredInt("zero")).toBe(0);
    expect(context.getRequiredInt("negative")).toBe(-3);
  });

  it("refuses a non-integer for an integer parameter", () => {
    const context = contextWith({ ratio: 1.5, text: "7" });
    expect(() => context.getRequiredInt("ratio")).toThrow(
      "must be an integer, got non-integer number",
    );
    expect(() => context.getRequiredInt("text")).toThrow(ToolParameterError);
    expect(() => context.getRequiredInt("absent")).toThrow("Missing required parameter 'absent'");
    expect(() => context.getOptionalInt("ratio")).toThrow(ToolParameterError);
  });

  it("reads optional integers with a default of 0", () => {
    const context = contextWith({ count: 3, zero: 0 });
    expect(context.getOptionalInt("absent")).toBe(0);
    expect(context.getOptionalInt("absent", 10)).toBe(10);
    expect(context.getOptionalInt("zero", 10)).toBe(0);
    expect(context.getOptionalInt("count", 10)).toBe(3);
  });

  it("GetOptionalBool_Missing_ReturnsDefault: a missing optional boolean gives the default", () => {
    const context = contextWith({ yes: true, no: false });
    expect(context.getOptionalBool("absent")).toBe(false);
    expect(context.getOptionalBool("absent", true)).toBe(true);
    expect(context.getOptionalBool("no", true)).toBe(false);
    expect(context.getOptionalBool("yes")).toBe(true);
  });

  it("refuses the string 'true' for a boolean, optional or required", () => {
    const context = contextWith({ dryRun: "true", yes: true });
    expect(() => context.getOptionalBool("dryRun", true)).toThrow(
      "Parameter 'dryRun' must be a boolean, got string.",
    );
    expect(() => context.getRequiredBool("dryRun")).toThrow(ToolParameterError);
    expect(() => context.getRequiredBool("absent")).toThrow(ToolParameterError);
    expect(context.getRequiredBool("yes")).toBe(true);
  });

  it("reads numbers and string arrays with defaults and required variants", () => {
    const context = contextWith({ ratio: 0.25, tags: ["a", "b"], mixed: ["a", 1] });
    expect(context.getRequiredNumber("ratio")).toBe(0.25);
    expect(context.getOptionalNumber("absent")).toBe(0);
    expect(context.getOptionalNumber("absent", 1.5)).toBe(1.5);
    expect(context.getOptionalNumber("ratio", 1.5)).toBe(0.25);
    expect(() => context.getRequiredNumber("tags")).toThrow("must be a number");
    expect(context.getRequiredStringArray("tags")).toEqual(["a", "b"]);
    expect(context.getOptionalStringArray("absent")).toEqual([]);
    expect(context.getOptionalStringArray("absent", ["x"])).toEqual(["x"]);
    expect(() => context.getRequiredStringArray("mixed")).toThrow("must be a string array");
    expect(() => context.getOptionalStringArray("ratio")).toThrow(ToolParameterError);
    expect(() => context.getRequiredStringArray("absent")).toThrow(ToolParameterError);
  });

  it("reads raw parameters with getParameter and checks presence with hasParameter", () => {
    const context = contextWith({ options: { depth: 2 }, nothing: null });
    expect(context.getParameter<{ depth: number }>("options")).toEqual({ depth: 2 });
    expect(context.getParameter("nothing")).toBeNull();
    expect(context.getParameter("absent")).toBeUndefined();
    expect(context.hasParameter("options")).toBe(true);
    expect(context.hasParameter("nothing")).toBe(true);
    expect(context.hasParameter("absent")).toBe(false);
  });

  it("never reads inherited properties for model-supplied parameter names", () => {
    const context = contextWith({});
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(context.hasParameter(name)).toBe(false);
      expect(context.getParameter(name)).toBeUndefined();
      expect(context.getOptionalString(name, "d")).toBe("d");
      expect(() => context.getRequiredString(name)).toThrow(ToolParameterError);
    }
  });

  it("keeps a '__proto__' parameter as plain data", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromJson('{"__proto__": "value"}')
      .buildForTesting();
    expect(context.getRequiredString("__proto__")).toBe("value");
    expect(Object.getPrototypeOf(context.parameters)).toBe(Object.prototype);
  });

  it("is immutable: the context, its parameters and metadata are frozen", () => {
    const source = { nested: { list: [1, 2] } };
    const context = ToolExecutionContextBuilder.create()
      .withParameters(source)
      .withMetadata("k", "v")
      .buildForTesting();
    source.nested.list.push(3);
    expect(context.getParameter("nested")).toEqual({ list: [1, 2] });
    expect(Object.isFrozen(context)).toBe(true);
    expect(Object.isFrozen(context.parameters)).toBe(true);
    expect(Object.isFrozen(context.parameters.nested)).toBe(true);
    expect(Object.isFrozen(context.metadata)).toBe(true);
    expect(() => {
      (context as { toolId: string }).toolId = "other";
    }).toThrow(TypeError);
  });

  it("copies with changes through with(), leaving the original untouched", () => {
    const controller = new AbortController();
    const original = ToolExecutionContextBuilder.create()
      .withToolId("file-read")
      .withParametersFromObject({ path: "a" })
      .withMetadata("k", 1)
      .buildForTesting();
    const copy = original.with({ signal: controller.signal, modifiedParameters: { path: "b" } });
    expect(copy).not.toBe(original);
    expect(copy.executionId).toBe(original.executionId);
    expect(copy.toolId).toBe("file-read");
    expect(copy.getRequiredString("path")).toBe("b");
    expect(copy.getMetadata("k")).toBe(1);
    expect(copy.startedAt.getTime()).toBe(original.startedAt.getTime());
    expect(copy.signal).toBe(controller.signal);
    expect(original.getRequiredString("path")).toBe("a");
    expect(original.signal).not.toBe(controller.signal);
  });

  it("measures elapsed time with the injected clock", () => {
    let now = 1_000;
    const context = new ToolExecutionContext({ services: new ServiceContainer(), now: () => now });
    expect(context.startedAt.getTime()).toBe(1_000);
    expect(context.elapsedMs).toBe(0);
    now = 3_500;
    expect(context.elapsedMs).toBe(2_500);
    expect(context.with({ toolId: "x" }).elapsedMs).toBe(2_500);
  });

  it("gets services through the container", () => {
    const Clock = createServiceToken<{ now(): number }>("clock");
    const Missing = createServiceToken<string>("missing");
    const clock = { now: () => 42 };
    const context = ToolExecutionContextBuilder.create()
      .withServices(new ServiceContainer().register(Clock, clock))
      .build();
    expect(context.getRequiredService(Clock)).toBe(clock);
    expect(context.getService(Clock)?.now()).toBe(42);
    expect(context.getService(Missing)).toBeUndefined();
    expect(() => context.getRequiredService(Missing)).toThrow(ServiceNotRegisteredError);
  });

  it("reads metadata with and without a type guard", () => {
    const context = ToolExecutionContextBuilder.create()
      .withMetadata("requestId", "r-1")
      .withMetadata("attempt", 2)
      .buildForTesting();
    const isString = (value: unknown): value is string => typeof value === "string";
    expect(context.getMetadata("requestId")).toBe("r-1");
    expect(context.getMetadata("requestId", isString)).toBe("r-1");
    expect(context.getMetadata("attempt", isString)).toBeUndefined();
    expect(context.getMetadata("absent")).toBeUndefined();
    expect(context.hasMetadata("attempt")).toBe(true);
    expect(context.hasMetadata("absent")).toBe(false);
    expect(context.hasMetadata("constructor")).toBe(false);
    expect(context.getMetadata("constructor")).toBeUndefined();
    expect(context.metadata.constructor).toBeUndefined();
  });

  it("reports progress through the callback in each form", () => {
    const seen: ToolProgress[] = [];
    const context = ToolExecutionContextBuilder.create()
      .withProgress((p) => seen.push(p))
      .buildForTesting();
    context.reportProgress("Starting");
    context.reportProgress("Half", 50);
    context.reportProgress("Files", 3, 4);
    context.reportOperation("Building", "Compiling a.ts");
    context.reportProgress(ToolProgress.withWarning("Slow", "disk is slow"));
    expect(seen.map((p) => p.message)).toEqual(["Starting", "Half", "Files", "Building", "Slow"]);
    expect(seen[0]?.isIndeterminate).toBe(true);
    expect(seen[1]?.percentComplete).toBe(50);
    expect(seen[2]?.progressText).toBe("75%");
    expect(seen[2]?.itemsProcessed).toBe(3);
    expect(seen[2]?.totalItems).toBe(4);
    expect(seen[3]?.currentOperation).toBe("Compiling a.ts");
    expect(seen[4]?.hasWarning).toBe(true);
  });

  it("ReportProgress is null-safe: reporting without a callback does nothing", () => {
    const context = contextWith({});
    expect(() => {
      context.reportProgress("a");
      context.reportProgress("a", 10);
      context.reportProgress("a", 1, 2);
      context.reportOperation("a", "b");
      context.reportProgress(ToolProgress.completed());
    }).not.toThrow();
  });

  it("does not let a throwing progress callback fail the tool", () => {
    let calls = 0;
    const context = ToolExecutionContextBuilder.create()
      .withProgress(() => {
        calls += 1;
        throw new Error("UI is gone");
      })
      .buildForTesting();
    expect(() => context.reportProgress("a", 1)).not.toThrow();
    expect(() => context.reportOperation("a", "b")).not.toThrow();
    expect(calls).toBe(2);
  });

  it("exposes the abort signal it was given", () => {
    const controller = new AbortController();
    const context = ToolExecutionContextBuilder.create()
      .withCancellation(controller.signal)
      .buildForTesting();
    expect(context.signal.aborted).toBe(false);
    controller.abort();
    expect(context.signal.aborted).toBe(true);
  });
});
