import { describe, expect, it } from "vitest";
import { defaultMaxDataLength, ToolResult, ToolResultBuilder } from "../../src/result/index.js";

const fiftyMegabytes = "e".repeat(50 * 1024 * 1024);

describe("the text a result sends to the model", () => {
  it("cuts a 50 MB thrown error message like result data", () => {
    const result = ToolResult.fromException(new Error(fiftyMegabytes));
    const text = result.toLlmContext();
    expect(text.length).toBeLessThan(defaultMaxDataLength + 200);
    expect(text).toMatch(/\[truncated [\d,]+ of 52,428,800 characters\]/);
    // The result itself keeps no more than the model would be shown.
    expect(result.error?.length).toBeLessThanOrEqual(defaultMaxDataLength);
  });

  it("cuts a thrown string the same way", () => {
    const result = ToolResult.fromException(fiftyMegabytes);
    expect(result.error?.length).toBeLessThanOrEqual(defaultMaxDataLength);
  });

  it("cuts a long error, message, artifact and suggestion to the result's own limit", () => {
    const long = "x".repeat(5000);
    const failed = ToolResultBuilder.create()
      .asFailure(long, "CODE")
      .withFileArtifact(long, { description: long })
      .withSuggestion(long)
      .withTruncation(1000)
      .build();
    const text = failed.toLlmContext();
    for (const line of text.split("\n")) expect(line.length).toBeLessThan(1100);
    expect(text).toMatch(/Error: x+… \[truncated 4,0\d\d of 5,000 characters\]/);

    const succeeded = ToolResult.succeeded({ n: 1 }, long);
    expect(succeeded.toLlmContext({ maxDataLength: 500 }).split("\n")[1]?.length).toBeLessThan(600);
  });
});
