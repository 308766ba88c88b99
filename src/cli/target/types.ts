import type { Readable } from 'node:stream';
import type { components } from '../../../generated/api-schema.gen.js';

/**
 * The one interface every command is written against. A local target calls
 * the services on the configured database with an actor; a remote target
 * calls the REST API through the client generated from the OpenAPI document.
 * Both answer with the shapes of that document and fail with ApiError
 * (code, message, details), so a command behaves the same on either.
 */
type S = components['schemas'];

export type ContentItem = S['ContentItem'];
export type SingleContent = S['ContentSingle'];
export type ContentList = S['ContentList'];
export type ContentTranslations = S['ContentTranslations'];
export type CreateContentBody = S['CreateContentRequest'];
export type UpdateContentBody = S['UpdateContentRequest'];
export type GuardedBody = S['GuardedWriteRequest'];
export type ScheduleBody = S['ScheduleContentRequest'];
export type Collection = S['Collection'];
export type CollectionSummary = S['CollectionSummary'];
export type Field = S['Field'];
export type FieldInput = S['FieldInput'];
export type FieldUpdate = S['FieldUpdate'];
export type CreateCollectionBody = S['CreateCollectionRequest'];
export type UpdateCollectionBody = S['UpdateCollectionRequest'];
export type BlockType = S['BlockType'];
export type CreateBlockTypeBody = S['CreateBlockTypeRequest'];
export type UpdateBlockTypeBody = S['UpdateBlockTypeRequest'];
export type User = S['User'];
export type UserList = S['UserList'];
export type UpdateUserBody = S['UpdateUserRequest'];
export type Taxonomy = S['Taxonomy'];
export type CreateTaxonomyBody = S['CreateTaxonomyRequest'];
export type Term = S['Term'];
export type CreateTermBody = S['CreateTermRequest'];
export type EntryTerms = S['ContentTerms'];
export type MenuWithItems = S['MenuWithItems'];
export type CreateMenuBody = S['CreateMenuRequest'];
export type MenuItem = S['MenuItem'];
export type CreateMenuItemBody = S['CreateMenuItemRequest'];
export type SiteSettings = S['SiteSettings'];
export type UpdateSettingsBody = S['UpdateSettingsRequest'];
export type TransferCapabilities = S['TransferCapabilities'];
export type TransferExport = S['TransferExport'];
export type TransferImport = S['TransferImport'];
export type TransferImportPlan = S['TransferImportPlan'];
export type TransferImportReceipt = S['TransferImportReceipt'];
export type TransferImportMissing = S['TransferImportMissingFiles'];
export type CheckReport = S['CheckReport'];
export type CheckId = S['CheckSummary']['id'];

export interface ListContentParams {
  locale?: string;
  cursor?: string;
  /** A numbered page (the answer then carries `total`); not with `cursor`. */
  page?: number;
  limit?: number;
  status?: 'draft' | 'published' | 'scheduled';
  orderBy?: string;
  order?: 'asc' | 'desc';
  /** JSON object over indexed fields, as the API's fieldFilters parameter. */
  fieldFilters?: string;
  /** Entries crediting this byline. */
  bylineId?: string;
  /** With bylineId: also entries without credits whose author is the byline's user ('true'). */
  includeAuthorByline?: 'true';
  /** `references`: each item's references resolved (first page per field). */
  include?: 'references';
  /** `<taxonomy>:<slug>[,<slug>…]`: entries carrying one of these terms. */
  term?: string;
  /** The trash instead of the live list. */
  trash?: boolean;
}

export interface ListUsersParams {
  cursor?: string;
  limit?: number;
  search?: string;
  role?: number;
}

/** Guards of writes addressed by query on DELETE routes. */
export interface GuardQuery {
  _rev?: string;
  overrideLock?: boolean;
}

export type LifecycleOp = 'publish' | 'unpublish' | 'restore' | 'discardDraft';

/** Personal access tokens (routes outside the OpenAPI contract, typed here after src/schemas/auth.ts). */
export interface TokenRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export interface CreateTokenBody {
  name: string;
  scopes: string[];
  expiresAt?: string | null;
}

