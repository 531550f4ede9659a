import picomatch from "picomatch";

/**
 * A matcher for a glob (picomatch syntax, dotfiles included). A pattern without a `/` matches a
 * file's name anywhere (`*.ts`); one with a `/` matches the path from the walk's start
 * (`src/**\/*.ts`).
 *
 * @internal
 */
export function compileGlob(pattern: string): (path: string) => boolean {
  return picomatch(pattern, { dot: true, basename: !pattern.includes("/") });
}
