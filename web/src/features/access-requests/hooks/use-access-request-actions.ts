// The Access Requests tab's decisions, each with the toasts of the brief's section 8.
import type { AccessRequest } from '@upshot/contract';
import { toast } from 'sonner';
import { failureToast } from '../../../lib/failure-toast.ts';
import {
  useDecideAccessRequestMutation,
  useDeleteAccessRequestMutation,
  useRequestIdsInFlight,
} from '../api.ts';

/** An approval whose email did not go out: what the administrator must hand on themself. */
export type Handover = { email: string; username: string; inviteUrl: string };

export function useAccessRequestActions() {
  const decide = useDecideAccessRequestMutation();
  const remove = useDeleteAccessRequestMutation();
  const inFlight = useRequestIdsInFlight();

  return {
    /** Whether the request is being decided or deleted, to hold its buttons. */
    isBusy: (request: AccessRequest) => inFlight.has(request.id),

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
        failureToast('Failed to approve request', error);
        return null;
      }
    },

    async reject(request: AccessRequest): Promise<void> {
      try {
        await decide.mutateAsync({ id: request.id, status: 'rejected' });
        toast.success('Request rejected');
      } catch (error) {
        failureToast('Failed to reject request', error);
      }
    },

    async remove(request: AccessRequest): Promise<void> {
      try {
        await remove.mutateAsync(request.id);
        toast.success('Request deleted');
      } catch (error) {
        failureToast('Failed to delete request', error);
      }
    },
  };
}
