import type { Generated } from "kysely";

/** The audit table as Kysely sees it (values as either driver returns them). */
export interface ToolExecutionsTable {
  id: string;
  execution_id: string;
  tool_name: string;
  parameters_json: string | null;
  status: number;
  error_message: string | null;
  error_code: string | null;
  started_at: Date | string;
  completed_at: Date | string;
  duration_ms: number | string;
  output_size_bytes: number | string | null;
  sandbox_id: string | null;
  agent_id: string | null;
  user_id: string | null;
  batch_id: string | null;
  metadata_json: string | null;
  conversation_id: string | null;
  result_summary: string | null;
  was_approved: boolean | number;
  timed_out: boolean | number;
  was_cancelled: boolean | number;
  call_id: string | null;
  session_id: string | null;
  decision: string | null;
  decided_by: string | null;
  approval_scope: string | null;
  grant_id: string | null;
  arguments_hash: string | null;
  edited_arguments_hash: string | null;
}

/** `tool_permissions`: one remembered `tool`-scoped grant per row. */
export interface ToolPermissionsTable {
  id: string;
  tool_id: string;
  /** `tool_id` lowercased, what lookups by tool compare (indexed). */
  tool_key: string;
  scope: string;
  session_id: string | null;
  pattern: string | null;
  pattern_kind: string | null;
  max_risk_level: number;
  workspace_path: string | null;
  created_at: Date | string;
  expires_at: Date | string | null;
  granted_by: string | null;
}

/** `tool_calls`: the lifecycle record of one call, keyed by (session id, provider's call id). */
export interface ToolCallsTable {
  call_id: string;
  session_id: string;
  /** The record's `status`, a `ToolCallStatus` value. */
  status: string;
  /** The whole `ToolCallLifecycleRecord` as JSON text. */
  record_json: string;
  updated_at: Date | string;
  /** The store that saved the call while it was `Executing` (see the call store); else null. */
  owner: string | null;
  /** Save order: every save takes a higher number, so "newest first" is `seq` descending. */
  seq: Generated<number | string>;
}

/** `pending_approvals`: one call waiting for (or answered by) a person in the console. */
export interface PendingApprovalsTable {
  id: string;
  call_key: string;
  request_id: string;
  arguments_hash: string;
  session_id: string | null;
  tool_id: string;
  risk_level: number;
  /** The request, details and preview as JSON text. */
  request_json: string;
  status: string;
  decision_json: string | null;
  decided_by: string | null;
  decided_at: Date | string | null;
  created_at: Date | string;
  expires_at: Date | string;
  applied_at: Date | string | null;
  owner: string | null;
  /** Raised on every change: what SQLite waiters poll (indexed). */
  changed_seq: number | string;
}

/** `running_executions`: an execution in flight in some process, for the console. */
export interface RunningExecutionsTable {
  execution_id: string;
  tool_id: string;
  tool_name: string;
  session_id: string | null;
  call_id: string | null;
  owner: string;
  started_at: Date | string;
  updated_at: Date | string;
  percent: number | null;
  message: string | null;
  cancel_requested_at: Date | string | null;
  cancel_requested_by: string | null;
  /** Set when it ended; ended rows are kept briefly so that pollers see the change. */
  finished_at: Date | string | null;
  changed_seq: number | string;
}

/** `tool_definitions`: the last-seen definition of one upstream tool. */
export interface ToolDefinitionsTable {
  /** The tool id lowercased (the key: ids match case-insensitively, as grants' do). */
  tool_key: string;
  /** The tool id as it was last recorded. */
  tool_id: string;
  /** The definition's fingerprint (a SHA-256 hex digest). */
  fingerprint: string;
  /** When this fingerprint was recorded. */
  recorded_at: Date | string;
}

/** The store's tables under their logical names (see `table-names.ts` for the physical ones). */
export interface StoreTables {
  tool_executions: ToolExecutionsTable;
  tool_permissions: ToolPermissionsTable;
  tool_calls: ToolCallsTable;
  pending_approvals: PendingApprovalsTable;
  running_executions: RunningExecutionsTable;
  tool_definitions: ToolDefinitionsTable;
}
