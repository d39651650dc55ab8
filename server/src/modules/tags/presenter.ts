import type { TagSummary } from '@upshot/contract';
import type { TagWithCount } from './repository.ts';

export function toTagResponse(row: TagWithCount): TagSummary {
  return { id: row.id, name: row.name, uploadCount: row.upload_count };
}
