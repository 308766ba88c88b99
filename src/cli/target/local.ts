import { PassThrough, type Readable } from 'node:stream';
import type { z } from 'zod';
import type { Actor } from '../../auth/actor.js';
import { personActor, roleName, systemActor } from '../../auth/actor.js';
import { isCmsError, knownFailure } from '../../core/errors.js';
import { createLogger } from '../../core/log.js';
import { type Cms, createCms } from '../../index.js';
import { checkPart } from '../../operations/operation.js';
import '../../providers-atproto.js';
import { CreateTokenBody } from '../../schemas/auth.js';
import { CollectionPathParams, EntryPathParams, GuardedBody, ListContentQuery } from '../../schemas/content.js';
import { listOptions } from '../../schemas/content-list.js';
import { TransferFileParams, TransferIdParams } from '../../schemas/transfer.js';
import { checkHolds, DRIVES_SITE_IMPORT, type OpenDuring, SIGN_IN } from '../../services/holds.js';
import { loadCliConfig } from '../config.js';
import { ApiError, CliError } from '../errors.js';
import type { Io } from '../io.js';
import { CONTENT_OPERATIONS } from './bindings/content.js';
import { SCHEMA_OPERATIONS } from './bindings/schema.js';
import { SITE_OPERATIONS } from './bindings/site.js';
import { STRUCTURE_OPERATIONS } from './bindings/structure.js';
import { TRANSFER_EXPORT_OPERATIONS, TRANSFER_IMPORT_OPERATIONS, TRANSFER_OPERATIONS } from './bindings/transfer.js';
import { USERS_OPERATIONS } from './bindings/users.js';
import { invokedBy } from './local-operations.js';
import type { Target } from './types.js';

/**
 * The local target: the services on the database the server would use (same
 * environment and configuration file), called with an actor. Inputs pass the
 * same zod schemas and storable-text check as REST bodies first, so a bad
 * value gets the same VALIDATION_ERROR locally and remotely.
 */
export interface LocalOptions {
  io: Io;
  /** Act as this user (email); otherwise as the system. */
  as?: string;
}

/** Open the service as the server would, logging to stderr only (stdout carries data). */
export async function openCms(io: Io): Promise<Cms> {
  const config = await loadCliConfig(io);
  // Warnings and worse only, on stderr, written at once so they are not lost when the command exits.
  const level = config.logLevel === 'info' ? 'warn' : config.logLevel;
  const { pino } = await import('pino');
  const logger =
    level === 'silent' ? createLogger(level) : createLogger(level, pino.destination({ dest: 2, sync: true }));
  return createCms({ config, logger, scheduler: false });
}

/** The hand-written methods check their input as `invoke` does (the same code, named by the REST part). */
const check = <T extends z.ZodType>(schema: T, value: unknown, target: 'body' | 'query' | 'path'): z.output<T> =>
  checkPart(schema, value, target === 'path' ? 'params' : target);

/** Service errors become ApiError, as the REST door would answer them. */
async function answer<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const known = knownFailure(err);
    if (known) throw new ApiError(known.code, known.message, known.details, known.status);
    throw err;
  }
}

/** A stream whose failures (a package file storage lost meanwhile) come out as ApiError too. */
function answered(body: Readable): Readable {
  const out = new PassThrough();
  body.on('error', (err) => {
    const known = isCmsError(err) ? err : null;
    out.destroy(known ? new ApiError(known.code, known.message, known.details, known.status) : err);
  });
  // A reader that stops early (a failed check) stops the archive too.
  out.on('close', () => body.destroy());
  return body.pipe(out);
}

async function actorFor(cms: Cms, email: string): Promise<Actor> {
  const user = await cms.services.users.findByEmail(email);
  if (!user) throw new CliError(`No user with the email address ${email} on this database (see: cms users list)`);
  if (user.disabled) throw new CliError(`${user.email} is disabled; enable it first (cms users enable ${user.email})`);
  return personActor(user, 'cli');
}

