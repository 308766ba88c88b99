import type { Command } from 'commander';
import { bashScript, zshScript } from '../completion/scripts.js';
import { completionTree } from '../completion/tree.js';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';

export function completionCommand(program: Command, ctx: CliContext): void {
  examples(
    program
      .command('completion')
      .description('Print a shell completion script (bash or zsh) for commands and options')
      .argument('<shell>', 'bash or zsh')
      .action(async (shell: string) => {
        const tree = completionTree(program);
        if (shell === 'bash') ctx.io.stdout.write(bashScript(tree));
        else if (shell === 'zsh') ctx.io.stdout.write(zshScript(tree));
        else throw new UsageError(`No completion for "${shell}": use bash or zsh`);
      }),
    [
      'source <(cms completion bash)          # try it in this shell',
      'cms completion bash >> ~/.bashrc',
      'cms completion zsh > ~/.zsh/completions/_cms  # a folder on your fpath; restart zsh',
    ],
  );
}
