import { describe, expect, it } from "vitest";
import { AinternError, ToolErrorCode } from "../../src/core/index.js";
import {
  ArtifactAction,
  ToolArtifact,
  ToolResult,
  ToolResultBuilder,
} from "../../src/result/index.js";

describe("ToolResultBuilder (spec 004 unit tests)", () => {
  it("ToolResultBuilder_Build_CreatesCorrectResult: every setting reaches the result", () => {
    const result = ToolResultBuilder.create()
      .asSuccess()
      .withMessage("Files updated successfully")
      .withData({ updatedCount: 2 })
      .withFileArtifact("src/file1.ts", { isNew: true, description: "Created" })
      .withFileArtifact("src/file2.ts", { description: "Modified" })
      .withSuggestion("Run 'npm test' to verify changes")
      .withDuration(2500)
      .withMetadata("itemCount", 2)
      .build();

    expect(result).toBeInstanceOf(ToolResult);
    expect(Object.isFrozen(result)).toBe(true);
    expect(result.success).toBe(true);
    expect(result.message).toBe("Files updated successfully");
    expect(result.data).toEqual({ updatedCount: 2 });
    expect(result.artifacts.map((a) => a.action)).toEqual([
      ArtifactAction.Created,
      ArtifactAction.Modified,
    ]);
    expect(result.suggestedFollowUps).toEqual(["Run 'npm test' to verify changes"]);
    expect(result.durationMs).toBe(2500);
    expect(result.metadata).toEqual({ itemCount: 2 });
    expect(result.shouldTruncate).toBe(false);
    expect(result.maxDataLength).toBeUndefined();
  });

  it("ToolResultBuilder_WithArtifacts_Accumulates: single and bulk additions add up", () => {
    const result = ToolResultBuilder.create()
      .withArtifact(ToolArtifact.url("https://a.b"))
      .withArtifacts([ToolArtifact.url("https://c.d"), ToolArtifact.terminalOutput("ok")])
      .withDirectoryArtifact("out", { isNew: true })
      .withDeletedFile("old.txt")
      .build();

    expect(result.artifacts.map((a) => `${a.type}:${a.path}`)).toEqual([
      "url:https://a.b",
      "url:https://c.d",
      "output:terminal",
      "directory:out",
      "file:old.txt",
    ]);
    expect(result.artifacts[4]?.action).toBe(ArtifactAction.Deleted);
  });

  it("ToolResultBuilder_WithSuggestions_Accumulates: single and bulk additions add up", () => {
    const result = ToolResultBuilder.create()
      .withSuggestion("one")
      .withSuggestions(["two", "three"])
      .withSuggestion("four")
      .build();

    expect(result.suggestedFollowUps).toEqual(["one", "two", "three", "four"]);
    expect(result.hasSuggestions).toBe(true);
  });

  it("ToolResultBuilder_AsFailure_SetsAllFields: failure, error, code and message", () => {
    const result = ToolResultBuilder.create()
      .asFailure("Compilation failed", "BuildError")
      .withData({ errors: 3 })
      .build();

    expect(result.success).toBe(false);
    expect(result.error).toBe("Compilation failed");
    expect(result.errorCode).toBe("BuildError");
    expect(result.message).toBe("Compilation failed");
    expect(result.data).toEqual({ errors: 3 });
  });
});

describe("ToolResultBuilder", () => {
  it("keeps a message set before asFailure", () => {
    const result = ToolResultBuilder.create().withMessage("Build step").asFailure("boom").build();

    expect(result.message).toBe("Build step");
    expect(result.error).toBe("boom");
    expect(result.errorCode).toBeUndefined();
  });

  it("starts from success() or failure(error)", () => {
    expect(ToolResultBuilder.success().build().success).toBe(true);
    const failed = ToolResultBuilder.failure("nope").build();
    expect(failed.success).toBe(false);
    expect(failed.error).toBe("nope");
    expect(failed.message).toBe("nope");
  });

  it("builds a success with an empty message by default", () => {
    const result = ToolResultBuilder.create().build();

    expect(result.success).toBe(true);
    expect(result.message).toBe("");
    expect(result.suggestedFollowUps).toBeUndefined();
    expect(result.metadata).toBeUndefined();
  });

  it("marks a result cancelled like ToolResult.cancelled", () => {
    const result = ToolResultBuilder.create().asCancelled().build();
    const expected = ToolResult.cancelled();

    expect(result.isCancelled).toBe(true);
    expect(result.error).toBe(expected.error);
    expect(result.message).toBe(expected.message);
    expect(ToolResultBuilder.create().asCancelled("Agent stopped").build().message).toBe(
      "Agent stopped",
    );
  });

  it("fills error, code and message from an exception only where unset", () => {
    const error = new SyntaxError("Unexpected token");
    const fromError = ToolResultBuilder.create().withException(error).build();

    expect(fromError.success).toBe(false);
    expect(fromError.exception).toBe(error);
    expect(fromError.error).toBe("Unexpected token");
    expect(fromError.errorCode).toBe("SyntaxError");
    expect(fromError.message).toBe("Unexpected token");

    const preset = ToolResultBuilder.create()
      .withMessage("Parsing config")
      .asFailure("Config invalid", "ConfigInvalid")
      .withException(error)
      .build();
    expect(preset.error).toBe("Config invalid");
    expect(preset.errorCode).toBe("ConfigInvalid");
    expect(preset.message).toBe("Parsing config");
  });

  it("enables truncation with the default or a given length", () => {
    const byDefault = ToolResultBuilder.create().withTruncation().build();
    const limited = ToolResultBuilder.create().withTruncation(1000.7).build();

    expect(byDefault.shouldTruncate).toBe(true);
    expect(byDefault.maxDataLength).toBe(50_000);
    expect(limited.maxDataLength).toBe(1000);
    expect(() => ToolResultBuilder.create().withTruncation(-1)).toThrow(AinternError);
  });

  it("replaces a metadata value set twice and keeps a __proto__ key as data", () => {
    const result = ToolResultBuilder.create()
      .withMetadata("exitCode", 1)
      .withMetadata("exitCode", 0)
      .withMetadata("__proto__", { polluted: true })
      .build();

    expect(result.metadata?.exitCode).toBe(0);
    expect(Object.hasOwn(result.metadata ?? {}, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("rejects an invalid duration", () => {
    expect(() => ToolResultBuilder.create().withDuration(-1)).toThrow(AinternError);
  });

  it("builds independent results: later calls do not change an earlier build", () => {
    const builder = ToolResultBuilder.create().withSuggestion("first");
    const first = builder.build();
    builder.withSuggestion("second").withArtifact(ToolArtifact.url("https://a.b"));
    const second = builder.build();

    expect(first.suggestedFollowUps).toEqual(["first"]);
    expect(first.artifacts).toHaveLength(0);
    expect(second.suggestedFollowUps).toEqual(["first", "second"]);
    expect(second.artifacts).toHaveLength(1);
  });

  it("uses the Timeout error code constant when a failure is built with it", () => {
    const result = ToolResultBuilder.create().asFailure("slow", ToolErrorCode.Timeout).build();

    expect(result.isTimeout).toBe(true);
  });
});
