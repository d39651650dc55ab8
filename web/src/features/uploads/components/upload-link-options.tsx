// The upload dialog's choices for the batch's links: privacy always in sight, expiry, view limit
// and password folded under "Link options" with a one-line summary of them.
import { LINK_PASSWORD_MAX, NEVER_EXPIRES } from '@upshot/contract/constants';
import { ChevronDown } from 'lucide-react';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ViewLimitInput } from '../../../components/view-limit-input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import {
  expiryChoices,
  expiryLabel,
  parseViewLimit,
  VIEW_LIMIT_HINT,
} from '../../../lib/link-options.ts';
import { cn } from '../../../lib/utils.ts';
import type { UploadLinkState } from '../hooks/use-upload-link-choices.ts';
import { PrivacyField } from '../../../components/privacy-options.tsx';

function summaryOf({ shown, errors }: UploadLinkState): string {
  const limit = parseViewLimit(shown.maxViews);
  return [
    shown.expires === NEVER_EXPIRES
      ? 'Never expires'
      : `Expires after ${expiryLabel(shown.expires)}`,
    limit === undefined
      ? 'View limit not valid'
      : limit === null
        ? 'No view limit'
        : `${limit} ${limit === 1 ? 'view' : 'views'}`,
    shown.password === '' ? 'No password' : errors.password ? 'Password not valid' : 'Password',
  ].join(' · ');
}

export function UploadLinkOptions({
  link,
  disabled,
}: {
  link: UploadLinkState;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  const { shown, change } = link;
  const choices = expiryChoices(shown.defaultExpiry);
  if (!choices.includes(shown.expires)) choices.push(shown.expires);

  return (
    <div className="grid gap-3 rounded-lg border bg-card/40 p-3">
      <PrivacyField
        isPublic={shown.isPublic}
        onChange={(isPublic) => change({ isPublic })}
        disabled={disabled}
      />

      <Collapsible.Root open={open} onOpenChange={setOpen} className="border-t pt-3">
        <Collapsible.Trigger className="flex w-full items-center justify-between gap-3 rounded-md text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          <span className="grid min-w-0 gap-0.5">
            <span className="text-sm font-medium">Link options</span>
            <span className="text-xs text-muted-foreground">{summaryOf(link)}</span>
          </span>
          <ChevronDown
            aria-hidden="true"
            className={cn(
              'size-4 shrink-0 text-muted-foreground transition-transform',
              open && 'rotate-180',
            )}
          />
        </Collapsible.Trigger>
        <Collapsible.Content className="grid gap-3 pt-3 sm:grid-cols-2">
          <FormField label="Expires" hint="Counted from each file's upload">
            <NativeSelect
              value={shown.expires}
              onChange={(event) => change({ expires: event.target.value })}
              disabled={disabled}
            >
              {choices.map((value) => (
                <option key={value} value={value}>
                  {expiryLabel(value)}
                  {value === shown.defaultExpiry ? ' (default)' : ''}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="View limit" hint={VIEW_LIMIT_HINT} error={link.errors.maxViews}>
            <ViewLimitInput
              value={shown.maxViews}
              onChange={(event) => change({ maxViews: event.target.value })}
              disabled={disabled}
            />
          </FormField>
          <FormField
            label="Password"
            hint="Optional: visitors must type it to open a link"
            error={link.errors.password}
            className="sm:col-span-2"
          >
            <Input
              type="password"
              autoComplete="new-password"
              maxLength={LINK_PASSWORD_MAX}
              placeholder="No password"
              value={shown.password}
              onChange={(event) => change({ password: event.target.value })}
              disabled={disabled}
            />
          </FormField>
        </Collapsible.Content>
      </Collapsible.Root>
    </div>
  );
}
