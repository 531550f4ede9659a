// Scratch (verdict, session 5): adapters.bench.ts run() with more rounds, printing the framework
// turn on the check against the one judged twice.  ROUNDS=21 npx tsx bench/_verdict-adapters-run.ts
import { type AdapterFigures, run } from "./adapters.bench.js";
import { formatSpread } from "./measure.js";

const rounds = Number(process.env.ROUNDS ?? 21);
const f = await run(300, rounds);
const row = (label: string, x: AdapterFigures) =>
  `| ${label} | ${formatSpread(x.ainternToolTurnUs)} | ${formatSpread(x.addedPerCallUs)} |`;
console.log(
  `${f.date}, node ${f.node}, load ${f.loadAverage.start.toFixed(1)} -> ${f.loadAverage.end.toFixed(1)}, ${f.rounds} rounds x ${f.calls} turns, CPU us per turn`,
);
console.log(`plain tool turn ${formatSpread(f.cpu.plainToolTurnUs)}`);
console.log(row("inline", f.cpu));
console.log(row("framework, on the check", f.cpuFramework));
console.log(row("framework, judged twice", f.cpuFrameworkTwice));
console.log(`judged twice - on the check, per round: ${formatSpread(f.frameworkCheckSavesUs)}`);
