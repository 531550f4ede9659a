import { describe, expect, it } from "vitest";
import { AinternError, ToolErrorCode } from "../../src/core/index.js";
import {
  ToolArtifact,
  ToolResult,
  ToolResultBuilder,
  type ToolResultJson,
  toolResultFromJson,
} from "../../src/result/index.js";

describe("ToolResult (spec 004 unit tests)", () => {
  it("ToolResult_Succeeded_HasCorrectState: a success carries data and message and no error", () => {
    const result = ToolResult.succeeded({ count: 5 }, "Counted");

    expect(result.success).toBe(true);
    expect(result.isFailure).toBe(false);
    expect(result.data).toEqual({ count: 5 });
    expect(result.message).toBe("Counted");
    expect(result.error).toBeUndefined();
    expect(result.errorCode).toBeUndefined();
    expect(result.artifacts).toEqual([]);
    expect(result.durationMs).toBe(0);
    expect(ToolResult.succeeded().message).toBe("Operation completed successfully");
  });

  it("ToolResult_SucceededWithArtifacts_IncludesArtifacts: the artifacts are kept in order", () => {
    const artifacts = [ToolArtifact.url("https://example.com"), ToolArtifact.deletedFile("a.txt")];
    const result = ToolResult.succeededWithArtifacts(artifacts, { ok: 1 }, "Done");

    expect(result.success).toBe(true);
    expect(result.hasArtifacts).toBe(true);
    expect(result.artifacts).toEqual(artifacts);
    expect(result.data).toEqual({ ok: 1 });
    expect(result.message).toBe("Done");
    expect(ToolResult.succeededWithArtifacts([]).message).toBe("Operation completed successfully");
  });

  it("ToolResult_Failed_HasErrorDetails: error, code and partial data are kept", () => {
    const result = ToolResult.failed("Disk full", "DiskFull", { written: 3 });

    expect(result.success).toBe(false);
    expect(result.isFailure).toBe(true);
    expect(result.error).toBe("Disk full");
    expect(result.message).toBe("Disk full");
    expect(result.errorCode).toBe("DiskFull");
    expect(result.data).toEqual({ written: 3 });
  });

  it("ToolResult_FromException_ExtractsDetails: message, type name and the error itself", () => {
    const error = new TypeError("x is not a function");
    const result = ToolResult.fromException(error, "Parsing input");

    expect(result.success).toBe(false);
    expect(result.error).toBe("Parsing input: x is not a function");
    expect(result.message).toBe("Parsing input");
    expect(result.errorCode).toBe("TypeError");
    expect(result.exception).toBe(error);

    const plain = ToolResult.fromException(new RangeError("too big"));
    expect(plain.error).toBe("too big");
    expect(plain.message).toBe("too big");
    expect(plain.errorCode).toBe("RangeError");
  });

  it("ToolResult_Cancelled_HasCorrectCode: Cancelled, with the default or given message", () => {
    const result = ToolResult.cancelled();

    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
    expect(result.isCancelled).toBe(true);
    expect(result.success).toBe(false);
    expect(result.error).toBe("Operation was cancelled");
    expect(result.message).toBe("Operation was cancelled by user");
    expect(ToolResult.cancelled("Stopped by the agent").message).toBe("Stopped by the agent");
  });

  it("ToolResult_Denied_HasCorrectCode: Denied, with the reason as message", () => {
    const result = ToolResult.denied("Not on production files");

    expect(result.errorCode).toBe(ToolErrorCode.Denied);
    expect(result.isDenied).toBe(true);
    expect(result.error).toBe("Operation was denied by user");
    expect(result.message).toBe("Not on production files");
    expect(ToolResult.denied().message).toBe("Operation was denied by user");
  });

  it("ToolResult_Timeout_IncludesDuration: Timeout, with the duration in ms and in the error", () => {
    const result = ToolResult.timeout(30_000);

    expect(result.errorCode).toBe(ToolErrorCode.Timeout);
    expect(result.isTimeout).toBe(true);
    expect(result.durationMs).toBe(30_000);
    expect(result.error).toBe("Operation timed out after 30.0s");
    expect(result.message).toBe("Operation timed out");
    expect(ToolResult.timeout(1550).error).toBe("Operation timed out after 1.6s");
  });

  it("ToolResult_ValidationFailed_IncludesErrors: each error is listed for the model", () => {
    const validation = {
      isValid: false,
      errors: [
        { parameterName: "path", message: "path is required", errorCode: "Required" },
        { parameterName: "limit", message: "limit must be >= 1", errorCode: "Minimum" },
      ],
      getErrorMessage: () => "unused",
    };
    const result = ToolResult.validationFailed(validation);

    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.isValidationFailure).toBe(true);
    expect(result.message).toBe("Parameter validation failed");
    expect(result.error).toBe("path is required; limit must be >= 1");
    expect(result.data).toEqual({
      errors: [
        { parameterName: "path", message: "path is required" },
        { parameterName: "limit", message: "limit must be >= 1" },
      ],
    });
  });

  it("ToolResult_GetSerializedData_Truncates: long data is cut to the limit with a note", () => {
    const result = ToolResult.succeeded({ text: "x".repeat(10_000) });
    const serialized = result.getSerializedData(1000);

    expect(serialized.length).toBeLessThanOrEqual(1000);
    expect(serialized.startsWith('{"text":"xxx')).toBe(true);
    expect(serialized).toMatch(/… \[truncated [\d,]+ of 10,011 characters\]$/);
  });

  it("ToolResult_GetSerializedData_NullData_ReturnsEmpty: no data gives an empty string", () => {
    expect(ToolResult.succeeded().getSerializedData()).toBe("");
    expect(ToolResult.succeeded(null).getSerializedData()).toBe("");
    expect(ToolResult.failed("nope").getSerializedData()).toBe("");
  });

  it("ToolResult_ToLlmContext_Success_FormatsCorrectly: result, message, data, duration", () => {
    const result = ToolResult.succeeded({ lines: 42 }, "Read 42 lines").withDuration(1250.4);

    expect(result.toLlmContext()).toBe(
      ["Result: Success", "Message: Read 42 lines", 'Data: {"lines":42}', "Duration: 1250ms"].join(
        "\n",
      ),
    );
  });

  it("ToolResult_ToLlmContext_Failure_FormatsCorrectly: result, error and code, no data", () => {
    const result = ToolResult.failed("File not found: a.ts", ToolErrorCode.PathNotFound, {
      partial: true,
    });

    expect(result.toLlmContext()).toBe(
      "Result: Failed\nError: File not found: a.ts\nError Code: PathNotFound",
    );
    expect(ToolResult.failed("Broken").toLlmContext()).toBe("Result: Failed\nError: Broken");
  });

  it("ToolResult_ToLlmContext_WithArtifacts_IncludesThem: type, path and description", () => {
    const result = ToolResult.succeededWithArtifacts(
      [
        ToolArtifact.fileWithContent("src/new.ts", "export {};", { description: "Entry point" }),
        ToolArtifact.url("https://example.com/docs"),
      ],
      undefined,
      "Created files",
    );

    expect(result.toLlmContext()).toBe(
      [
        "Result: Success",
        "Message: Created files",
        "Artifacts:",
        "  - file: src/new.ts",
        "    Description: Entry point",
        "  - url: https://example.com/docs",
      ].join("\n"),
    );
  });
});

