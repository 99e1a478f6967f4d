// `tailgate completion bash|zsh`: a completion script made from the commands and flags
// the CLI itself parses (main.js's commands, each one's options), so it cannot fall behind
// them: a flag added to a command is offered the next time the script is made.
import { InputError } from '../errors.js';
import { didYouMean } from '../nearest.js';
import { allCommands, GLOBAL_OPTIONS } from './main.js';

export const summary = 'Print a shell completion script for bash or zsh';
export const usage = `Usage: tailgate completion bash|zsh

Prints a script that completes tailgate's commands and each command's flags (file names
after a flag that takes a value, and for arguments). Load it from your shell's start-up file:
  bash  eval "$(npx tailgate completion bash)"            (in ~/.bashrc)
  zsh   source <(npx tailgate completion zsh)              (in ~/.zshrc, after compinit)
        or save it as _tailgate in a folder of $fpath
It completes the command "tailgate" (a global install, or node_modules/.bin on PATH).`;
export const options = {};

const SHELLS = { bash, zsh };

export async function run(opts, positionals) {
  const [shell, ...more] = positionals;
  if (!Object.hasOwn(SHELLS, shell ?? '') || more.length)
    throw new InputError(
      `expected "completion bash" or "completion zsh"${shell === undefined ? '' : `, got "${positionals.join(' ').slice(0, 40)}"${didYouMean(shell, Object.keys(SHELLS))}`}\n\n${usage}`,
    );
  console.log(SHELLS[shell](await definitions()));
  return 0;
}

/** [{ name, summary, flags: [{ flag: '--config', value: true }], words?: [...] }] in the usage's order. */
export async function definitions() {
  const commands = await allCommands();
  const names = commands.map(([n]) => n);
  // `help <command>` (main.js) is no command module of its own.
  const help = { summary: "A command's --help (tailgate help <command>)", options: {} };
  return [...commands, ['help', help]].map(([name, cmd]) => ({
    name,
    summary: cmd.summary,
    flags: Object.entries({ ...GLOBAL_OPTIONS, ...cmd.options }).map(([f, o]) => ({
      flag: `--${f}`,
      value: o.type === 'string',
    })),
    // What a command's first argument is, where it is one of a few words.
    ...(name === 'help' && { words: names }),
    ...(name === 'completion' && { words: Object.keys(SHELLS) }),
  }));
}

const TOP = ['--help', '--version', '--no-color'];
const words = (list) => list.join(' ');

function bash(defs) {
  const cases = defs.map((d) => {
    const valued = d.flags.filter((f) => f.value).map((f) => f.flag);
    return `    ${d.name}) flags=${q(words(d.flags.map((f) => f.flag)))} valued=${q(words(valued))} args=${q(words(d.words ?? []))} ;;`;
  });
  return `# bash completion for tailgate, made by \`tailgate completion bash\` from its commands and flags
_tailgate() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case \${COMP_WORDS[i]} in -*) ;; *) cmd=\${COMP_WORDS[i]}; break ;; esac
  done
  local flags="" valued="" args=""
  case $cmd in
    "") COMPREPLY=($(compgen -W ${q(words([...defs.map((d) => d.name), ...TOP]))} -- "$cur")); return ;;
${cases.join('\n')}
  esac
  case " $valued " in *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return ;; esac
  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n $args ]]; then COMPREPLY=($(compgen -W "$args" -- "$cur"))
  else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F _tailgate tailgate`;
}

function zsh(defs) {
  const described = defs.map((d) => `    ${q(`${d.name}:${d.summary.replace(/:/g, '\\:')}`)}`);
  const cases = defs.map((d) => {
    const specs = d.flags.map((f) => q(f.value ? `${f.flag}:value:_files` : f.flag));
    const arg = d.words ? q(`1:${d.name}:(${words(d.words)})`) : q('*:file:_files');
    return `    ${d.name}) _arguments ${[...specs, arg].join(' ')} ;;`;
  });
  return `#compdef tailgate
# zsh completion for tailgate, made by \`tailgate completion zsh\` from its commands and flags
_tailgate() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'tailgate command' commands
    return
  fi
  local cmd=\${words[2]}
  shift words; (( CURRENT-- ))
  case $cmd in
${cases.join('\n')}
  esac
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _tailgate "$@"; else compdef _tailgate tailgate; fi`;
}

// Single-quoted for the shell: every character as written.
function q(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}
