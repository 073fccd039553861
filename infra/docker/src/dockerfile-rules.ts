/**
 * The hadolint rules that matter for these images, over dockerfile-ast's parse (no Docker
 * engine or hadolint binary is needed): ids are hadolint's where it has the rule, and a
 * readable name where the rule is ours (a digest on every base image, a non-root final user).
 * What Docker itself would refuse (an unknown instruction or flag, a bad argument) comes from
 * dockerfile-utils' validator, under the rule `syntax`.
 */
import { DockerfileParser, type Flag, type Instruction } from 'dockerfile-ast';
import { validate as dockerfileSyntax } from 'dockerfile-utils';

export interface Finding {
  rule: string;
  /** 1-based line of the instruction. */
  line: number;
  message: string;
}

export const RULES: Record<string, string> = {
  DL3000: 'WORKDIR must be an absolute path',
  DL3002: 'the last USER of the final stage must not be root',
  DL3003: 'use WORKDIR to change directory, not cd',
  DL3004: 'do not use sudo',
  DL3006: 'name the base image with an explicit tag',
  DL3007: 'do not use the latest tag',
  DL3008: 'pin the versions of apt-get install packages (name=version)',
  DL3009: 'delete the apt lists after apt-get install (rm -rf /var/lib/apt/lists/*)',
  DL3015: 'apt-get install with --no-install-recommends',
  DL3016: 'pin the versions of npm install packages (name@version)',
  DL3020: 'use COPY, not ADD, for files and folders',
  DL3025: 'CMD and ENTRYPOINT in JSON form, so signals reach the process',
  DL3027: 'use apt-get, not apt, in scripts',
  DL3057: 'the final stage has a HEALTHCHECK',
  DL3059: 'merge consecutive RUN instructions',
  DL4000: 'MAINTAINER is deprecated: use a LABEL',
  DL4006: 'set SHELL ["/bin/bash", "-o", "pipefail", "-c"] before a RUN with a pipe',
  'pinned-digest': 'pin the base image by digest (name:tag@sha256:...)',
  'non-root-user': 'the final stage switches to a non-root USER',
  'copy-chown': 'COPY in the final stage names the owner (--chown), so nothing the service reads is left to chance',
  syntax: 'what Docker would refuse to build',
};

interface Stage {
  name?: string;
  instructions: Instruction[];
}

const lineOf = (instruction: Instruction) => instruction.getRange().start.line + 1;
const argumentsOf = (instruction: Instruction) => instruction.getArgumentsContent() ?? '';
/** COPY, ADD, FROM, RUN and HEALTHCHECK carry their --flags apart from the arguments. */
const flagsOf = (instruction: Instruction): Flag[] => ('getFlags' in instruction ? (instruction as Instruction & { getFlags(): Flag[] }).getFlags() : []);
const isRoot = (user: string) => /^(root|0)(:.*)?$/.test(user.trim());

/** Splits a shell command into its simple commands (on &&, ||, ;, | and newlines). */
export const simpleCommands = (script: string) =>
  script
    .split(/&&|\|\||;|\||\n/)
    .map((command) => command.trim())
    .filter(Boolean);

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.getKeyword() === 'FROM') {
      const words = argumentsOf(instruction).split(/\s+/);
      const as = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({ name: as >= 0 ? words[as + 1] : undefined, instructions: [instruction] });
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return stages;
}

function fromFindings(from: Instruction, stageNames: Set<string>): Finding[] {
  const line = lineOf(from);
  const image = argumentsOf(from)
    .split(/\s+/)
    .find((word) => !word.startsWith('--'));
  if (!image || image === 'scratch' || stageNames.has(image)) return [];
  if (image.includes('$')) return [{ rule: 'pinned-digest', line, message: `${RULES['pinned-digest']}: ${image} is only known at build time` }];
  const [nameAndTag, digest] = image.split('@');
  const tag = nameAndTag!.slice(nameAndTag!.lastIndexOf('/') + 1).split(':')[1];
  const findings: Finding[] = [];
  if (!tag && !digest) findings.push({ rule: 'DL3006', line, message: `${RULES.DL3006}: ${image}` });
  if (tag === 'latest') findings.push({ rule: 'DL3007', line, message: `${RULES.DL3007}: ${image}` });
  if (!digest || !/^sha256:[0-9a-f]{64}$/.test(digest)) findings.push({ rule: 'pinned-digest', line, message: `${RULES['pinned-digest']}: ${image}` });
  return findings;
}