describe("ToolResult factories and flags", () => {
  it("notAvailable carries the reason as error and message with the NotAvailable code", () => {
    const result = ToolResult.notAvailable("No workspace is open");

    expect(result.errorCode).toBe(ToolErrorCode.NotAvailable);
    expect(result.isNotAvailable).toBe(true);
    expect(result.error).toBe("No workspace is open");
    expect(result.message).toBe("No workspace is open");
  });

  it("sets exactly one status flag per factory", () => {
    const flags = (result: ToolResult) =>
      [
        result.isCancelled,
        result.isDenied,
        result.isTimeout,
        result.isValidationFailure,
        result.isNotAvailable,
      ].map(Number);

    expect(flags(ToolResult.succeeded())).toEqual([0, 0, 0, 0, 0]);
    expect(flags(ToolResult.failed("x"))).toEqual([0, 0, 0, 0, 0]);
    expect(flags(ToolResult.cancelled())).toEqual([1, 0, 0, 0, 0]);
    expect(flags(ToolResult.denied())).toEqual([0, 1, 0, 0, 0]);
    expect(flags(ToolResult.timeout(5))).toEqual([0, 0, 1, 0, 0]);
    expect(flags(ToolResult.validationFailed("bad"))).toEqual([0, 0, 0, 1, 0]);
    expect(flags(ToolResult.notAvailable("no"))).toEqual([0, 0, 0, 0, 1]);
  });

  it("treats 0, empty string and false as data, and undefined or null as none", () => {
    expect(ToolResult.succeeded(0).hasData).toBe(true);
    expect(ToolResult.succeeded("").hasData).toBe(true);
    expect(ToolResult.succeeded(false).hasData).toBe(true);
    expect(ToolResult.succeeded(0).getSerializedData()).toBe("0");
    expect(ToolResult.succeeded("").getSerializedData()).toBe('""');
    expect(ToolResult.succeeded().hasData).toBe(false);
    expect(ToolResult.succeeded(null).hasData).toBe(false);
  });

  it("reports no suggestions and no artifacts for a plain result", () => {
    const result = ToolResult.succeeded();

    expect(result.hasSuggestions).toBe(false);
    expect(result.suggestedFollowUps).toBeUndefined();
    expect(result.hasArtifacts).toBe(false);
    expect(result.metadata).toBeUndefined();
  });

  it("uses the code of an AinternError as the error code", () => {
    const result = ToolResult.fromException(
      new AinternError("STORE_CLOSED", "The store is closed"),
    );

    expect(result.errorCode).toBe("STORE_CLOSED");
    expect(result.error).toBe("The store is closed");
  });

  it("uses the class name of an Error subclass that left name at 'Error'", () => {
    class FileLockedError extends Error {}
    const result = ToolResult.fromException(new FileLockedError("locked"));

    expect(result.errorCode).toBe("FileLockedError");
  });

  it("uses a custom name and a DOMException name as the error code", () => {
    const named = new Error("quota");
    named.name = "QuotaExceeded";
    expect(ToolResult.fromException(named).errorCode).toBe("QuotaExceeded");

    const aborted = new DOMException("The operation was aborted", "AbortError");
    expect(ToolResult.fromException(aborted).errorCode).toBe("AbortError");
  });

  it("falls back to the error's type name when its message is empty", () => {
    const result = ToolResult.fromException(new TypeError(""));

    expect(result.error).toBe("TypeError");
  });

  it("wraps a thrown string or object in an Error with ExecutionError as the code", () => {
    const fromString = ToolResult.fromException("boom");
    expect(fromString.error).toBe("boom");
    expect(fromString.errorCode).toBe(ToolErrorCode.ExecutionError);
    expect(fromString.exception).toBeInstanceOf(Error);
    expect(fromString.exception?.cause).toBe("boom");

    const thrownObject = { reason: "bad state", attempt: 2n };
    const fromObject = ToolResult.fromException(thrownObject);
    expect(fromObject.error).toBe('{"reason":"bad state","attempt":"2n"}');
    expect(fromObject.exception?.cause).toBe(thrownObject);

    expect(ToolResult.fromException(undefined).error).toBe("");
  });

  it("accepts a validation message or a list of messages", () => {
    const single = ToolResult.validationFailed("path is required");
    expect(single.error).toBe("path is required");
    expect(single.data).toEqual({ errors: [{ message: "path is required" }] });

    const list = ToolResult.validationFailed(["a is required", "b is required"]);
    expect(list.error).toBe("a is required; b is required");
    expect(list.data?.errors).toHaveLength(2);

    expect(ToolResult.validationFailed([]).error).toBe("Parameter validation failed");
  });

  it("omits parameterName for a validation error about the whole input", () => {
    const result = ToolResult.validationFailed({ errors: [{ message: "Expected an object" }] });

    expect(result.data).toEqual({ errors: [{ message: "Expected an object" }] });
    expect(result.toJSON().data).toEqual({ errors: [{ message: "Expected an object" }] });
  });

  it("rejects a negative or non-finite timeout", () => {
    expect(() => ToolResult.timeout(-1)).toThrow(AinternError);
    expect(() => ToolResult.timeout(Number.NaN)).toThrow(/non-negative/);
    expect(() => ToolResult.timeout(Number.POSITIVE_INFINITY)).toThrow(/INVALID_DURATION|finite/);
  });
});

