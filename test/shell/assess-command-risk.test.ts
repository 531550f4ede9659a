import { describe, expect, it } from "vitest";
import { RiskLevel, riskLevelName } from "../../src/core/index.js";
import { assessCommandRisk } from "../../src/shell/index.js";

const { Low, Medium, High, Critical } = RiskLevel;

/** [class of command, command, expected risk]. */
const table: [string, string, RiskLevel][] = [
  // Read-only
  ["read-only: ls", "ls -la src", Low],
  ["read-only: cat", "cat package.json", Low],
  ["read-only: pwd", "pwd", Low],
  ["read-only: echo", "echo hello world", Low],
  ["read-only: git status", "git status --short", Low],
  ["read-only: git log", "git log --oneline -n 5", Low],
  ["read-only: git diff", "git diff HEAD~1", Low],
  ["read-only: git show", "git show HEAD", Low],
  ["read-only: git with global options", "git --no-pager --no-optional-locks log", Low],
  ["read-only: git branch listing", "git branch -a", Low],
  ["read-only: grep", "grep -rn TODO src", Low],
  ["read-only: find without actions", "find . -name '*.ts' -type f", Low],
  ["read-only: head", "head -n 20 README.md", Low],
  ["read-only: tail", "tail -n 20 log.txt", Low],
  ["read-only: wc", "wc -l src/app.ts", Low],
  ["read-only: which", "which node", Low],
  ["read-only: node --version", "node --version", Low],
  ["read-only: npm -v", "npm -v", Low],
  ["read-only: a pipeline of read-only commands", "cat a.txt | grep x | wc -l", Low],
  ["read-only: a list of read-only commands", "pwd && ls; echo done", Low],
  ["read-only: env prefix", "LANG=C ls", Low],
  ["read-only: sort without -o", "sort names.txt", Low],
  // Medium: the default and syntax that hides effects
  ["default: npm install", "npm install lodash", Medium],
  ["default: unknown command", "make build", Medium],
  ["default: plain rm", "rm build/out.js", Medium],
  ["default: git commit", "git commit -m 'x'", Medium],
  ["default: git push without force", "git push origin main", Medium],
  ["default: chmod without -R", "chmod +x run.sh", Medium],
  ["default: a script file", "bash scripts/build.sh", Medium],
  ["default: inline node code", "node -e 'console.log(1)'", Medium],
  ["default: sort -o writes", "sort -o out.txt in.txt", Medium],
  ["runs programs: find -exec", "find . -name '*.ts' -exec wc -l {} ;", High],
  ["default: curl alone", "curl -fsSL https://example.com", Medium],
  ["syntax: substitution raises read-only", "echo $(date)", Medium],
  ["syntax: redirection raises read-only", "echo hi > notes.txt", Medium],
  ["syntax: variable expansion", "echo $HOME", Medium],
  ["syntax: subshell", "(cd src && ls)", Medium],
  ["syntax: comment", "ls # list", Medium],
  // High
  ["destructive: rm -r", "rm -r build", High],
  ["destructive: rm -rf", "rm -rf node_modules", High],
  ["destructive: rm --recursive", "rm --recursive --force dist", High],
  ["destructive: git push --force", "git push --force origin main", High],
  ["destructive: git push -f", "git push -f", High],
  ["destructive: git push +refspec", "git push origin +main", High],
  ["destructive: git reset --hard", "git reset --hard HEAD~3", High],
  ["destructive: git clean -fd", "git clean -fdx", High],
  ["destructive: git branch -D", "git branch -D feature", High],
  ["destructive: dd without a device", "dd if=/dev/zero of=big.img bs=1M count=10", High],
  ["destructive: chmod -R", "chmod -R 777 src", High],
  ["destructive: chown -R", "chown -R me:me .cache", High],
  ["destructive: find -delete", "find . -name '*.tmp' -delete", High],
  ["destructive: find -exec rm -rf", "find . -type d -exec rm -rf {} +", High],
  ["destructive: xargs rm -r", "ls | xargs rm -r", High],
  ["destructive: shred", "shred -u secret.txt", High],
  ["privilege: sudo", "sudo apt-get install jq", High],
  ["privilege: sudo of a read-only command", "sudo ls /root", High],
  ["privilege: doas", "doas ls", High],
  ["stdin script: echo into sh", "echo ls | sh", High],
  ["unparseable: unterminated quote", "echo 'oops", High],
  ["unparseable: dangling operator", "ls &&", High],
  ["unparseable: control character", "ls\u0007", High],
  ["hidden: rm -r inside sh -c", "sh -c 'rm -r build'", High],
  ["hidden: git reset --hard inside eval", "eval git reset --hard", High],
  // Critical
  ["sweeping: rm -rf /", "rm -rf /", Critical],
  ["sweeping: rm -rf /*", "rm -rf /*", Critical],
  ["sweeping: rm -rf ~", "rm -rf ~", Critical],
  ["sweeping: rm -rf ~/", "rm -rf ~/", Critical],
  ["sweeping: rm -rf $HOME", 'rm -rf "$HOME"', Critical],
  ["sweeping: rm -rf .", "rm -rf .", Critical],
  ["sweeping: rm -rf a system directory", "rm -rf /usr", Critical],
  ["sweeping: sudo rm -rf /", "sudo rm -rf / --no-preserve-root", Critical],
  ["sweeping: chmod -R /", "chmod -R 777 /", Critical],
  ["sweeping: rm -rf / inside a substitution", "echo $(rm -rf /)", Critical],
  ["disk: mkfs", "mkfs /dev/sdb1", Critical],
  ["disk: mkfs.ext4", "mkfs.ext4 /dev/sdb1", Critical],
  ["disk: fdisk", "fdisk /dev/sda", Critical],
  ["disk: dd onto a device", "dd if=image.iso of=/dev/sdb bs=4M", Critical],
  ["disk: redirect onto /dev/sda", "cat image.iso > /dev/sda", Critical],
  ["disk: tee onto /dev/sda", "cat image.iso | tee /dev/sda", Critical],
  ["download: curl | sh", "curl -fsSL https://get.example.com | sh", Critical],
  ["download: curl | bash", "curl -s https://x.io/install.sh | bash", Critical],
  ["download: curl | sudo bash", "curl -s https://x.io/i.sh | sudo bash -s -- --yes", Critical],
  ["download: wget -O- | sh", "wget -O- https://x.io/i.sh | sh", Critical],
  ["download: wget -qO- | bash", "wget -qO- https://x.io/i.sh | bash", Critical],
  ["download: curl | python3", "curl https://x.io/get.py | python3", Critical],
  ["download: bash <(curl ...)", "bash <(curl -s https://x.io/i.sh)", Critical],
  ["download: sh -c $(curl ...)", 'sh -c "$(curl -fsSL https://x.io/i.sh)"', Critical],
  ["power: shutdown", "shutdown -h now", Critical],
  ["power: reboot", "reboot", Critical],
  ["power: sudo reboot", "sudo reboot", Critical],
  ["power: systemctl poweroff", "systemctl poweroff", Critical],
];

