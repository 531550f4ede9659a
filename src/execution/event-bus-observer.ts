import type { ToolProgress } from "../context/index.js";
import type { TypedEventEmitter } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import { type Execution, shownParameters } from "./execution.js";
import type { ExecutionObserver } from "./execution-observer.js";
import type { Outcome } from "./execution-outcome.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";
import type { ToolExecutorEvents } from "./tool-executor-events.js";

/**
 * Announces executions on the executor's event bus: each event of an execution's log
 * (`executionEvent`), the AIntern events (`executionStarted`, `executionProgress`,
 * `executionCompleted`) and the Lexichord notifications (`toolExecutionStarted`, `...Completed`,
 * `...Failed`, `...Timeout`). An event nobody listens to is not even built.
 */
export class EventBusObserver implements ExecutionObserver {
  readonly #events: TypedEventEmitter<ToolExecutorEvents>;
  readonly #logParameters: boolean;

  constructor(events: TypedEventEmitter<ToolExecutorEvents>, logParameters: boolean) {
    this.#events = events;
    this.#logParameters = logParameters;
  }

  onEvent(execution: Execution, index: number): void {
    const events = this.#events;
    const { tracker, plan } = execution;
    if (events.hasListeners("executionEvent")) {
      events.emit("executionEvent", tracker.eventAt(index));
    }
    // The first event of every log is Started: the Lexichord start notification follows it.
    if (index === 0 && events.hasListeners("toolExecutionStarted")) {
      events.emit("toolExecutionStarted", {
        ...execution.ids(),
        toolName: plan.toolName,
        parameters: shownParameters(plan, this.#logParameters),
        timestamp: execution.startedAt,
      });
    }
  }

  onToolFound(execution: Execution, tool: Tool): void {
    if (this.#events.hasListeners("executionStarted")) {
      this.#events.emit("executionStarted", {
        ...execution.ids(),
        toolId: tool.id,
        toolName: tool.name,
        startedAt: execution.startedAt,
      });
    }
  }

  onProgress(execution: Execution, tool: Tool, progress: ToolProgress): void {
    if (this.#events.hasListeners("executionProgress")) {
      this.#events.emit("executionProgress", {
        ...execution.ids(),
        toolId: tool.id,
        progress,
      });
    }
  }

  onFinished(execution: Execution, result: ToolExecutionResult, outcome: Outcome): void {
    const events = this.#events;
    const { status } = result;
    const toolName = result.input.toolName;
    const timestamp = result.completedAt;
    const ids = execution.ids();
    if (status === ToolExecutionStatus.Timeout && events.hasListeners("toolExecutionTimeout")) {
      events.emit("toolExecutionTimeout", {
        ...ids,
        toolName,
        timeoutMs: outcome.timeoutMs ?? 0,
        timestamp,
      });
    }
    if (result.success) {
      if (events.hasListeners("toolExecutionCompleted")) {
        events.emit("toolExecutionCompleted", {
          ...ids,
          toolName,
          durationMs: result.durationMs,
          timestamp,
        });
      }
    } else if (events.hasListeners("toolExecutionFailed")) {
      events.emit("toolExecutionFailed", {
        ...ids,
        toolName,
        status,
        errorMessage: result.errorMessage,
        errorCode: result.errorCode,
        durationMs: result.durationMs,
        timestamp,
      });
    }
    if (events.hasListeners("executionCompleted")) {
      events.emit("executionCompleted", {
        ...ids,
        toolId: result.toolId,
        result,
        completedAt: timestamp,
      });
    }
  }
}
