// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell text, not templates.
import { describe, expect, it } from "vitest";
import { RiskLevel } from "../../src/core/index.js";
import { assessCommandRisk, matchDenyPattern } from "../../src/shell/index.js";

const { Low, Medium, High, Critical } = RiskLevel;

/** Commands that run `rm -rf ~` however they are written: Critical, and hit by a deny `rm *`. */
const hiddenCriticals = [
  "if true; then rm -rf ~; fi",
  "if rm -rf ~; then :; fi",
  "if false; then :; elif true; then :; else rm -rf ~; fi",
  "while true; do rm -rf ~; done",
  "until false; do rm -rf ~; done",
  "for i in 1; do rm -rf ~; done",
  "for ((i=0;i<3;i++)); do rm -rf ~; done",
  "select x in a; do rm -rf ~; done",
  "case a in a) rm -rf ~;; esac",
  "case a in (b|a) rm -rf ~ ;; *) ;; esac",
  "{ rm -rf ~; }",
  "( rm -rf ~ )",
  "! rm -rf ~",
  "f() { rm -rf ~; }; f",
  "function f { rm -rf ~; }",
  "true && { rm -rf ~; }",
  "coproc rm -rf ~",
  "/bin/rm -rf ~",
  "/usr/bin/rm -rf /",
  "/usr//bin/../bin/rm -rf ~",
  "env -S 'rm -rf ~'",
  "env A=1 rm -rf ~",
  "busybox rm -rf ~",
  "timeout 5 rm -rf ~",
  "timeout -s KILL 5 rm -rf ~",
  "nice -n 5 rm -rf ~",
  "stdbuf -oL rm -rf ~",
  "sudo -u root rm -rf ~",
  "doas rm -rf ~",
  "exec rm -rf ~",
  "time rm -rf ~",
  "command rm -rf ~",
  "nohup rm -rf ~ &",
  "setsid rm -rf ~",
  "watch rm -rf ~",
  "flock /tmp/l rm -rf ~",
  "xargs rm -rf ~",
  "sh -c 'rm -rf ~'",
  "bash -lc 'rm -rf ~'",
  "eval 'rm -rf ~'",
  "builtin eval 'rm -rf ~'",
  "alias ls='rm -rf ~'",
  "bash <<EOF\nrm -rf ~\nEOF",
  "bash <<< 'rm -rf ~'",
  "echo 'rm -rf ~' | sh",
  "cat <<EOF | sh\nrm -rf ~\nEOF",
  "echo $(rm -rf ~)",
  "ls > $(rm -rf ~)",
  "for x in $(rm -rf ~); do :; done",
  "find / -exec rm -rf {} +",
  "'rm' -rf ~",
  '"rm" -rf ~',
  "\\rm -rf ~",
  "r'm' -rf ~",
  'rm -rf "$HOME"',
  "rm -r -f ~/",
  "rm -rf /usr/../",
  "rm -rf ${X:-/}",
  "rm${IFS}-rf ~",
  "$X -rf ~",
  "r? -rf ~",
  "/bin/r[m] -rf ~",
  "{rm,-rf,~}",
  "$'\\x72m' -rf ~",
  "bash <(echo 'rm -rf ~')",
  ". <(echo 'rm -rf ~')",
  "bash /dev/stdin <<< 'rm -rf ~'",
  "source /dev/stdin <<< 'rm -rf ~'",
  "alias x='rm -rf'\nx ~",
  "alias x=rm; x -rf ~",
  "find . -name x -exec sh -c 'rm -rf ~' \\;",
  "echo $(case a in a) rm -rf ~;; esac)",
  "gosu root rm -rf ~",
  "uv run rm -rf ~",
  "pnpm dlx rm -rf ~",
  "env - rm -rf ~",
  "su root -c 'rm -rf ~'",
  "flock /tmp/l -c 'rm -rf ~'",
  "ssh localhost 'rm -rf ~'",
  "runuser -u x -- rm -rf ~",
  "echo 'rm -rf ~' | ssh localhost",
  "echo 'rm -rf ~' | at now",
  "echo 'rm -rf ~' | batch",
  "echo 'rm -rf ~' | at -qc now",
  "echo 'rm -rf ~' | ssh -l -N localhost",
  "ssh localhost -- rm -rf ~",
  "ssh localhost -T rm -rf ~",
];

