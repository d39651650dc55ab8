// The Access Requests tab's decisions, each with the toasts of the brief's section 8.
import type { AccessRequest } from '@upshot/contract';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { useDecideAccessRequestMutation, useDeleteAccessRequestMutation } from '../api.ts';

/** An approval whose email did not go out: what the administrator must hand on themself. */
export type Handover = { email: string; username: string; inviteUrl: string };

/** The brief's failure text, with the server's reason under it when it gave one. */
function failed(title: string, error: unknown) {
  const reason = getApiErrorMessage(error);
  toast.error(title, reason ? { description: reason } : undefined);
}

export function useAccessRequestActions() {
  const decide = useDecideAccessRequestMutation();
  const remove = useDeleteAccessRequestMutation();

  return {
    /** The id of the request being decided or deleted, to hold its buttons. */
    busyId: decide.isPending
      ? decide.variables.id
      : remove.isPending
        ? remove.variables
        : undefined,

    /** Resolves to what to hand on when the invitation email did not go out, else null. */
    async approve(request: AccessRequest): Promise<Handover | null> {
      try {
        const result = await decide.mutateAsync({ id: request.id, status: 'approved' });
        if (result.emailSent) {
          toast.success('Request approved - notification email sent');
          return null;
        }
        toast.warning('Request approved, but the notification email was not sent', {
          description: 'Send the invitation link by hand.',
        });
        return result.user && result.inviteUrl
          ? {
              email: result.user.email,
              username: result.user.username,
              inviteUrl: result.inviteUrl,
            }
          : null;
      } catch (error) {
        failed('Failed to approve request', error);
        return null;
      }
    },

    async reject(request: AccessRequest): Promise<void> {
      try {
        await decide.mutateAsync({ id: request.id, status: 'rejected' });
        toast.success('Request rejected');
      } catch (error) {
        failed('Failed to reject request', error);
      }
    },

    async remove(request: AccessRequest): Promise<void> {
      try {
        await remove.mutateAsync(request.id);
        toast.success('Request deleted');
      } catch (error) {
        failed('Failed to delete request', error);
      }
    },
  };
}