describe("ToolResult text field", () => {
  const data = { path: "a.md", content: '# "A"\n\tb\\c\n', lines: 2 };

  it("shows the named field's text as it is, last, and the other fields as data", () => {
    const result = ToolResultBuilder.success()
      .withData(data)
      .withMessage("Read 'a.md'")
      .withTextField("content")
      .withDuration(3)
      .build();
    expect(result.toLlmContext()).toBe(
      [
        "Result: Success",
        "Message: Read 'a.md'",
        'Data: {"path":"a.md","lines":2}',
        "Duration: 3ms",
        "Content:",
        '# "A"',
        "\tb\\c",
        "",
      ].join("\n"),
    );
    // The data itself is unchanged: structured consumers still get the text in it.
    expect(result.data).toEqual(data);
    expect(result.getSerializedData()).toBe(JSON.stringify(data));
  });

  it("cuts the text at the result's limit, with the same note as data", () => {
    const result = ToolResultBuilder.success()
      .withData({ content: "x".repeat(500) })
      .withTextField("content")
      .build();
    const shown = result.toLlmContext({ maxDataLength: 100 });
    const body = shown.slice(shown.indexOf("Content:\n") + "Content:\n".length);
    expect(body.length).toBeLessThanOrEqual(100);
    expect(body).toMatch(/… \[truncated [\d,]+ of 500 characters\]$/);
  });

  it("falls back to data as JSON when the field is missing, not a string, or the data is no object", () => {
    for (const value of [{ other: "x" }, { content: 5 }, ["content"], "content"]) {
      const result = ToolResultBuilder.success().withData(value).withTextField("content").build();
      expect(result.toLlmContext()).toBe(
        `Result: Success\nMessage: \nData: ${JSON.stringify(value)}`,
      );
    }
  });

  it("shows no text for a failure, and keeps the field through copies and the JSON form", () => {
    const failed = ToolResultBuilder.failure("no")
      .withData({ content: "partial" })
      .withTextField("content")
      .build();
    expect(failed.toLlmContext()).not.toContain("partial");
    const result = ToolResultBuilder.success().withData(data).withTextField("content").build();
    expect(result.withDuration(5).textField).toBe("content");
    expect(result.withMetadata("k", 1).textField).toBe("content");
    const json = JSON.parse(JSON.stringify(result)) as ToolResultJson;
    expect(json.textField).toBe("content");
    expect(toolResultFromJson(json).toLlmContext()).toBe(result.toLlmContext());
    expect(ToolResult.succeeded(data).textField).toBeUndefined();
  });
});