function describeDatabase(url: string): string {
  if (!url.startsWith('postgres')) return url;
  try {
    const u = new URL(url);
    return `postgres://${u.host}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

export async function openLocalTarget(options: LocalOptions): Promise<Target> {
  const cms = await openCms(options.io);
  let actor: Actor;
  try {
    actor = options.as ? await actorFor(cms, options.as) : systemActor;
  } catch (err) {
    await cms.close();
    throw err;
  }
  const { services } = cms;
  const call = { services, actor, door: 'cli' as const };
  const who = actor.email ? `as ${actor.email} (${roleName(actor.role)})` : 'as the system';
  /** A write: refused (503) during every hold but those it stays open during, as through REST and MCP. */
  const gated = <T>(fn: () => Promise<T>, openDuring?: OpenDuring) =>
    answer(async () => {
      await checkHolds(services, openDuring);
      return fn();
    });
  const path = (collection: string, id?: string) =>
    id === undefined
      ? check(CollectionPathParams, { collection }, 'path')
      : check(EntryPathParams, { collection, id }, 'path');

  return {
    kind: 'local',
    label: `local database ${describeDatabase(cms.config.databaseUrl)} ${who}`,
    async close() {
      await cms.close();
    },
    content: {
      ...invokedBy<typeof CONTENT_OPERATIONS, Target['content']>(CONTENT_OPERATIONS, call, answer),
      list: (collection, p) =>
        answer(async () => {
          path(collection);
          const { trash, ...rest } = p;
          const q = check(ListContentQuery, rest, 'query');
          const options = listOptions(q);
          return trash
            ? services.content.listTrashed(actor, collection, options)
            : services.content.list(actor, collection, options);
        }),
      lifecycle: (op, collection, id, body) =>
        gated(async () => {
          path(collection, id);
          return services.content[op](actor, collection, id, check(GuardedBody, body, 'body'));
        }),
    },
    schema: {
      ...invokedBy<typeof SCHEMA_OPERATIONS, Target['schema']>(SCHEMA_OPERATIONS, call, answer),
      listCollections: () => answer(() => services.schema.collections.list(actor)),
      deleteCollection: (slug) =>
        gated(async () => {
          await services.schema.collections.remove(actor, slug);
        }),
      reorderCollections: (slugs) =>
        gated(async () => {
          await services.schema.collections.reorder(actor, slugs);
        }),
      deleteField: (collection, field) =>
        gated(async () => {
          await services.schema.fields.remove(actor, collection, field);
        }),
      reorderFields: (collection, slugs) =>
        gated(async () => {
          await services.schema.fields.reorder(actor, collection, slugs);
        }),
      listBlockTypes: () => answer(() => services.schema.blockTypes.list(actor)),
      locales: async () => (await answer(() => services.content.overview.model(actor, {}))).i18n.locales,
    },
    users: {
      ...invokedBy<typeof USERS_OPERATIONS, Target['users']>(USERS_OPERATIONS, call, answer),
      loginLink: (email) =>
        gated(async () => ({ ...(await services.auth.magicLinks.commandLineLink(email)), emailed: false }), SIGN_IN),
    },
    tokens: {
      list: (userId) => answer(() => services.auth.tokens.list(actor, userId)),
      create: (body) => gated(() => services.auth.tokens.create(actor, check(CreateTokenBody, body, 'body'))),
      revoke: (id) => gated(() => services.auth.tokens.revoke(actor, id)),
      scopes: () => answer(async () => services.auth.tokens.scopes(actor)),
    },
    structure: {
      ...invokedBy<typeof STRUCTURE_OPERATIONS, Target['structure']>(STRUCTURE_OPERATIONS, call, answer),
    },
    transfer: {
      ...invokedBy<typeof TRANSFER_OPERATIONS, Target['transfer']>(TRANSFER_OPERATIONS, call, answer),
      exports: {
        ...invokedBy<typeof TRANSFER_EXPORT_OPERATIONS, Target['transfer']['exports']>(
          TRANSFER_EXPORT_OPERATIONS,
          call,
          answer,
        ),
        archive: (id) =>
          answer(async () => {
            const made = await services.transfer.exports.archive(actor, check(TransferIdParams, { id }, 'path').id);
            return { body: answered(made.body), size: made.size };
          }),
      },
      imports: {
        ...invokedBy<typeof TRANSFER_IMPORT_OPERATIONS, Target['transfer']['imports']>(
          TRANSFER_IMPORT_OPERATIONS,
          call,
          answer,
        ),
        upload: (id, path, body, size) =>
          gated(async () => {
            const params = check(TransferFileParams, { id, path }, 'path');
            return services.transfer.imports.upload(actor, params.id, params.path, body, size);
          }, DRIVES_SITE_IMPORT),
      },
    },
    site: {
      ...invokedBy<typeof SITE_OPERATIONS, Target['site']>(SITE_OPERATIONS, call, answer),
    },
  };
}
