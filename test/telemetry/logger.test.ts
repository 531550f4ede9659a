import pino from "pino";
import { describe, expect, it } from "vitest";
import { type Logger, silentLogger } from "../../src/telemetry/index.js";

describe("Logger", () => {
  it("silentLogger accepts both call shapes, writes nothing and cannot be changed", () => {
    for (const method of [
      silentLogger.debug,
      silentLogger.info,
      silentLogger.warn,
      silentLogger.error,
    ]) {
      expect(method({ a: 1 }, "message")).toBeUndefined();
      expect(method("message")).toBeUndefined();
    }
    expect(Object.isFrozen(silentLogger)).toBe(true);
  });

  it("takes a pino logger and its child loggers as they are", () => {
    const lines: string[] = [];
    const root = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
    const logger: Logger = root;
    const child: Logger = root.child({ component: "executor" });

    logger.info({ executionId: "e" }, "[TLS-EXE] hello");
    child.warn("plain message");

    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 30, executionId: "e", msg: "[TLS-EXE] hello" });
    expect(second).toMatchObject({ level: 40, component: "executor", msg: "plain message" });
  });
});