export interface ContentOps {
  list(collection: string, params: ListContentParams): Promise<ContentList>;
  get(collection: string, idOrSlug: string, locale?: string): Promise<SingleContent>;
  create(collection: string, body: CreateContentBody): Promise<SingleContent>;
  update(collection: string, id: string, body: UpdateContentBody): Promise<SingleContent>;
  lifecycle(op: LifecycleOp, collection: string, id: string, body: GuardedBody): Promise<SingleContent>;
  schedule(collection: string, id: string, body: ScheduleBody): Promise<SingleContent>;
  unschedule(collection: string, id: string, guard: GuardQuery): Promise<SingleContent>;
  trash(collection: string, id: string, guard: GuardQuery): Promise<SingleContent>;
  permanentDelete(collection: string, id: string, guard: GuardQuery): Promise<{ deleted: true; id: string }>;
  duplicate(collection: string, id: string): Promise<SingleContent>;
  translations(collection: string, id: string, locale?: string): Promise<ContentTranslations>;
}

export interface SchemaOps {
  listCollections(): Promise<CollectionSummary[]>;
  getCollection(slug: string): Promise<Collection>;
  createCollection(body: CreateCollectionBody): Promise<Collection>;
  updateCollection(slug: string, body: UpdateCollectionBody): Promise<Collection>;
  deleteCollection(slug: string): Promise<void>;
  reorderCollections(slugs: string[]): Promise<void>;
  createField(collection: string, body: FieldInput): Promise<Field>;
  updateField(collection: string, field: string, body: FieldUpdate): Promise<Field>;
  deleteField(collection: string, field: string): Promise<void>;
  reorderFields(collection: string, slugs: string[]): Promise<void>;
  listBlockTypes(): Promise<BlockType[]>;
  /** The site's locales (the configured list, default first). */
  locales(): Promise<string[]>;
  createBlockType(body: CreateBlockTypeBody): Promise<BlockType>;
  updateBlockType(slug: string, body: UpdateBlockTypeBody): Promise<BlockType>;
  activateBlockTypeVersion(slug: string, version: number): Promise<BlockType>;
}

export interface UserOps {
  list(params: ListUsersParams): Promise<UserList>;
  get(id: string): Promise<User>;
  update(id: string, body: UpdateUserBody): Promise<User>;
  disable(id: string): Promise<User>;
  enable(id: string): Promise<User>;
  /**
   * A one-time admin sign-in link for the user (15 minutes, single use, used by Continue). Locally it
   * is printed for the operator; a site emails it when it has email, else hands it over.
   */
  loginLink(email: string): Promise<{ link: string | null; emailed: boolean; expiresInMinutes: number }>;
}

export interface TokenOps {
  /** Active tokens of the caller, or (Admins) of another user. */
  list(userId?: string): Promise<TokenRecord[]>;
  /** A token for the caller; the secret is returned once. */
  create(body: CreateTokenBody): Promise<{ token: string; record: TokenRecord }>;
  revoke(id: string): Promise<void>;
  /** Every scope, with whether the caller may put it on a new token. */
  scopes(): Promise<Array<{ scope: string; allowed: boolean }>>;
}

/** Site structure that seed files load: settings, taxonomies and terms, entry terms, menus. */
export interface StructureOps {
  settings(): Promise<SiteSettings>;
  updateSettings(body: UpdateSettingsBody): Promise<SiteSettings>;
  /** A taxonomy's definition in the locale (default: the site's default, else the lowest locale code). */
  taxonomy(name: string, locale?: string): Promise<Taxonomy>;
  createTaxonomy(body: CreateTaxonomyBody): Promise<Taxonomy>;
  term(taxonomy: string, slug: string, locale?: string): Promise<Term>;
  createTerm(taxonomy: string, body: CreateTermBody): Promise<Term>;
  entryTerms(collection: string, id: string, taxonomy: string): Promise<EntryTerms>;
  /** Replace the entry's terms of a taxonomy (slugs or IDs, in the entry's locale). */
  setEntryTerms(collection: string, id: string, taxonomy: string, terms: string[]): Promise<EntryTerms>;
  menu(name: string, locale?: string): Promise<MenuWithItems>;
  createMenu(body: CreateMenuBody): Promise<MenuWithItems>;
  createMenuItem(menu: string, locale: string | undefined, body: CreateMenuItemBody): Promise<MenuItem>;
}