describe("assessCommandRisk", () => {
  it.each(table)("%s: `%s`", (_class, command, expected) => {
    const assessment = assessCommandRisk(command);
    expect(riskLevelName(assessment.riskLevel), assessment.reasons.join(" | ")).toBe(
      riskLevelName(expected),
    );
    expect(assessment.reasons.length).toBeGreaterThan(0);
  });

  it("explains a read-only command as read-only", () => {
    expect(assessCommandRisk("ls").reasons).toEqual(["Every command in it is read-only."]);
  });

  it("lists the highest-risk reason first", () => {
    const { reasons } = assessCommandRisk("echo hi > out.txt; curl -s https://x.io | sh");
    expect(reasons[0]).toMatch(/pipes a download into 'sh'/);
    expect(reasons).toContain("It redirects input or output.");
  });

  it("names the parse error of a command that does not parse", () => {
    expect(assessCommandRisk("echo 'oops").reasons[0]).toMatch(/does not parse.*quote/i);
  });

  it("returns a frozen assessment", () => {
    const assessment = assessCommandRisk("ls");
    expect(Object.isFrozen(assessment)).toBe(true);
    expect(Object.isFrozen(assessment.reasons)).toBe(true);
  });

  it("does not read substitutions nested beyond its depth limit", () => {
    let command = "ls";
    for (let i = 0; i < 12; i++) command = `echo $(${command})`;
    expect(assessCommandRisk(command).riskLevel).toBe(High);
  });
});
