import { parseArgs } from "node:util";
import { isSignedGrant } from "../approval/grant-signature.js";
import { displayText, jsonLine, riskLevelName } from "../core/index.js";
import { openStore } from "../store/index.js";
import { loadGrantKey } from "./grant-key.js";
import { resolveMcpPlaces } from "./mcp-runtime.js";

export const permissionsUsage = `Usage:
  aintern permissions [list] [--tool T] [--json]   the remembered "always" approvals
  aintern permissions revoke ID                    forget one
  (also --workspace DIR, --db URL, --config FILE)

  Session-scoped approvals live only as long as their MCP session and are not listed here.
`;

/** `aintern permissions`. Returns the exit code. */
export async function runPermissionsCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      tool: { type: "string" },
      json: { type: "boolean" },
      workspace: { type: "string" },
      db: { type: "string" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const action = positionals[0] ?? "list";
  if (values.help === true || (action !== "list" && action !== "revoke")) {
    process.stdout.write(permissionsUsage);
    return values.help === true ? 0 : 2;
  }
  if (action === "revoke" && positionals[1] === undefined) {
    process.stderr.write(`revoke needs a permission id\n\n${permissionsUsage}`);
    return 2;
  }
  const places = await resolveMcpPlaces({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.config === undefined ? {} : { config: values.config }),
  });
  const store = await openStore(places.storeUrl);
  try {
    if (action === "revoke") {
      const id = positionals[1]!;
      if (await store.permissions.revoke(id)) {
        process.stdout.write(`Revoked ${displayText(id)}\n`);
        return 0;
      }
      process.stderr.write(
        `No remembered permission has the id '${displayText(id)}' (see: aintern permissions list)\n`,
      );
      return 1;
    }
    const grants = await store.permissions.list(
      values.tool === undefined ? {} : { toolId: values.tool },
    );
    // Only grants signed with this user's key let anything run: say which the others are.
    const key = await loadGrantKey();
    if (values.json === true || !process.stdout.isTTY) {
      for (const grant of grants) {
        process.stdout.write(`${jsonLine({ ...grant, honoured: isSignedGrant(key, grant) })}\n`);
      }
      return 0;
    }
    if (grants.length === 0) {
      process.stdout.write("No remembered permissions.\n");
      return 0;
    }
    // Tool ids and patterns come from the model's calls and the person who approved them: printed
    // as text, never as terminal commands.
    for (const g of grants) {
      const pattern =
        g.pattern === undefined ? "any arguments" : `${g.patternKind ?? "pattern"} ${g.pattern}`;
      const by = g.grantedBy === undefined ? "" : ` by ${g.grantedBy}`;
      const ignored = isSignedGrant(key, g)
        ? ""
        : "  (not honoured: aintern did not sign it with your key)";
      process.stdout.write(
        `${displayText(
          `${g.id}  ${g.toolId.padEnd(22)} up to ${riskLevelName(g.maxRiskLevel).padEnd(7)} ${pattern}  since ${g.createdAt.toISOString()}${by}${ignored}`,
        )}\n`,
      );
    }
    return 0;
  } finally {
    await store.close();
  }
}
