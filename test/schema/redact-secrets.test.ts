import { describe, expect, it } from "vitest";
import { hasSecretParameters, redactSecretParameters } from "../../src/schema/index.js";

const schema = {
  type: "object",
  properties: {
    token: { type: "string", "x-secret": true },
    user: { type: "string" },
    auth: { type: "object", properties: { password: { type: "string", "x-secret": true } } },
    keys: { type: "array", items: { type: "string", "x-secret": true } },
  },
};

describe("redactSecretParameters", () => {
  it("replaces the values of x-secret properties, nested ones and array items included", () => {
    const parameters = {
      token: "t0k",
      user: "ana",
      auth: { password: "pw", hint: "h" },
      keys: ["a", "b"],
    };
    expect(redactSecretParameters(schema, parameters)).toEqual({
      token: "[redacted]",
      user: "ana",
      auth: { password: "[redacted]", hint: "h" },
      keys: ["[redacted]", "[redacted]"],
    });
    expect(parameters.token).toBe("t0k"); // the original is left alone
  });

  it("returns the parameters themselves when nothing is secret, and ignores inherited names", () => {
    const plain = { type: "object", properties: { user: { type: "string" } } };
    const parameters = { user: "ana" };
    expect(hasSecretParameters(plain)).toBe(false);
    expect(redactSecretParameters(plain, parameters)).toBe(parameters);
    const tricky = JSON.parse('{"__proto__": "x", "constructor": "y", "token": "z"}');
    const redacted = redactSecretParameters(schema, tricky) as Record<string, unknown>;
    expect(Object.hasOwn(redacted, "__proto__")).toBe(true);
    expect(redacted.token).toBe("[redacted]");
    expect(redacted.constructor).toBe("y");
  });
});
