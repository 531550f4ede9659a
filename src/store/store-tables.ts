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
}

/** The store's tables under their logical names (see `table-names.ts` for the physical ones). */
export interface StoreTables {
  tool_executions: ToolExecutionsTable;
}
