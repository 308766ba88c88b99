import { Command } from 'commander';
import { backupCommands } from './commands/backup.js';
import { checkCommands } from './commands/check.js';
import { completionCommand } from './commands/completion.js';
import { contentCommands } from './commands/content.js';
import { importCommand } from './commands/import.js';
import { loginCommands } from './commands/login.js';
import { schemaCommands } from './commands/schema.js';
import { seedCommand } from './commands/seed.js';
import { serverCommands } from './commands/server.js';
import { tokensCommands } from './commands/tokens.js';
import { transferCommands } from './commands/transfer.js';
import { typesCommand } from './commands/types.js';
import { usersCommands } from './commands/users.js';
import { cliContext } from './context.js';
import type { Io } from './io.js';
import { packageVersion } from './package-root.js';

const TARGETS = `
Targets:
  Every command works on the local database (the server's own configuration:
  cms.config.json or CMS_CONFIG, CMS_DATABASE_URL, CMS_DATA_DIR …) or, with
  --url (or --remote), on a running site through its REST API. The target in
  use is printed on stderr before the command runs.

  Local content and token commands act as the user named by --as (or CMS_AS);
  schema, seed, users and transfer commands act as the system unless --as is
  given.
  Remotely you act as the owner of --token (or CMS_TOKEN), or of the stored
  sign-in made with "cms login".

Output and exit codes:
  Data goes to stdout (a table, or JSON with --json); progress, the target
  and errors go to stderr. Exit code 0: done; 1: the site or database refused
  or failed (the API error code is printed); 2: wrong usage or input file.

Examples:
  $ cms content list posts --as you@example.com
  $ cms --url https://cms.example.com --token "$CMS_TOKEN" content list posts --json
  $ cms login --url https://cms.example.com && cms --remote schema export > schema.json
  $ cms completion bash >> ~/.bashrc
`;

/** The whole `cms` command tree, writing to the given Io. */
export function buildProgram(io: Io): Command {
  const program = new Command('cms')
    .description(
      'Headless CMS command line: content, schema, seed files, users and tokens, site transfer, locally or on a site',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(add --help for usage)')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--url <url>', 'work on a running site through its REST API (env CMS_URL), e.g. https://cms.example.com')
    .option('--token <token>', 'access token for --url (env CMS_TOKEN); without it the stored "cms login" is used')
    .option('--remote', 'work on the site of the stored "cms login"')
    .option('--as <email>', 'local database: act as this user (env CMS_AS)')
    .option('-q, --quiet', 'no progress or target line on stderr')
    .addHelpText('after', TARGETS);
  const ctx = cliContext(io);
  contentCommands(program, ctx);
  schemaCommands(program, ctx);
  typesCommand(program, ctx);
  seedCommand(program, ctx);
  importCommand(program, ctx);
  usersCommands(program, ctx);
  tokensCommands(program, ctx);
  transferCommands(program, ctx);
  loginCommands(program, ctx);
  serverCommands(program, ctx);
  backupCommands(program, ctx);
  checkCommands(program, ctx);
  completionCommand(program, ctx);
  return program;
}
