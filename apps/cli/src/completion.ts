// `arbiter completion bash|zsh|fish` (docs/cli.md "Shell completion"): completion scripts written from
// the commander tree itself, so a new command or option completes without touching this file. Every
// script does the same: walk the words typed so far through the tree (skipping options and the values
// of options that take one) to find the command being completed, then offer its subcommands and
// options, an option's choices after it, or file names for any other option value.
import type { Command, Option } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Word {
  name: string;
  description: string;
}

/** An option as the scripts see it: its spellings, and whether a value follows (with its choices). */
export interface CompletionOption {
  flags: string[];
  description: string;
  takesValue: boolean;
  choices: readonly string[];
}

/** One command of the tree: its path from the root (`arbiter keys rotate`) and what may follow it. */
export interface CompletionNode {
  path: string;
  subcommands: Word[];
  /** Its own options and its ancestors' (--json and --quiet work after any command). */
  options: CompletionOption[];
  /** Choices of the command's first argument (e.g. the shell of `completion`). */
  argumentChoices: readonly string[];
}

const flagsOf = (o: Option) => [o.short, o.long].filter((f): f is string => Boolean(f));
const asCompletion = (o: Option): CompletionOption => ({
  flags: flagsOf(o),
  description: o.description,
  takesValue: o.required || o.optional,
  choices: o.argChoices ?? [],
});

/** Every command of the program, depth first. */
export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, path: string, inherited: readonly Option[]) => {
    const help = cmd.createHelp();
    const own = help.visibleOptions(cmd);
    const seen = new Set(own.flatMap(flagsOf));
    const subs = help.visibleCommands(cmd);
    nodes.push({
      path,
      subcommands: subs.map((c) => ({ name: c.name(), description: c.summary() || c.description() })),
      options: [...own, ...inherited.filter((o) => !flagsOf(o).some((f) => seen.has(f)))].map(asCompletion),
      argumentChoices: cmd.registeredArguments[0]?.argChoices ?? [],
    });
    // The root's options but --version and --help are accepted after any command.
    const passed = cmd === program ? own.filter((o) => o.long !== '--version' && o.long !== '--help') : inherited;
    for (const sub of subs) {
      if (cmd.commands.includes(sub)) visit(sub, `${path} ${sub.name()}`, passed);
      // commander's implicit `help [command]`: it takes the name of a sibling.
      else
        nodes.push({
          path: `${path} ${sub.name()}`,
          subcommands: subs.filter((c) => c !== sub).map((c) => ({ name: c.name(), description: c.description() })),
          options: [],
          argumentChoices: [],
        });
    }
  };
  visit(program, program.name(), []);
  return nodes;
}

export function completionScript(shell: Shell, program: Command): string {
  const nodes = completionTree(program);
  const name = program.name();
  if (shell === 'bash') return bash(name, nodes);
  if (shell === 'zsh') return zsh(name, nodes);
  return fish(name, nodes);
}

/** A single-quoted shell word (bash and zsh). */
const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const fn = (name: string) => `_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** `"<path> <sub>"` and `"<path> <option>"` patterns of a case statement (bash and zsh share the syntax). */
function walkCases(nodes: CompletionNode[], quote: (s: string) => string = sq) {
  const subPatterns = nodes.flatMap((n) => n.subcommands.map((s) => quote(`${n.path} ${s.name}`)));
  const valuePatterns = nodes.flatMap((n) =>
    n.options.filter((o) => o.takesValue).flatMap((o) => o.flags.map((f) => quote(`${n.path} ${f}`))),
  );
  return { subPatterns, valuePatterns };
}

/** The `case "$cmdpath $prev"` arms: an option's choices after it, and files (one arm) after any other option that takes a value. */
function valueArms(nodes: CompletionNode[], offer: (words: readonly string[]) => string, files: string): string[] {
  const arms: string[] = [];
  const others: string[] = [];
  for (const n of nodes) {
    for (const o of n.options.filter((x) => x.takesValue)) {
      const patterns = o.flags.map((f) => sq(`${n.path} ${f}`));
      if (o.choices.length) arms.push(`    ${patterns.join('|')}) ${offer(o.choices)}; return ;;`);
      else others.push(...patterns);
    }
  }
  if (others.length) arms.push(`    ${others.join('|')}) ${files}; return ;;`);
  return arms;
}

/**
 * The part bash and zsh share: walk the typed words to the command being completed (`$cmdpath`), and
 * answer at once after an option that takes a value. `first` is the index of the word after the
 * command name, `current` the variable holding the index of the word being completed.
 */
function walkAndValues(
  nodes: CompletionNode[],
  shell: { words: string; first: number; current: string },
  offer: (words: readonly string[]) => string,
  files: string,
): string {
  const { subPatterns, valuePatterns } = walkCases(nodes);
  return `  for ((i = ${shell.first}; i < ${shell.current}; i++)); do
    word="\${${shell.words}[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$cmdpath $word" in
      (${valuePatterns.join('|') || "''"}) skip=1 ;;
      (${subPatterns.join('|') || "''"}) cmdpath="$cmdpath $word" ;;
    esac
  done
  case "$cmdpath $prev" in
