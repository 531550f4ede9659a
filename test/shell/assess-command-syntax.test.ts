import { describe, expect, it } from "vitest";
import { assessCommandSyntax } from "../../src/shell/index.js";

describe("assessCommandSyntax", () => {
  it("finds a plain command approvable by a pattern, with no reasons", () => {
    const assessment = assessCommandSyntax("npm test && npm run build &");
    expect(assessment.patternApprovable).toBe(true);
    expect(assessment.reasons).toEqual([]);
    expect(assessment.parsed.ok && assessment.parsed.segments).toEqual([
      ["npm", "test"],
      ["npm", "run", "build"],
    ]);
  });

  it("gives one reason for each construct that stops a pattern", () => {
    const assessment = assessCommandSyntax("(echo $(id) $HOME > out) # note");
    expect(assessment.patternApprovable).toBe(false);
    expect(assessment.reasons).toEqual([
      "It runs a command or process substitution ($(...), backticks, <(...), >(...)).",
      "It expands variables, parameters or braces, so the words that run are not the words shown.",
      "It redirects input or output.",
      "It groups commands in a subshell or a { ...; } group.",
      "It contains a comment, and shells disagree on what a comment hides.",
    ]);
  });

  it("says why a command that does not parse cannot be approved", () => {
    const assessment = assessCommandSyntax("npm install 'lodash");
    expect(assessment.patternApprovable).toBe(false);
    expect(assessment.parsed.ok).toBe(false);
    expect(assessment.reasons).toEqual([
      "It does not parse as a shell command: Unterminated single quote starting at offset 12.",
    ]);
  });

  it("returns a frozen assessment", () => {
    const assessment = assessCommandSyntax("npm test");
    expect(Object.isFrozen(assessment)).toBe(true);
    expect(Object.isFrozen(assessment.reasons)).toBe(true);
  });
});
