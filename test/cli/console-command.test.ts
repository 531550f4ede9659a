// `aintern console` as the CLI runs it: the sign-in link it prints, the token it requires, and a
// clear refusal of a bad address.
import { access, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { trustConfig } from "../../src/cli/config-trust.js";
import { runConsoleCommand } from "../../src/cli/console-command.js";
import { useTemporaryAinternHome } from "./cli-in-process.js";

useTemporaryAinternHome();

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}

describe("aintern console", () => {
  it("prints a sign-in link carrying the token, and serves only requests that carry it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-console-cli-"));
    const out = capture();
    const err = capture();
    const controller = new AbortController();
    try {
      const running = runConsoleCommand(
        ["--db", `sqlite:${join(dir, "store.db")}`, "--listen", "127.0.0.1:0", "--operator", "ada"],
        { out: out.stream, err: err.stream, signal: controller.signal },
      );
      let link: RegExpExecArray | null = null;
      for (let i = 0; i < 200 && link === null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        link = /Open: (http:\/\/127\.0\.0\.1:\d+)\/login\?token=(\S+)/.exec(out.text());
      }
      expect(link).not.toBeNull();
      const [, url, token] = link!;
      expect(out.text()).toContain("operator: ada");
      expect((await fetch(`${url}/approvals`)).status).toBe(401);
      const ok = await fetch(`${url}/approvals`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("Pending approvals");
      controller.abort();
      expect(await running).toBe(0);
    } finally {
      controller.abort();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("opens the store aintern mcp uses in the workspace, and the operator of its configuration", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-console-cli-"));
    await writeFile(
      join(dir, "aintern.config.json"),
      JSON.stringify({ console: { operator: "Ada Reviewer" } }),
    );
    // Naming who decides is a setting that needs the person's word (aintern trust).
    const refused = capture();
    expect(
      await runConsoleCommand(["--workspace", dir, "--listen", "127.0.0.1:0"], {
        out: capture().stream,
        err: refused.stream,
      }),
    ).toBe(2);
    expect(refused.text()).toContain("console.operator");
    await trustConfig(join(dir, "aintern.config.json"));
    const out = capture();
    const controller = new AbortController();
    try {
      const running = runConsoleCommand(["--workspace", dir, "--listen", "127.0.0.1:0"], {
        out: out.stream,
        err: capture().stream,
        signal: controller.signal,
      });
      for (let i = 0; i < 200 && !out.text().includes("Open:"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(out.text()).toContain("operator: Ada Reviewer");
      await expect(access(join(dir, ".aintern", "audit.db"))).resolves.toBeUndefined();
      controller.abort();
      expect(await running).toBe(0);
    } finally {
      controller.abort();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses an address that is not host:port, or not loopback without --allow-remote", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-console-cli-"));
    try {
      for (const [listen, message] of [
        ["nope", /--listen must be host:port/],
        ["0.0.0.0:0", /binds to loopback only.*--allow-remote/],
      ] as const) {
        const err = capture();
        const code = await runConsoleCommand(
          ["--db", `sqlite:${join(dir, "store.db")}`, "--listen", listen],
          { out: capture().stream, err: err.stream },
        );
        expect(code).toBe(2);
        expect(err.text()).toMatch(message);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
