// Settings' first section: the four preferences, edited together and saved with one button.
// Only what changed is sent; a page size that is not a whole number from 10 to 100 is ignored.
import type { Preferences, Theme, UpdatePreferencesRequest } from '@upshot/contract';
import { MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '@upshot/contract/constants';
import { Globe, Lock, Monitor, Moon, SlidersHorizontal, Sun } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { SectionCard, SectionLoadError } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useLoadFailureToast } from '../../../lib/use-load-failure-toast.ts';
import { usePreferencesQuery, useUpdatePreferencesMutation } from '../api.ts';
import { parseUploadsPerPage } from '../rules.ts';

type Privacy = 'public' | 'private';

const PRIVACY_OPTIONS = [
  {
    value: 'public',
    label: (
      <>
        <Globe aria-hidden="true" />
        Public
      </>
    ),
  },
  {
    value: 'private',
    label: (
      <>
        <Lock aria-hidden="true" />
        Private
      </>
    ),
  },
] as const;

const THEME_OPTIONS = [
  {
    value: 'system',
    label: (
      <>
        <Monitor aria-hidden="true" />
        System
      </>
    ),
  },
  {
    value: 'light',
    label: (
      <>
        <Sun aria-hidden="true" />
        Light
      </>
    ),
  },
  {
    value: 'dark',
    label: (
      <>
        <Moon aria-hidden="true" />
        Dark
      </>
    ),
  },
] as const;

/** The fields the user has touched; the rest show what is saved. */
type Draft = {
  defaultUploadPrivacy?: boolean;
  emailNotifications?: boolean;
  theme?: Theme;
  uploadsPerPage?: string;
};

/** What the draft would change, leaving out an unacceptable page size. */
function changesOf(saved: Preferences, draft: Draft): UpdatePreferencesRequest {
  const changes: UpdatePreferencesRequest = {};
  if (
    draft.defaultUploadPrivacy !== undefined &&
    draft.defaultUploadPrivacy !== saved.defaultUploadPrivacy
  ) {
    changes.defaultUploadPrivacy = draft.defaultUploadPrivacy;
  }
  if (
    draft.emailNotifications !== undefined &&
    draft.emailNotifications !== saved.emailNotifications
  ) {
    changes.emailNotifications = draft.emailNotifications;
  }
  if (draft.theme !== undefined && draft.theme !== saved.theme) changes.theme = draft.theme;
  const perPage =
    draft.uploadsPerPage === undefined ? null : parseUploadsPerPage(draft.uploadsPerPage);
  if (perPage !== null && perPage !== saved.uploadsPerPage) changes.uploadsPerPage = perPage;
  return changes;
}

/**
 * The draft once the save of `sent` (the draft as it was then) has succeeded: what it held is
 * saved or was not to be sent, and goes; a field edited while the save was on its way stays, to
 * be saved next.
 */
function afterSave(draft: Draft, sent: Draft): Draft {
  const next: Draft = {};
  for (const key of Object.keys(draft) as (keyof Draft)[]) {
    if (draft[key] !== sent[key]) Object.assign(next, { [key]: draft[key] });
  }
  return next;
}

function Row({
  label,
  description,
  htmlFor,
  labelId,
  children,
}: {
  label: string;
  description: ReactNode;
  htmlFor?: string;
  labelId?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 border-b pb-4 last:border-b-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
      <div className="flex min-w-0 flex-col gap-1">
        <Label id={labelId} htmlFor={htmlFor}>
          {label}
        </Label>
        <div className="text-sm text-muted-foreground">{description}</div>
      </div>
      <div className="shrink-0">{children}</div>
    </div>
  );
}

