import type { TagSummary } from '@upshot/contract';
import type { TagRow } from '../../db/schema.ts';

export function toTagResponse(row: TagRow): TagSummary {
  return { id: row.id, name: row.name, uploadCount: Number(row.upload_count) };
}
