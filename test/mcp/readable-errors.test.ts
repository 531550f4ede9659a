// The SDK's request-check errors, as aintern's transports send them: one line naming each field.
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readableError, readableErrorOf } from "../../src/mcp/readable-errors.js";

/** An error response as the SDK sends it, with zod's own message for `schema` and `value`. */
function sdkError(code: number, prefix: string, schema: z.ZodType, value: unknown): JSONRPCMessage {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("the value was meant to fail");
  return { jsonrpc: "2.0", id: 1, error: { code, message: `${prefix}${parsed.error.message}` } };
}

describe("readableError", () => {
  const request = z.object({
    params: z.object({ name: z.string(), cursor: z.string().optional() }),
  });

  it("writes a schema dump after the SDK's prefix as path: problem, every issue on one line", () => {
    const message = sdkError(-32602, "Invalid tools/call request: ", request, {
      params: { name: 5, cursor: 6 },
    });
    expect(readableError(message)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message:
          "Invalid tools/call request: params.name: expected string, received number; params.cursor: expected string, received number",
      },
    });
  });

  it("answers a bare dump about the params, sent as an internal error, as invalid params", () => {
    const message = sdkError(-32603, "", request, { params: { name: "x", cursor: 5 } });
    expect(readableError(message)).toMatchObject({
      error: {
        code: -32602,
        message: "Invalid params: params.cursor: expected string, received number",
      },
    });
  });

  it("keeps an internal error about anything but the params internal", () => {
    const message = sdkError(-32603, "", z.object({ result: z.string() }), { result: 1 });
    expect(readableError(message)).toMatchObject({
      error: { code: -32603, message: "result: expected string, received number" },
    });
  });

  it("leaves results, and errors whose message holds no schema dump, as they are", () => {
    const result: JSONRPCMessage = { jsonrpc: "2.0", id: 1, result: { content: [] } };
    const plain: JSONRPCMessage = {
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32602, message: "Tool 'x' not found. Available: [a, b]" },
    };
    const array: JSONRPCMessage = {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32000, message: 'Bad input: [{"a":1}]' },
    };
    for (const message of [result, plain, array]) expect(readableError(message)).toBe(message);
  });
});

describe("readableErrorOf", () => {
  const notification = z.object({
    params: z.object({ progressToken: z.union([z.string(), z.number()]), progress: z.number() }),
  });
  const failure = (value: unknown): string => {
    const parsed = notification.safeParse(value);
    if (parsed.success) throw new Error("the value was meant to fail");
    return String(parsed.error);
  };

  it("writes a dump inside an error's message as path: problem, a union as its types", () => {
    const error = new Error(
      `Uncaught error in notification handler: Error: ${failure({ params: { progressToken: {}, progress: "x" } })}`,
    );
    const readable = readableErrorOf(error);
    expect(readable.message).toBe(
      "Uncaught error in notification handler: params.progressToken: expected string or number, received object; params.progress: expected number, received string",
    );
    expect(readable.cause).toBe(error);
  });

  it("leaves an error whose message holds no schema dump as it is", () => {
    const error = new Error("The stdio transport is closed");
    expect(readableErrorOf(error)).toBe(error);
  });
});
