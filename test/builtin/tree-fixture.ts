import { join } from "node:path";
import type { Workspace } from "./workspace-fixture.js";

/**
 * A small repository: root and nested .gitignore files, a .git directory, ignored directories,
 * a negated pattern, a binary file and a link that leads out of the workspace.
 */
export async function writeTree(ws: Workspace): Promise<void> {
  await ws.write({
    ".gitignore": "node_modules/\n*.log\nbuild/\n",
    ".git/config": "[core]\n# TODO in git config\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "src/app.ts": "// TODO: app\nexport const app = 1;\n",
    "src/util.ts": "export const util = 2;\n",
    "src/.gitignore": "generated.ts\n!keep.log\n",
    "src/generated.ts": "// TODO generated\n",
    "src/keep.log": "TODO keep\n",
    "src/debug.log": "TODO debug\n",
    "src/deep/nested/x.ts": "const x = 'todo lower';\n",
    "node_modules/pkg/index.js": "// TODO nm\n",
    "build/out.js": "// TODO build\n",
    "docs/readme.md": "Docs. TODO: docs\n",
    "image.bin": new Uint8Array([0, 1, 2, 84, 79, 68, 79]),
  });
  await ws.link("link-out", ws.outside);
  await ws.link("src/link-secret.txt", join(ws.outside, "secret.txt"));
}
