// Module resolve hook (runs off the main thread): appends each resolved URL to $CMS_TRACE_FILE.
import { appendFileSync } from 'node:fs';

const file = process.env.CMS_TRACE_FILE;

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}