export interface TransferExportList {
  items: TransferExport[];
  nextCursor: string | null;
}

/** A package download: the bytes as they arrive (never held whole), and their size when the site says it. */
export interface PackageDownload {
  body: Readable;
  size: number | null;
}

/** Site transfer exports (docs/transfer.md): started, advanced a bounded step at a time, then downloaded. */
export interface TransferExportOps {
  start(body: { comments?: boolean }): Promise<TransferExport>;
  list(params: { cursor?: string; limit?: number }): Promise<TransferExportList>;
  get(id: string): Promise<TransferExport>;
  /** One step of a running export; a complete or failed one is answered as it is. */
  advance(id: string): Promise<TransferExport>;
  /** The tar archive of a complete export: manifest.json, then every file in manifest order. */
  archive(id: string): Promise<PackageDownload>;
}

export interface TransferImportList {
  items: TransferImport[];
  nextCursor: string | null;
}

/** What an administrator decides on a plan (each left out keeps its current value). */
export interface ImportDecisions {
  /** Package user ID → user ID of this site to attribute their records to, or null: create the user. */
  principals?: Record<string, string | null>;
  title?: 'package' | 'target';
  tagline?: 'package' | 'target';
}

/**
 * Site transfer imports (docs/transfer.md): created, given manifest.json and
 * then every file it lists, analysed into a plan, executed with the plan's
 * digests and advanced a bounded step at a time.
 */
export interface TransferImportOps {
  create(): Promise<TransferImport>;
  list(params: { cursor?: string; limit?: number }): Promise<TransferImportList>;
  get(id: string): Promise<TransferImport>;
  /** Files the manifest lists that are not uploaded yet (manifest.json until it is), in package order. */
  missing(id: string, params: { cursor?: string; limit?: number }): Promise<TransferImportMissing>;
  /** Upload one package file: its bytes as they are read (never held whole) and the size the archive gives. */
  upload(id: string, path: string, body: Readable, size: number): Promise<TransferImport>;
  /** One analysis step; on a planned import a new plan (for new decisions, or against the site as it is now). */
  analyze(id: string, decisions?: ImportDecisions): Promise<TransferImport>;
  plan(id: string): Promise<TransferImportPlan>;
  execute(id: string, digests: { packageDigest: string; planDigest: string }): Promise<TransferImport>;
  /** One step of an executing import; a finished one is answered as it is. */
  advance(id: string): Promise<TransferImport>;
  cancel(id: string): Promise<TransferImport>;
  /** Undo what a failed or cancelled import wrote and lift its hold on the site. */
  abandon(id: string): Promise<TransferImport>;
  receipt(id: string): Promise<TransferImportReceipt>;
}

/** Site transfer: exports and imports. */
export interface TransferOps {
  capabilities(): Promise<TransferCapabilities>;
  exports: TransferExportOps;
  imports: TransferImportOps;
}

/** The consistency checker: check reads only; repair fixes what can be derived (a write). */
export interface SiteOps {
  check(checks?: CheckId[]): Promise<CheckReport>;
  repair(checks?: CheckId[]): Promise<CheckReport>;
}

export interface Target {
  readonly kind: 'local' | 'remote';
  /** Which site or database, and as whom: printed on stderr before a command runs. */
  readonly label: string;
  readonly content: ContentOps;
  readonly schema: SchemaOps;
  readonly users: UserOps;
  readonly tokens: TokenOps;
  readonly structure: StructureOps;
  readonly transfer: TransferOps;
  readonly site: SiteOps;
  close(): Promise<void>;
}
