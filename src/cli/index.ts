/**
 * The `cms` command. Commands import what they need when they run, so
 * `cms --help` and commands on a remote site never load the server or open
 * a database.
 */
import { processIo } from './io.js';
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), processIo());
