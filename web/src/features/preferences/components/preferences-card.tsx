// Settings' first section: the preferences, edited together and saved with one button. Only
// what changed is sent; a page size that is not a whole number from 10 to 100 is ignored, and so
// is a default view limit that is not one. A refusal shows under the field the server names.
import type { Preferences, Theme, UpdatePreferencesRequest } from '@upshot/contract';
import { MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '@upshot/contract/constants';
import { Monitor, Moon, SlidersHorizontal, Sun } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { getApiErrorMessage } from '../../../lib/api-client.ts';
import { FormField } from '../../../components/form-field.tsx';
import { LoadError, useLoadFailureToast } from '../../../components/load-error.tsx';
import { PRIVACY_OPTIONS, type Privacy } from '../../../components/privacy-options.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ViewLimitInput } from '../../../components/view-limit-input.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import {
  expiryChoices,
  expiryLabel,
  parseViewLimit,
  VIEW_LIMIT_ERROR,
} from '../../../lib/link-options.ts';
import { usePreferencesQuery, useUpdatePreferencesMutation } from '../api.ts';
import { parseUploadsPerPage, placeRefusal } from '../rules.ts';
import {
  linkChanges,
  LinksEmbedsFields,
  type FieldErrors,
  type LinkDraft,
} from './links-embeds-fields.tsx';

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
type Draft = LinkDraft & {
  defaultUploadPrivacy?: boolean;
  emailNotifications?: boolean;
  theme?: Theme;
  uploadsPerPage?: string;
  defaultExpiry?: string;
  /** As typed: empty for no limit. */
  defaultMaxViews?: string;
  stripMetadata?: boolean;
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
  if (draft.defaultExpiry !== undefined && draft.defaultExpiry !== saved.defaultExpiry) {
    changes.defaultExpiry = draft.defaultExpiry;
  }
  const maxViews =
    draft.defaultMaxViews === undefined ? undefined : parseViewLimit(draft.defaultMaxViews);
  if (maxViews !== undefined && maxViews !== saved.defaultMaxViews) {
    changes.defaultMaxViews = maxViews;
  }
  if (draft.stripMetadata !== undefined && draft.stripMetadata !== saved.stripMetadata) {
    changes.stripMetadata = draft.stripMetadata;
  }
  return { ...changes, ...linkChanges(saved, draft) };
}

/** The fields a refusal is shown under (the others cannot be sent wrong from this form). */
const REFUSABLE = ['linkStyle', 'embedTitle', 'embedSiteName', 'embedColor'] as const;

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

/** Each preference is a row of the list, parted by a rule. */
const ROW = 'border-b pb-4 last:border-b-0 last:pb-0';

function PreferencesForm({ saved, username }: { saved: Preferences; username: string }) {
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdatePreferencesMutation();

  const privacy: Privacy =
    (draft.defaultUploadPrivacy ?? saved.defaultUploadPrivacy) ? 'public' : 'private';
  const perPageText = draft.uploadsPerPage ?? String(saved.uploadsPerPage);
  const perPageValid = parseUploadsPerPage(perPageText) !== null;
  const maxViewsText = draft.defaultMaxViews ?? String(saved.defaultMaxViews ?? '');
  const maxViewsValid = parseViewLimit(maxViewsText) !== undefined;
  const changes = changesOf(saved, draft);
  const dirty = Object.keys(changes).length > 0;

  const save = () => {
    const sent = draft;
    update.mutate(changes, {
      onSuccess: () => {
        setDraft((current) => afterSave(current, sent));
        setErrors({});
        toast.success('Preferences updated');
      },
      onError: (error) => {
        const reason = getApiErrorMessage(error);
        const placed = reason === undefined ? null : placeRefusal(reason, REFUSABLE);
        if (placed) setErrors({ [placed.field]: placed.message });
        toast.error('Failed to update preferences', { description: placed ? undefined : reason });
      },
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
      <FormField
        layout="row"
        className={ROW}
        label="Default upload privacy"
        hint="Whether a new upload is public or private when you do not say"
      >
        <SegmentedControl
          value={privacy}
          options={PRIVACY_OPTIONS}
          onValueChange={(value) =>
            setDraft((d) => ({ ...d, defaultUploadPrivacy: value === 'public' }))
          }
        />
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Email notifications"
        hint="Emails about access requests and your account"
      >
        <Switch
          checked={draft.emailNotifications ?? saved.emailNotifications}
          onCheckedChange={(checked) => setDraft((d) => ({ ...d, emailNotifications: checked }))}
        />
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Theme"
        hint="System and Dark use the dark theme"
      >
        <SegmentedControl
          value={draft.theme ?? saved.theme}
          options={THEME_OPTIONS}
          onValueChange={(theme) => setDraft((d) => ({ ...d, theme }))}
        />
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Uploads per page"
        hint={`A whole number from ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE}`}
        error={perPageValid ? null : 'This value will not be saved'}
      >
        <Input
          type="number"
          inputMode="numeric"
          min={MIN_PAGE_SIZE}
          max={MAX_PAGE_SIZE}
          step={1}
          className="w-24"
          value={perPageText}
          onChange={(event) => {
            const text = event.target.value;
            setDraft((d) => ({ ...d, uploadsPerPage: text }));
          }}
        />
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Default link expiry"
        hint="How long a new upload's link works when you do not say"
      >
        <NativeSelect
          className="w-40"
          value={draft.defaultExpiry ?? saved.defaultExpiry}
          onChange={(event) => {
            const value = event.target.value;
            setDraft((d) => ({ ...d, defaultExpiry: value }));
          }}
        >
          {expiryChoices(saved.defaultExpiry).map((value) => (
            <option key={value} value={value}>
              {expiryLabel(value)}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Default view limit"
        hint="How many views a new upload's link allows; empty for no limit"
        error={maxViewsValid ? null : `${VIEW_LIMIT_ERROR}: this value will not be saved`}
      >
        <ViewLimitInput
          className="w-40"
          value={maxViewsText}
          onChange={(event) => {
            const text = event.target.value;
            setDraft((d) => ({ ...d, defaultMaxViews: text }));
          }}
        />
      </FormField>
      <FormField
        layout="row"
        className={ROW}
        label="Strip photo metadata"
        hint="Remove the location, camera and serial number (EXIF, XMP, IPTC) from new pictures; their orientation and colour profile stay"
      >
        <Switch
          checked={draft.stripMetadata ?? saved.stripMetadata}
          onCheckedChange={(checked) => setDraft((d) => ({ ...d, stripMetadata: checked }))}
        />
      </FormField>
      <LinksEmbedsFields
        saved={saved}
        draft={draft}
        errors={errors}
        username={username}
        rowClassName={ROW}
        onChange={(field, value) => {
          setDraft((d) => ({ ...d, [field]: value }));
          setErrors((e) => ({ ...e, [field]: undefined }));
        }}
      />
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
      {/* A bar per preference, so the form does not jump when it comes. */}
      {Array.from({ length: 11 }, (_, key) => (
        <Skeleton key={key} className="h-10" />
      ))}
    </div>
  );
}

export function PreferencesCard({ username }: { username: string }) {
  const query = usePreferencesQuery();
  useLoadFailureToast(query, 'Failed to load settings');

  let content;
  if (query.data) content = <PreferencesForm saved={query.data.preferences} username={username} />;
  else if (query.isPending) content = <PreferencesLoading />;
  else
    content = (
      <LoadError onRetry={() => void query.refetch()}>This section could not be loaded.</LoadError>
    );

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
