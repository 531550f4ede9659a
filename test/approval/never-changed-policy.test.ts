import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalPolicy, type ApprovalRule } from "../../src/approval/index.js";
import { neverChanged } from "../../src/approval/never-changed.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";

let workspace: string;
beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "aintern-never-changed-policy-")));
  mkdirSync(join(workspace, "proj"));
  writeFileSync(join(workspace, "proj", "guarded.json"), "{}");
  writeFileSync(join(workspace, "notes.txt"), "x");
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const rule = (): ApprovalRule => ({ pathPattern: "proj/guarded.json", reason: "Guarded" });
const decide = (deny: ApprovalRule, toolId: string, parameters: JsonObject) =>
  new ApprovalPolicy({ deny: [deny] }).decide({
    toolId,
    category: toolId === "terminal-execute" ? ToolCategory.Terminal : ToolCategory.FileSystem,
    riskLevel: RiskLevel.High,
    parameters,
    workspacePath: workspace,
  });

describe("ApprovalPolicy: the rules guarding what the model can never change", () => {
  it.each<[string, JsonObject]>([
    ["file-delete", { path: "proj", recursive: true }],
    ["file-delete", { path: ".", recursive: true }],
    ["terminal-execute", { command: "rm -rf proj" }],
    ["terminal-execute", { command: "mv proj elsewhere" }],
    ["terminal-execute", { command: "find proj -delete" }],
    ["terminal-execute", { command: "find . -name x -exec rm -rf {} +" }],
    ["terminal-execute", { command: "rm -r p?oj" }],
    ["terminal-execute", { command: "cp notes.txt proj/guard*" }],
    ["terminal-execute", { command: "cp notes.txt $X" }],
    ["terminal-execute", { command: "cd proj && cp ../notes.txt guarded.json" }],
    ["terminal-execute", { command: "cd other && cp notes.txt ../proj/x" }],
    ["terminal-execute", { command: "cd other && rm -rf proj" }],
    ["terminal-execute", { command: "cd other && cp notes.txt GUARDED.json" }],
    ["terminal-execute", { command: "cd proj && rm -rf ." }],
  ])("deny %s %j, where a user's rule with the same pattern does not", (toolId, parameters) => {
    expect(decide(neverChanged(rule()), toolId, parameters)).toMatchObject({ kind: "deny" });
    expect(decide(rule(), toolId, parameters).kind, "a user's rule").not.toBe("deny");
  });

  // Programs whose operands aintern does not read, and commands that change a folder without
  // naming what is in it: a second red team wrote the config and the store through each.
  it.each<[string]>([
    ["curl -sS -o proj/guarded.json file:///tmp/x"],
    ["wget -q -O proj/guarded.json http://127.0.0.1:1/"],
    ["git diff --output=proj/guarded.json"],
    ["unlink proj/guarded.json"],
    ["rsync notes.txt proj/guarded.json"],
    ["git rm -q proj/guarded.json"],
    ["sqlite3 proj/guarded.json 'delete from t'"],
    ['cp notes.txt proj/gua""rded.json'],
    ["git clean -fdx"],
    ["tar -xf t.tar"],
    ["unzip -oq t.zip"],
    // The same reader as the archive rule: an extraction however it is written, into the folder
    // that holds the guarded file, and patches applied there.
    ["tar -f t.tar -x"],
    ["tar -C . -xf t.tar"],
    ["tar -C proj -xf t.tar"],
    ["unzip t.zip -d proj"],
    ["bsdtar -xf t.tar"],
    ["cpio -i < a.cpio"],
    ["7z x a.7z"],
    ["patch -p1 < x.diff"],
    ["git apply x.patch"],
    ["git am 0001.patch"],
    ["rsync -a --delete src/ proj/"],
    ["cp -al . /tmp/h"],
    ["cp -r --link proj /tmp/h"],
    ["ln proj/../proj/guarded.json /tmp/hard"],
    ["rm -rf .."],
    ["mv .. /tmp/elsewhere"],
  ])("deny the terminal command %s", (command) => {
    expect(decide(neverChanged(rule()), "terminal-execute", { command })).toMatchObject({
      kind: "deny",
    });
  });

  it.each<[string]>([
    ["curl -sS https://example.com"],
    ["tar -xf t.tar -C other"],
    ["unzip t.zip -d other"],
    ["tar -C other -xf t.tar"],
    ["git apply --check x.patch"],
    ["ln -s notes.txt link.txt"],
    ["git status"],
    ["rsync -a src/ other/"],
  ])("leave the terminal command %s to the rest of the policy", (command) => {
    expect(decide(neverChanged(rule()), "terminal-execute", { command }).kind).not.toBe("deny");
  });

  // A name that starts with `-` is an option where a glob gives it: `tar czf a.tgz *` beside
  // `--checkpoint-action=exec=CMD` runs CMD, which may change anything.
  it("deny a glob where a program reads options when it matches a name that is an option", () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "aintern-never-changed-dash-")));
    try {
      mkdirSync(join(folder, "proj"));
      writeFileSync(join(folder, "proj", "guarded.json"), "{}");
      writeFileSync(join(folder, "--checkpoint-action=exec=sh x"), "");
      for (const command of ["tar czf a.tgz *", "zip -r a.zip *", "ssh * host", "man [-]*"]) {
        const decision = new ApprovalPolicy({ deny: [neverChanged(rule())] }).decide({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.High,
          parameters: { command },
          workspacePath: folder,
        });
        expect(decision.kind, command).toBe("deny");
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each<[string]>([["tar czf a.tgz *.txt"], ["zip -r a.zip *.txt"], ["ssh * host"]])(
    "leave %s to the rest of the policy when its glob matches no name that is an option",
    (command) => {
      expect(decide(neverChanged(rule()), "terminal-execute", { command }).kind).not.toBe("deny");
    },
  );

  it.each<[string, JsonObject]>([
    ["file-delete", { path: "proj" }],
    ["file-delete", { path: "other", recursive: true }],
    ["terminal-execute", { command: "ls proj" }],
    ["terminal-execute", { command: "grep -r x ." }],
    ["terminal-execute", { command: "cat *.txt" }],
    ["terminal-execute", { command: "rm -rf notes*" }],
    // After 'cd' a relative path may lead anywhere, but its name cannot reach proj/guarded.json.
    ["terminal-execute", { command: "cd src && cat app.ts" }],
    ["terminal-execute", { command: "cd src && rm -rf build" }],
    ["terminal-execute", { command: "cd src/lib && cp a.ts b.ts" }],
  ])("leave %s %j to the rest of the policy", (toolId, parameters) => {
    expect(decide(neverChanged(rule()), toolId, parameters).kind).not.toBe("deny");
  });
});
