import { CmsError } from '../../core/errors.js';

/** The uploaded file is not a readable WordPress export: malformed, truncated or another kind of file. */
export function invalidExport(message: string): CmsError {
  return new CmsError('VALIDATION_ERROR', message, {
    issues: [{ path: ['file'], code: 'invalid_export', message }],
  });
}

/** A bad import configuration (the `config` part, or a prepare body). */
export function invalidConfig(path: (string | number)[], message: string): CmsError {
  return new CmsError('VALIDATION_ERROR', message, { issues: [{ path, code: 'invalid_config', message }] });
}
