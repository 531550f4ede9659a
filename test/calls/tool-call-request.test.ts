import { describe, expect, it } from "vitest";
import {
  ApprovalDecision,
  ToolCallRequest,
  ToolCallRequestBuilder,
} from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolValidationError, ToolValidationResult } from "../../src/validation/index.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ToolCallRequest", () => {
  it("copies shallow-frozen parameters: a nested object changed later does not change the request", () => {
    const nested = { path: "a.txt" };
    const parameters = Object.freeze({ target: nested });
    const request = new ToolCallRequest({ id: "r1", toolId: "file-read", parameters });
    nested.path = "/etc/passwd";
    expect(request.parameters).toEqual({ target: { path: "a.txt" } });
    expect(Object.isFrozen(request.parameters.target)).toBe(true);

    const edit = { path: "b.txt" };
    const decision = ApprovalDecision.approveWithModifications(Object.freeze({ target: edit }));
    edit.path = "/etc/shadow";
    expect(decision.modifiedParameters).toEqual({ target: { path: "b.txt" } });
  });

  it("copies plain parameters deeply and frozen, keeping a __proto__ key as data and arrays as arrays", () => {
    const parameters = JSON.parse(
      '{"__proto__": {"x": 1}, "list": [1, {"deep": [true, null]}], "n": 5}',
    );
    const request = new ToolCallRequest({ toolId: "t", parameters });
    expect(request.parameters).not.toBe(parameters);
    expect(request.parameters).toEqual(parameters);
    expect(Object.getPrototypeOf(request.parameters)).toBe(Object.prototype);
    expect(Object.hasOwn(request.parameters, "__proto__")).toBe(true);
    const list = request.parameters.list as unknown[];
    expect(Array.isArray(list)).toBe(true);
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen((list[1] as { deep: unknown[] }).deep)).toBe(true);
    // A copy already made is reused, not copied again.
    expect(request.withRiskAssessment({ riskLevel: RiskLevel.Low }).parameters).toBe(
      request.parameters,
    );
  });

  it("copies parameters that are not plain JSON the general way (structuredClone), frozen", () => {
    const when = new Date(0);
    const cyclic: Record<string, unknown> = { when, gap: undefined };
    cyclic.self = cyclic;
    const request = new ToolCallRequest({ toolId: "t", parameters: cyclic as never });
    const copied = request.parameters as Record<string, unknown>;
    expect(copied.when).toBeInstanceOf(Date);
    expect(copied.when).not.toBe(when);
    expect(copied.self).toBe(copied);
    expect(Object.hasOwn(copied, "gap")).toBe(true);
    expect(Object.isFrozen(copied)).toBe(true);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 200; i++) deep = { deep };
    const nested = new ToolCallRequest({ toolId: "t", parameters: deep as never });
    expect(nested.parameters).toEqual(deep);
  });

  it("ToolCallRequest_Create_HasUniqueId: every request gets its own UUID", () => {
    const a = ToolCallRequest.create("file-read", "Read File", { path: "a.txt" }, 1);
    const b = ToolCallRequest.create("file-read", "Read File", { path: "a.txt" }, 1);
    expect(a.id).toMatch(uuidPattern);
    expect(b.id).toMatch(uuidPattern);
    expect(a.id).not.toBe(b.id);
    expect(a.executionSummary).toBe("Execute Read File");
    expect(a.riskLevel).toBe(RiskLevel.Safe);
    expect(a.iterationNumber).toBe(1);
  });

  it("ToolCallRequest_GetParameter_ReturnsValue: reads present values and undefined for absent", () => {
    const request = ToolCallRequest.create(
      "search",
      "Search",
      { query: "TODO", max: 0, exact: false, empty: "", nothing: null },
      1,
    );
    expect(request.getParameter("query")).toBe("TODO");
    expect(request.getParameter("max")).toBe(0);
    expect(request.getParameter("exact")).toBe(false);
    expect(request.getParameter("empty")).toBe("");
    expect(request.getParameter("nothing")).toBeNull();
    expect(request.getParameter("missing")).toBeUndefined();
    expect(request.hasParameter("max")).toBe(true);
    expect(request.hasParameter("missing")).toBe(false);
    expect(request.parameterNames).toEqual(["query", "max", "exact", "empty", "nothing"]);
  });

  it("checks parameter types with a guard and tells absent from null", () => {
    const request = ToolCallRequest.create("t", "T", { path: "a.txt", n: null }, 0);
    const isString = (v: unknown): v is string => typeof v === "string";
    expect(request.getParameter("path", isString)).toBe("a.txt");
    expect(request.getParameter("n", isString)).toBeUndefined();
    expect(request.tryGetParameter("n")).toEqual({ found: true, value: null });
    expect(request.tryGetParameter("missing")).toEqual({ found: false });
    expect(request.tryGetParameter("n", isString)).toEqual({ found: false });
  });

  it("never reads parameters through the prototype", () => {
    const request = ToolCallRequest.create("t", "T", JSON.parse('{"__proto__": "x"}'), 0);
    expect(request.hasParameter("__proto__")).toBe(true);
    expect(request.getParameter("__proto__")).toBe("x");
    expect(request.hasParameter("constructor")).toBe(false);
    expect(request.getParameter("toString")).toBeUndefined();
  });

  it("ToolCallRequest_WithValidation_PreservesOther: copies every other field", () => {
    const original = ToolCallRequestBuilder.create()
      .withProviderCallId("call_1")
      .withToolId("file-write")
      .withToolName("Write File")
      .withParameters({ path: "a.txt" })
      .withRawJson('{"path":"a.txt"}')
      .withIteration(4)
      .withRiskLevel(RiskLevel.Medium)
      .withSummary("Write a.txt")
      .withWarning("Overwrites a file")
      .requiresApproval()
      .build();
    const invalid = ToolValidationResult.invalid(ToolValidationError.required("content"));
    const validated = original.withValidation(invalid);

    expect(validated).not.toBe(original);
    expect(validated.validationResult).toBe(invalid);
    expect(validated.isValid).toBe(false);
    expect(validated.validationErrors).toEqual([`content: ${invalid.errors[0]!.message}`]);
    expect(original.validationResult).toBeUndefined();
    const { validationResult: _a, ...rest } = { ...validated };
    const { validationResult: _b, ...originalRest } = { ...original };
    expect(rest).toEqual(originalRest);
    expect(validated.id).toBe(original.id);
    expect(validated.requestedAt.getTime()).toBe(original.requestedAt.getTime());
  });

  it("withParameters clears the validation result, keeping the id", () => {
    const request = ToolCallRequest.create("t", "T", { a: 1 }, 0).withValidation(
      ToolValidationResult.valid(),
    );
    const changed = request.withParameters({ a: 2 });
    expect(changed.id).toBe(request.id);
    expect(changed.getParameter("a")).toBe(2);
    expect(changed.validationResult).toBeUndefined();
    expect(request.getParameter("a")).toBe(1);
  });

  it("withRiskAssessment sets risk, summary, warnings and approval", () => {
    const request = ToolCallRequest.create("t", "T", {}, 0);
    const assessed = request.withRiskAssessment({
      riskLevel: RiskLevel.High,
      executionSummary: "Delete build/",
      warnings: ["Cannot be undone"],
      requiresApproval: true,
    });
    expect(assessed.riskLevel).toBe(RiskLevel.High);
    expect(assessed.executionSummary).toBe("Delete build/");
    expect(assessed.warnings).toEqual(["Cannot be undone"]);
    expect(assessed.requiresApproval).toBe(true);
    const partial = assessed.withRiskAssessment({ riskLevel: RiskLevel.Low });
    expect(partial.executionSummary).toBe("Delete build/");
    expect(partial.requiresApproval).toBe(true);
  });

  it("is immutable: the request, its parameters and warnings are frozen", () => {
    const source = { nested: { list: [1, 2] } };
    const request = new ToolCallRequest({ parameters: source, warnings: ["w"] });
    expect(Object.isFrozen(request)).toBe(true);
    expect(() => {
      (request.parameters.nested as { list: number[] }).list.push(3);
    }).toThrow(TypeError);
    expect(() => {
      (request.warnings as string[]).push("x");
    }).toThrow(TypeError);
    // The caller's object is copied, not frozen.
    source.nested.list.push(3);
    expect(request.parameters).toEqual({ nested: { list: [1, 2] } });
  });

  it("is valid until validated, reports its age, and prints a short description", () => {
    const request = new ToolCallRequest({
      id: "12345678-aaaa-4bbb-8ccc-123456789012",
      toolName: "Read File",
      riskLevel: RiskLevel.Low,
      requestedAt: new Date(Date.now() - 5000),
    });
    expect(request.isValid).toBe(true);
    expect(request.validationErrors).toEqual([]);
    expect(request.ageMs).toBeGreaterThanOrEqual(5000);
    expect(request.toString()).toBe("ToolCallRequest(Read File, Id=12345678, Risk=Low)");
    expect(request.providerCallId).toBeUndefined();
    expect(request.callIdSynthesized).toBe(false);
  });

  it("lists whole-input validation errors without a parameter name", () => {
    const request = new ToolCallRequest({
      validationResult: ToolValidationResult.invalid(
        new ToolValidationError({ parameterName: "", message: "Bad call", errorCode: "x" }),
      ),
    });
    expect(request.validationErrors).toEqual(["Bad call"]);
  });
});

