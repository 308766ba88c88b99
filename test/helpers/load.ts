import { get } from 'node:http';

/**
 * What one request of a load run came to, as its client saw it:
 * - `response`: a status line, headers and a body that arrived whole (read to its end and parsed as JSON);
 * - `no-response`: the connection failed before any response byte (refused, reset, closed);
 * - `cut-body`: a response began but its body did not arrive whole (reset or closed mid-body, or not JSON).
 */
export interface Outcome {
  requestId: string;
  kind: 'create' | 'update' | 'list' | 'search';
  worker: number;
  /** performance.now() when the request was handed to fetch and when its outcome was known. */
  sentAt: number;
  doneAt: number;
  result: 'response' | 'no-response' | 'cut-body';
  status?: number;
  body?: any;
  error?: string;
  /** create and update: the title sent; update: the entry it targets. */
  title?: string;
  entryId?: string;
}

export interface LoadOptions {
  url: string;
  token: string;
  collection: string;
  workers: number;
  prefix: string;
  /** Filler for each entry's body, so that a list of 100 entries is a response of several hundred KB. */
  filler: string;
}

export interface LoadRun {
  outcomes: Outcome[];
  /** From now on a worker stops at its first request that was not answered 2xx (the server is going away). */
  signalled(): void;
  /** Stop every worker after its current request; resolves when all have stopped. */
  stop(): Promise<void>;
  /** Resolves once `count` outcomes satisfy `match`. */
  until(match: (o: Outcome) => boolean, count: number): Promise<void>;
}

function cause(err: unknown): string {
  const e = err as { cause?: { code?: string; message?: string }; message?: string };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
}

/**
 * Steady concurrent load: `workers` clients, each sending its next request as soon as the previous one
 * is answered, cycling through create, list (limit 100: the slow one), update of its own latest entry,
 * create and search. Every request carries its own X-Request-Id so that the server's access log can be
 * matched against what the client saw.
 */
export function startLoad(opts: LoadOptions): LoadRun {
  const outcomes: Outcome[] = [];
  const waiters: Array<{ match: (o: Outcome) => boolean; count: number; done: () => void }> = [];
  let stopping = false;
  let afterSignal = false;
  const api = `${opts.url}/_cms/api`;
  const headers = { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' };

  async function send(worker: number, seq: number, kind: Outcome['kind'], own: string[]): Promise<Outcome> {
    const requestId = `${opts.prefix}-${worker}-${seq}`;
    const o: Outcome = { requestId, kind, worker, sentAt: performance.now(), doneAt: 0, result: 'no-response' };
    let path = `/content/${opts.collection}`;
    let method = 'GET';
    let body: string | undefined;
    if (kind === 'create' || kind === 'update') {
      o.title = `${opts.prefix} w${worker} n${seq}`;
      body = JSON.stringify({ data: { title: o.title, body: opts.filler, views: seq } });
      method = kind === 'create' ? 'POST' : 'PUT';
      if (kind === 'update') {
        o.entryId = own[own.length - 1];
        path += `/${o.entryId}`;
      }
    } else if (kind === 'list') path += '?limit=100';
    else path = `/search?q=${encodeURIComponent(`w${worker}`)}&limit=50`;
    let res: Response;
    try {
      res = await fetch(`${api}${path}`, { method, body, headers: { ...headers, 'x-request-id': requestId } });
    } catch (err) {
      o.error = cause(err);
      o.doneAt = performance.now();
      return o;
    }
    o.status = res.status;
    try {
      const text = await res.text();
      o.body = JSON.parse(text);
      o.result = 'response';
    } catch (err) {
      o.result = 'cut-body';
      o.error = cause(err);
    }
    o.doneAt = performance.now();
    if (kind === 'create' && o.result === 'response' && o.status === 201) o.entryId = o.body.data.item.id;
    return o;
  }

  async function worker(n: number): Promise<void> {
    const own: string[] = [];
    const cycle: Outcome['kind'][] = ['create', 'list', 'update', 'create', 'search'];
    for (let seq = 0; !stopping; seq++) {
      let kind = cycle[seq % cycle.length];
      if (kind === 'update' && own.length === 0) kind = 'create';
      const o = await send(n, seq, kind, own);
      outcomes.push(o);
      if (o.entryId && o.kind === 'create') own.push(o.entryId);
      for (const w of [...waiters]) {
        if (outcomes.filter(w.match).length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done();
        }
      }
      const answered = o.result === 'response' && o.status !== undefined && o.status < 300;
      if (afterSignal && !answered) return;
    }
  }

  const running = Promise.all(Array.from({ length: opts.workers }, (_, n) => worker(n)));
  return {
    outcomes,
    signalled: () => {
      afterSignal = true;
    },
    async stop() {
      stopping = true;
      await running;
    },
    until(match, count) {
      if (outcomes.filter(match).length >= count) return Promise.resolve();
      return new Promise((done) => waiters.push({ match, count, done }));
    },
  };
}

/** A request on a connection of its own (no keep-alive pool): its status, or the connection error's code. */
export function freshConnection(url: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((done) => {
    const req = get(`${url}/_cms/health/live`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => done({ status: res.statusCode, body }));
      res.on('error', (err) => done({ status: res.statusCode, error: (err as NodeJS.ErrnoException).code }));
    });
    req.on('error', (err) => done({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
  });
}
