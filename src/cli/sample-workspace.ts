import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const files: Readonly<Record<string, string>> = {
  "package.json": `${JSON.stringify({ name: "sample-app", version: "1.0.0", scripts: { test: "node --test" } }, null, 2)}\n`,
  "README.md": "# Sample app\n\nA tiny workspace for the aintern agent-turn demo.\n",
  ".gitignore": "node_modules/\ndist/\n",
  "src/app.ts":
    'import { greet } from "./greet.js";\n\n// TODO: read the name from argv\nconsole.log(greet("world"));\n',
  "src/greet.ts": [
    "export function greet(name: string): string {",
    `  return "Hello, " + name + "!"; // TODO: i18n`,
    "}",
    "",
  ].join("\n"),
  "notes/old.md": "Old notes, safe to delete.\n",
  "dist/app.js": "// build output, ignored by .gitignore\n",
};

/** Creates a small sample project in a new temporary directory and returns its path. */
export async function createSampleWorkspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "aintern-sample-"));
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  return root;
}