describe("ToolCallRequestBuilder", () => {
  it("ToolCallRequestBuilder_Build_CreatesValidRequest: sets every field", () => {
    const tool = { id: "file-read", name: "Read File", defaultRiskLevel: RiskLevel.Low };
    const requestedAt = new Date("2025-01-02T03:04:05.000Z");
    const validation = ToolValidationResult.valid();
    const request = ToolCallRequestBuilder.create()
      .withId("11111111-2222-4333-8444-555555555555")
      .withTool(tool)
      .withProviderCallId("gemini_call_0_abc", true)
      .withParameters({ path: "a.txt", when: new Date(0), skip: undefined })
      .withRawJson("{}")
      .withIteration(3)
      .withWarning("one")
      .withWarning("two")
      .requiresApproval(false)
      .withValidation(validation)
      .withRequestedAt(requestedAt)
      .build();

    expect(request.id).toBe("11111111-2222-4333-8444-555555555555");
    expect(request.toolId).toBe("file-read");
    expect(request.toolName).toBe("Read File");
    expect(request.riskLevel).toBe(RiskLevel.Low);
    expect(request.providerCallId).toBe("gemini_call_0_abc");
    expect(request.callIdSynthesized).toBe(true);
    expect(request.parameters).toEqual({ path: "a.txt", when: "1970-01-01T00:00:00.000Z" });
    expect(request.rawJson).toBe("{}");
    expect(request.iterationNumber).toBe(3);
    expect(request.executionSummary).toBe("Execute Read File");
    expect(request.warnings).toEqual(["one", "two"]);
    expect(request.requiresApproval).toBe(false);
    expect(request.validationResult).toBe(validation);
    expect(request.isValid).toBe(true);
    expect(request.requestedAt).toEqual(requestedAt);
  });

  it("uses an explicit summary and risk level, and defaults to empty values", () => {
    const built = ToolCallRequestBuilder.create()
      .withToolId("t")
      .withToolName("Tee")
      .withRiskLevel(RiskLevel.Critical)
      .withSummary("Format the disk")
      .requiresApproval()
      .build();
    expect(built.executionSummary).toBe("Format the disk");
    expect(built.riskLevel).toBe(RiskLevel.Critical);
    expect(built.requiresApproval).toBe(true);
    expect(built.parameters).toEqual({});
    expect(built.warnings).toBeUndefined();

    const empty = ToolCallRequestBuilder.create().build();
    expect(empty.toolId).toBe("");
    expect(empty.executionSummary).toBe("Execute ");
  });

  it("refuses parameters that are not a JSON object", () => {
    const builder = ToolCallRequestBuilder.create();
    expect(() => builder.withParameters([1, 2])).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETERS" }),
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => builder.withParameters(cyclic)).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETERS" }),
    );
    expect(() => builder.withParameters({ toJSON: () => undefined })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETERS" }),
    );
  });
});
