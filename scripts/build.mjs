// Builds dist/: type declarations from tsc, and JavaScript from esbuild, one bundle per package
// entry (package.json "exports", the bin, the sandbox worker) with the code they share split
// into chunks. Bundled entries load much faster than one file per module (Node's ESM loader
// resolves and links each file), and code splitting keeps one copy of every class across
// subpaths, so `instanceof` holds between them. Dependencies stay external.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const toSource = (file) => file.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts");
const entries = new Set([
  ...Object.values(pkg.exports)
    .filter((target) => typeof target === "object")
    .map((target) => toSource(target.import)),
  ...Object.values(pkg.bin).map(toSource),
  // Started as separate processes (by the sandbox; the orphan reaper, to outlive its owner); found
  // through core's packageFileUrl.
  "src/sandbox/process-worker-main.ts",
  "src/sandbox/orphan-reaper-main.ts",
]);

rmSync("dist", { recursive: true, force: true });
execFileSync(
  process.execPath,
  ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--emitDeclarationOnly"],
  {
    stdio: "inherit",
  },
);
await build({
  entryPoints: [...entries],
  outdir: "dist",
  outbase: "src",
  entryNames: "[dir]/[name]",
  chunkNames: "_chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
