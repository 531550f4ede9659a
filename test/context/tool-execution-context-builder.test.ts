import { describe, expect, it } from "vitest";
import {
  ContextErrorCode,
  createServiceToken,
  ServiceContainer,
  ToolExecutionContextBuilder,
  type ToolProgress,
} from "../../src/context/index.js";
import { AinternError } from "../../src/core/index.js";

function thrown(fn: () => unknown): AinternError {
  try {
    fn();
  } catch (error) {
    if (AinternError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a throw");
}

describe("ToolExecutionContextBuilder", () => {
  it("Build_RequiresServices: build() without services throws a clear error", () => {
    const error = thrown(() => ToolExecutionContextBuilder.create().withToolId("x").build());
    expect(error.code).toBe(ContextErrorCode.ServicesRequired);
    expect(error.message).toContain("withServices()");
    expect(error.message).toContain("buildForTesting()");
  });

  it("WithParametersFromObject_Serializes: serializes an object to JSON parameters", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromObject({
        path: "src/file.ts",
        when: new Date("2024-01-02T03:04:05.000Z"),
        skipped: undefined,
        nested: { depth: 2, list: [1, "two", null] },
      })
      .buildForTesting();
    expect(context.parameters).toEqual({
      path: "src/file.ts",
      when: "2024-01-02T03:04:05.000Z",
      nested: { depth: 2, list: [1, "two", null] },
    });
    expect(context.hasParameter("skipped")).toBe(false);
  });

  it("refuses parameters that do not serialize to a JSON object", () => {
    const builder = ToolExecutionContextBuilder.create();
    expect(thrown(() => builder.withParametersFromObject([1, 2])).code).toBe(
      ContextErrorCode.InvalidParameters,
    );
    expect(thrown(() => builder.withParametersFromObject("text")).message).toContain(
      "must be a JSON object, got a string",
    );
    expect(thrown(() => builder.withParametersFromObject(null)).message).toContain("got null");
    expect(thrown(() => builder.withParametersFromObject(undefined)).message).toContain(
      "cannot be serialized",
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(thrown(() => builder.withParametersFromObject(cyclic)).code).toBe(
      ContextErrorCode.InvalidParameters,
    );
    expect(thrown(() => builder.withParametersFromObject({ n: 10n })).code).toBe(
      ContextErrorCode.InvalidParameters,
    );
  });

  it("refuses parameters that are not plain JSON", () => {
    const builder = ToolExecutionContextBuilder.create();
    const bad: unknown[] = [
      { n: Number.NaN },
      { f: () => 1 },
      { d: new Date() },
      { u: undefined },
      { list: [Symbol("s")] },
    ];
    for (const value of bad) {
      expect(thrown(() => builder.withParameters(value as never)).code).toBe(
        ContextErrorCode.InvalidParameters,
      );
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(thrown(() => builder.withParameters(cyclic as never)).message).toContain("circular");
    expect(thrown(() => builder.withModifiedParameters([] as never)).message).toContain(
      "modified parameters must be a JSON object, got an array",
    );
  });

  it("refuses parameters nested 100,000 levels deep with a clear error, not a stack overflow", () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) {
      const next: Record<string, unknown> = {};
      deep.a = next;
      deep = next;
    }
    const error = thrown(() => ToolExecutionContextBuilder.create().withParameters(root as never));
    expect(error.code).toBe(ContextErrorCode.InvalidParameters);
    expect(error.message).toContain("nesting deeper than 1000 levels");
  });

  it("accepts the same object twice in a parameter tree (shared, not circular)", () => {
    const shared = { a: 1 };
    const context = ToolExecutionContextBuilder.create()
      .withParameters({ x: shared, y: shared })
      .buildForTesting();
    expect(context.parameters).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it("parses parameters from a JSON string and refuses bad JSON", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromJson('{"path":"a.txt","n":1}')
      .buildForTesting();
    expect(context.getRequiredString("path")).toBe("a.txt");
    expect(context.getRequiredInt("n")).toBe(1);
    const error = thrown(() => ToolExecutionContextBuilder.create().withParametersFromJson("{bad"));
    expect(error.code).toBe(ContextErrorCode.InvalidParameters);
    expect(error.message).toContain("not valid JSON");
    expect(() => ToolExecutionContextBuilder.create().withParametersFromJson("[1]")).toThrow(
      "must be a JSON object",
    );
  });

  it("sets empty parameters", () => {
    const context = ToolExecutionContextBuilder.create()
      .withParametersFromObject({ a: 1 })
      .withEmptyParameters()
      .buildForTesting();
    expect(context.parameters).toEqual({});
  });

  it("WithMetadata_Accumulates: metadata entries added one by one accumulate", () => {
    const context = ToolExecutionContextBuilder.create()
      .withMetadata("requestId", "r-1")
      .withMetadata("correlationId", "c-1")
      .withMetadata("requestId", "r-2")
      .buildForTesting();
    expect({ ...context.metadata }).toEqual({ requestId: "r-2", correlationId: "c-1" });
  });

  it("replaces all metadata when given a record or a map", () => {
    const fromRecord = ToolExecutionContextBuilder.create()
      .withMetadata("old", 1)
      .withMetadata({ fresh: true })
      .buildForTesting();
    expect({ ...fromRecord.metadata }).toEqual({ fresh: true });
    const fromMap = ToolExecutionContextBuilder.create()
      .withMetadata(new Map([["k", "v"]]))
      .withMetadata("more", 2)
      .buildForTesting();
    expect({ ...fromMap.metadata }).toEqual({ k: "v", more: 2 });
  });

  it("BuildForTesting_AllowsNullServices: builds without services using an empty container", () => {
    const context = ToolExecutionContextBuilder.create().withToolId("t").buildForTesting();
    expect(context.toolId).toBe("t");
    const token = createServiceToken<string>("anything");
    expect(context.getService(token)).toBeUndefined();
  });

  it("buildForTesting prefers the services it is given, then those set with withServices", () => {
    const token = createServiceToken<string>("name");
    const given = new ServiceContainer().register(token, "given");
    const set = new ServiceContainer().register(token, "set");
    const builder = ToolExecutionContextBuilder.create().withServices(set);
    expect(builder.buildForTesting(given).getService(token)).toBe("given");
    expect(builder.buildForTesting().getService(token)).toBe("set");
  });

  it("sets every member through its with-method", () => {
    const controller = new AbortController();
    const progress = (_: ToolProgress) => {};
    const services = new ServiceContainer();
    const startedAt = new Date("2024-05-06T07:08:09.000Z");
    const decidedAt = new Date("2024-05-06T07:08:00.000Z");
    const context = ToolExecutionContextBuilder.create()
      .withExecutionId("11111111-1111-4111-8111-111111111111")
      .withSessionId("22222222-2222-4222-8222-222222222222")
      .withToolId("file-write")
      .withToolCallId("33333333-3333-4333-8333-333333333333")
      .withWorkspace("/srv/project")
      .withParameters({ path: "a" })
      .withModifiedParametersFromObject({ path: "b" })
      .withServices(services)
      .withCancellation(controller.signal)
      .withProgress(progress)
      .withApproval(true, { approvedBy: "alice", reason: "looks fine", decidedAt })
      .withStartedAt(startedAt)
      .withClock(() => startedAt.getTime() + 250)
      .build();
    expect(context.executionId).toBe("11111111-1111-4111-8111-111111111111");
    expect(context.sessionId).toBe("22222222-2222-4222-8222-222222222222");
    expect(context.toolId).toBe("file-write");
    expect(context.toolCallId).toBe("33333333-3333-4333-8333-333333333333");
    expect(context.workspacePath).toBe("/srv/project");
    expect(context.hasWorkspace).toBe(true);
    expect(context.parameters).toEqual({ path: "a" });
    expect(context.effectiveParameters).toEqual({ path: "b" });
    expect(context.services).toBe(services);
    expect(context.signal).toBe(controller.signal);
    expect(context.progress).toBe(progress);
    expect(context.isApproved).toBe(true);
    expect(context.approval).toEqual({ approvedBy: "alice", reason: "looks fine", decidedAt });
    expect(Object.isFrozen(context.approval)).toBe(true);
    expect(context.startedAt.getTime()).toBe(startedAt.getTime());
    expect(context.elapsedMs).toBe(250);
  });

  it("approves by default when withApproval is called without arguments", () => {
    expect(ToolExecutionContextBuilder.create().withApproval().buildForTesting().isApproved).toBe(
      true,
    );
    expect(
      ToolExecutionContextBuilder.create().withApproval(false).buildForTesting().isApproved,
    ).toBe(false);
  });

  it("copies parameters when given, so later changes to the caller's object do not leak in", () => {
    const params = { path: "a" };
    const builder = ToolExecutionContextBuilder.create().withParameters(params);
    params.path = "changed";
    expect(builder.buildForTesting().getRequiredString("path")).toBe("a");
  });
});
