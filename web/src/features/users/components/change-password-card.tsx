// Settings' Change Password section, with the brief's checks and texts.
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { checkPasswordChange, PasswordField, useChangePasswordMutation } from '../../auth/index.ts';

const EMPTY = { current: '', password: '', confirm: '' };

export function ChangePasswordCard({ userId, email }: { userId: string; email: string }) {
  const [form, setForm] = useState(EMPTY);
  // Checks show after the first attempt to send, then follow the typing.
  const [attempted, setAttempted] = useState(false);
  const change = useChangePasswordMutation(userId);
  const errors = attempted ? checkPasswordChange(form) : {};
  const field = (name: keyof typeof EMPTY) => ({
    value: form[name],
    error: errors[name],
    disabled: change.isPending,
    onChange: (value: string) => setForm((current) => ({ ...current, [name]: value })),
  });

  const submit = () => {
    setAttempted(true);
    if (Object.keys(checkPasswordChange(form)).length > 0) return;
    change.mutate(
      { currentPassword: form.current, newPassword: form.password },
      {
        onSuccess: () => {
          setForm(EMPTY);
          setAttempted(false);
          toast.success('Password changed successfully');
        },
        onError: (error) => toast.error(getApiErrorMessage(error) ?? 'Failed to change password'),
      },
    );
  };

  return (
    <SectionCard
      id="password"
      title="Change Password"
      description="Other devices signed in to your account are signed out; this one stays."
      icon={<KeyRound aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!change.isPending) submit();
        }}
      >
        {/* For password managers: the account the new password belongs to (one signs in by email). */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          {...field('current')}
        />
        <PasswordField label="New password" autoComplete="new-password" {...field('password')} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          {...field('confirm')}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
