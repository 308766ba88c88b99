import type { Command, Option } from 'commander';

/**
 * The command tree as completion scripts need it, read from the program
 * itself, so a new command or option completes without touching the
 * scripts.
 */
export interface CompletionNode {
  /** `content/list`; "" for the program. */
  path: string;
  commands: Array<{ name: string; description: string }>;
  options: Array<{ flag: string; description: string; takesValue: boolean }>;
  /** The command takes a file argument (seed, schema apply, transfer import). */
  fileArgument: boolean;
}

/** Options whose value is a path: complete file names after them. */
export const FILE_OPTIONS = new Set(['--file', '--output', '--out', '-o']);
/** Arguments that are paths (`seed FILE`, `schema apply FILE`, `transfer import ARCHIVE`). */
const FILE_ARGUMENTS = new Set(['file', 'archive']);

const flagsOf = (o: Option) => [o.long, o.short].filter((f): f is string => Boolean(f));

export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const walk = (cmd: Command, path: string) => {
    const subcommands = cmd.commands.filter((c) => c.name() !== 'help');
    const options = [...cmd.options, ...(path === '' ? [] : program.options)];
    nodes.push({
      path,
      commands: subcommands.map((c) => ({ name: c.name(), description: c.description().split('\n')[0] })),
      options: options.flatMap((o) =>
        flagsOf(o).map((flag) => ({ flag, description: o.description, takesValue: o.required || o.optional })),
      ),
      fileArgument: cmd.registeredArguments.some((a) => FILE_ARGUMENTS.has(a.name())),
    });
    for (const sub of subcommands) walk(sub, path ? `${path}/${sub.name()}` : sub.name());
  };
  walk(program, '');
  return nodes;
}
