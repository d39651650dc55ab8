import { FormField } from '../../../components/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';

type PasswordFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
};

/** A password input in a form field: the sign-up, first-password and Change Password forms. */
export function PasswordField({ label, value, onChange, error, ...input }: PasswordFieldProps) {
  return (
    <FormField label={label} error={error}>
      <Input
        type="password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...input}
      />
    </FormField>
  );
}
