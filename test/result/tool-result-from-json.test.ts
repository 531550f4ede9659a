import { describe, expect, it } from "vitest";
import { ToolProgress } from "../../src/context/index.js";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  ArtifactAction,
  ToolArtifact,
  ToolResult,
  ToolResultBuilder,
  toolArtifactFromJson,
  toolResultFromJson,
} from "../../src/result/index.js";
import { toolProgressFromJson } from "../../src/sandbox/process.js";

/** The JSON forms without their timestamps (a rebuilt artifact is stamped anew). */
function comparable(result: ToolResult): unknown {
  const json = JSON.parse(JSON.stringify(result)) as { artifacts: { timestamp?: string }[] };
  for (const artifact of json.artifacts) delete artifact.timestamp;
  return json;
}

describe("toolResultFromJson", () => {
  it("rebuilds a success with everything its JSON form holds", () => {
    const original = ToolResultBuilder.create()
      .asSuccess()
      .withMessage("Wrote 2 files")
      .withData({ count: 2, names: ["a", "b"], nothing: null })
      .withArtifact(ToolArtifact.fileWithContent("a.ts", "export {}\n"))
      .withArtifact(ToolArtifact.fileWithContent("b.ts", 12, { isNew: false }))
      .withArtifact(ToolArtifact.deletedFile("c.ts"))
      .withArtifact(ToolArtifact.url("https://example.com", "Docs"))
      .withArtifact(ToolArtifact.custom("diff", "a.ts", { action: ArtifactAction.Moved }))
      .withSuggestions(["Run the tests", "Commit"])
      .withTruncation(1000)
      .withMetadata("itemCount", 2)
      .withMetadata("nested", { ok: true })
      .withDuration(1250)
      .build();
    const rebuilt = toolResultFromJson(original.toJSON());
    expect(rebuilt).toBeInstanceOf(ToolResult);
    expect(comparable(rebuilt)).toEqual(comparable(original));
    expect(rebuilt.artifacts[0]).toBeInstanceOf(ToolArtifact);
    expect(rebuilt.artifacts[0]?.contentHash).toBe(ToolArtifact.hashContent("export {}\n"));
    expect(Object.isFrozen(rebuilt)).toBe(true);
  });

  it("rebuilds failures with their code, and attaches a given exception", () => {
    const original = ToolResult.failed("File not found: a.ts", ToolErrorCode.PathNotFound);
    const exception = new RangeError("underlying");
    const rebuilt = toolResultFromJson(original.toJSON(), exception);
    expect(rebuilt.success).toBe(false);
    expect(rebuilt.error).toBe("File not found: a.ts");
    expect(rebuilt.errorCode).toBe(ToolErrorCode.PathNotFound);
    expect(rebuilt.message).toBe("File not found: a.ts");
    expect(rebuilt.exception).toBe(exception);
  });

  it("keeps falsy data such as 0 and an empty string", () => {
    expect(toolResultFromJson(ToolResult.succeeded(0).toJSON()).data).toBe(0);
    expect(toolResultFromJson(ToolResult.succeeded("").toJSON()).data).toBe("");
    expect(toolResultFromJson(ToolResult.succeeded().toJSON()).hasData).toBe(false);
  });

  it("keeps special codes such as a timeout and a cancellation", () => {
    expect(toolResultFromJson(ToolResult.timeout(1500).toJSON()).isTimeout).toBe(true);
    expect(toolResultFromJson(ToolResult.cancelled().toJSON()).isCancelled).toBe(true);
  });

  it.each([
    ["not an object", 42],
    ["an array", []],
    ["no success", { message: "m" }],
    ["a non-boolean success", { success: "yes" }],
    ["a non-string message", { success: true, message: 1 }],
    ["a negative duration", { success: true, durationMs: -1 }],
    ["artifacts that are not an array", { success: true, artifacts: {} }],
    ["follow-ups that are not strings", { success: true, suggestedFollowUps: [1] }],
    ["metadata that is not an object", { success: true, metadata: [] }],
  ])("refuses %s", (_name, json) => {
    expect(() => toolResultFromJson(json)).toThrow(TypeError);
  });
});

describe("toolArtifactFromJson", () => {
  it.each([
    ["no type", { path: "a" }],
    ["no path", { type: "file" }],
    ["an unknown action", { type: "file", path: "a", action: "Exploded" }],
    ["a negative size", { type: "file", path: "a", size: -3 }],
    ["a non-boolean isNew", { type: "file", path: "a", isNew: "yes" }],
  ])("refuses an artifact with %s", (_name, json) => {
    expect(() => toolArtifactFromJson(json)).toThrow(/Invalid artifact JSON/);
  });

  it("defaults the action of a bare artifact to Created", () => {
    const artifact = toolArtifactFromJson({ type: "note", path: "n" });
    expect(artifact.action).toBe(ArtifactAction.Created);
    expect(artifact.isNew).toBe(false);
  });
});

describe("toolProgressFromJson", () => {
  it("rebuilds a progress from its JSON form", () => {
    const original = new ToolProgress({
      message: "Indexing",
      percentComplete: 40,
      currentOperation: "src/a.ts",
      itemsProcessed: 4,
      totalItems: 10,
      estimatedRemainingMs: 3000,
      hasWarning: true,
      warningMessage: "slow disk",
    });
    const rebuilt = toolProgressFromJson(original.toJSON());
    expect(rebuilt).toBeInstanceOf(ToolProgress);
    expect(rebuilt.toInit()).toEqual(original.toInit());
  });

  it("drops members of the wrong type and survives garbage", () => {
    expect(toolProgressFromJson({ message: 5, percentComplete: "x" }).toInit()).toEqual({
      message: "",
      hasWarning: false,
    });
    expect(toolProgressFromJson(null).message).toBe("");
  });
});
