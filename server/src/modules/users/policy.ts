/**
 * Who may do what with user accounts. The route table admits only administrators to the
 * admin endpoints; the services ask here again, so no other way in skips the rule.
 */
import type { Viewer } from '../../lib/caller.ts';

/** Reading a user's API token, replacing it, downloading their uploaders: themself or an admin. */
export function canManageAccount(viewer: Viewer, userId: string): boolean {
  return viewer.id === userId || viewer.role === 'admin';
}

/**
 * Listing, creating, changing, resetting and deleting users, and sending them their
 * credentials: administrators only.
 */
export function canAdministerUsers(viewer: Viewer): boolean {
  return viewer.role === 'admin';
}
