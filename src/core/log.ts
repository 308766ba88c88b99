import { type Logger, pino } from 'pino';

export type { Logger };

/** Structured JSON logs; every request logger is a child carrying its request id. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'cms' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], remove: true },
    },
    destination,
  );
}
