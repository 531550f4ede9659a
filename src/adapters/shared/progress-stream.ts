import type { ToolProgress } from "../../context/index.js";

/** A progress report of a running aintern tool, as the adapters stream it to a framework. */
export interface ProgressReport {
  readonly type: "progress";
  readonly message: string;
  /** 0 to 100, when the tool knows. */
  readonly percentComplete?: number;
}

/** A tool's progress as a {@link ProgressReport}: its message, or its progress text. */
export function progressReport(progress: ToolProgress): ProgressReport {
  return {
    type: "progress",
    message: progress.message === "" ? progress.progressText : progress.message,
    ...(progress.percentComplete === undefined
      ? {}
      : { percentComplete: progress.percentComplete }),
  };
}

/**
 * Runs `start` and yields each progress report it makes while it runs, then its result: the
 * shape of an async generator tool (AI SDK preliminary results, LangChain tool events). A
 * rejection of `start` is rethrown after the reports made before it.
 */
export async function* progressThenResult<R>(
  start: (onProgress: (progress: ToolProgress) => void) => Promise<R>,
): AsyncGenerator<{ kind: "progress"; progress: ToolProgress } | { kind: "result"; result: R }> {
  const queue: ToolProgress[] = [];
  let settled: { ok: true; value: R } | { ok: false; error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  start((progress) => {
    queue.push(progress);
    notify();
  }).then(
    (value) => {
      settled = { ok: true, value };
      notify();
    },
    (error: unknown) => {
      settled = { ok: false, error };
      notify();
    },
  );
  for (;;) {
    const next = queue.shift();
    if (next !== undefined) {
      yield { kind: "progress", progress: next };
      continue;
    }
    if (settled !== undefined) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  if (!settled.ok) throw settled.error;
  yield { kind: "result", result: settled.value };
}
