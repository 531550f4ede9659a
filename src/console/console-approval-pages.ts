import type { McpApprovalPages } from "../mcp/index.js";
import type { ConsoleApprovalHandler } from "./console-approval-handler.js";

/**
 * The console's page of each pending approval, for the MCP server's URL elicitation
 * (`AinternMcpServer`'s `approvalPages`): `open` records the call through `handler` (the same
 * handler the processor waits with) and answers `<consoleUrl>/approvals/<row id>`; `withdraw`
 * expires a row whose page the person refused to open; `settled` resolves once the row is decided,
 * expired or withdrawn (the server then tells the client the page is done). The address carries
 * no credential.
 *
 * @example
 * ```ts
 * const handler = new ConsoleApprovalHandler({ approvals: store.approvals });
 * const processor = new ToolCallProcessor({ executor, approvalHandler: handler, store: store.calls });
 * const running = await startConsole({ store, listen: "127.0.0.1:7070" });
 * const mcp = new AinternMcpServer({
 *   registry, processor, approvalPages: consoleApprovalPages(handler, running.url),
 * });
 * ```
 */
export function consoleApprovalPages(
  handler: ConsoleApprovalHandler,
  consoleUrl: string,
): McpApprovalPages {
  const base = consoleUrl.replace(/\/+$/, "");
  return {
    async open(request, details) {
      const approval = await handler.open(request, details);
      return { id: approval.id, url: `${base}/approvals/${encodeURIComponent(approval.id)}` };
    },
    async withdraw(id) {
      await handler.withdraw(id);
    },
    async settled(id, signal) {
      await handler.settled(id, signal);
    },
  };
}
