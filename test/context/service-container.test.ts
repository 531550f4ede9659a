import { describe, expect, it } from "vitest";
import {
  ContextErrorCode,
  createServiceToken,
  ServiceContainer,
  ServiceNotRegisteredError,
} from "../../src/context/index.js";
import { AinternError } from "../../src/core/index.js";

interface Logger {
  info(message: string): void;
}

describe("ServiceContainer", () => {
  const LoggerToken = createServiceToken<Logger>("logger");
  const CountToken = createServiceToken<number>("count");

  it("returns the registered service for its token", () => {
    const logger: Logger = { info: () => {} };
    const container = new ServiceContainer().register(LoggerToken, logger);
    expect(container.getService(LoggerToken)).toBe(logger);
    expect(container.getRequiredService(LoggerToken)).toBe(logger);
    expect(container.has(LoggerToken)).toBe(true);
  });

  it("returns undefined for a token nothing is registered for", () => {
    expect(new ServiceContainer().getService(LoggerToken)).toBeUndefined();
    expect(new ServiceContainer().has(LoggerToken)).toBe(false);
  });

  it("keeps falsy services such as 0", () => {
    const container = new ServiceContainer().register(CountToken, 0);
    expect(container.getService(CountToken)).toBe(0);
    expect(container.getRequiredService(CountToken)).toBe(0);
  });

  it("throws an error naming the missing token and the registered ones", () => {
    const container = new ServiceContainer().register(CountToken, 1);
    let caught: unknown;
    try {
      container.getRequiredService(LoggerToken);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ServiceNotRegisteredError);
    const error = caught as ServiceNotRegisteredError;
    expect(AinternError.isInstance(error)).toBe(true);
    expect(error.code).toBe(ContextErrorCode.ServiceNotRegistered);
    expect(error.tokenName).toBe("logger");
    expect(error.registered).toEqual(["count"]);
    expect(error.message).toContain("'logger'");
    expect(error.message).toContain("Registered: count.");
    expect(() => new ServiceContainer().getRequiredService(LoggerToken)).toThrow(
      "Registered: none.",
    );
  });

  it("tells apart two tokens with the same name", () => {
    const a = createServiceToken<string>("same");
    const b = createServiceToken<string>("same");
    const container = new ServiceContainer().register(a, "a");
    expect(container.getService(b)).toBeUndefined();
  });

  it("lets a later registration replace an earlier one", () => {
    const container = new ServiceContainer().register(CountToken, 1).register(CountToken, 2);
    expect(container.getService(CountToken)).toBe(2);
  });

  it("creates frozen tokens", () => {
    expect(Object.isFrozen(LoggerToken)).toBe(true);
    expect(LoggerToken.name).toBe("logger");
  });
});