describe("assessCommandRisk judges what will actually run", () => {
  it.each(hiddenCriticals)("rates `%s` Critical and a deny rule `rm *` hits it", (command) => {
    expect(assessCommandRisk(command).riskLevel).toBe(Critical);
    expect(matchDenyPattern("rm *", command)).toBe("match");
  });

  it.each([
    // Options and variables that make a read-only program run another program.
    ["git -c core.pager=sh log", High],
    ["git -c core.fsmonitor='rm -rf ~' status", High],
    ["git --config-env=core.pager=X log", High],
    ["git --git-dir=evil status", High],
    ["git config core.fsmonitor 'touch x'", High],
    // It prints values of .git/config and ~/.gitconfig (a remote URL may hold a token).
    ["git config --get user.name", Medium],
    ["git grep --open-files-in-pager=vi foo", High],
    ["git grep -O foo", High],
    ["git diff --ext-diff", High],
    ["git clone -u 'sh -c x' repo", High],
    ["git ls-remote --upload-pack=x origin", High],
    ["git submodule foreach 'rm -rf ~'", Critical],
    ["GIT_DIR=evil git status", High],
    ["GIT_PAGER=sh git log", High],
    ["LD_PRELOAD=./x.so ls", High],
    ["PAGER=sh man ls", High],
    ["EDITOR=x git commit", High],
    ["PATH=./bin:$PATH ls", High],
    ["HOME=./evil git status", High],
    ["export PATH=./bin", High],
    ["printf -v PATH ./bin", High],
    ["read PATH <<< ./bin", High],
    ["FOO=1 ls", Medium],
    ["LANG=C ls", Low],
    ["rg --pre ./x foo", High],
    ["rg -z foo", High],
    ["rg -n foo src", Low],
    ["sort --compress-program=sh a", High],
    ["sort -o out.txt in.txt", Medium],
    ["sort -rn a", Low],
    ["find . -exec ls {} ;", High],
    ["find . -execdir ls {} +", High],
    ["find . -ok ls {} ;", High],
    ["find . -name '*.tmp' -delete", High],
    ["find . -fprint out", High],
    ["find . -newer x -name '*.ts'", Low],
    ["find ~ -delete", Critical],
    ["less +!x file", High],
    ["less -k keys file", High],
    ["less -N file", Low],
    ["tar --to-command=sh -xf a.tar", High],
    ["tar --use-compress-program=x -xf a.tar", High],
    ["tar -I x -xf a.tar", High],
    ["tar -tf a.tar", Medium],
    ["echo x | xargs echo", High],
    ["sed -i s/a/b/ f", High],
    ["sed 'w /tmp/x' f", High],
    ["sed 's/a/b/e' f", High],
    ["sed -n '1e id' f", High],
    ["sed -n 1,5p f", Low],
    ["sed 's/a/b/g' f", Low],
    // GNU getopt_long and git take any unambiguous prefix of a long option.
    ["sort --compress-prog=sh a", High],
    ["tar --to-com=sh -xf a.tar", High],
    ["git --config-e=core.pager=X log", High],
    ["git grep --open-files foo", High],
    ["sed --in-pl s/a/b/ f", High],
    ["sed --expr='w /tmp/x' f", High],
    ["find -delete", Critical],
    // Options a read-only program's allow list does not know.
    ["ls --weird", Medium],
    ["cat --bogus f", Medium],
    ["grep --frobnicate x f", Medium],
    ["git log --weird", Medium],
    // Programs by path.
    ["./cat x", High],
    ["bin/ls", High],
    ["../tool", High],
    ["/tmp/x", Medium],
    ["~/bin/x", Medium],
    ["/usr/bin/git status", Low],
    // Redirections.
    ["echo x >| f", Medium],
    ["echo x > ~/.bashrc", High],
    ["echo x > /etc/passwd", High],
    ["echo x > ../outside", High],
    ["echo x > .git/hooks/pre-commit", High],
    ['echo x > "$F"', High],
    ["ls 2>/dev/null", Medium],
    // Reading compound forms stay Low when every part is read-only.
    ["if [ -f x ]; then cat x; else echo none; fi", Low],
    ["for f in a b; do wc -l $f; done", Medium],
    ["[[ -f x ]] && cat x", Low],
    ["command -v rm", Low],
  ])("rates `%s` as %s", (command, level) => {
    expect(assessCommandRisk(command).riskLevel).toBe(level);
  });

  it("deny rules look through to the effective program but leave other programs alone", () => {
    expect(matchDenyPattern("rm *", "git rm x")).toBe("no-match");
    expect(matchDenyPattern("rm *", "ls -la")).toBe("no-match");
    expect(matchDenyPattern("rm *", "ls${X} -la")).toBe("unsure");
    expect(matchDenyPattern("rm *", "echo 'open")).toBe("unsure");
    expect(matchDenyPattern("rm *", "mywrapper rm -rf x")).toBe("unsure");
    expect(matchDenyPattern("git push *", "/usr/bin/git push origin")).toBe("match");
    expect(matchDenyPattern("git push *", "sudo git push origin")).toBe("match");
  });

  // An attached optional value the shell splits (`-n$X`, X='x rm -rf ~') gives the wrapper its
  // command: a deny rule cannot rule it out (unsure: the call is asked, marked possibly denied).
  it.each(["nsenter -n$X cat x", "nsenter -t1 -U$X cat x", "nsenter -nx$X cat x"])(
    "a deny rule `rm *` may hit `%s`: its optional value splits into words",
    (command) => {
      expect(matchDenyPattern("rm *", command)).toBe("unsure");
    },
  );
  it("reads a quoted optional value as that value", () => {
    expect(matchDenyPattern("rm *", 'nsenter -n"$X" cat x')).toBe("no-match");
  });
});