function PreferencesForm({ saved }: { saved: Preferences }) {
  const ids = {
    privacy: useId(),
    notifications: useId(),
    theme: useId(),
    perPage: useId(),
    perPageHint: useId(),
  };
  const [draft, setDraft] = useState<Draft>({});
  const update = useUpdatePreferencesMutation();

  const privacy: Privacy =
    (draft.defaultUploadPrivacy ?? saved.defaultUploadPrivacy) ? 'public' : 'private';
  const perPageText = draft.uploadsPerPage ?? String(saved.uploadsPerPage);
  const perPageValid = parseUploadsPerPage(perPageText) !== null;
  const changes = changesOf(saved, draft);
  const dirty = Object.keys(changes).length > 0;

  const save = () => {
    const sent = draft;
    update.mutate(changes, {
      onSuccess: () => {
        setDraft((current) => afterSave(current, sent));
        toast.success('Preferences updated');
      },
      onError: () => toast.error('Failed to update preferences'),
    });
  };

  return (
    <form
      // The page size is checked here, not by the browser: a value out of range is ignored
      // (not sent), and must not block saving the other preferences.
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (dirty && !update.isPending) save();
      }}
    >
      <Row
        label="Default upload privacy"
        labelId={ids.privacy}
        description="Whether a new upload is public or private when you do not say"
      >
        <SegmentedControl
          aria-labelledby={ids.privacy}
          value={privacy}
          options={PRIVACY_OPTIONS}
          onValueChange={(value) =>
            setDraft((d) => ({ ...d, defaultUploadPrivacy: value === 'public' }))
          }
        />
      </Row>
      <Row
        label="Email notifications"
        htmlFor={ids.notifications}
        description="Emails about access requests and your account"
      >
        <Switch
          id={ids.notifications}
          checked={draft.emailNotifications ?? saved.emailNotifications}
          onCheckedChange={(checked) => setDraft((d) => ({ ...d, emailNotifications: checked }))}
        />
      </Row>
      <Row label="Theme" labelId={ids.theme} description="System and Dark use the dark theme">
        <SegmentedControl
          aria-labelledby={ids.theme}
          value={draft.theme ?? saved.theme}
          options={THEME_OPTIONS}
          onValueChange={(theme) => setDraft((d) => ({ ...d, theme }))}
        />
      </Row>
      <Row
        label="Uploads per page"
        htmlFor={ids.perPage}
        description={
          <span id={ids.perPageHint} className={perPageValid ? undefined : 'text-destructive'}>
            A whole number from {MIN_PAGE_SIZE} to {MAX_PAGE_SIZE}
            {perPageValid ? '' : '; this value will not be saved'}
          </span>
        }
      >
        <Input
          id={ids.perPage}
          type="number"
          inputMode="numeric"
          min={MIN_PAGE_SIZE}
          max={MAX_PAGE_SIZE}
          step={1}
          className="w-24"
          aria-describedby={ids.perPageHint}
          aria-invalid={!perPageValid || undefined}
          value={perPageText}
          onChange={(event) => {
            const text = event.target.value;
            setDraft((d) => ({ ...d, uploadsPerPage: text }));
          }}
        />
      </Row>
      <div className="flex justify-end">
        <Button type="submit" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Preferences'}
        </Button>
      </div>
    </form>
  );
}

function PreferencesLoading() {
  return (
    <div role="status" className="flex flex-col gap-4">
      <span className="sr-only">Loading...</span>
      {[0, 1, 2, 3].map((key) => (
        <Skeleton key={key} className="h-10" />
      ))}
    </div>
  );
}

export function PreferencesCard() {
  const query = usePreferencesQuery();
  useLoadFailureToast(query, 'Failed to load settings');

  let content;
  if (query.data) content = <PreferencesForm saved={query.data.preferences} />;
  else if (query.isPending) content = <PreferencesLoading />;
  else content = <SectionLoadError onRetry={() => void query.refetch()} />;

  return (
    <SectionCard
      id="preferences"
      title="Preferences"
      description="How Upshot behaves and looks for you"
      icon={<SlidersHorizontal aria-hidden="true" className="size-4 text-muted-foreground" />}
    >
      {content}
    </SectionCard>
  );
}
