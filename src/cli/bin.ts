#!/usr/bin/env node
// The `aintern` command's executable: runs the CLI and sets the exit code.
import { tuneGarbageCollectorForServing } from "./server-gc-tuning.js";

const argv = process.argv.slice(2);
// Before the CLI's modules are even loaded: see the function.
tuneGarbageCollectorForServing(argv);
const { displayText } = await import("../core/index.js");
const { main } = await import("./main.js");

// A reader that stops early (`aintern audit | head`) closes the pipe: stop quietly, as Unix
// tools do, instead of a stack trace. Not for `mcp`: over stdio, its transport hears a closed
// stdout itself and ends the connection, cancelling (and auditing) the calls in flight.
if (argv[0] !== "mcp") {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
    });
  }
}

main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `aintern: ${displayText(error instanceof Error ? error.message : String(error), { multiline: true })}\n`,
    );
    process.exitCode = 1;
  },
);