describe("red-team findings of 2026-11-26", () => {
  it.each([
    ["hash -p /bin/rm cat; cat important.txt"],
    ["hash -p /usr/bin/python3 cat; cat evil.py"],
    ["test -v 'a[$(touch /tmp/pwned)]'"],
    ["[ -v 'x[$(id)]' ]"],
    ["git -C /tmp/evilrepo status"],
    ["git --work-tree=/tmp status"],
    ["git --git-dir=/tmp/x/.git log"],
  ])("rates %s High at least: it runs code a read-only reading would not", (command) => {
    expect(assessCommandRisk(command).riskLevel).toBeGreaterThanOrEqual(RiskLevel.High);
  });

  it.each([
    ["git -C . push origin main"],
    ["git --no-pager push origin"],
    ["git --work-tree=. push x"],
    ["git -c user.name=x push origin"],
  ])("lets the deny rule 'git push *' see %s", (command) => {
    expect(matchDenyPattern("git push *", command)).toBe("match");
  });

  it("keeps plain hash, test and git status low", () => {
    expect(assessCommandRisk("hash -r").riskLevel).toBeLessThanOrEqual(RiskLevel.Low);
    expect(assessCommandRisk("test -f a.txt").riskLevel).toBeLessThanOrEqual(RiskLevel.Low);
    expect(assessCommandRisk("git status").riskLevel).toBeLessThanOrEqual(RiskLevel.Low);
  });
});

describe("programs that write where their arguments say", () => {
  it.each([
    ["cp evil .git/hooks/pre-commit"],
    ["mv evil ~/.bashrc"],
    ["tee .git/hooks/post-checkout"],
    ["echo hi | tee ~/.bashrc"],
    ["install -m755 evil .git/hooks/pre-commit"],
    ["sort -o ~/.bashrc x"],
    ["dd if=x of=/etc/passwd"],
    ["cp a ../../outside.txt"],
  ])("rates %s High, as a redirection to the same place", (command) => {
    expect(assessCommandRisk(command).riskLevel).toBeGreaterThanOrEqual(RiskLevel.High);
  });

  it("leaves a copy inside the workspace as it was", () => {
    expect(assessCommandRisk("cp src/a.ts src/b.ts").riskLevel).toBeLessThan(RiskLevel.High);
  });
});

describe("wrappers' options by prefix, programs that run their arguments, `sh -c --`", () => {
  it.each([
    ["bash -c -- 'rm -rf ~'"],
    ["sh -c -e 'rm -rf ~'"],
    ["rbash -c 'rm -rf ~'"],
    ["timeout --sig KILL 5 rm -rf ~"],
    ["env --uns X rm -rf ~"],
    ["su root --session-command='rm -rf ~'"],
    ["setarch x86_64 -R rm -rf ~"],
    ["linux64 rm -rf ~"],
    ["logsave /dev/null rm -rf ~"],
    ["runcon -t x rm -rf ~"],
    ["start-stop-daemon -S -x /bin/rm -- -rf ~"],
    ["tmux new -d 'rm -rf ~'"],
    ["tmux run-shell 'rm -rf ~'"],
  ])("rates %s Critical and a deny `rm *` hits it", (command) => {
    expect(assessCommandRisk(command).riskLevel).toBe(Critical);
    expect(matchDenyPattern("rm *", command)).toBe("match");
  });
  it("keeps a shell's script built by expansion Critical", () => {
    expect(assessCommandRisk('bash -c "$CMD"').riskLevel).toBe(Critical);
    expect(assessCommandRisk('sh -c -- "$CMD"').riskLevel).toBe(Critical);
  });
});
