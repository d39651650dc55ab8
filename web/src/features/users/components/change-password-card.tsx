import { KeyRound } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { useChangePasswordMutation } from '../api.ts';
import { validatePasswordChange, type PasswordErrors, type PasswordForm } from '../rules.ts';

const EMPTY: PasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

const FIELDS = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm new password', autoComplete: 'new-password' },
] as const;

export function ChangePasswordCard({ userId, username }: { userId: string; username: string }) {
  const baseId = useId();
  const [form, setForm] = useState<PasswordForm>(EMPTY);
  // Checks show after the first attempt to send, then follow the typing.
  const [attempted, setAttempted] = useState(false);
  const change = useChangePasswordMutation();
  const errors: PasswordErrors = attempted ? validatePasswordChange(form) : {};

  const submit = () => {
    setAttempted(true);
    if (Object.keys(validatePasswordChange(form)).length > 0) return;
    change.mutate(
      { id: userId, currentPassword: form.currentPassword, newPassword: form.newPassword },
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
        {/* For password managers: which account the new password belongs to. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={username}
          readOnly
          hidden
        />
        {FIELDS.map(({ name, label, autoComplete }) => {
          const id = `${baseId}-${name}`;
          const error = errors[name];
          return (
            <div key={name} className="flex flex-col gap-2">
              <Label htmlFor={id}>{label}</Label>
              <Input
                id={id}
                type="password"
                autoComplete={autoComplete}
                value={form[name]}
                disabled={change.isPending}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(event) => {
                  const value = event.target.value;
                  setForm((current) => ({ ...current, [name]: value }));
                }}
              />
              {error && (
                <p id={`${id}-error`} className="text-sm text-destructive">
                  {error}
                </p>
              )}
            </div>
          );
        })}
        <div className="flex justify-end">
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? 'Changing...' : 'Change Password'}
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