${valueArms(nodes, offer, files).join('\n')}
  esac`;
}

function bash(name: string, nodes: CompletionNode[]): string {
  const offer = (words: readonly string[]) => `COMPREPLY=($(compgen -W ${sq(words.join(' '))} -- "$cur"))`;
  const candidates = nodes.map((n) => {
    const words = [...n.subcommands.map((s) => s.name), ...n.argumentChoices, ...n.options.flatMap((o) => o.flags)];
    return `    ${sq(n.path)}) words=${sq(words.join(' '))} ;;`;
  });
  return `# ${name} completion for bash, written by \`${name} completion bash\` from the command tree.
# Load it in the current shell:  source <(${name} completion bash)
# or for every shell:            ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
${fn(name)}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath=${sq(name)} word words i skip=0
${walkAndValues(nodes, { words: 'COMP_WORDS', first: 1, current: 'COMP_CWORD' }, offer, 'COMPREPLY=()')}
  case "$cmdpath" in
${candidates.join('\n')}
    *) words='' ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F ${fn(name)} ${name}
`;
}

function zsh(name: string, nodes: CompletionNode[]): string {
  const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
  const offer = (words: readonly string[]) => `compadd -- ${words.map(sq).join(' ')}`;
  const candidates = nodes.map((n) => {
    const subs = n.subcommands.map((s) => sq(`${escape(s.name)}:${escape(oneLine(s.description))}`));
    const opts = n.options.flatMap((o) => o.flags.map((f) => sq(`${escape(f)}:${escape(oneLine(o.description))}`)));
    const args = n.argumentChoices.map(sq);
    return `    ${sq(n.path)}) subs=(${subs.join(' ')}); opts=(${opts.join(' ')}); args=(${args.join(' ')}) ;;`;
  });
  return `#compdef ${name}
# ${name} completion for zsh, written by \`${name} completion zsh\` from the command tree.
# Load it in the current shell:  source <(${name} completion zsh)
# or for every shell:            ${name} completion zsh > "\${fpath[1]}/_${name}"  (then compinit)
${fn(name)}() {
  local cmdpath=${sq(name)} prev="\${words[CURRENT-1]}" word i skip=0
  local -a subs opts args
${walkAndValues(nodes, { words: 'words', first: 2, current: 'CURRENT' }, offer, '_files')}
  case "$cmdpath" in
${candidates.join('\n')}
  esac
  (( \${#subs} )) && _describe -t commands 'command' subs
  (( \${#args} )) && compadd -- "\${args[@]}"
  if [[ "$PREFIX" == -* ]] || (( ! \${#subs} && ! \${#args} )); then _describe -t options 'option' opts; fi
  (( \${#subs} || \${#args} )) || _files
}
if [[ "\${funcstack[1]}" == ${fn(name)} ]]; then ${fn(name)} "$@"; else compdef ${fn(name)} ${name}; fi
`;
}

function fish(name: string, nodes: CompletionNode[]): string {
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const pathFn = `__${name.replace(/[^A-Za-z0-9_]/g, '_')}_path`;
  const { subPatterns, valuePatterns } = walkCases(nodes, q);
  const lines: string[] = [];
  for (const n of nodes) {
    // Paths are command names (letters, digits, dashes) and spaces: safe inside double quotes.
    const at = `complete -c ${name} -n 'test (${pathFn}) = "${n.path}"'`;
    for (const s of n.subcommands) lines.push(`${at} -f -a ${q(s.name)} -d ${q(oneLine(s.description))}`);
    for (const c of n.argumentChoices) lines.push(`${at} -f -a ${q(c)}`);
    for (const o of n.options) {
      const spellings = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`));
      const value = !o.takesValue ? [] : o.choices.length ? [`-x -a ${q(o.choices.join(' '))}`] : ['-r -F'];
      lines.push([at, ...spellings, ...value, `-d ${q(oneLine(o.description))}`].join(' '));
    }
  }
  return `# ${name} completion for fish, written by \`${name} completion fish\` from the command tree.
# Load it in the current shell:  ${name} completion fish | source
# or for every shell:            ${name} completion fish > ~/.config/fish/completions/${name}.fish
function ${pathFn}
    set -l cmdpath ${q(name)}
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch "$cmdpath $word"
            case ${valuePatterns.join(' ') || "''"}
                set skip 1
            case ${subPatterns.join(' ') || "''"}
                set cmdpath "$cmdpath $word"
        end
    end
    echo $cmdpath
end
complete -c ${name} -e
${lines.join('\n')}
`;
}
