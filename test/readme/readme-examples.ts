/**
 * The TypeScript blocks of README.md as one module that typechecks against the source: imports
 * of "aintern" (any subpath) are gathered into one import per module, and the few names the
 * README leaves to the reader (the model's response, your approval handler, ...) are declared.
 */
import { readFileSync } from "node:fs";

/** Names the README uses without defining them, declared for the check. */
const prelude = `
import fs from "node:fs/promises";
import type { ApprovalHandler, ToolCallBatch } from "aintern";
declare const openAiResponse: unknown;
declare const approvalHandler: ApprovalHandler;
declare const workspacePath: string;
declare const batchId: string;
declare const messages: unknown[];
declare const reply: (content: string, options: { isError: boolean }) => void;
declare const batchOfCalls: ToolCallBatch;
declare const sessionId: string;
declare const model: import("ai").LanguageModel;
declare const chatModel: import("@langchain/core/language_models/chat_models").BaseChatModel;
`;

/** The ```ts blocks of a markdown text, in order. */
export function typescriptBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```(ts|typescript)\s*\n([\s\S]*?)^```/gm;
  for (const match of markdown.matchAll(fence)) blocks.push(match[2]!);
  return blocks;
}

/** One module of every block: imports merged per module, then the blocks' code in order. */
export function readmeModule(readmePath: string): string {
  const blocks = typescriptBlocks(readFileSync(readmePath, "utf8"));
  const imports = new Map<string, Set<string>>();
  const code: string[] = [];
  const importLine = /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)";?\s*$/;
  const declared = new Set<string>();
  blocks.forEach((block, index) => {
    code.push(`// ---- README block ${index + 1}`);
    // Blocks read on from each other (the tour), but a later section may reuse a name: such a
    // block gets its own scope, where it still sees what earlier blocks declared.
    const names = [...block.matchAll(/^(?:const|let|class|function)\s+([A-Za-z_$][\w$]*)/gm)].map(
      (m) => m[1]!,
    );
    const ownScope = names.some((name) => declared.has(name));
    if (!ownScope) for (const name of names) declared.add(name);
    const body: string[] = [];
    for (const line of block.split("\n")) {
      const match = importLine.exec(line.trim());
      if (match === null) {
        body.push(line);
        continue;
      }
      const module = match[3]!.startsWith("aintern") ? match[3]! : match[3]!;
      const imported = imports.get(module) ?? new Set<string>();
      for (const name of match[2]!.split(",")) {
        const trimmed = name.trim();
        if (trimmed !== "") imported.add(match[1] === undefined ? trimmed : `type ${trimmed}`);
      }
      imports.set(module, imported);
    }
    code.push(...(ownScope ? ["{", ...body, "}"] : body));
  });
  const importText = [...imports]
    .map(([module, names]) => `import { ${[...names].join(", ")} } from "${module}";`)
    .join("\n");
  return `${importText}\n${prelude}\n${code.join("\n")}\nexport {};\n`;
}
