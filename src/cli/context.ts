import type { Command } from 'commander';
import { type Io, Output } from './io.js';
import { type GlobalOptions, type LocalActor, openTarget } from './target/select.js';
import type { Target } from './target/types.js';

/** What every command gets: the Io, the shared options and a way to reach its target. */
export interface CliContext {
  io: Io;
  globals(cmd: Command): GlobalOptions;
  output(cmd: Command): Output;
  /** Open the target, say on stderr which one is in use, run, and close it. */
  withTarget<T>(cmd: Command, local: LocalActor, fn: (target: Target, out: Output) => Promise<T>): Promise<T>;
}

export function cliContext(io: Io): CliContext {
  const globals = (cmd: Command) => cmd.optsWithGlobals() as GlobalOptions;
  const output = (cmd: Command) => new Output(io, Boolean(globals(cmd).quiet));
  return {
    io,
    globals,
    output,
    async withTarget(cmd, local, fn) {
      const out = output(cmd);
      const target = await openTarget(io, globals(cmd), local);
      try {
        out.progress(`Target: ${target.label}`);
        return await fn(target, out);
      } finally {
        await target.close();
      }
    },
  };
}

/** The "Examples:" block at the end of a command's --help. */
export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Collect a repeatable option into a list. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];
