import { describe, expect, it } from "vitest";
import { AinternError } from "../../src/core/index.js";
import { ToolResult } from "../../src/result/index.js";
import {
  fromErrorData,
  isOutOfMemoryMessage,
  parseWorkerMessage,
  RemoteToolError,
  toErrorData,
} from "../../src/sandbox/sandbox-protocol.js";

describe("error data across the boundary", () => {
  it("keeps an error's name, message and stack", () => {
    const data = toErrorData(new TypeError("bad type"));
    expect(data).toMatchObject({ name: "TypeError", message: "bad type" });
    expect(data.stack).toContain("bad type");
    const rebuilt = fromErrorData(data);
    expect(rebuilt).toBeInstanceOf(Error);
    expect(rebuilt.name).toBe("TypeError");
    expect(ToolResult.fromException(rebuilt).errorCode).toBe("TypeError");
  });

  it("keeps an AinternError's code, so results carry it as their error code", () => {
    const rebuilt = fromErrorData(toErrorData(new AinternError("MISSING_PARAMETER", "no path")));
    expect(rebuilt).toBeInstanceOf(RemoteToolError);
    expect(AinternError.isInstance(rebuilt)).toBe(true);
    expect(ToolResult.fromException(rebuilt).errorCode).toBe("MISSING_PARAMETER");
  });

  it("describes thrown non-errors", () => {
    expect(toErrorData("just text")).toEqual({ name: "Error", message: "just text" });
    expect(toErrorData({ message: 3 })).toMatchObject({ name: "Error" });
  });

  it("recognises allocation failures", () => {
    expect(isOutOfMemoryMessage("Array buffer allocation failed")).toBe(true);
    expect(isOutOfMemoryMessage("FATAL ERROR: JavaScript heap out of memory")).toBe(true);
    expect(isOutOfMemoryMessage("File not found")).toBe(false);
    expect(isOutOfMemoryMessage(undefined)).toBe(false);
  });
});

describe("parseWorkerMessage", () => {
  const markers = [true, true];
  it.each([
    [{ type: "ready" }],
    [{ type: "progress", id: 1, progress: { message: "m" } }],
    [{ type: "result", id: 1, result: { success: true }, markers }],
    [{ type: "threw", id: 1, phase: "execute", error: { name: "E", message: "m" }, markers }],
  ])("accepts %j", (message) => {
    expect(parseWorkerMessage(message)).toEqual(message);
  });

  it.each([
    ["not an object", "ready"],
    ["an unknown type", { type: "hello" }],
    ["a progress without id", { type: "progress", progress: {} }],
    ["a result without markers", { type: "result", id: 1, result: {} }],
    ["a result with a bad exception", { type: "result", id: 1, result: {}, markers, exception: 1 }],
    ["a threw with an unknown phase", { type: "threw", id: 1, phase: "x", error: {}, markers }],
    [
      "a threw with bad error data",
      { type: "threw", id: 1, phase: "load", error: { name: 1 }, markers },
    ],
    ["markers of the wrong shape", { type: "result", id: 1, result: {}, markers: [true] }],
  ])("refuses %s", (_name, message) => {
    expect(parseWorkerMessage(message)).toBeUndefined();
  });
});
