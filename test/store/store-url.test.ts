import { isAbsolute, join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidStoreUrlError } from "../../src/store/index.js";
import { redactStoreUrl } from "../../src/store/invalid-store-url-error.js";
import { parseStoreUrl } from "../../src/store/store-url.js";

describe("parseStoreUrl", () => {
  it("reads sqlite files, relative and absolute, and the memory database", () => {
    expect(parseStoreUrl("sqlite::memory:")).toEqual({ dialect: "sqlite", path: ":memory:" });
    expect(parseStoreUrl("sqlite:/var/lib/aintern.db")).toEqual({
      dialect: "sqlite",
      path: "/var/lib/aintern.db",
    });
    const relative = parseStoreUrl("sqlite:data/aintern.db");
    expect(relative).toEqual({ dialect: "sqlite", path: join(process.cwd(), "data/aintern.db") });
    expect(isAbsolute((relative as { path: string }).path)).toBe(true);
  });

  it("reads postgres:// and postgresql:// connection strings as they are", () => {
    for (const url of ["postgres://u:p@h:5432/d", "postgresql://h/d?sslmode=disable"]) {
      expect(parseStoreUrl(url)).toEqual({ dialect: "postgres", connectionString: url });
    }
  });

  it("throws InvalidStoreUrlError for other schemes and non-strings", () => {
    expect(() => parseStoreUrl("redis://h")).toThrow(InvalidStoreUrlError);
    expect(() => parseStoreUrl(undefined as unknown as string)).toThrow(/empty/);
    expect(() => parseStoreUrl("   ")).toThrow(/empty/);
  });

  it("redacts only the password of a URL", () => {
    expect(redactStoreUrl("postgres://me:pw@h/d")).toBe("postgres://me:***@h/d");
    expect(redactStoreUrl("postgres://me@h/d")).toBe("postgres://me@h/d");
    expect(redactStoreUrl("sqlite:./a:b@c.db")).toBe("sqlite:./a:b@c.db");
    // A raw @ in the password, and a password given as a query parameter, hide too.
    expect(redactStoreUrl("postgres://me:p@ss@h:5432/d")).toBe("postgres://me:***@h:5432/d");
    expect(redactStoreUrl("postgres://h/d?user=me&password=s3cret&ssl=true")).toBe(
      "postgres://h/d?user=me&password=***&ssl=true",
    );
  });
});
