/**
 * Part of the uploads service: changes to an upload's link after the fact (its custom URL,
 * privacy, expiry, view limit and password), batches of privacy changes, and the sweep of dead
 * links. An administrator's change to another's upload is audited.
 */
import { VANITY_RESERVED_DAYS } from '@upshot/contract';
import type { UploadRow } from '../../db/schema.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Actor, Viewer } from '../../lib/caller.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditService } from '../audit/index.ts';
import type { DeadLinkTimes } from './link-queries.ts';
import { auditedChange, changedColumns, checkViewLimit, type LinkChange } from './link-settings.ts';
import { ownerManagedBy } from './policy.ts';
import type { UploadsRepository } from './repository.ts';
import { validateVanity } from './vanity.ts';

export function createLinkChanges(deps: {
  uploads: UploadsRepository;
  clock: Clock;
  audit: Pick<AuditService, 'onOtherUsersUploads'>;
  /** The upload, when the viewer may change it (else a 404). */
  get: (viewer: Viewer, id: string) => Promise<UploadRow>;
  /** Deletes rows, then bytes (only dead links with `onlyDead`); answers the rows deleted. */
  remove: (ids: string[], ownerId: string | null, onlyDead?: DeadLinkTimes) => Promise<UploadRow[]>;
  /** How long a used-up link's last viewer may go on reading it: its upload stays until then. */
  viewGraceMs: number;
}) {
  const { uploads, clock, audit } = deps;

  /** Sets or removes the custom URL (checked already). */
  async function setVanity(actor: Actor, before: UploadRow, value: string | null) {
    const now = clock.now();
    const freeBefore = new Date(now.getTime() - VANITY_RESERVED_DAYS * 24 * 60 * 60 * 1000);
    const result = await uploads.setVanity(before.id, value, {
      now: now.toISOString(),
      freeBefore: freeBefore.toISOString(),
    });
    if (result === 'gone') throw new NotFoundError('Upload not found');
    if (result === 'taken') throw new ConflictError(`"${value}" is already taken`);
    if (result.vanity_url !== before.vanity_url) {
      await audit.onOtherUsersUploads(actor, 'upload.vanity_changed', [result], {
        vanityUrl: { from: before.vanity_url, to: result.vanity_url },
      });
    }
    return result;
  }

  return {
    /**
     * Changes any of the custom URL, privacy, expiry, view limit and password. Every value is
     * checked before anything is written, so a refused change changes nothing.
     */
    async update(
      actor: Actor,
      id: string,
      change: LinkChange & { vanityUrl?: string | null },
    ): Promise<UploadRow> {
      const before = await deps.get(actor, id);
      const vanity = change.vanityUrl === undefined ? undefined : validateVanity(change.vanityUrl);
      checkViewLimit(before, change.maxViews);
      const columns = await changedColumns(change, clock.now());
      let row = vanity === undefined ? before : await setVanity(actor, before, vanity);
      if (columns) {
        const updated = await uploads.updateLink(id, columns);
        if (!updated) throw new NotFoundError('Upload not found');
        row = updated;
        await audit.onOtherUsersUploads(actor, 'upload.link_changed', [row], auditedChange(change));
      }
      return row;
    },

    /** Makes uploads public or private; answers how many the actor could change. */
    async setPrivacy(actor: Actor, ids: string[], isPublic: boolean): Promise<number> {
      const rows = await uploads.setPrivacy([...new Set(ids)], ownerManagedBy(actor), isPublic);
      await audit.onOtherUsersUploads(actor, 'upload.link_changed', rows, { isPublic });
      return rows.length;
    },

    /**
     * Deletes the uploads whose links have expired, and those used up once their last viewer's
     * download is over (a periodic job): rows first, quota given back, then bytes. Each is
     * checked again as it is deleted: one given a new life meanwhile stays.
     */
    async sweepDeadLinks(): Promise<number> {
      const now = clock.now();
      const times = {
        now: now.toISOString(),
        lastViewBefore: new Date(now.getTime() - deps.viewGraceMs).toISOString(),
      };
      return (await deps.remove(await uploads.deadLinkIds(times), null, times)).length;
    },
  };
}
