// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell text, not templates.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/approval/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { assessCommandRisk, matchDenyPattern } from "../../src/shell/index.js";

/** Denied programs with arguments, each as plain words. */
const denied = fc.constantFrom(
  { program: "rm", args: ["-rf", "~"] },
  { program: "rm", args: ["-r", "build"] },
  { program: "git", args: ["push", "--force"] },
  { program: "curl", args: ["-fsSL", "https://x.sh"] },
  { program: "dd", args: ["if=/dev/zero", "of=/dev/sda"] },
);

/** Ways to write the program word that the shell reads as the same program. */
const programSpelling = (program: string) =>
  fc.constantFrom(
    program,
    `'${program}'`,
    `"${program}"`,
    `\\${program}`,
    `${program.slice(0, 1)}'${program.slice(1)}'`,
    `/usr/bin/${program}`,
    `/bin/${program}`,
    `$'${program}'`,
    `${program}\${EMPTY}`,
  );

/** Ways to write an argument that keep its meaning. */
const argumentSpelling = (arg: string) =>
  arg === "~" ? fc.constantFrom("~", "~/") : fc.constantFrom(arg, `'${arg}'`, `"${arg}"`);

const wrapper = fc.constantFrom(
  "",
  "env ",
  "env -i ",
  "command ",
  "exec ",
  "sudo ",
  "sudo -u root ",
  "doas ",
  "nohup ",
  "nice ",
  "nice -n 5 ",
  "timeout 5 ",
  "timeout -s KILL 5 ",
  "time ",
  "stdbuf -oL ",
  "xargs ",
  "busybox ",
  "setsid ",
  "A=1 ",
  "GIT_DIR=x ",
  "LANG=C ",
  "env B=2 ",
  "builtin ",
);

/** Compound forms around a command `X`. */
const around = fc.constantFrom(
  (x: string) => x,
  (x: string) => `if true; then ${x}; fi`,
  (x: string) => `if ${x}; then :; fi`,
  (x: string) => `if false; then :; else ${x}; fi`,
  (x: string) => `while true; do ${x}; break; done`,
  (x: string) => `until ${x}; do :; done`,
  (x: string) => `for i in 1 2; do ${x}; done`,
  (x: string) => `case a in a) ${x};; esac`,
  (x: string) => `{ ${x}; }`,
  (x: string) => `( ${x} )`,
  (x: string) => `! ${x}`,
  (x: string) => `f() { ${x}; }; f`,
  (x: string) => `function g { ${x}; }; g`,
  (x: string) => `true && ${x}`,
  (x: string) => `false || ${x}`,
  (x: string) => `echo a | ${x}`,
  (x: string) => `${x} | cat`,
  (x: string) => `${x} & wait`,
  (x: string) => `echo $(${x})`,
  (x: string) => `sh -c '${x.replaceAll("'", "'\\''")}'`,
  (x: string) =>
    `bash -c "${x.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("$", "\\$")}"`,
  (x: string) => `eval '${x.replaceAll("'", "'\\''")}'`,
  (x: string) => `ls; ${x}`,
  (x: string) => `${x} 2>/dev/null`,
);

const generated = denied.chain(({ program, args }) =>
  fc
    .tuple(
      programSpelling(program),
      fc.tuple(...args.map(argumentSpelling)),
      fc.array(wrapper, { maxLength: 3 }),
      fc.array(around, { minLength: 1, maxLength: 3 }),
    )
    .map(([spelled, spelledArgs, wrappers, forms]) => {
      const simple = `${wrappers.join("")}${spelled} ${spelledArgs.join(" ")}`;
      const command = forms.reduce((inner, form) => form(inner), simple);
      return { plain: `${program} ${args.join(" ")}`, pattern: `${program} *`, command };
    }),
);

describe("assessCommandRisk and deny rules against a small shell grammar", () => {
  it("never rates a disguised command below the plain one, and a deny rule always catches it", () => {
    fc.assert(
      fc.property(generated, ({ plain, pattern, command }) => {
        const plainRisk = assessCommandRisk(plain).riskLevel;
        expect(assessCommandRisk(command).riskLevel, command).toBeGreaterThanOrEqual(plainRisk);
        expect(matchDenyPattern(pattern, command), command).toBe("match");
        const policy = new ApprovalPolicy({
          tools: { "terminal-execute": "allow" },
          deny: [{ commandPattern: pattern }],
        });
        const decision = policy.decide({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Low,
          parameters: { command },
        });
        expect(decision.kind, command).toBe("deny");
      }),
      { numRuns: 1500 },
    );
  });
});
