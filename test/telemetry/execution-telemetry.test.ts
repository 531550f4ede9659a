import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  LicenseTier,
  staticLicense,
  ToolExecutionStatus,
  ToolExecutor,
} from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import {
  ExecutionTelemetry,
  GenAiAttributes,
  MetricNames,
  telemetryScope,
} from "../../src/telemetry/open-telemetry.js";
import { MockTool } from "../../src/testing/index.js";

/** A metric reader the test collects from when it wants to. */
class ManualReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

let reader: ManualReader;
let meterProvider: MeterProvider;
let spans: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;
let telemetry: ExecutionTelemetry;

beforeEach(() => {
  reader = new ManualReader();
  meterProvider = new MeterProvider({ readers: [reader] });
  spans = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  telemetry = new ExecutionTelemetry({
    meter: meterProvider.getMeter(telemetryScope),
    tracer: tracerProvider.getTracer(telemetryScope),
  });
});

afterEach(async () => {
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
});

async function metrics(): Promise<Map<string, MetricData>> {
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  const byName = new Map<string, MetricData>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
  }
  return byName;
}

function points(metric: MetricData | undefined): DataPoint<unknown>[] {
  return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
}

/** Sum of a counter's points whose attributes include `match`. */
function counted(metric: MetricData | undefined, match: Record<string, unknown> = {}): number {
  return points(metric)
    .filter((p) => Object.entries(match).every(([k, v]) => p.attributes[k] === v))
    .reduce((sum, p) => sum + (p.value as number), 0);
}

function executor(...tools: MockTool[]): ToolExecutor {
  return new ToolExecutor({
    registry: new ToolRegistry({ tools }),
    telemetry,
    license: staticLicense(LicenseTier.Teams),
  });
}

const blocker = () =>
  new MockTool({
    id: "slow",
    executeFunc: (_context, signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => resolve(ToolResult.cancelled()), { once: true }),
      ),
  });

