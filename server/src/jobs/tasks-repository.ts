/** Every SQL query on the tasks table. */
import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import type { TaskRow } from '../db/schema.ts';

export type TasksRepository = ReturnType<typeof createTasksRepository>;

/**
 * Adds a task unless the same one (kind, subject) is waiting already. Repositories call it
 * inside the transaction of the change that needs the work, so both commit or neither.
 */
export async function enqueueTask(
  db: Executor,
  kind: string,
  subjectId: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('tasks')
    .values({
      id: crypto.randomUUID(),
      kind,
      subject_id: subjectId,
      run_after: now,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['kind', 'subject_id']).doNothing())
    .execute();
}

export function createTasksRepository(db: Executor) {
  return {
    enqueue: (kind: string, subjectId: string, now: string) =>
      enqueueTask(db, kind, subjectId, now),

    /** Due tasks of the given kinds (those this runner has handlers for). */
    async due(
      now: string,
      maxAttempts: number,
      limit: number,
      kinds: string[],
    ): Promise<TaskRow[]> {
      if (kinds.length === 0) return [];
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('kind', 'in', kinds)
        .where('run_after', '<=', now)
        .where('attempts', '<', maxAttempts)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('run_after')
        .limit(limit)
        .execute();
    },

    /** Takes a task for one attempt; false when another runner holds it. */
    async lease(id: string, now: string, until: string): Promise<boolean> {
      const res = await db
        .updateTable('tasks')
        .set((eb) => ({ locked_until: until, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Holds a running task's lease until `until` (not once its failure has released it). */
    async renew(id: string, until: string): Promise<void> {
      await db
        .updateTable('tasks')
        .set({ locked_until: until })
        .where('id', '=', id)
        .where('locked_until', 'is not', null)
        .execute();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('tasks').where('id', '=', id).execute();
    },

    async fail(id: string, error: string, runAfter: string): Promise<void> {
      await db
        .updateTable('tasks')
        .set({ last_error: error, run_after: runAfter, locked_until: null })
        .where('id', '=', id)
        .execute();
    },

    find(kind: string, subjectId: string): Promise<TaskRow | undefined> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('kind', '=', kind)
        .where('subject_id', '=', subjectId)
        .executeTakeFirst();
    },
  };
}
