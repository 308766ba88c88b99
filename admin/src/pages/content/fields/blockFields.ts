import type { BlockType, FieldLike } from '../../../api/content';

/** Fields of a block's own version (blocks keep the version they were written with). */
export function blockFields(types: BlockType[], type: string, version: number | undefined): FieldLike[] | undefined {
  const t = types.find((b) => b.slug === type);
  if (!t) return undefined;
  const v = t.versions.find((x) => x.version === (version ?? t.activeVersion));
  return (v?.fields ?? t.fields) as FieldLike[];
}