function packageFindings(command: string, line: number): Finding[] {
  const findings: Finding[] = [];
  const words = command.split(/\s+/);
  const apt = words[0] === 'apt-get' && words.includes('install');
  if (words[0] === 'apt') findings.push({ rule: 'DL3027', line, message: RULES.DL3027! });
  if (apt) {
    const packages = words.slice(words.indexOf('install') + 1).filter((word) => !word.startsWith('-'));
    const loose = packages.filter((name) => !name.includes('='));
    if (loose.length) findings.push({ rule: 'DL3008', line, message: `${RULES.DL3008}: ${loose.join(', ')}` });
    if (!words.includes('--no-install-recommends')) findings.push({ rule: 'DL3015', line, message: RULES.DL3015! });
  }
  if (words[0] === 'npm' && ['install', 'i', 'add'].includes(words[1] ?? '')) {
    const loose = words.slice(2).filter((word) => !word.startsWith('-') && !/^(@[^/]+\/)?[^@]+@.+$/.test(word));
    if (loose.length) findings.push({ rule: 'DL3016', line, message: `${RULES.DL3016}: ${loose.join(', ')}` });
  }
  if (words[0] === 'cd') findings.push({ rule: 'DL3003', line, message: RULES.DL3003! });
  if (words[0] === 'sudo') findings.push({ rule: 'DL3004', line, message: RULES.DL3004! });
  return findings;
}

function runFindings(run: Instruction, pipefail: boolean): Finding[] {
  const line = lineOf(run);
  const script = argumentsOf(run);
  const findings = simpleCommands(script).flatMap((command) => packageFindings(command, line));
  if (/\bapt-get\s+(\S+\s+)*install\b/.test(script) && !script.includes('/var/lib/apt/lists')) findings.push({ rule: 'DL3009', line, message: RULES.DL3009! });
  if (/(^|[^|])\|([^|]|$)/.test(script) && !pipefail) findings.push({ rule: 'DL4006', line, message: RULES.DL4006! });
  return findings;
}

function instructionFindings(stage: Stage): Finding[] {
  const findings: Finding[] = [];
  let pipefail = false;
  let previous: string | undefined;
  for (const instruction of stage.instructions) {
    const keyword = instruction.getKeyword();
    const line = lineOf(instruction);
    if (keyword === 'SHELL') pipefail = /pipefail/.test(argumentsOf(instruction));
    if (keyword === 'RUN') findings.push(...runFindings(instruction, pipefail));
    if (keyword === 'RUN' && previous === 'RUN') findings.push({ rule: 'DL3059', line, message: RULES.DL3059! });
    if (keyword === 'WORKDIR' && !/^(\/|\$)/.test(argumentsOf(instruction))) findings.push({ rule: 'DL3000', line, message: RULES.DL3000! });
    if (keyword === 'ADD' && !/^(https?:\/\/|git@)/.test(argumentsOf(instruction).split(/\s+/).find((word) => !word.startsWith('--')) ?? '')) {
      findings.push({ rule: 'DL3020', line, message: RULES.DL3020! });
    }
    if ((keyword === 'CMD' || keyword === 'ENTRYPOINT') && !argumentsOf(instruction).trim().startsWith('[')) findings.push({ rule: 'DL3025', line, message: RULES.DL3025! });
    if (keyword === 'MAINTAINER') findings.push({ rule: 'DL4000', line, message: RULES.DL4000! });
    previous = keyword;
  }
  return findings;
}

function finalStageFindings(stage: Stage): Finding[] {
  const findings: Finding[] = [];
  const users = stage.instructions.filter((instruction) => instruction.getKeyword() === 'USER');
  const from = lineOf(stage.instructions[0]!);
  const last = users.at(-1);
  if (!last) findings.push({ rule: 'non-root-user', line: from, message: `${RULES['non-root-user']}: this one runs as the base image's user` });
  else if (isRoot(argumentsOf(last))) findings.push({ rule: 'DL3002', line: lineOf(last), message: RULES.DL3002! });
  if (!stage.instructions.some((instruction) => instruction.getKeyword() === 'HEALTHCHECK')) findings.push({ rule: 'DL3057', line: from, message: RULES.DL3057! });
  for (const copy of stage.instructions.filter((instruction) => ['COPY', 'ADD'].includes(instruction.getKeyword()))) {
    if (!flagsOf(copy).some((flag) => flag.getName() === 'chown' && flag.getValue())) findings.push({ rule: 'copy-chown', line: lineOf(copy), message: RULES['copy-chown']! });
  }
  return findings;
}

/** Every finding of the rules above in one Dockerfile, in line order. */
export function lintDockerfile(text: string): Finding[] {
  const syntax = dockerfileSyntax(text).map((diagnostic) => ({ rule: 'syntax', line: diagnostic.range.start.line + 1, message: typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value }));
  const dockerfile = DockerfileParser.parse(text);
  const stages = stagesOf(dockerfile.getInstructions());
  if (stages.length === 0) return [...syntax, { rule: 'DL3006', line: 1, message: 'no FROM instruction' }];
  const names = new Set<string>();
  const findings: Finding[] = [...syntax];
  for (const stage of stages) {
    findings.push(...fromFindings(stage.instructions[0]!, names), ...instructionFindings(stage));
    if (stage.name) names.add(stage.name);
  }
  findings.push(...finalStageFindings(stages.at(-1)!));
  return findings.sort((a, b) => a.line - b.line);
}
