/**
 * Where a command reads and writes. Data goes to stdout, everything meant
 * for people (progress, the target in use, warnings, errors) to stderr, so
 * `cms … --json | jq` and `X=$(cms …)` see only data. Tests run commands
 * in-process with an Io of their own.
 */
export interface Io {
  /** Text, or bytes for commands whose data is binary (`cms transfer export --out -`). */
  stdout: { write(data: string | Uint8Array): unknown };
  stderr: { write(text: string): unknown };
  readStdin(): Promise<string>;
  /**
   * Ask a person a question and return their answer: present only when
   * stdin and stderr are a terminal, so a script is never left waiting.
   */
  ask?(question: string): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** A question on stderr, the answer from stdin (a terminal). */
async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C at the question is a "no", not a process left waiting.
  const stop = new AbortController();
  rl.once('SIGINT', () => stop.abort());
  try {
    return await rl.question(question, { signal: stop.signal });
  } catch {
    return '';
  } finally {
    rl.close();
  }
}

export function processIo(): Io {
  // `cms … | head` closes the pipe early: stop quietly instead of failing with EPIPE.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: askOnTerminal } : {}),
    async readStdin() {
      if (process.stdin.isTTY) return '';
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Whether a stream of the Io is a terminal (progress is shown as it goes only there). */
export function isTerminal(stream: unknown): boolean {
  return (stream as { isTTY?: boolean } | null)?.isTTY === true;
}

/** The writing side of a command: data, notes and progress. */
export class Output {
  constructor(
    readonly io: Io,
    readonly quiet = false,
  ) {}

  /** A line of data on stdout. */
  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  /** A value as JSON on stdout (one document, pretty-printed). */
  json(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A note for people on stderr (not silenced by --quiet: results and warnings). */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /** Progress of a long operation on stderr (silenced by --quiet). */
  progress(text: string): void {
    if (!this.quiet) this.io.stderr.write(`${text}\n`);
  }
}
