#!/usr/bin/env node
// The `aintern` command's executable: runs the CLI and sets the exit code.
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`aintern: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