describe("ExecutionTelemetry metrics (spec 003 section 7 names)", () => {
  it("records every metric under the spec's names", async () => {
    const run = executor(MockTool.succeeding("ok"), blocker());

    await run.execute({ toolName: "ok" });
    await run.execute({ toolName: "slow" }, { timeoutMs: 5 });
    await run.executeBatch([{ toolName: "ok" }, { toolName: "ok" }]);

    const names = [...(await metrics()).keys()].sort();
    expect(names).toEqual(
      [
        "tools.batches.size",
        "tools.batches.total",
        "tools.executions.by_status",
        "tools.executions.by_tool",
        "tools.executions.duration",
        "tools.executions.timeouts",
        "tools.executions.total",
      ].sort(),
    );
    expect(Object.values(MetricNames).sort()).toEqual(names);
  });

  it("counts executions in total, by status and by tool, and times them", async () => {
    const run = executor(MockTool.succeeding("ok"), MockTool.failing("bad"));

    await run.execute({ toolName: "ok" });
    await run.execute({ toolName: "ok" });
    await run.execute({ toolName: "bad" });
    await run.execute({ toolName: "missing" });

    const m = await metrics();
    expect(counted(m.get(MetricNames.executionsTotal))).toBe(4);
    expect(
      counted(m.get(MetricNames.executionsByStatus), { "execution.status": "completed" }),
    ).toBe(2);
    expect(counted(m.get(MetricNames.executionsByStatus), { "execution.status": "failed" })).toBe(
      2,
    );
    expect(counted(m.get(MetricNames.executionsByTool), { "tool.name": "ok" })).toBe(2);
    expect(counted(m.get(MetricNames.executionsByTool), { "tool.name": "missing" })).toBe(1);
    const duration = m.get(MetricNames.executionsDuration);
    expect(duration?.descriptor.unit).toBe("ms");
    const okDurations = points(duration).find(
      (p) => p.attributes["tool.name"] === "ok" && p.attributes["execution.status"] === "completed",
    );
    const histogram = okDurations?.value as Histogram | undefined;
    expect(histogram?.count).toBe(2);
    expect(histogram?.sum).toBeGreaterThanOrEqual(0);
  });

  it("counts a timeout in tools.executions.timeouts and a cancellation only under its status", async () => {
    const run = executor(blocker());

    await run.execute({ toolName: "slow" }, { timeoutMs: 5 });
    const cancelling = run.execute({ toolName: "slow" }, { executionId: "c" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    run.cancel("c");
    expect((await cancelling).status).toBe(ToolExecutionStatus.Cancelled);

    const m = await metrics();
    expect(counted(m.get(MetricNames.executionsTimeouts))).toBe(1);
    expect(counted(m.get(MetricNames.executionsTimeouts), { "tool.name": "slow" })).toBe(1);
    expect(counted(m.get(MetricNames.executionsByStatus), { "execution.status": "timeout" })).toBe(
      1,
    );
    expect(
      counted(m.get(MetricNames.executionsByStatus), { "execution.status": "cancelled" }),
    ).toBe(1);
  });

  it("counts batches and records their sizes, marking parallel ones", async () => {
    const run = executor(MockTool.succeeding("ok"));

    await run.executeBatch([{ toolName: "ok" }, { toolName: "ok" }, { toolName: "ok" }]);
    await run.executeBatch([{ toolName: "ok" }], { allowParallel: true, maxParallelism: 2 });

    const m = await metrics();
    expect(counted(m.get(MetricNames.batchesTotal))).toBe(2);
    expect(counted(m.get(MetricNames.batchesTotal), { "batch.parallel": true })).toBe(1);
    const sizes = points(m.get(MetricNames.batchesSize)).map((p) => (p.value as Histogram).sum);
    expect(sizes.sort()).toEqual([1, 3]);
  });
});

describe("ExecutionTelemetry spans (OpenTelemetry GenAI execute_tool)", () => {
  it("ends one execute_tool span per execution with the GenAI attributes", async () => {
    const run = executor(MockTool.succeeding("ok"));

    const result = await run.execute({ toolName: "ok" }, { executionId: "call-1" });

    const [span, ...rest] = spans.getFinishedSpans();
    expect(rest).toEqual([]);
    expect(span?.name).toBe("execute_tool ok");
    expect(span?.kind).toBe(SpanKind.INTERNAL);
    expect(span?.attributes).toEqual({
      [GenAiAttributes.operationName]: "execute_tool",
      [GenAiAttributes.toolName]: "ok",
      [GenAiAttributes.toolCallId]: result.executionId,
      [GenAiAttributes.toolType]: "function",
    });
    expect(span?.attributes["gen_ai.tool.call.id"]).toBe("call-1");
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.instrumentationScope.name).toBe("aintern");
  });

  it("marks a failed, timed-out, cancelled or unknown execution with error.type and an error status", async () => {
    const run = executor(MockTool.failing("bad"), blocker());

    await run.execute({ toolName: "bad" });
    await run.execute({ toolName: "slow" }, { timeoutMs: 5 });
    await run.execute({ toolName: "slow" }, {}, AbortSignal.abort());
    await run.execute({ toolName: "nope" });

    const finished = spans.getFinishedSpans();
    expect(finished.map((s) => s.attributes["error.type"])).toEqual([
      "failed",
      "Timeout",
      "Cancelled",
      "ToolNotFound",
    ]);
    expect(finished.every((s) => s.status.code === SpanStatusCode.ERROR)).toBe(true);
    expect(finished[1]?.status.message).toBe("Timeout");
  });

  it("adds the tool's description when one is given", () => {
    const span = telemetry.startExecutionSpan("t", "id-1", "Reads a file");
    telemetry.endExecutionSpan(span, undefined);

    expect(spans.getFinishedSpans()[0]?.attributes[GenAiAttributes.toolDescription]).toBe(
      "Reads a file",
    );
  });

  it("is a silent no-op without an SDK (the global API's default)", async () => {
    const silent = new ExecutionTelemetry();
    const span = silent.startExecutionSpan("t", "id");
    silent.endExecutionSpan(span, "Failed");
    silent.recordExecution("t", "timeout", 1);
    silent.recordBatch(3, true);

    expect(span.isRecording()).toBe(false);
    expect(spans.getFinishedSpans()).toEqual([]);
  });
});
