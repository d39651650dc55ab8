// The Users tab's changes, each with the toasts of the brief's section 8. Where the brief gives a
// failure text, it stays the toast's title and the server's reason (the last administrator, say)
// goes under it.
import type { AdminUser, CreateUserRequest, CreateUserResponse, Role } from '@upshot/contract';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { failureToast } from '../../../lib/failure-toast.ts';
import { copyText } from '../../../lib/use-copy.ts';
import { useAuth, useRefreshSession } from '../../auth/index.ts';
import { useSaveUploader, type UploaderKind } from '../../users/index.ts';
import {
  useCreateUserMutation,
  useDeleteUserMutation,
  useInvalidateAdmin,
  useResetPasswordMutation,
  useSendInviteMutation,
  useUpdateUserMutation,
} from '../api.ts';

/** What to show once a user is made: the credentials alert, unless the invitation went out. */
export type Created = CreateUserResponse & { sendInvite: boolean };

export function useUserActions() {
  const { user: me } = useAuth();
  const refreshSession = useRefreshSession();
  const create = useCreateUserMutation();
  const update = useUpdateUserMutation();
  const remove = useDeleteUserMutation();
  const reset = useResetPasswordMutation();
  const invite = useSendInviteMutation();
  // An administrator's download of another user's file is in the audit log.
  const invalidate = useInvalidateAdmin();
  const uploader = useSaveUploader(invalidate);

  return {
    isCreating: create.isPending,
    isSendingInvite: invite.isPending,

    /** Resolves to the answer (the dialog closes), or to the error text (it stays open). */
    async createUser(input: Required<CreateUserRequest>): Promise<Created | string> {
      try {
        const created = await create.mutateAsync(input);
        if (input.sendInvite && created.emailSent) {
          toast.success(`User created and invite email sent to ${created.user.email}`);
        } else if (input.sendInvite) {
          toast.warning('User created, but the invite email could not be sent', {
            description: 'Send the details below by hand.',
          });
        } else {
          toast.success('User created successfully');
        }
        return { ...created, sendInvite: input.sendInvite };
      } catch (error) {
        const message = getApiErrorMessage(error) ?? 'Failed to create user';
        toast.error(message);
        return message;
      }
    },

    /** Emails a new user their credentials (and invitation link): the alert's second chance. */
    async sendInvite(created: CreateUserResponse): Promise<boolean> {
      try {
        await invite.mutateAsync({
          to: created.user.email,
          username: created.user.username,
          tempPassword: created.tempPassword,
          ...(created.inviteCode ? { inviteCode: created.inviteCode } : {}),
        });
        toast.success(`Invite email sent to ${created.user.email}`);
        return true;
      } catch (error) {
        failureToast('Failed to send invite email', error);
        return false;
      }
    },

    /**
     * Resets the password and copies the temporary one. Resolves to it when the clipboard
     * refused it (to be shown instead), else null.
     */
    async resetPassword(user: AdminUser): Promise<string | null> {
      let tempPassword: string;
      try {
        ({ tempPassword } = await reset.mutateAsync(user.id));
      } catch (error) {
        failureToast('Failed to reset password', error);
        return null;
      }
      const copied = await copyText(tempPassword, {
        success: 'Password reset and copied to clipboard',
      });
      return copied ? null : tempPassword;
    },

    downloadUploader: (user: AdminUser, kind: UploaderKind) => uploader.save(user, kind),

    async setActive(user: AdminUser, isActive: boolean): Promise<void> {
      try {
        await update.mutateAsync({ id: user.id, changes: { isActive } });
        toast.success(`${user.username} ${isActive ? 'activated' : 'deactivated'}`);
      } catch (error) {
        failureToast(isActive ? 'Failed to activate user' : 'Failed to deactivate user', error);
      }
    },

    async setRole(user: AdminUser, role: Role): Promise<void> {
      try {
        await update.mutateAsync({ id: user.id, changes: { role } });
        toast.success(`${user.username} is now ${role === 'admin' ? 'an admin' : 'a user'}`);
        // Demoting oneself closes the Admin screen: the session learns the new role.
        if (user.id === me?.id) void refreshSession();
      } catch (error) {
        failureToast('Failed to change role', error);
      }
    },

    async deleteUser(user: AdminUser): Promise<void> {
      try {
        await remove.mutateAsync(user.id);
        toast.success('User deleted successfully');
      } catch (error) {
        failureToast('Failed to delete user', error);
      }
    },
  };
}