describe("ToolResult immutability", () => {
  it("throws in strict mode when a member, a flag or a list is assigned", () => {
    const result = ToolResult.succeededWithArtifacts([ToolArtifact.url("https://a.b")], { a: 1 });
    const writable = result as unknown as Record<string, unknown>;

    expect(Object.isFrozen(result)).toBe(true);
    expect(() => {
      writable.success = false;
    }).toThrow(TypeError);
    expect(() => {
      writable.isCancelled = true;
    }).toThrow(TypeError);
    expect(() => {
      (result.artifacts as ToolArtifact[]).push(ToolArtifact.url("https://c.d"));
    }).toThrow(TypeError);
    expect(result.success).toBe(true);
    expect(result.artifacts).toHaveLength(1);
  });

  it("does not follow later changes to the arrays it was built from", () => {
    const artifacts = [ToolArtifact.url("https://a.b")];
    const result = ToolResult.succeededWithArtifacts(artifacts);
    artifacts.push(ToolArtifact.url("https://c.d"));

    expect(result.artifacts).toHaveLength(1);
  });

  it("keeps artifacts, follow-ups and metadata through withDuration, as frozen lists", () => {
    const original = ToolResultBuilder.create()
      .asSuccess()
      .withArtifact(ToolArtifact.file("a.txt"))
      .withSuggestion("read b.txt")
      .withMetadata("exitCode", 0)
      .build();
    const timed = original.withDuration(7);

    expect(timed.artifacts).toEqual(original.artifacts);
    expect(timed.suggestedFollowUps).toEqual(["read b.txt"]);
    expect(timed.metadata).toEqual({ exitCode: 0 });
    expect(Object.isFrozen(timed.artifacts)).toBe(true);
    expect(Object.isFrozen(timed.suggestedFollowUps)).toBe(true);
    expect(ToolResult.succeeded().artifacts).toEqual([]);
    expect(Object.isFrozen(ToolResult.succeeded().artifacts)).toBe(true);
  });

  it("returns new frozen results from withDuration and withMetadata", () => {
    const original = ToolResult.failed("x", "Code", { partial: 1 });
    const timed = original.withDuration(42);
    const tagged = timed.withMetadata("exitCode", 2).withMetadata("__proto__", "kept as data");

    expect(original.durationMs).toBe(0);
    expect(timed.durationMs).toBe(42);
    expect(timed.error).toBe("x");
    expect(timed.data).toEqual({ partial: 1 });
    expect(timed.metadata).toBeUndefined();
    expect(Object.isFrozen(tagged)).toBe(true);
    expect(Object.isFrozen(tagged.metadata)).toBe(true);
    expect(tagged.metadata?.exitCode).toBe(2);
    expect(Object.hasOwn(tagged.metadata ?? {}, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(tagged.metadata)).toBe(Object.prototype);
    expect(tagged.durationMs).toBe(42);
    expect(() => original.withDuration(-5)).toThrow(AinternError);
  });
});

describe("ToolResult formatting", () => {
  it("lists suggested follow-ups in the LLM context after the artifacts", () => {
    const result = ToolResultBuilder.create()
      .withMessage("Installed")
      .withDirectoryArtifact("node_modules", { isNew: true })
      .withSuggestion("Run 'npm test'")
      .withSuggestion("Commit package-lock.json")
      .build();

    expect(result.toLlmContext()).toBe(
      [
        "Result: Success",
        "Message: Installed",
        "Artifacts:",
        "  - directory: node_modules",
        "Suggested next steps:",
        "  - Run 'npm test'",
        "  - Commit package-lock.json",
      ].join("\n"),
    );
  });

  it("leaves out metadata and a zero duration from the LLM context", () => {
    const result = ToolResult.succeeded().withMetadata("exitCode", 0).withDuration(0);

    expect(result.toLlmContext()).toBe(
      "Result: Success\nMessage: Operation completed successfully",
    );
  });

  it("passes maxDataLength from toLlmContext options to the data", () => {
    const result = ToolResult.succeeded("y".repeat(500));
    const context = result.toLlmContext({ maxDataLength: 100 });
    const dataLine = context.split("\n").find((line) => line.startsWith("Data: ")) ?? "";

    expect(dataLine.length).toBeLessThanOrEqual("Data: ".length + 100);
    expect(dataLine).toContain("[truncated");
  });

  it("uses the result's maxDataLength when no length is given", () => {
    const result = ToolResultBuilder.create().withData("z".repeat(500)).withTruncation(120).build();

    expect(result.getSerializedData().length).toBeLessThanOrEqual(120);
    expect(result.getSerializedData(1000)).toBe(JSON.stringify("z".repeat(500)));
  });

  it("serializes cyclic data, bigints and functions without throwing, and says so", () => {
    const data: Record<string, unknown> = { id: 1n, run: () => 1 };
    data.self = data;
    const result = ToolResult.succeeded(data);

    expect(result.getSerializedData()).toBe('{"id":"1n","self":"[Circular]"}');
    expect(ToolResult.succeeded(function named() {}).getSerializedData()).toBe(
      '"[Function named]"',
    );
    expect(() => result.toLlmContext()).not.toThrow();
    expect(JSON.stringify(result)).toContain('"self":"[Circular]"');
  });

  it("writes the log summary of a success and of a failure", () => {
    expect(ToolResult.succeeded(1, "Read file").toLogSummary()).toBe("Success: Read file");
    expect(ToolResult.denied().toLogSummary()).toBe(
      "Failed (Denied): Operation was denied by user",
    );
    expect(ToolResult.failed("oops").toLogSummary()).toBe("Failed (): oops");
  });

  it("serializes to JSON without the exception, with artifacts as JSON", () => {
    const result = ToolResult.fromException(new Error("bad")).withMetadata("n", 1n);
    const json = result.toJSON();

    expect(json).toEqual({
      success: false,
      message: "bad",
      error: "bad",
      errorCode: "Error",
      artifacts: [],
      durationMs: 0,
      shouldTruncate: false,
      metadata: { n: "1n" },
    });
    expect(JSON.stringify(result)).not.toContain("exception");

    const withArtifact = ToolResult.succeededWithArtifacts([ToolArtifact.url("https://a.b")], {
      ok: true,
    });
    const parsed = JSON.parse(JSON.stringify(withArtifact)) as { artifacts: { type: string }[] };
    expect(parsed.artifacts[0]?.type).toBe("url");
  });
});
