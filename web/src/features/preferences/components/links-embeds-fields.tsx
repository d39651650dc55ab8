// Settings → Preferences, its links and embeds: which link the app and the desktop uploaders
// hand out (Link style), and how the user's links present themselves in chat apps (title
// template, site name, colour). Part of the Preferences form: saved with its button.
import type { LinkStyle, Preferences, UpdatePreferencesRequest } from '@upshot/contract';
import {
  EMBED_PLACEHOLDERS,
  EMBED_SITE_NAME_MAX,
  EMBED_TITLE_MAX,
  fillEmbedTitle,
} from '@upshot/contract/constants';
import { AppWindow, File } from 'lucide-react';
import { useId, type ComponentProps } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { SegmentedControl } from '../../../components/ui/segmented-control.tsx';
import { formatBytes } from '../../../lib/format.ts';

/** The fields of this group the user has touched, as typed. */
export type LinkDraft = {
  linkStyle?: LinkStyle;
  embedTitle?: string;
  embedSiteName?: string;
  embedColor?: string;
};
type LinkField = keyof LinkDraft;

/** What the server said is wrong, under the field it names. */
export type FieldErrors = Partial<Record<keyof Preferences, string>>;

/** What this group's draft would change. Text goes as typed: the server says what it refuses. */
export function linkChanges(saved: Preferences, draft: LinkDraft): UpdatePreferencesRequest {
  const changes: UpdatePreferencesRequest = {};
  for (const field of ['linkStyle', 'embedTitle', 'embedSiteName', 'embedColor'] as const) {
    const value = draft[field];
    if (value !== undefined && value !== saved[field]) Object.assign(changes, { [field]: value });
  }
  return changes;
}

const LINK_STYLE_OPTIONS = [
  {
    value: 'raw',
    label: (
      <>
        <File aria-hidden="true" />
        File
      </>
    ),
  },
  {
    value: 'preview',
    label: (
      <>
        <AppWindow aria-hidden="true" />
        Preview page
      </>
    ),
  },
] as const;

const EXAMPLE = { filename: 'holiday.jpg', bytes: 3 * 1024 * 1024 };
const PLACEHOLDER_LIST = EMBED_PLACEHOLDERS.map((name) => `{${name}}`).join(', ');
// The date as the preview page writes it: in UTC, so the example reads as the embed will.
const UTC_DATE = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A title template as it reads for the example file, uploaded today by `username`. */
export function exampleTitle(template: string, username: string): string {
  const title = fillEmbedTitle(template, {
    filename: EXAMPLE.filename,
    size: formatBytes(EXAMPLE.bytes),
    date: UTC_DATE.format(new Date()),
    username,
  });
  // As the page does: a title that fills in empty says at least the file's name.
  return title.trim() || EXAMPLE.filename;
}

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/**
 * A colour as #rrggbb: the browser's picker beside the text. FormField's wiring (id, label,
 * hint, error) goes to the text box; the picker names itself.
 */
function ColourInput({
  value,
  fallback,
  onValueChange,
  ...wiring
}: Omit<ComponentProps<'input'>, 'value' | 'onChange'> & {
  value: string;
  /** What the picker shows while the text is not a colour. */
  fallback: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        type="color"
        aria-label="Pick the embed colour"
        className="h-9 w-11 shrink-0 cursor-pointer rounded-md border border-input bg-input/30 p-1"
        value={(HEX_COLOUR.test(value) ? value : fallback).toLowerCase()}
        onChange={(event) => onValueChange(event.target.value)}
      />
      <Input
        {...wiring}
        className="w-28 font-mono"
        autoComplete="off"
        spellCheck={false}
        maxLength={7}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
    </div>
  );
}

export function LinksEmbedsFields({
  saved,
  draft,
  errors,
  username,
  onChange,
  rowClassName,
}: {
  saved: Preferences;
  draft: LinkDraft;
  errors: FieldErrors;
  /** The signed-in user's name, for the example title. */
  username: string;
  onChange: (field: LinkField, value: string) => void;
  rowClassName: string;
}) {
  const title = draft.embedTitle ?? saved.embedTitle;
  const aboutId = useId();
  return (
    <fieldset className="flex flex-col gap-4" aria-describedby={aboutId}>
      {/* Floated, the legend is laid out as the first row rather than on the fieldset's edge. */}
      <legend className="float-left w-full font-medium">Links and embeds</legend>
      <p id={aboutId} className="-mt-3 text-sm text-muted-foreground">
        Which link you hand out, and how it shows in chat apps
      </p>
      <FormField
        layout="row"
        className={rowClassName}
        label="Link style"
        hint="The link Copy URL, the clipboard after an upload, ShareX and the scripts hand out (download those again after a change)"
        error={errors.linkStyle}
      >
        <SegmentedControl
          value={draft.linkStyle ?? saved.linkStyle}
          options={LINK_STYLE_OPTIONS}
          onValueChange={(value) => onChange('linkStyle', value)}
        />
      </FormField>
      <FormField
        layout="row"
        className={rowClassName}
        label="Embed title"
        hint={
          <>
            May name {PLACEHOLDER_LIST}. A {formatBytes(EXAMPLE.bytes)} {EXAMPLE.filename} uploaded
            today reads as:{' '}
            <span className="font-medium break-words text-foreground">
              {exampleTitle(title, username)}
            </span>
          </>
        }
        error={errors.embedTitle}
      >
        <Input
          className="w-full sm:w-64"
          autoComplete="off"
          maxLength={EMBED_TITLE_MAX}
          value={title}
          onChange={(event) => onChange('embedTitle', event.target.value)}
        />
      </FormField>
      <FormField
        layout="row"
        className={rowClassName}
        label="Site name"
        hint="Shown above the title in chat apps"
        error={errors.embedSiteName}
      >
        <Input
          className="w-full sm:w-64"
          autoComplete="off"
          maxLength={EMBED_SITE_NAME_MAX}
          value={draft.embedSiteName ?? saved.embedSiteName}
          onChange={(event) => onChange('embedSiteName', event.target.value)}
        />
      </FormField>
      <FormField
        layout="row"
        className={rowClassName}
        label="Embed colour"
        hint="The edge of the embed in chat apps, as #rrggbb"
        error={errors.embedColor}
      >
        <ColourInput
          value={draft.embedColor ?? saved.embedColor}
          fallback={saved.embedColor}
          onValueChange={(value) => onChange('embedColor', value)}
        />
      </FormField>
    </fieldset>
  );
}
