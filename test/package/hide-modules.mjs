// A module hook that refuses to load the packages and files named in AINTERN_FORBIDDEN_MODULES
// (comma-separated; a package name, or a path fragment with a '/' of a file). Importing something that
// loads one of them then fails, naming it. Used with `node --import`.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      const forbidden = (process.env.AINTERN_FORBIDDEN_MODULES ?? "").split(",").filter(Boolean);
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        for (const name of forbidden) {
          const hit = name.includes("/")
            ? resolved.url.includes(name)
            : specifier === name || specifier.startsWith(name + "/") ||
              resolved.url.includes("/node_modules/" + name + "/");
          if (hit) {
            throw new Error("forbidden module loaded: " + name + " (from " + context.parentURL + ")");
          }
        }
        return resolved;
      }
    `),
);
